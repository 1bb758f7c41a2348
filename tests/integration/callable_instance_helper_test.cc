// A raising helper that is a callable instance (docs/extraction.md, "Raising helpers"): pytest's `fail`,
// `skip` and `exit` are module-level instances (`fail: _Fail = _Fail()`) whose `__call__` raises the reason it
// is handed. A fixture package in that manner is indexed; python3 runs a caller into the error, and the final
// line of the real traceback is explained by the helper's raise with the caller's message.
#include <gtest/gtest.h>

#include <string>

#include "testing/git_test_util.h"
#include "testing/indexed_fixture.h"

namespace errdex {
namespace {

using namespace testing_util;

const char* const kOutcomes = R"py(class Failed(Exception):
    pass


class _Fail:
    def __call__(self, reason: str = "", pytrace: bool = True):
        __tracebackhide__ = True
        raise Failed(reason)


fail: _Fail = _Fail()
)py";

const char* const kFixtures = R"py(from probe.outcomes import fail


def fixture_called(name):
    message = (
        f'Fixture "{name}" called directly. Fixtures are not meant to be called directly,\n'
        "but are created automatically when test functions request them as parameters."
    )
    fail(message, pytrace=False)


def unknown_marker(name):
    fail(f"{name!r} not found in `markers` configuration option", pytrace=False)
)py";

TEST(CallableInstanceHelperTest, TheCallersMessageIsRaisedByTheInstancesCall) {
  IndexedFixture fixture;
  fixture.Write("probe/__init__.py", "");
  fixture.Write("probe/outcomes.py", kOutcomes);
  fixture.Write("probe/fixtures.py", kFixtures);
  std::string error;
  ASSERT_TRUE(fixture.Index("acme/probe", &error)) << error;
  std::string output;
  Shell("cd " + ShellQuote(fixture.source()) +
            " && python3 -c 'from probe.fixtures import unknown_marker\nunknown_marker(\"slow\")' 2>&1",
        &output);
  output = Trim(output);
  const std::string line = output.substr(output.rfind('\n') + 1);
  ASSERT_EQ(line, "probe.outcomes.Failed: 'slow' not found in `markers` configuration option");
  Explanation e = fixture.Explain(line);
  ASSERT_FALSE(e.matches.empty());
  const ExplainMatch& m = e.matches[0];
  EXPECT_EQ(m.kind, ExplainMatch::Kind::kExact);
  EXPECT_EQ(m.site.path, "probe/outcomes.py");
  EXPECT_EQ(m.site.function, "_Fail.__call__");
  EXPECT_EQ(m.site.via.value_or(""), "probe/fixtures.py:13 in unknown_marker");
  // A two-line message handed over through a local: its first line alone finds the same caller.
  Explanation first = fixture.Explain(
      "probe.outcomes.Failed: Fixture \"db\" called directly. Fixtures are not meant to be called directly,");
  ASSERT_FALSE(first.matches.empty());
  EXPECT_EQ(first.matches[0].site.via.value_or(""), "probe/fixtures.py:9 in fixture_called");
}

}  // namespace
}  // namespace errdex
