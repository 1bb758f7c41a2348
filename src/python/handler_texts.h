// Texts printed by exception handlers (docs/extraction.md, "Texts printed by exception handlers"): which
// calls write text out (the table src/python/data/output_calls.tsv) and which `except` clause a statement
// is in; and HandlerTextReader, which records a HandlerText (extract/file_facts.h) for each output call with
// literal text inside `except X as e:`, or inside a function of the file the handler calls with `e`.
//
// Threading: the functions are pure functions over a tree-sitter tree; the table is read once,
// thread-safely. A HandlerTextReader borrows the model, builder and error regions of one file (they must
// outlive it), copies what it keeps, and is not thread-safe (one per Extract() call).
#pragma once

#include <tree_sitter/api.h>

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "extract/file_facts.h"
#include "python/error_regions.h"
#include "python/python_file_model.h"
#include "python/python_template_builder.h"
#include "python/query_captures.h"

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

// The texts printed by the exception handlers of one file.
class HandlerTextReader {
 public:
  HandlerTextReader(std::string_view source, const PythonFileModel& model, PythonTemplateBuilder& builder,
                    const ErrorRegions& errors)
      : source_(source), model_(model), builder_(builder), errors_(errors) {}

  // Reads the call CALL: an output call in an `except` clause adds its text to FACTS->handler_texts; one in a
  // module-level function, or a call in an `except` clause handing the caught name to a function, is kept for
  // Link.
  void Note(const PendingCall& call, FileFacts* facts);
  // After every call was noted: adds the texts of the functions the handlers call with what they caught, and
  // sorts FACTS->handler_texts by handler line.
  void Link(FileFacts* facts);

 private:
  std::string_view source_;
  const PythonFileModel& model_;
  PythonTemplateBuilder& builder_;
  const ErrorRegions& errors_;
  // A call in an except clause handing the caught exception to a function by name
  // (`print_conftest_import_error(e, file=sys.stderr)`), and the texts output calls write in module-level
  // functions, by function name.
  struct ReportCall {
    std::string name;
    std::vector<std::string> types;
    int handler_line = 0;
    std::string handler_function;
  };
  std::vector<ReportCall> report_calls_;
  std::unordered_map<std::string, std::vector<std::pair<std::string, int>>> function_outputs_;
};

}  // namespace errdex
