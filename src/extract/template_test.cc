#include "extract/template.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/cpu_time.h"

namespace errdex {
namespace {

// "L:text" for a literal part, "P:text" for a placeholder.
std::vector<std::string> Describe(const std::vector<TemplatePart>& parts) {
  std::vector<std::string> out;
  for (const TemplatePart& p : parts) out.push_back((p.placeholder ? "P:" : "L:") + p.text);
  return out;
}

using Parts = std::vector<std::string>;

TEST(TemplateTest, EmptyTemplateRendersEmpty) {
  Template t;
  EXPECT_TRUE(t.parts().empty());
  EXPECT_FALSE(t.HasLiteralText());
  EXPECT_EQ(t.Render(), "");
}

TEST(TemplateTest, LiteralAndPlaceholderFactories) {
  EXPECT_EQ(Describe(Template::Literal("abc").parts()), Parts({"L:abc"}));
  EXPECT_EQ(Describe(Template::Placeholder("x.y").parts()), Parts({"P:x.y"}));
  // An empty literal adds no part.
  EXPECT_TRUE(Template::Literal("").parts().empty());
}

TEST(TemplateTest, AdjacentLiteralsAreMerged) {
  Template t;
  t.AppendLiteral("a");
  t.AppendLiteral("b");
  t.AppendPlaceholder("x");
  t.AppendLiteral("c");
  t.AppendLiteral("");
  t.AppendLiteral("d");
  EXPECT_EQ(Describe(t.parts()), Parts({"L:ab", "P:x", "L:cd"}));
}

TEST(TemplateTest, AdjacentPlaceholdersStaySeparate) {
  Template t;
  t.AppendPlaceholder("a");
  t.AppendPlaceholder("b");
  EXPECT_EQ(Describe(t.parts()), Parts({"P:a", "P:b"}));
  EXPECT_EQ(t.Render(), "{a}{b}");
}

TEST(TemplateTest, AppendMergesAtTheSeam) {
  Template a = Template::Literal("x=");
  Template b;
  b.AppendLiteral("[");
  b.AppendPlaceholder("v");
  b.AppendLiteral("]");
  a.Append(b);
  EXPECT_EQ(Describe(a.parts()), Parts({"L:x=[", "P:v", "L:]"}));
  EXPECT_EQ(a.Render(), "x=[{v}]");
}

TEST(TemplateTest, AppendingToItselfIsSafe) {
  Template t = Template::Literal("ab");
  t.AppendPlaceholder("p");
  Template copy = t;
  t.Append(copy);
  EXPECT_EQ(t.Render(), "ab{p}ab{p}");
}

TEST(TemplateTest, HasLiteralText) {
  EXPECT_TRUE(Template::Literal(" ").HasLiteralText());
  EXPECT_FALSE(Template::Placeholder("x").HasLiteralText());
  Template t = Template::Placeholder("x");
  t.AppendLiteral("!");
  EXPECT_TRUE(t.HasLiteralText());
}

TEST(TemplateTest, RenderDoublesLiteralBracesOnly) {
  Template t = Template::Literal("set {a} and }{");
  t.AppendPlaceholder("d['k']");
  t.AppendPlaceholder("x:{w}");  // placeholder text is kept as is, nested braces included
  EXPECT_EQ(t.Render(), "set {{a}} and }}{{{d['k']}{x:{w}}");
}

TEST(TemplateTest, RenderKeepsNonAsciiAndControlCharacters) {
  Template t = Template::Literal("caf\xC3\xA9\n\t\x01");
  EXPECT_EQ(t.Render(), "caf\xC3\xA9\n\t\x01");
}

TEST(TemplateTest, ParseRenderedSimple) {
  EXPECT_EQ(Describe(ParseRenderedTemplate("")), Parts{});
  EXPECT_EQ(Describe(ParseRenderedTemplate("plain")), Parts({"L:plain"}));
  EXPECT_EQ(Describe(ParseRenderedTemplate("bad {x}: {y!r}")), Parts({"L:bad ", "P:x", "L:: ", "P:y!r"}));
  EXPECT_EQ(Describe(ParseRenderedTemplate("{key}")), Parts({"P:key"}));
  EXPECT_EQ(Describe(ParseRenderedTemplate("{}")), Parts({"P:"}));
}

TEST(TemplateTest, ParseRenderedDoubledBracesAreLiteral) {
  EXPECT_EQ(Describe(ParseRenderedTemplate("{{a}}")), Parts({"L:{a}"}));
  EXPECT_EQ(Describe(ParseRenderedTemplate("{{{x}}}")), Parts({"L:{", "P:x", "L:}"}));
  EXPECT_EQ(Describe(ParseRenderedTemplate("}}{{")), Parts({"L:}{"}));
}

TEST(TemplateTest, ParseRenderedNestedBracesAreBalanced) {
  EXPECT_EQ(Describe(ParseRenderedTemplate("w={x:{width}.{prec}} end")),
            Parts({"L:w=", "P:x:{width}.{prec}", "L: end"}));
  EXPECT_EQ(Describe(ParseRenderedTemplate("{ {'a': 1}[k] }")), Parts({"P: {'a': 1}[k] "}));
}

TEST(TemplateTest, ParseRenderedUnbalancedBracesAreLiteral) {
  EXPECT_EQ(Describe(ParseRenderedTemplate("{")), Parts({"L:{"}));
  EXPECT_EQ(Describe(ParseRenderedTemplate("}")), Parts({"L:}"}));
  EXPECT_EQ(Describe(ParseRenderedTemplate("a { b")), Parts({"L:a { b"}));
  EXPECT_EQ(Describe(ParseRenderedTemplate("a } b {c}")), Parts({"L:a } b ", "P:c"}));
  // The first brace never closes; the later one does.
  EXPECT_EQ(Describe(ParseRenderedTemplate("{a {b}")), Parts({"L:{a ", "P:b"}));
  EXPECT_EQ(Describe(ParseRenderedTemplate("{x}}")), Parts({"P:x", "L:}"}));
}

TEST(TemplateTest, RenderThenParseRoundTrips) {
  Template t = Template::Literal("{lit} ");
  t.AppendPlaceholder("a[0]");
  t.AppendLiteral(" } ");
  t.AppendPlaceholder("x!r:>{w}");
  t.AppendLiteral("{");
  EXPECT_EQ(Describe(ParseRenderedTemplate(t.Render())), Describe(t.parts()));
}

TEST(TemplateTest, NormalizeReplacesEveryPlaceholder) {
  EXPECT_EQ(NormalizeTemplate(""), "");
  EXPECT_EQ(NormalizeTemplate("no placeholders"), "no placeholders");
  EXPECT_EQ(NormalizeTemplate("bad {name}: {value!r}"), "bad {}: {}");
  EXPECT_EQ(NormalizeTemplate("{x!r:>10}|{len(items)}|{d['k']}"), "{}|{}|{}");
  EXPECT_EQ(NormalizeTemplate("{x:{width}.{prec}}"), "{}");
  EXPECT_EQ(NormalizeTemplate("{key}"), "{}");
  EXPECT_EQ(NormalizeTemplate("{}"), "{}");
}

TEST(TemplateTest, NormalizeKeepsDoubledBraces) {
  EXPECT_EQ(NormalizeTemplate("{{literal}} {x}"), "{{literal}} {}");
  EXPECT_EQ(NormalizeTemplate("{{{x}}}"), "{{{}}}");
  EXPECT_EQ(NormalizeTemplate("}}"), "}}");
}

TEST(TemplateTest, NormalizeRendersUnbalancedBracesAsLiteral) {
  // A lone brace is literal text, shown doubled like every literal brace.
  EXPECT_EQ(NormalizeTemplate("a { b"), "a {{ b");
  EXPECT_EQ(NormalizeTemplate("a } b"), "a }} b");
}

TEST(TemplateTest, NormalizeIsIdempotent) {
  for (const char* t : {"bad {x}", "{{a}} {b:{c}}", "x", "{", "}} {y}"}) {
    std::string once = NormalizeTemplate(t);
    EXPECT_EQ(NormalizeTemplate(once), once) << t;
  }
}

TEST(TemplateTest, NormalizeLongPlaceholder) {
  // A placeholder is a placeholder whatever its length (the source text of a large expression).
  std::string expr(10000, 'x');
  EXPECT_EQ(NormalizeTemplate("a {" + expr + "} b"), "a {} b");
}

// Hostile rendered text: many unclosed braces must not make parsing quadratic.
TEST(TemplateTest, ManyUnclosedBracesStayFast) {
  const double start = testing::ProcessCpuSeconds();
  std::string opens;
  for (int i = 0; i < 100000; ++i) opens += "{ ";
  std::string normalized = NormalizeTemplate(opens);
  EXPECT_EQ(normalized.size(), 200000u * 3 / 2);  // every `{` doubled
  std::string mixed;
  for (int i = 0; i < 100000; ++i) mixed += "{a";
  mixed += "}";
  std::vector<TemplatePart> parts = ParseRenderedTemplate(mixed);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_FALSE(parts[0].placeholder);
  EXPECT_TRUE(parts[1].placeholder);
  EXPECT_EQ(parts[1].text, "a");
  const long ms = testing::CpuMillisecondsSince(start);
  EXPECT_LT(ms, 1000);
}

}  // namespace
}  // namespace errdex
