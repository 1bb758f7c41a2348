// A library's report around the traceback of the error it wraps (match/pasted_error.h, embeds_traceback):
// pytest's collection error prints "ImportError while importing test module '...'.", a hint, `Traceback:`
// and the wrapped error's short traceback. The report is the raise site's whole template; the wrapped
// ImportError of the `E` line is the chain. A report that no site's text accounts for leaves the answer to
// the wrapped error.
#include <gtest/gtest.h>

#include <string>

#include "testing/indexed_fixture.h"

namespace errdex {
namespace {

using namespace testing_util;

const char* const kCollector = R"py(import importlib
import traceback


class CollectError(Exception):
    pass


def import_test_module(path, name):
    try:
        return importlib.import_module(name)
    except ImportError as e:
        formatted_tb = "".join(traceback.format_exception_only(type(e), e))
        raise CollectError(
            f"ImportError while importing test module '{path}'.\n"
            "Hint: make sure your test modules/packages have valid Python names.\n"
            "Traceback:\n"
            f"{formatted_tb}"
        ) from e
)py";

class EmbeddedTracebackTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fixture_.Write("testkit/__init__.py", "from .collect import import_test_module\n");
    fixture_.Write("testkit/collect.py", kCollector);
    std::string error;
    ASSERT_TRUE(fixture_.Index("acme/testkit", &error)) << error;
  }

  Explanation Explain(std::string_view paste) { return fixture_.Explain(paste); }

  IndexedFixture fixture_;
};

TEST_F(EmbeddedTracebackTest, TheReportIsTheAnswerAndTheWrappedErrorItsChain) {
  Explanation e = Explain(
      "_______ ERROR collecting tests/test_app.py _______\n"
      "ImportError while importing test module '/home/u/proj/tests/test_app.py'.\n"
      "Hint: make sure your test modules/packages have valid Python names.\n"
      "Traceback:\n"
      "tests/test_app.py:3: in <module>\n"
      "    import missing_dependency\n"
      "E   ModuleNotFoundError: No module named 'missing_dependency'\n"
      "=========== short test summary info ===========\n");
  ASSERT_FALSE(e.matches.empty());
  EXPECT_EQ(e.matches[0].site.path, "testkit/collect.py");
  EXPECT_EQ(e.matches[0].site.function, "import_test_module");
}

TEST_F(EmbeddedTracebackTest, AReportNoSiteAccountsForLeavesTheAnswerToTheWrappedError) {
  // Another program's report around the same kind of traceback: no site's text is the whole report.
  Explanation e = Explain(
      "Could not load the plugin module 'tests/test_app.py'.\n"
      "Traceback:\n"
      "tests/test_app.py:3: in <module>\n"
      "    import missing_dependency\n"
      "E   ModuleNotFoundError: No module named 'missing_dependency'\n");
  EXPECT_EQ(e.type, "ModuleNotFoundError");
  for (const ExplainMatch& m : e.matches) EXPECT_NE(m.site.function, "import_test_module");
}

}  // namespace
}  // namespace errdex
