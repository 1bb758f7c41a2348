// Tests of the call paths an error keeps (src/analysis/error_analysis.h; docs/analysis.md, "Call paths an error
// keeps") on a small package extracted for real: an error reached both by a certain path and by one through a
// call resolved by method name only, and an error reached only through such a call.
#include "analysis/error_analysis.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/graph_triggers_test_util.h"

namespace errdex {
namespace {

using graph_triggers_test::Repo;
using Strings = std::vector<std::string>;

const char* const kStore =
    "class Store:\n"                            // 1
    "    def get(self, key):\n"                 // 2
    "        return self._lookup(key)\n"        // 3
    "    def _lookup(self, key):\n"             // 4
    "        raise KeyError('missing key')\n"   // 5
    "\n"                                        // 6
    "class Parser:\n"                           // 7
    "    def _parse_strict(self, text):\n"      // 8
    "        raise ValueError('bad text')\n"    // 9
    "\n"                                        // 10
    "def fetch(store, key):\n"                  // 11
    "    return store._lookup(key)\n"           // 12
    "\n"                                        // 13
    "def parse(parser, text):\n"                // 14
    "    return parser._parse_strict(text)\n";  // 15

Repo Package() {
  return Repo({{"pkg/__init__.py",
                "from pkg.store import Store, Parser, fetch, parse\n__all__ = ['Store', 'Parser', 'fetch', 'parse']\n"},
               {"pkg/store.py", kStore}});
}

// The sites of pkg/store.py as the catalog has them, each its own error ("E<line>").
std::vector<SiteRow> SiteRows(const Repo& repo) {
  std::vector<SiteRow> out;
  for (const Site& s : repo.facts[1].sites) {
    SiteRow row;
    row.error_id = "E" + std::to_string(s.line);
    row.path = "pkg/store.py";
    row.line = s.line;
    row.col = s.col;
    row.end_line = s.end_line;
    row.kind = s.kind;
    row.type = s.type;
    row.type_qualified = "builtins." + s.type.value_or("");
    row.template_text = s.template_text;
    row.function = s.function;
    out.push_back(std::move(row));
  }
  return out;
}

// Each stored path as "function:line -> ... -> function:line" (the last frame is the raise).
Strings Describe(const nlohmann::json& analysis) {
  Strings out;
  for (const nlohmann::json& p : analysis["call_paths"]) {
    std::string text;
    for (const nlohmann::json& f : p["frames"]) {
      if (!text.empty()) text += " -> ";
      text += f["function"].get<std::string>() + ":" + std::to_string(f["line"].get<int>());
    }
    out.push_back(text + (p["certain"].get<bool>() ? "" : " (uncertain)"));
  }
  return out;
}

struct Analysed {
  nlohmann::json analysis;
  std::vector<std::string> entry_points;
};

Analysed AnalysisOf(const std::vector<ErrorAnalysisRow>& rows, const std::string& id) {
  for (const ErrorAnalysisRow& r : rows) {
    if (r.error_id == id) return {nlohmann::json::parse(r.analysis), r.entry_points};
  }
  ADD_FAILURE() << "no analysis of " << id;
  return {};
}

class ErrorAnalysisPathsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sites_ = SiteRows(repo_);
    AnalysisInput input;
    input.model = repo_.model.get();
    input.modules = repo_.index.get();
    for (size_t i = 0; i < repo_.sources.size(); ++i) input.files.push_back({repo_.sources[i].first, &repo_.facts[i]});
    input.sites = &sites_;
    input.triggers = repo_.triggers.get();
    rows_ = AnalyzeErrors(input);
  }

  Repo repo_ = Package();
  std::vector<SiteRow> sites_;
  std::vector<ErrorAnalysisRow> rows_;
};

TEST_F(ErrorAnalysisPathsTest, TheSearchFindsBothKindsOfPath) {
  // What the rule chooses from: `Store.get` calls `_lookup` for certain, `fetch` only by the method's name.
  const GraphTriggers::NodeId lookup = repo_.triggers->NodeOf("pkg/store.py", "Store._lookup", 5);
  Strings found;
  for (const CallPath& p : repo_.triggers->PathsTo(lookup)) {
    found.push_back(p.frames.front().function + (p.certain ? "" : " (uncertain)"));
  }
  EXPECT_EQ(found, (Strings{"Store.get", "fetch (uncertain)"}));
}

TEST_F(ErrorAnalysisPathsTest, AnErrorWithACertainPathKeepsOnlyItsCertainPaths) {
  const Analysed missing = AnalysisOf(rows_, "E5");
  EXPECT_EQ(Describe(missing.analysis), (Strings{"Store.get:3 -> Store._lookup:5"}));
  EXPECT_EQ(missing.entry_points, (Strings{"pkg.store.Store.get"}));
  const std::string summary = missing.analysis["meaning"]["summary"];
  EXPECT_NE(summary.find("reached from the public API through `Store.get`."), std::string::npos) << summary;
  EXPECT_EQ(summary.find("fetch"), std::string::npos) << summary;
}

TEST_F(ErrorAnalysisPathsTest, AnErrorWithOnlyUncertainPathsKeepsThemMarked) {
  const Analysed bad = AnalysisOf(rows_, "E9");
  EXPECT_EQ(Describe(bad.analysis), (Strings{"parse:15 -> Parser._parse_strict:9 (uncertain)"}));
  EXPECT_TRUE(bad.entry_points.empty());  // entry points come from certain paths only
  const std::string summary = bad.analysis["meaning"]["summary"];
  EXPECT_NE(summary.find("through `parse` (some calls resolved by name only)."), std::string::npos) << summary;
}

}  // namespace
}  // namespace errdex
