// Tests of the path conditions of sites and of the tests that expect an exception (docs/analysis.md),
// through the extractor. Each expectation was written from the contract and the Python semantics.
#include "python/path_conditions.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "python/python_extractor.h"
#include "testing/test_extractor.h"

namespace errdex {
namespace {

using testing_util::TestExtractor;
using Strings = std::vector<std::string>;

FileFacts Extract(std::string_view source) {
  if (!source.empty() && source[0] == '\n') source.remove_prefix(1);
  return TestExtractor().Extract(source, ExtractOptions());
}

// "LINE KIND [not ]CODE" for each condition.
Strings Describe(const std::vector<Condition>& conditions) {
  Strings out;
  for (const Condition& c : conditions) {
    out.push_back(std::to_string(c.line) + " " + c.kind + " " + (c.negated ? "not " : "") + c.code);
  }
  return out;
}

// The conditions of the site at LINE.
Strings ConditionsAt(const FileFacts& facts, int line) {
  for (const Site& s : facts.sites) {
    if (s.line == line) return Describe(s.conditions);
  }
  ADD_FAILURE() << "no site at line " << line;
  return {};
}

TEST(PathConditionsTest, IfElifElseChainNegatesEarlierBranches) {
  FileFacts facts = Extract(R"py(
def f(a, b):
    if a > 1:
        raise ValueError("first")
    elif b:
        raise ValueError("second")
    elif a == 0:
        raise ValueError("third")
    else:
        raise ValueError("otherwise")
)py");
  EXPECT_EQ(ConditionsAt(facts, 3), (Strings{"2 if if a > 1:"}));
  EXPECT_EQ(ConditionsAt(facts, 5), (Strings{"2 if not if a > 1:", "4 elif elif b:"}));
  EXPECT_EQ(ConditionsAt(facts, 7), (Strings{"2 if not if a > 1:", "4 elif not elif b:", "6 elif elif a == 0:"}));
  EXPECT_EQ(ConditionsAt(facts, 9), (Strings{"2 if not if a > 1:", "4 elif not elif b:", "6 elif not elif a == 0:"}));
}

TEST(PathConditionsTest, TryExceptElseFinally) {
  FileFacts facts = Extract(R"py(
def f(path):
    try:
        raise OSError("in the body")
    except (KeyError, ValueError) as e:
        raise RuntimeError(f"bad {e}") from e
    except OSError:
        raise
    else:
        raise ValueError("nothing went wrong")
    finally:
        raise ValueError("always")
)py");
  EXPECT_EQ(ConditionsAt(facts, 3), Strings{});
  EXPECT_EQ(ConditionsAt(facts, 5), (Strings{"4 except except (KeyError, ValueError) as e:"}));
  EXPECT_EQ(ConditionsAt(facts, 7), (Strings{"6 except except OSError:"}));
  EXPECT_EQ(ConditionsAt(facts, 9), (Strings{"8 try_else else:"}));
  EXPECT_EQ(ConditionsAt(facts, 11), (Strings{"10 finally finally:"}));
}

TEST(PathConditionsTest, WithLoopsAndLoopElse) {
  FileFacts facts = Extract(R"py(
async def f(items, lock):
    async with lock, open("x") as fh:
        for i, item in enumerate(items):
            while item.pending():
                raise TimeoutError("still pending")
        else:
            raise LookupError("no item")
    while retries > 0:
        pass
    else:
        raise TimeoutError("gave up")
)py");
  EXPECT_EQ(ConditionsAt(facts, 5),
            (Strings{"2 with async with lock, open(\"x\") as fh:", "3 for for i, item in enumerate(items):",
                     "4 while while item.pending():"}));
  EXPECT_EQ(ConditionsAt(facts, 7),
            (Strings{"2 with async with lock, open(\"x\") as fh:", "3 loop_else for i, item in enumerate(items):"}));
  EXPECT_EQ(ConditionsAt(facts, 11), (Strings{"8 while not while retries > 0:"}));
}

TEST(PathConditionsTest, EarlyExitsOfTheSameAndEnclosingBlocks) {
  FileFacts facts = Extract(R"py(
def f(x, items):
    if x is None:
        return None
    if x.ok():
        log("fine")
    for item in items:
        if not item:
            continue
        if item.skip:
            log("skipping")
            break
        if item.kind == "a":
            pass
        else:
            return 1
        if item.bad:
            if item.very_bad:
                return
            raise ValueError(f"bad item {item}")
    if x.late:
        return 2
)py");
  EXPECT_EQ(ConditionsAt(facts, 19),
            (Strings{"2 early_exit not if x is None:", "6 for for item in items:", "7 early_exit not if not item:",
                     "9 early_exit not if item.skip:", "12 early_exit if item.kind == \"a\":", "16 if if item.bad:",
                     "17 early_exit not if item.very_bad:"}));
}

TEST(PathConditionsTest, EarlyExitChainsAndRaises) {
  FileFacts facts = Extract(R"py(
def f(mode):
    if mode == "a":
        raise ValueError("a")
    elif mode == "b":
        return
    elif mode == "c":
        pass
    elif mode == "d":
        return
    raise ValueError(f"unknown mode {mode}")
)py");
  // The `a` and `b` branches leave; after the `c` branch, which does not, nothing more can be said.
  EXPECT_EQ(ConditionsAt(facts, 3), (Strings{"2 if if mode == \"a\":"}));
  EXPECT_EQ(ConditionsAt(facts, 10),
            (Strings{"2 early_exit not if mode == \"a\":", "4 early_exit not elif mode == \"b\":"}));
}

TEST(PathConditionsTest, NestedFunctionsStopAtTheirScope) {
  FileFacts facts = Extract(R"py(
if DEBUG:
    def outer(x):
        if x is None:
            return
        if x:
            class C:
                if FLAG:
                    raise TypeError("in a class body")
                def m(self):
                    raise TypeError("in a method")
            def inner(y):
                while y:
                    raise TypeError("in inner")
            raise TypeError("in outer")
    raise TypeError("at module level")
)py");
  EXPECT_EQ(ConditionsAt(facts, 8), (Strings{"7 if if FLAG:"}));
  EXPECT_EQ(ConditionsAt(facts, 10), Strings{});
  EXPECT_EQ(ConditionsAt(facts, 13), (Strings{"12 while while y:"}));
  EXPECT_EQ(ConditionsAt(facts, 14), (Strings{"3 early_exit not if x is None:", "5 if if x:"}));
  EXPECT_EQ(ConditionsAt(facts, 15), (Strings{"1 if if DEBUG:"}));
}

TEST(PathConditionsTest, MultiLineAndWalrusHeadersKeepTheirText) {
  FileFacts facts = Extract(R"py(
def _unwrap_compiled(obj):
    if isinstance(obj, OptimizedModule):
        if (compile_kwargs := getattr(obj, "_compile_kwargs", None)) is None:
            raise RuntimeError("Failed to determine the arguments")
        return obj._orig_mod, compile_kwargs
    return obj, None

def g(a, b):
    if (a  # the first
            and b):  # a comment after the colon
        raise ValueError("both")
    with (
        open(a) as fa,
        open(b) as fb,
    ):
        warnings.warn("opened")
)py");
  EXPECT_EQ(ConditionsAt(facts, 4),
            (Strings{"2 if if isinstance(obj, OptimizedModule):",
                     "3 if if (compile_kwargs := getattr(obj, \"_compile_kwargs\", None)) is None:"}));
  EXPECT_EQ(ConditionsAt(facts, 11), (Strings{"9 if if (a  # the first\n            and b):"}));
}

TEST(PathConditionsTest, MatchCasesAndWarnings) {
  FileFacts facts = Extract(R"py(
import warnings

def f(command):
    match command.split():
        case ["go", direction] if direction:
            warnings.warn(f"going {direction}")
        case ["quit"]:
            pass
        case _:
            raise ValueError(f"unknown {command}")
)py");
  EXPECT_EQ(ConditionsAt(facts, 6),
            (Strings{"4 match match command.split():", "5 case case [\"go\", direction] if direction:"}));
  EXPECT_EQ(ConditionsAt(facts, 10),
            (Strings{"4 match match command.split():", "5 case not case [\"go\", direction] if direction:",
                     "7 case not case [\"quit\"]:", "9 case case _:"}));
}

TEST(PathConditionsTest, LongHeadersAreCutAndConditionsBounded) {
  std::string source = "def f(x):\n    if x == '" + std::string(2000, 'a') + "':\n        raise ValueError('long')\n";
  FileFacts facts = TestExtractor().Extract(source, ExtractOptions());
  ASSERT_EQ(facts.sites.size(), 1u);
  ASSERT_EQ(facts.sites[0].conditions.size(), 1u);
  EXPECT_LE(facts.sites[0].conditions[0].code.size(), kMaxConditionCodeBytes);
  EXPECT_EQ(facts.sites[0].conditions[0].code.substr(0, 12), "if x == 'aaa");

  // 100 nested ifs, then 3000 early exits before one raise, at module level: bounded, and fast.
  std::string deep;
  std::string indent;
  for (int i = 0; i < 100; ++i) {
    deep += indent + "if c" + std::to_string(i) + ":\n";
    indent += " ";
  }
  deep += indent + "raise ValueError('deep')\n";
  for (int i = 0; i < 3000; ++i) deep += "if e" + std::to_string(i) + ":\n    raise KeyError('e')\n";
  deep += "raise ValueError('last')\n";
  auto start = std::chrono::steady_clock::now();
  facts = TestExtractor().Extract(deep, ExtractOptions());
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(ms, 2000);
  ASSERT_EQ(facts.sites.size(), 3002u);
  const std::vector<Condition>& nested = facts.sites[0].conditions;
  ASSERT_EQ(nested.size(), kMaxConditionsPerSite);
  EXPECT_EQ(nested.back().code, "if c99:");  // the nearest are kept
  EXPECT_EQ(nested.front().code, "if c68:");
  const std::vector<Condition>& last = facts.sites.back().conditions;
  ASSERT_EQ(last.size(), kMaxConditionsPerSite);
  EXPECT_EQ(last.back().code, "if e2999:");
  EXPECT_TRUE(last.back().negated);
}

TEST(PathConditionsTest, SyntaxErrorsDoNotBreakIt) {
  FileFacts facts = Extract(R"py(
def f(x):
    if x:
        raise ValueError("kept")
    if (:
        pass
def g(y):
    while y
        raise KeyError("maybe")
)py");
  for (const Site& s : facts.sites) {
    for (const Condition& c : s.conditions) EXPECT_GT(c.line, 0);
  }
  EXPECT_EQ(ConditionsAt(facts, 3), (Strings{"2 if if x:"}));
}

// ---------------------------------------------------------------------------------------------------
// Tests that expect an exception.

// "LINE FUNCTION KIND TYPE [MATCH]"
Strings RaisesTests(const FileFacts& facts) {
  Strings out;
  for (const RaisesTest& t : facts.raises_tests) {
    out.push_back(std::to_string(t.line) + " " + t.function + " " + t.kind + " " + t.type + " [" + t.match + "]");
  }
  return out;
}

TEST(RaisesTestsTest, EveryForm) {
  FileFacts facts = Extract(R"py(
import re
import unittest
import pytest
import pytest as pt
from pytest import raises as expect_raises

def test_with():
    with pytest.raises(CartError, match="unknown SKU 'kiwi'"):
        add("kiwi")
    with pt.raises((KeyError, errors.Missing)) as info:
        get()
    with expect_raises(ValueError, match=r"only \d+ left"), open("x"):
        take()
    with pytest.raises(ValueError, match=re.escape("a.b (c)")):
        take()
    with pytest.raises(ValueError, match=f"got {x}"):
        take()
    pytest.raises(TypeError, int, "x")
    pytest.raises(TypeError)  # neither form: nothing to record

class T(unittest.TestCase):
    def test_unittest(self):
        with self.assertRaises(ValueError):
            f(0)
        with self.assertRaisesRegex(TypeError, "must be .* not list") as cm:
            f([])
        self.assertRaises(KeyError, f, "k")
        self.assertRaisesRegex(OSError, "cannot open", f, "/")
        self.assertRaisesRegexp(OSError, expected_regex="old name", callable=f)
        other.raises(ValueError)
)py");
  EXPECT_EQ(RaisesTests(facts), (Strings{
                                    "8 test_with pytest.raises CartError [unknown SKU 'kiwi']",
                                    "10 test_with pytest.raises KeyError []",
                                    "10 test_with pytest.raises errors.Missing []",
                                    "12 test_with pytest.raises ValueError [only \\d+ left]",
                                    "14 test_with pytest.raises ValueError [a\\.b\\ \\(c\\)]",
                                    "16 test_with pytest.raises ValueError []",
                                    "18 test_with pytest.raises_call TypeError []",
                                    "23 T.test_unittest assertRaises ValueError []",
                                    "25 T.test_unittest assertRaisesRegex TypeError [must be .* not list]",
                                    "27 T.test_unittest assertRaises_call KeyError []",
                                    "28 T.test_unittest assertRaisesRegex_call OSError [cannot open]",
                                }));
  ASSERT_FALSE(facts.raises_tests.empty());
  // Continuation lines are dedented by the statement's column.
  EXPECT_EQ(facts.raises_tests[0].code,
            "with pytest.raises(CartError, match=\"unknown SKU 'kiwi'\"):\n    add(\"kiwi\")");
  EXPECT_EQ(facts.raises_tests[6].code, "pytest.raises(TypeError, int, \"x\")");
  // None of these are error sites.
  EXPECT_TRUE(facts.sites.empty());
}

// SQLAlchemy's testing helpers and Django's assertRaisesMessage.
TEST(RaisesTestsTest, TestingHelpers) {
  FileFacts facts = Extract(R"py(
from sqlalchemy import testing
from sqlalchemy.testing import assert_raises_message, expect_raises_message

def test_helpers(connection):
    assert_raises_message(exc.ArgumentError, r"Column '\w+' not found", go, 1)
    testing.assert_raises(KeyError, go)
    assert_raises_message((exc.A, exc.B), msg="wrapped", callable_=go)
    assert_raises(KeyError)
    with expect_raises_message(exc.InvalidRequestError, "Can't reconnect until invalid"):
        connection.execute()
    with testing.expect_raises(exc.NoSuchTableError):
        reflect()
    with expect_raises_message(exc.ArgumentError, pattern):
        reflect()
    with assert_raises_message(ValueError, "nope", go):
        pass
    expect_raises(ValueError, go)

class T(TestCase):
    def test_django(self):
        with self.assertRaisesMessage(ValueError, "Can't (re)use 'x.y' [1]"):
            f()
        self.assertRaisesMessage(TypeError, "a+b", f, 1)
        self.assertRaisesMessage(TypeError, message, f, 1)
        self.assert_raises_message(KeyError, "k.*", f)
)py");
  EXPECT_EQ(RaisesTests(facts),
            (Strings{
                "5 test_helpers assert_raises_message_call exc.ArgumentError [Column '\\w+' not found]",
                "6 test_helpers assert_raises_call KeyError []",
                "9 test_helpers expect_raises_message exc.InvalidRequestError [Can't reconnect until invalid]",
                "11 test_helpers expect_raises exc.NoSuchTableError []",
                "13 test_helpers expect_raises_message exc.ArgumentError []",
                // Django's message is a literal substring: stored as re.escape of it.
                "21 T.test_django assertRaisesMessage ValueError [Can't\\ \\(re\\)use\\ 'x\\.y'\\ \\[1\\]]",
                "23 T.test_django assertRaisesMessage_call TypeError [a\\+b]",
                "24 T.test_django assertRaisesMessage_call TypeError []",
                "25 T.test_django assert_raises_message_call KeyError [k.*]",
            }));
  // `assert_raises_message((A, B), msg=..., callable_=...)` passes its callable by keyword: like
  // `assertRaisesRegex(T, expected_regex=...)`, not recorded; neither is `assert_raises(T)` alone, a
  // with-form `assert_raises_message` or a call-form `expect_raises`.
  EXPECT_TRUE(facts.sites.empty());
}

// A long Django message is cut at 1024 bytes after escaping, never inside an escape.
TEST(RaisesTestsTest, EscapedMessagesAreCutBetweenEscapes) {
  std::string message(1023, 'a');
  message += ".b";  // escaped: 1023 'a', then "\\.", cut at 1024 bytes would leave a lone backslash
  FileFacts facts =
      Extract("def test_long(self):\n    with self.assertRaisesMessage(E, \"" + message + "\"):\n        f()\n");
  ASSERT_EQ(facts.raises_tests.size(), 1u);
  EXPECT_EQ(facts.raises_tests[0].match, std::string(1023, 'a'));
}

TEST(RaisesTestsTest, CodeIsBounded) {
  std::string source = "import pytest\ndef test_big():\n    with pytest.raises(ValueError):\n";
  for (int i = 0; i < 200; ++i) source += "        call_number_" + std::to_string(i) + "()\n";
  FileFacts facts = TestExtractor().Extract(source, ExtractOptions());
  ASSERT_EQ(facts.raises_tests.size(), 1u);
  EXPECT_LE(facts.raises_tests[0].code.size(), kMaxRaisesTestCodeBytes);
  EXPECT_EQ(facts.raises_tests[0].code.rfind("with pytest.raises(ValueError):\n    call_number_0()\n", 0), 0u);
}

}  // namespace
}  // namespace errdex
