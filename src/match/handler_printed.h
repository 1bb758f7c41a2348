// What `explain` says when a paste is a text an exception handler prints rather than the exception's own
// message (docs/matching.md, "Texts printed by exception handlers"): pytest's `ImportError while loading
// conftest '…'.`, written by print_conftest_import_error for `except ConftestImportFailure as e:` in `_main`.
// The catalog keeps such texts on the class the handler catches (ClassRow::printed); the explainer aligns them
// as it aligns a class's own texts, and answers with the raise sites of that class.
//
// Threading: pure functions.
#pragma once

#include <string>

#include "catalog/catalog.h"

namespace errdex {

// The `why` line of a match by TEXT, printed for class CLASS_NAME: where the handler is and what prints it.
std::string HandlerPrintedWhy(const PrintedText& text, const std::string& class_name);

}  // namespace errdex
