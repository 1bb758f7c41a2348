// Tests of the three-valued evaluation of path conditions with known names (src/python/condition_truth.h).
#include "python/condition_truth.h"

#include <gtest/gtest.h>

#include <string>
#include <unordered_map>
#include <vector>

namespace errdex {
namespace {

Condition Cond(const std::string& kind, const std::string& code, bool negated = false) {
  Condition c;
  c.kind = kind;
  c.code = code;
  c.negated = negated;
  return c;
}

KnownValue Value(KnownValue::Kind kind, long long integer = 0, const std::string& text = "") {
  KnownValue v;
  v.kind = kind;
  v.integer = integer;
  v.text = text;
  return v;
}

using Values = std::unordered_map<std::string, KnownValue>;
using K = KnownValue::Kind;

TEST(ConditionTruthTest, DecidesComparisonsAndTruthOfKnownNames) {
  ConditionTruth truth;
  const Values none = {{"path", Value(K::kNone)}};
  const Values object = {{"path", Value(K::kNotNone)}};
  EXPECT_TRUE(truth.Possible({Cond("if", "if path is None:")}, none));
  EXPECT_FALSE(truth.Possible({Cond("if", "if path is None:")}, object));
  EXPECT_FALSE(truth.Possible({Cond("if", "if path is None:", true)}, none));
  EXPECT_FALSE(truth.Possible({Cond("early_exit", "if path is not None:", true)}, object));
  // `path` of an object: its truth is unknown, so nothing is decided.
  EXPECT_TRUE(truth.Possible({Cond("if", "if not (path is None or path):")}, object));
  const Values mode = {{"mode", Value(K::kString, 0, "auto")}, {"n", Value(K::kInt, 3)}};
  EXPECT_FALSE(truth.Possible({Cond("if", "if mode == 'manual' and n > 2:")}, mode));
  EXPECT_TRUE(truth.Possible({Cond("elif", "elif mode != 'manual' and n > 2:")}, mode));
  EXPECT_FALSE(truth.Possible({Cond("while", "while n < 0:")}, mode));
  EXPECT_FALSE(truth.Possible({Cond("if", "if isinstance(path, str):")}, none));
  const Values empty = {{"froms", Value(K::kEmpty)}};
  EXPECT_FALSE(truth.Possible({Cond("if", "if auto and froms and len(x) > 1:")}, empty));
  EXPECT_FALSE(truth.Possible({Cond("if", "if froms is None:")}, empty));
  EXPECT_TRUE(truth.Possible({Cond("if", "if froms == []:")}, empty));
  // Unknown names, calls and `for`/`with` headers decide nothing.
  EXPECT_TRUE(truth.Possible({Cond("if", "if other is None:", true)}, none));
  EXPECT_TRUE(truth.Possible({Cond("if", "if check(path):")}, none));
  EXPECT_TRUE(truth.Possible({Cond("for", "for path in paths:")}, none));
  EXPECT_TRUE(truth.Possible({Cond("if", "if path == other:")}, object));
}

TEST(ConditionTruthTest, ATextAskedAgainIsDecidedForTheValuesOfEachAsk) {
  // Each condition text is parsed once and its tree kept: the answers still follow the values of each ask.
  ConditionTruth truth;
  const Values none = {{"x", Value(K::kNone)}};
  const Values empty = {{"x", Value(K::kEmpty)}};
  const Values object = {{"x", Value(K::kNotNone)}};
  for (int round = 0; round < 3; ++round) {
    EXPECT_TRUE(truth.Possible({Cond("if", "if x is None:")}, none));
    EXPECT_FALSE(truth.Possible({Cond("if", "if x is None:")}, object));
    EXPECT_FALSE(truth.Possible({Cond("for", "for item in x:")}, empty));
    EXPECT_TRUE(truth.Possible({Cond("for", "for item in x:")}, object));
    EXPECT_TRUE(truth.Possible({Cond("assert", "assert x is not None")}, none));
    EXPECT_FALSE(truth.Possible({Cond("assert", "assert x is not None")}, object));
  }
}

TEST(ConditionTruthTest, TheLengthOfAKnownContainerOrStringIsAnInteger) {
  ConditionTruth truth;
  const Values one = {
      {"args", Value(K::kSized, 1)}, {"kwargs", Value(K::kEmpty)}, {"name", Value(K::kString, 0, "abc")}};
  EXPECT_TRUE(truth.Possible({Cond("if", "if args:")}, one));  // a sized tuple is true
  EXPECT_FALSE(truth.Possible({Cond("if", "if kwargs:")}, one));
  EXPECT_FALSE(truth.Possible({Cond("if", "if len(args) > 1:")}, one));
  EXPECT_TRUE(truth.Possible({Cond("if", "if len(args) == 1:")}, one));
  EXPECT_FALSE(truth.Possible({Cond("if", "if len(kwargs):")}, one));
  EXPECT_FALSE(truth.Possible({Cond("if", "if len(name) != 3:")}, one));
  EXPECT_FALSE(truth.Possible({Cond("if", "if args is None:")}, one));
  // Not decided: a sized tuple compared with `==`, `len` of an unknown name or of two arguments.
  EXPECT_TRUE(truth.Possible({Cond("if", "if args == ():")}, one));
  EXPECT_TRUE(truth.Possible({Cond("if", "if len(other) > 1:")}, one));
  EXPECT_TRUE(truth.Possible({Cond("if", "if len(args, 2) > 1:")}, one));
  const Values wide = {{"name", Value(K::kString, 0, "\xc3\xa9")}};  // two bytes, one character
  EXPECT_TRUE(truth.Possible({Cond("if", "if len(name) == 1:")}, wide));
  EXPECT_TRUE(truth.Possible({Cond("if", "if len(name) == 2:")}, wide));
}

TEST(ConditionTruthTest, AForBodyRunsOnlyForAnItemOfItsIterable) {
  ConditionTruth truth;
  // `aliases: Sequence[str] = ()` left out: the loop's body never runs; None or an int is no iterable.
  EXPECT_FALSE(truth.Possible({Cond("for", "for alias in aliases:")}, {{"aliases", Value(K::kEmpty)}}));
  EXPECT_FALSE(truth.Possible({Cond("for", "for alias in (aliases):")}, {{"aliases", Value(K::kNone)}}));
  EXPECT_FALSE(truth.Possible({Cond("for", "for i in n:")}, {{"n", Value(K::kInt, 3)}}));
  EXPECT_FALSE(truth.Possible({Cond("for", "async for c in text:")}, {{"text", Value(K::kString, 0, "")}}));
  EXPECT_TRUE(truth.Possible({Cond("for", "for c in text:")}, {{"text", Value(K::kString, 0, "ab")}}));
  EXPECT_TRUE(truth.Possible({Cond("for", "for alias in aliases:")}, {{"aliases", Value(K::kNotNone)}}));
  EXPECT_TRUE(truth.Possible({Cond("for", "for alias in sorted(aliases):")}, {{"aliases", Value(K::kEmpty)}}));
  EXPECT_TRUE(truth.Possible({Cond("for", "for a, b in pairs:")}, {}));
}

TEST(ConditionTruthTest, TheTestsOfOneChainCannotContradictEachOther) {
  ConditionTruth truth;
  const std::vector<Condition> chain = {Cond("while", "while current:"),
                                        Cond("if", "if current._parent is upto:", true),
                                        Cond("elif", "elif current._parent is None:")};
  EXPECT_FALSE(truth.Possible(chain, {{"upto", Value(K::kNone)}}));
  EXPECT_TRUE(truth.Possible(chain, {{"upto", Value(K::kNotNone)}}));
  EXPECT_TRUE(truth.Possible(chain, {}));
  // Separate statements (an early exit, then an `if`) may see the attribute change in between.
  EXPECT_TRUE(truth.Possible({Cond("early_exit", "if x.y is upto:", true), Cond("if", "if x.y is None:")},
                             {{"upto", Value(K::kNone)}}));
}

TEST(ConditionTruthTest, AnAssertRaisesOnlyWhenItsTestIsFalse) {
  ConditionTruth truth;
  const Values off = {{"withinit", Value(K::kFalse)}};
  const Values on = {{"withinit", Value(K::kTrue)}};
  EXPECT_FALSE(truth.Possible({Cond("assert", "assert not withinit, \"not supported for paths\"\n")}, off));
  EXPECT_TRUE(truth.Possible({Cond("assert", "assert not withinit, \"not supported for paths\"\n")}, on));
  // Several lines, a message with a comma; unknown names decide nothing; a broken statement is possible.
  EXPECT_FALSE(truth.Possible({Cond("assert", "assert (withinit is False or\nother), (\n'a, b')\n")}, off));
  EXPECT_TRUE(truth.Possible({Cond("assert", "assert other\n")}, off));
  EXPECT_TRUE(truth.Possible({Cond("assert", "assert (withinit\n")}, off));
}

TEST(ConditionTruthTest, AnAttributeOfANameIsKnownByItsText) {
  ConditionTruth truth;
  const Values closed = {{"self._closed", Value(K::kFalse)}, {"self.info", Value(K::kNotNone)}};
  EXPECT_FALSE(truth.Possible({Cond("if", "if self._closed:")}, closed));
  EXPECT_TRUE(truth.Possible({Cond("if", "if not self._closed:")}, closed));
  EXPECT_FALSE(truth.Possible({Cond("assert", "assert self.info is not None, (\n'built'\n)\n")}, closed));
  EXPECT_FALSE(truth.Possible({Cond("if", "if self . info is None:")}, closed));
  // Another attribute, or the attribute of an attribute, is unknown.
  EXPECT_TRUE(truth.Possible({Cond("if", "if self.other:")}, closed));
  EXPECT_TRUE(truth.Possible({Cond("if", "if self.info.done:")}, closed));
}

KnownValue Classes(K kind, std::vector<std::string> classes, bool exact = false, bool truthy = false) {
  KnownValue v;
  v.kind = kind;
  v.classes = std::move(classes);
  v.complete = true;
  v.exact = exact;
  v.truthy = truthy;
  return v;
}

TEST(ConditionTruthTest, DecidesIdentityAndIsinstanceOfInstancesOfKnownClasses) {
  ConditionTruth truth;
  const KnownValue column = Classes(K::kInstance, {"pkg.ColumnProperty", "pkg.MapperProperty"}, true, true);
  const KnownValue self = Classes(K::kInstance, {"pkg.Node", "pkg.Base"});
  const Values values = {{"p", column},
                         {"node", self},
                         {"MapperProperty", Classes(K::kClass, {"pkg.MapperProperty"})},
                         {"Base", Classes(K::kClass, {"pkg.Base"})},
                         {"Other", Classes(K::kClass, {"pkg.Other"})},
                         {"NOTSET", Classes(K::kSentinel, {"pkg.NotSetType", "enum.Enum"})},
                         {"NotSetType.token", Classes(K::kSentinel, {"pkg.NotSetType", "enum.Enum"})},
                         {"ME", Classes(K::kSentinel, {"pkg.Node", "pkg.Base"})}};
  EXPECT_FALSE(truth.Possible({Cond("if", "if not isinstance(p, MapperProperty):")}, values));
  EXPECT_FALSE(truth.Possible({Cond("if", "if isinstance(p, (Other, dict)):")}, values));
  EXPECT_TRUE(truth.Possible({Cond("if", "if isinstance(p, (Other, MapperProperty)):")}, values));
  EXPECT_FALSE(truth.Possible({Cond("if", "if p is None or p is NOTSET:")}, values));
  EXPECT_FALSE(truth.Possible({Cond("if", "if p is NotSetType.token:")}, values));
  EXPECT_FALSE(truth.Possible({Cond("if", "if not p:")}, values));
  // `self`: of its class or a subclass; only what holds for every subclass is decided.
  EXPECT_FALSE(truth.Possible({Cond("if", "if not isinstance(node, Base):")}, values));
  EXPECT_TRUE(truth.Possible({Cond("if", "if isinstance(node, Other):")}, values));
  EXPECT_TRUE(truth.Possible({Cond("if", "if not node:")}, values));
  EXPECT_FALSE(truth.Possible({Cond("elif", "elif node is NOTSET:")}, values));
  // A sentinel of the instance's own class may be it; an object's `==` is its own.
  EXPECT_TRUE(truth.Possible({Cond("if", "if node is ME:")}, values));
  EXPECT_TRUE(truth.Possible({Cond("if", "if p == None:")}, values));
  // A literal is of its builtin class: never a plain Enum's member nor an `object()`.
  Values literals = values;
  literals["name"] = Value(K::kString, 0, "x");
  literals["flag"] = Value(K::kTrue);
  literals["NUMBER"] = Classes(K::kSentinel, {"pkg.Size", "builtins.int", "builtins.object"});
  EXPECT_FALSE(truth.Possible({Cond("if", "if name is NOTSET or flag is NOTSET:")}, literals));
  EXPECT_TRUE(truth.Possible({Cond("if", "if flag is NUMBER:")}, literals));
}

}  // namespace
}  // namespace errdex
