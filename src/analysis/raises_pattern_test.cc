// Tests of RaisesPattern: whether a test's `match=` pattern fits an error's template.
#include "analysis/raises_pattern.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/cpu_time.h"

namespace errdex {
namespace {

bool Fits(const std::string& pattern, const std::string& rendered_template) {
  return RaisesPattern(pattern).Matches(PreparePatternTarget(rendered_template));
}

TEST(RaisesPatternTest, LiteralPatterns) {
  EXPECT_TRUE(Fits("stock must be a dict", "stock must be a dict, not {type(stock).__name__}"));
  EXPECT_TRUE(Fits("cannot check out an empty cart", "cannot check out an empty cart"));
  EXPECT_FALSE(Fits("cannot check out a full cart", "cannot check out an empty cart"));
  EXPECT_FALSE(Fits("stock must be a list", "stock must be a dict, not {type(stock).__name__}"));
}

TEST(RaisesPatternTest, RegexPatterns) {
  EXPECT_TRUE(Fits(R"(^quantity must be \w+, got .*$)", "quantity must be positive, got {quantity!r}"));
  EXPECT_TRUE(Fits(R"(got .* instead)", "Device should be CUDA, got {device} instead."));
  EXPECT_TRUE(Fits(R"(Device should be (CUDA|CPU))", "Device should be CUDA, got {device} instead."));
  EXPECT_FALSE(Fits(R"(^got)", "Device should be CUDA, got {device} instead."));
  EXPECT_TRUE(Fits(R"((?i)device SHOULD be cuda)", "Device should be CUDA, got {device} instead."));
  // Escaped metacharacters are literal text; braces of the template are single in the message.
  EXPECT_TRUE(Fits(R"(use one of \{EUR, USD\})", "unsupported currency {currency!r:>5}, use one of {{EUR, USD}}"));
  EXPECT_TRUE(Fits(R"(expected https://\\S\+)", R"(insecure gateway URL (expected https://\S+): {url!r})"));
  // Python's re.escape output (spaces and quotes escaped), and Python's \Z.
  EXPECT_TRUE(Fits(R"(unknown\ device\ 'tpu')", "unknown device 'tpu'"));
  EXPECT_TRUE(RaisesPattern(R"(instead\.\Z)").is_regex());
  EXPECT_TRUE(Fits(R"(instead\.\Z)", "Device should be CUDA, got {device} instead."));
  EXPECT_FALSE(Fits(R"(CUDA\Z)", "Device should be CUDA, got {device} instead."));
}

TEST(RaisesPatternTest, PatternsSpanningAPlaceholder) {
  EXPECT_TRUE(Fits("got cpu", "Device should be CUDA, got {device} instead."));
  EXPECT_TRUE(Fits("got cpu instead", "Device should be CUDA, got {device} instead."));
  EXPECT_TRUE(Fits("unknown SKU 'kiwi'", "unknown SKU {sku!r} in {where}"));
  EXPECT_TRUE(Fits(R"(only 0 of pear left; restocking soon)", "only {available} of {sku} left; restocking soon"));
  EXPECT_TRUE(Fits(R"(only \d+ of pear left)", "only {available} of {sku} left; restocking soon"));
  EXPECT_TRUE(Fits(R"(timeout out of range:\n    expected 0 < timeout ≤ 60, got 99)",
                   "timeout out of range:\n    expected 0 < timeout ≤ 60, got {timeout}"));
  // The literal text around the value must be there, in order.
  EXPECT_FALSE(Fits("got cpu outside", "Device should be CUDA, got {device} instead."));
  EXPECT_FALSE(Fits("instead got cpu", "Device should be CUDA, got {device} instead."));
  EXPECT_FALSE(Fits("unknown SKU 'kiwi'", "unknown product {sku!r}"));
  // A pattern that would lie wholly (or mostly) inside a placeholder says nothing.
  EXPECT_FALSE(Fits("'kiwi'", "unknown SKU {sku!r} in {where}"));
  EXPECT_FALSE(Fits("anything at all", "{message}"));
  EXPECT_FALSE(Fits("a very long value of the placeholder: x", "bad value: {v}"));
  // Anchors hold across placeholders too.
  EXPECT_TRUE(Fits("^unknown SKU 'kiwi' in 'cart'$", "unknown SKU {sku!r} in {where}"));
  EXPECT_FALSE(Fits("^SKU 'kiwi'", "unknown SKU {sku!r} in {where}"));
}

// The alignment through placeholders counts the pattern bytes laid on template text; it needs half of them
// (at least 4): here 9 literal bytes ("xy " and " 12 ab"), so 5. Far into a long template (the rows are
// computed over the columns that hold a score), one byte more or less decides.
TEST(RaisesPatternTest, ThroughPlaceholdersTheNeededBytesDecide) {
  const std::string prefix(1000, 'z');
  const RaisesPattern pattern("xy .* 12 ab");
  const PatternTarget seven = PreparePatternTarget(prefix + "xy {v}2 ab");  // "xy " and "2 ab" on text
  const PatternTarget four = PreparePatternTarget(prefix + "q {v}2 ab");    // "2 ab" only
  EXPECT_TRUE(pattern.MatchesThroughPlaceholders(seven));
  EXPECT_EQ(pattern.Coverage(seven), 7);
  EXPECT_FALSE(pattern.MatchesThroughPlaceholders(four));
  EXPECT_EQ(pattern.Coverage(four), 4);
  EXPECT_TRUE(pattern.MatchesThroughPlaceholders(PreparePatternTarget(prefix + "q {v}12 ab")));  // "12 ab"
}

TEST(RaisesPatternTest, InvalidRegexIsLiteralText) {
  // Look-behind is Python syntax RE2 does not take; an unbalanced parenthesis is no regex at all.
  RaisesPattern lookbehind(R"((?<=a)b)");
  EXPECT_FALSE(lookbehind.is_regex());
  EXPECT_FALSE(lookbehind.Matches(PreparePatternTarget("ab")));
  EXPECT_TRUE(lookbehind.Matches(PreparePatternTarget("text (?<=a)b text")));
  RaisesPattern unbalanced("cannot open (file");
  EXPECT_FALSE(unbalanced.is_regex());
  EXPECT_TRUE(unbalanced.Matches(PreparePatternTarget("cannot open (file {path})")));
  EXPECT_TRUE(unbalanced.Matches(PreparePatternTarget("cannot open (file")));
  EXPECT_TRUE(unbalanced.Matches(PreparePatternTarget("cannot open {path}")));  // path = "(file..."
  EXPECT_FALSE(unbalanced.Matches(PreparePatternTarget("cannot read {path}")));
  EXPECT_TRUE(Fits("[", "a [ b"));  // RE2 refuses it: the text "[" is in the message
  EXPECT_FALSE(Fits("[", "a b {x}"));
}

TEST(RaisesPatternTest, LiteralFragments) {
  bool ignore_case = false;
  auto fragments = [&](const std::string& p) {
    std::vector<std::vector<std::string>> out;
    for (const auto& a : LiteralFragments(p, &ignore_case)) out.push_back(a.fragments);
    return out;
  };
  using F = std::vector<std::vector<std::string>>;
  EXPECT_EQ(fragments(R"(got \d+ of (\w+) left\.)"), (F{{"got ", " of ", " left."}}));
  EXPECT_EQ(fragments(R"(colou?r is (?:red|blue)s? now)"), (F{{"colo", "r is ", " now"}}));
  EXPECT_EQ(fragments(R"(a+b*c{0,2}d{2}e)"), (F{{"a", "d", "e"}}));
  EXPECT_EQ(fragments(R"(one|tw[o0]|\x41\u00e9\N{DASH}z)"), (F{{"one"}, {"tw"}, {"Aé", "z"}}));
  EXPECT_EQ(fragments(R"((?P<name>abc)(?=x)(?#c)d\1e)"), (F{{"abc", "d", "e"}}));
  EXPECT_FALSE(ignore_case);
  EXPECT_EQ(fragments(R"((?i)Hello)"), (F{{"Hello"}}));
  EXPECT_TRUE(ignore_case);
  auto anchors = LiteralFragments(R"(^start|end$|\Aboth\Z)", &ignore_case);
  ASSERT_EQ(anchors.size(), 3u);
  EXPECT_TRUE(anchors[0].anchored_start);
  EXPECT_FALSE(anchors[0].anchored_end);
  EXPECT_TRUE(anchors[1].anchored_end);
  EXPECT_TRUE(anchors[2].anchored_start && anchors[2].anchored_end);
}

TEST(RaisesPatternTest, HostilePatternsStayFast) {
  const std::string long_template = std::string(20000, 'a') + "{x}" + std::string(20000, 'b');
  const std::vector<std::string> patterns = {std::string(5000, '('),
                                             std::string(5000, ')'),
                                             std::string(3000, 'a') + std::string(3000, '?'),
                                             "(a*)*b",
                                             "(?:(?:(?:(?:(?:(?:a)))))))",
                                             std::string(100000, 'x'),
                                             R"(\)",
                                             "",
                                             "[[[[",
                                             "\\x",
                                             "\\u12",
                                             "(?P<x",
                                             "{1,2}{3}",
                                             "a{99999}"};
  const double start = testing::ProcessCpuSeconds();
  for (const std::string& p : patterns) {
    RaisesPattern pattern(p);
    pattern.Matches(PreparePatternTarget(long_template));
    pattern.Matches(PreparePatternTarget("short {x} template"));
  }
  const long ms = testing::CpuMillisecondsSince(start);
  EXPECT_LT(ms, 3000);
}

}  // namespace
}  // namespace errdex
