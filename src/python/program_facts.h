// The program facts of one Python file (docs/extraction.md, "Program facts"), which the analysis' call graph
// reads: its functions (with decorators, lines, parameters and docstring), the calls in them, the state they
// write (attributes, module names and class attributes; `setattr`/`delattr` with a literal name), and its
// `__all__` (module_all.h).
//
// Lifetime: borrows the model, builder, error regions, lines and query captures of one file, which must
// outlive it. Not thread-safe (one per Extract() call).
#pragma once

#include <tree_sitter/api.h>

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "extract/file_facts.h"
#include "python/error_regions.h"
#include "python/module_all.h"
#include "python/python_file_model.h"
#include "python/python_template_builder.h"
#include "python/query_captures.h"
#include "python/source_lines.h"

namespace errdex {

class ProgramFactsReader {
 public:
  // ROOT is the parsed tree of MODEL's source; MAX_NESTING (ExtractOptions) bounds the walk to a function's
  // last token.
  ProgramFactsReader(const PythonFileModel& model, PythonTemplateBuilder& builder, TSNode root,
                     const ErrorRegions& errors, const SourceLines& lines, const QueryCaptures& captures,
                     int max_nesting)
      : model_(model),
        builder_(builder),
        root_(root),
        errors_(errors),
        lines_(lines),
        captures_(captures),
        max_nesting_(max_nesting) {}

  // Fills FACTS' functions, calls, state writes and `__all__`, in that order. Call once.
  void Read(FileFacts* facts);

 private:
  void EmitFunctions(FileFacts* facts);
  void EmitCalls(FileFacts* facts);
  void EmitStateWrites(FileFacts* facts);
  void AddWriteTargets(TSNode target, int scope, const char* kind, int line, const std::string& code, int depth,
                       FileFacts* facts);
  // Whether SCOPE is a class body not nested in a function (its names are class attributes).
  bool IsClassBody(int scope) const;
  // SCOPE, or the def, class or module around it when it is a lambda.
  int NonLambdaScope(int scope) const;
  std::string StatementCode(TSNode statement) const;

  const PythonFileModel& model_;
  PythonTemplateBuilder& builder_;
  TSNode root_;
  const ErrorRegions& errors_;
  const SourceLines& lines_;
  const QueryCaptures& captures_;
  int max_nesting_;
  ModuleAll all_;
  std::unordered_map<int, std::unordered_set<std::string_view>> globals_;  // `global` names by scope
  int model_checks_ = ErrorRegions::kMaxAncestorChecks;                    // ancestor walks left
};

}  // namespace errdex
