// Messages chosen among several texts (docs/extraction.md and docs/matching.md, "Messages chosen among several
// texts"): a fixture package whose raises pick their text by a conditional expression, in branches, in a
// branch that extends it, by ngettext, or from a list of messages, indexed; python3 runs it into each form of
// error, and the final line of the real traceback is explained by the raise, naming the text that matched.
#include <gtest/gtest.h>

#include <string>

#include "testing/git_test_util.h"
#include "testing/indexed_fixture.h"

namespace errdex {
namespace {

using namespace testing_util;

const char* const kCollect = R"py(from gettext import ngettext


class UsageError(Exception):
    pass


def resolve(arg, as_module):
    msg = (
        "module or package not found: {arg} (missing __init__.py?)"
        if as_module
        else "file or directory not found: {arg}"
    )
    raise UsageError(msg.format(arg=arg))


def kind_of(value, strict):
    if strict:
        msg = "value %r is rejected in strict mode"
    else:
        msg = "value %r is not understood"
    raise ValueError(msg % value)


def lookup(name, alt):
    hint = f" (did you mean {alt}?)" if alt else ""
    raise KeyError(f"no entry named {name}{hint}")


def malformed(node, line):
    msg = "malformed entry in the table"
    if line:
        msg += f" at line {line}"
    raise ValueError(msg + f": {node!r}")


def need(option, nargs):
    raise TypeError(
        ngettext(
            "option {name} needs a value",
            "option {name} needs {count} values",
            nargs,
        ).format(name=option, count=nargs)
    )


def collect(args, collectors):
    errors = []
    for arg in args:
        if collectors:
            errors.append(f"nothing collected from {arg} by {collectors!r}")
        else:
            errors.append(f"no collector accepts {arg}")
    if errors:
        raise UsageError(*errors)
)py";

class ChosenMessagesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    fixture_ = new IndexedFixture();
    fixture_->Write("tally/__init__.py", "");
    fixture_->Write("tally/collect.py", kCollect);
    std::string error;
    ASSERT_TRUE(fixture_->Index("acme/tally", &error)) << error;
  }
  static void TearDownTestSuite() {
    delete fixture_;
    fixture_ = nullptr;
  }

  // The last line python3 prints when it runs CODE in the fixture's source folder: the exception's line.
  static std::string FinalLine(const std::string& code) {
    std::string output;
    Shell("cd " + ShellQuote(fixture_->source()) + " && python3 -c " + ShellQuote(code) + " 2>&1", &output);
    output = Trim(output);
    const size_t nl = output.rfind('\n');
    return nl == std::string::npos ? output : output.substr(nl + 1);
  }

  // "function [alternative]" of the first match when the text decides; "(nothing)" or "(not by text)" otherwise.
  static std::string Explained(const std::string& paste) {
    Explanation e = fixture_->Explain(paste);
    if (e.matches.empty()) return "(nothing)";
    const ExplainMatch& m = e.matches[0];
    if (m.kind != ExplainMatch::Kind::kExact) return "(not by text)";
    return m.site.function + (m.matched_alternative.empty() ? "" : " [" + m.matched_alternative + "]");
  }

  static IndexedFixture* fixture_;
};

IndexedFixture* ChosenMessagesTest::fixture_ = nullptr;

TEST_F(ChosenMessagesTest, LocalChosenByAConditionalExpression) {
  const std::string line = FinalLine("from tally.collect import resolve\nresolve('tests/', False)");
  ASSERT_EQ(line, "tally.collect.UsageError: file or directory not found: tests/");
  EXPECT_EQ(Explained(line), "resolve [file or directory not found: {arg}]");
  const std::string other = FinalLine("from tally.collect import resolve\nresolve('pkg', True)");
  ASSERT_EQ(other, "tally.collect.UsageError: module or package not found: pkg (missing __init__.py?)");
  EXPECT_EQ(Explained(other), "resolve [module or package not found: {arg} (missing __init__.py?)]");
}

TEST_F(ChosenMessagesTest, LocalBoundInBranches) {
  // The template is the last binding; the earlier branch's text is an alternative.
  const std::string line = FinalLine("from tally.collect import kind_of\nkind_of('x', True)");
  ASSERT_EQ(line, "ValueError: value 'x' is rejected in strict mode");
  EXPECT_EQ(Explained(line), "kind_of [value {value} is rejected in strict mode]");
  const std::string other = FinalLine("from tally.collect import kind_of\nkind_of('x', False)");
  ASSERT_EQ(other, "ValueError: value 'x' is not understood");
  EXPECT_EQ(Explained(other), "kind_of");
}

TEST_F(ChosenMessagesTest, FStringFieldHoldingAConditional) {
  const std::string line = FinalLine("from tally.collect import lookup\nlookup('colour', 'color')");
  ASSERT_EQ(line, "KeyError: 'no entry named colour (did you mean color?)'");
  EXPECT_EQ(Explained(line), "lookup [no entry named {name} (did you mean {alt}?)]");
}

TEST_F(ChosenMessagesTest, ExtendedInABranchThatDidNotRun) {
  const std::string line = FinalLine("from tally.collect import malformed\nmalformed('x', 0)");
  ASSERT_EQ(line, "ValueError: malformed entry in the table: 'x'");
  EXPECT_EQ(Explained(line), "malformed [malformed entry in the table: {node!r}]");
}

TEST_F(ChosenMessagesTest, PluralOfNgettext) {
  const std::string line = FinalLine("from tally.collect import need\nneed('--size', 2)");
  ASSERT_EQ(line, "TypeError: option --size needs 2 values");
  EXPECT_EQ(Explained(line), "need [option {option} needs {nargs} values]");
}

TEST_F(ChosenMessagesTest, ItemsOfAListUnpackedIntoTheArguments) {
  // Several arguments print as a tuple; pytest prints each on a line of its own, as here.
  const std::string printed = Trim([] {
    std::string output;
    Shell("cd " + ShellQuote(fixture_->source()) + " && python3 -c " +
              ShellQuote("from tally.collect import collect, UsageError\n"
                         "try:\n    collect(['a.py'], [])\n"
                         "except UsageError as e:\n    print(*e.args, sep='\\n')"),
          &output);
    return output;
  }());
  ASSERT_EQ(printed, "no collector accepts a.py");
  EXPECT_EQ(Explained("ERROR: " + printed), "collect [no collector accepts {arg}]");
}

}  // namespace
}  // namespace errdex
