// The raising helpers one Python file defines (FileFacts::raising_helpers; docs/extraction.md, "Raising
// helpers"): a function whose raise (or warning) has for its whole message one of its parameters, so that
// its callers' text is the message raised (raising_helpers.h links such calls across files), and a
// module-level instance of a class whose `__call__` is such a helper (pytest's `fail: _Fail = _Fail()`).
//
// Pure functions of the model, the tree and the facts they are given; not thread-safe only in that the model
// is not.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>

#include "extract/file_facts.h"
#include "python/python_file_model.h"

namespace errdex {

// Records the function SCOPE (an index into MODEL's scopes) as a raising helper in FACTS when SITE, just read
// in it at byte POS, raises or warns with the text of one of its parameters (and notes the parameter that is
// the class raised, if any).
void NoteRaisingHelper(const PythonFileModel& model, const Site& site, int scope, uint32_t pos, FileFacts* facts);

// A module-level instance of a class whose `__call__` is a raising helper (`fail: _Fail = _Fail()`, pytest's
// fail/skip/exit/xfail) is a helper under the instance's name: `fail("text")` hands it its message. ROOT is the
// module; call after every site was read.
void NoteCallableInstanceHelpers(const PythonFileModel& model, TSNode root, FileFacts* facts);

}  // namespace errdex
