// A standard-library module whose classes come from its C accelerator at run time (PEP 399): `queue.py`
// defines `Empty` only when `_queue` is missing, so Python prints `_queue.Empty` for the `raise Empty` of
// queue.py (docs/matching.md, "Ranking with evidence"). The pasted class agrees with the site's, and the
// paste points at the repository defining `queue.Empty`.
#include <gtest/gtest.h>

#include <string>

#include "match/explainer.h"
#include "pipeline/indexer.h"
#include "testing/git_test_util.h"
#include "testing/temp_dir.h"

namespace errdex {
namespace {

using namespace testing_util;

const char* const kQueue = R"py(try:
    from _queue import Empty
except ImportError:
    class Empty(Exception):
        'Exception raised by Queue.get(block=0)/get_nowait().'
        pass


class Queue:
    def get(self, block=True):
        if not block:
            if not self._qsize():
                raise Empty
        return self._get()
)py";

class AcceleratorModuleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteFile(dir_ / "lib/queue.py", kQueue);
    WriteFile(dir_ / "lib/json/__init__.py", "");
    IndexOptions options;
    options.source = dir_ / "lib";
    options.name = "python/stdlib";
    options.catalog = dir_ / "catalog.db";
    options.jobs = 1;
    IndexSummary summary;
    std::string error;
    ASSERT_TRUE(Index(options, &summary, &error)) << error;
  }

  Explanation Explain(std::string_view paste) {
    auto catalog = Catalog::Open(dir_ / "catalog.db", /*read_only=*/true);
    std::string note;
    auto matcher = ErrorMatcher::Load(catalog->matcher_tables(), false, &note);
    return Explainer(*catalog, *matcher).Explain(paste, 5);
  }

  TempDir dir_;
};

TEST_F(AcceleratorModuleTest, TheAcceleratorsClassIsTheModulesClass) {
  Explanation e = Explain(
      "Traceback (most recent call last):\n"
      "  File \"<string>\", line 1, in <module>\n"
      "  File \"/usr/lib/python3.11/queue.py\", line 13, in get\n"
      "    raise Empty\n"
      "_queue.Empty\n");
  ASSERT_FALSE(e.matches.empty()) << (e.closest.empty() ? "" : e.closest[0].why[0]);
  EXPECT_EQ(e.matches[0].site.path, "queue.py");
  EXPECT_EQ(e.matches[0].site.line, 13);
  EXPECT_TRUE(e.note.empty()) << e.note;
}

TEST_F(AcceleratorModuleTest, TheTypeAloneFindsTheRepositoryDefiningIt) {
  Explanation e = Explain("_queue.Empty");
  ASSERT_FALSE(e.matches.empty()) << e.note;
  EXPECT_EQ(e.matches[0].site.path, "queue.py");
  EXPECT_EQ(e.matches[0].kind, ExplainMatch::Kind::kByType);
}

}  // namespace
}  // namespace errdex
