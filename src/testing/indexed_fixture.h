// A fixture repository written into a temporary directory, indexed by the real pipeline (with the
// analysis) under one repository name, then explained: the shape of most tests in tests/integration/.
// Header-only test helper; not thread-safe (one per test). The catalog lives as long as the object.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "match/explainer.h"
#include "pipeline/indexer.h"
#include "testing/git_test_util.h"
#include "testing/temp_dir.h"

namespace errdex::testing_util {

class IndexedFixture {
 public:
  // Writes CONTENT to the fixture's PATH (under its source tree, "pkg/mod.py").
  void Write(const std::string& path, const std::string& content) { WriteFile(dir_ / ("src/" + path), content); }

  // The fixture's source tree (where Write puts files): a package's parent folder, for running it.
  std::string source() const { return dir_ / "src"; }

  // Indexes the source tree as repository NAME; false (and ERROR) on failure.
  bool Index(const std::string& name, std::string* error) {
    IndexOptions options;
    options.source = dir_ / "src";
    options.name = name;
    options.catalog = dir_ / "catalog.db";
    options.jobs = 1;
    IndexSummary summary;
    return errdex::Index(options, &summary, error);
  }

  // The explanation of PASTE against the catalog, TOP matches at most.
  Explanation Explain(std::string_view paste, int top = 5) {
    auto catalog = Catalog::Open(dir_ / "catalog.db", /*read_only=*/true);
    std::string note;
    auto matcher = ErrorMatcher::Load(catalog->matcher_tables(), false, &note);
    return Explainer(*catalog, *matcher).Explain(paste, top);
  }

 private:
  TempDir dir_;
};

}  // namespace errdex::testing_util
