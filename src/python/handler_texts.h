// Texts printed by exception handlers (docs/extraction.md, "Texts printed by exception handlers"): which
// calls write text out (the table src/python/data/output_calls.tsv) and which `except` clause a statement
// is in. The extractor (python_extractor.cc) records a HandlerText (extract/file_facts.h) for each output
// call with literal text inside `except X as e:`, or inside a function of the file the handler calls with
// `e`.
//
// Threading: pure functions over a tree-sitter tree; the table is read once, thread-safely.
#pragma once

#include <tree_sitter/api.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace errdex {

// True when a call of NAME on RECEIVER ("" for a plain `name(...)`) writes its argument out for a person
// (`print`, `tw.line`, `click.echo`, `logger.error`, `sys.exit`).
bool IsOutputCall(std::string_view name, std::string_view receiver);

struct ExceptHandler {
  std::vector<std::string> types;  // as written; empty for a bare `except:`
  std::string name;                // "e" of `as e`; "" when none
  TSNode clause{};                 // the except clause
};

// The innermost `except` clause whose body holds NODE, within NODE's own function (a def, lambda or class
// body between them ends the search); nothing when there is none. SOURCE is the tree's text. Walks at most
// 64 ancestors.
std::optional<ExceptHandler> EnclosingExceptHandler(TSNode node, std::string_view source);

}  // namespace errdex
