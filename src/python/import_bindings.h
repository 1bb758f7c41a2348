// The imports of one Python file (FileFacts::imports, wildcard_imports) and the names they bind that the
// extractor itself reads: the module `warnings` and `warnings.warn` (warning sites), the module `pytest` and
// `pytest.raises` (tests that expect an exception).
//
// Lifetime: copies what it keeps. Not thread-safe (one per Extract() call).
#pragma once

#include <string>
#include <unordered_set>

#include "extract/file_facts.h"
#include "python/python_file_model.h"
#include "python/query_captures.h"

namespace errdex {

class ImportBindings {
 public:
  // Records the import IMPORT (nodes of MODEL's tree) in FACTS and notes the names it binds.
  void Add(const PythonFileModel& model, const PendingImport& import, FileFacts* facts);

  bool IsWarningsModule(const std::string& name) const { return warnings_modules_.count(name) > 0; }
  bool IsWarnFunction(const std::string& name) const { return warn_functions_.count(name) > 0; }
  bool IsPytestModule(const std::string& name) const { return pytest_modules_.count(name) > 0; }
  bool IsRaisesFunction(const std::string& name) const { return raises_functions_.count(name) > 0; }

 private:
  std::unordered_set<std::string> warnings_modules_;          // names bound to the module `warnings`
  std::unordered_set<std::string> warn_functions_;            // names bound to `warnings.warn`
  std::unordered_set<std::string> pytest_modules_{"pytest"};  // names bound to the module `pytest`
  std::unordered_set<std::string> raises_functions_;          // names bound to `pytest.raises`
};

}  // namespace errdex
