// Tests that expect an exception (FileFacts::raises_tests; docs/extraction.md, "Tests that expect an
// exception"): the with statements and call statements of pytest.raises, unittest's assertRaises* and the
// other APIs of raises_apis.h, each expected type with the test's function, line, code and match pattern.
//
// Lifetime: borrows the model, builder, error regions and import bindings of one file, which must outlive
// it; keeps nothing between calls. Not thread-safe (one per Extract() call).
#pragma once

#include <tree_sitter/api.h>

#include <string>

#include "extract/file_facts.h"
#include "python/error_regions.h"
#include "python/import_bindings.h"
#include "python/python_file_model.h"
#include "python/python_template_builder.h"
#include "python/query_captures.h"

namespace errdex {

class RaisesTestReader {
 public:
  RaisesTestReader(const PythonFileModel& model, PythonTemplateBuilder& builder, const ErrorRegions& errors,
                   const ImportBindings& imports)
      : model_(model), builder_(builder), errors_(errors), imports_(imports) {}

  // A call statement of an API that takes the callable (`pytest.raises(T, f, *args)`): its tests.
  void ReadCall(const PendingCall& call, FileFacts* facts);
  // A with statement whose items call such an API (`with pytest.raises(T, match=...):`): their tests.
  void ReadWith(TSNode with_statement, FileFacts* facts);

 private:
  // "pytest.raises", "assertRaises", "assertRaisesRegex", "assertRaisesMessage", "assert_raises_message",
  // "assert_raises", "expect_raises_message", "expect_raises" for a call of one of them, else "".
  std::string RaisesApi(TSNode call) const;
  // Records CALL (of API) as expecting its exception types; STATEMENT is the with or call statement.
  void AddRaisesTests(TSNode call, const std::string& api, bool call_form, TSNode statement, FileFacts* facts);
  std::string MatchPattern(TSNode expr);

  const PythonFileModel& model_;
  PythonTemplateBuilder& builder_;
  const ErrorRegions& errors_;
  const ImportBindings& imports_;
};

}  // namespace errdex
