// The parts of a Python definition that several jobs of the extractor read (docs/extraction.md): parameter
// names, body statements and docstrings, and whether a module-level function is a helper that template
// reconstruction inlines (PythonFileModel::helpers).
//
// Pure functions of the parse tree, except NoteHelperFunction, which updates the model it is given. Not
// thread-safe only in that the model is not.
#pragma once

#include <tree_sitter/api.h>

#include <string>
#include <vector>

#include "python/python_file_model.h"

namespace errdex {

// inspect.cleandoc: strip the first line's leading blanks, the common indentation of the others, and
// leading and trailing blank lines.
std::string CleanDoc(const std::string& doc);

// The names of the plain, defaulted and typed parameters of PARAMETERS, in order (`*args`, `**kwargs` left out).
std::vector<std::string> ParameterNames(const PythonFileModel& model, TSNode parameters);

// Every name a parameter list binds, `*args` and `**kwargs` included (they shadow module names).
std::vector<std::string> AllParameterNames(const PythonFileModel& model, TSNode parameters);

// The statements of a block, comments excluded, without a leading docstring; *DOCSTRING (when given) is set
// to that docstring's node.
std::vector<TSNode> BodyStatements(TSNode block, TSNode* docstring);

// The module-level function or class SCOPE (an index into MODEL->scopes) as a helper: a (non-async) function
// whose body is one `return EXPR` (after a docstring) is recorded in MODEL->helpers under its name; any other
// definition of the name removes an earlier helper of that name (a later definition replaces it).
void NoteHelperFunction(PythonFileModel* model, int scope);

}  // namespace errdex
