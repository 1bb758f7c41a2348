// What a `raise` or `warnings.warn(...)` really raises when the statement names it only indirectly
// (docs/extraction.md, "Raised values"):
//   exc = NetworkError(...); raise exc          -> the call bound to the name
//   e = DBAPIError.instance(...); raise e.with_traceback(tb)  -> DBAPIError (a factory method of a class)
//   cls = APIError; if ...: cls = NotFound; raise cls(e)  -> APIError (the first class bound: the base)
//   raise _format(GatedRepoError, msg, resp)    -> GatedRepoError (a factory given the class)
//   warnings.warn(PytestWarning("text"))        -> category PytestWarning, message "text"
//
// Pure functions of the parse tree; the model must outlive the nodes returned. Not thread-safe only in
// that the model is not.
#pragma once

#include <tree_sitter/api.h>

#include <optional>
#include <string>
#include <string_view>

#include "python/python_file_model.h"
#include "python/python_template_builder.h"

namespace errdex {

// A name or attribute that reads as a class: its last component starts with an upper-case letter and has a
// lower-case one (`NotFound`, `errors.APIError`; not `TIMEOUT`).
bool NamesAClass(const PythonFileModel& model, TSNode node);

// `raise NAME` where NAME was last bound in SCOPE (before POS) to a call: that call; else a null node.
TSNode CallBoundToRaisedName(const PythonFileModel& model, TSNode value, int scope, uint32_t pos);

// `NAME.with_traceback(...)` (NAME a name or an attribute, not a call): NAME, the exception raised; else a null
// node.
TSNode WithTracebackOfName(const PythonFileModel& model, TSNode value);

// The class raised by `raise FUNCTION(ARGUMENTS)` when FUNCTION is not a class name: a local bound to
// classes (the first one bound, before POS), or a factory whose first argument is an exception class.
std::optional<std::string> ClassOfIndirectRaise(const PythonFileModel& model, TSNode function, TSNode arguments,
                                                int scope, uint32_t pos);

// `warn(Category("text"))` without a category argument: the instance's class and its message node.
struct WarningInstance {
  std::string category;
  TSNode message{};  // null when the instance has no arguments
};
std::optional<WarningInstance> WarningOfInstance(const PythonFileModel& model, TSNode message);

// The message template of `raise CALL`: the first positional argument whose template has literal text;
// else a `message`/`msg`/`detail` keyword with literal text; else the first positional argument; else
// such a keyword; "" for a call without arguments; null otherwise (docs/extraction.md, "Which argument
// is the message"). CLASS_ARGUMENT: the text of an argument that is the class raised
// (`_format(NotFound, msg)`), not its message. MESSAGE (when given) is set to the argument chosen (null for
// none or for a call without arguments).
std::optional<std::string> MessageOfRaise(const PythonFileModel& model, PythonTemplateBuilder& builder, TSNode call,
                                          int scope, uint32_t pos, std::string_view class_argument,
                                          TSNode* message = nullptr);

}  // namespace errdex
