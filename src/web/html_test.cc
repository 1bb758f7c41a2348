// Tests of the one escaping function and the URL helpers of the web pages (src/web/html.h).
#include "web/html.h"

#include <gtest/gtest.h>

namespace errdex::web {
namespace {

TEST(EscapeTest, EscapesTheFiveSpecialCharacters) {
  EXPECT_EQ(Escape("<script>alert(\"x\" & 'y')</script>"),
            "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;");
  EXPECT_EQ(Escape("</textarea><img src=x onerror=alert(1)>"), "&lt;/textarea&gt;&lt;img src=x onerror=alert(1)&gt;");
  EXPECT_EQ(Escape("plain text, {placeholders} and = signs"), "plain text, {placeholders} and = signs");
  EXPECT_EQ(Escape(""), "");
}

TEST(EscapeTest, KeepsValidUtf8AndWhitespace) {
  EXPECT_EQ(Escape("timeout ≤ 60 — «ok» 日本 🙂"), "timeout ≤ 60 — «ok» 日本 🙂");
  EXPECT_EQ(Escape("a\tb\nc\r\n"), "a\tb\nc\r\n");
}

TEST(EscapeTest, ReplacesInvalidUtf8AndControls) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(Escape("a\xFF"
                   "b"),
            "a" + r + "b");
  EXPECT_EQ(Escape("\xC3"), r);                  // truncated sequence
  EXPECT_EQ(Escape("\xC0\xBC"), r + r);          // overlong '<' is not let through as '<'
  EXPECT_EQ(Escape("\xED\xA0\x80"), r + r + r);  // surrogate
  EXPECT_EQ(Escape(std::string("a\0b", 3)), "a" + r + "b");
  EXPECT_EQ(Escape("\x1B[31mred\x7F"), r + "[31mred" + r);
}

TEST(EscapeTest, AppendsToWhatIsThere) {
  std::string out = "<b>";
  AppendEscaped(out, "<i>");
  EXPECT_EQ(out, "<b>&lt;i&gt;");
}

TEST(PercentTest, EncodesEverythingButUnreserved) {
  EXPECT_EQ(PercentEncode("a b/c?d=e&f%<>\"'"), "a%20b%2Fc%3Fd%3De%26f%25%3C%3E%22%27");
  EXPECT_EQ(PercentEncode("a b/c", /*keep_slash=*/true), "a%20b/c");
  EXPECT_EQ(PercentEncode("AZaz09-._~"), "AZaz09-._~");
  EXPECT_EQ(PercentEncode("é"), "%C3%A9");
}

TEST(PercentTest, DecodesAndKeepsMalformedEscapes) {
  EXPECT_EQ(PercentDecode("a%20b%2Fc"), "a b/c");
  EXPECT_EQ(PercentDecode("100%"), "100%");
  EXPECT_EQ(PercentDecode("%zz%4"), "%zz%4");
  EXPECT_EQ(PercentDecode("a+b"), "a+b");
  EXPECT_EQ(PercentDecode("a+b", /*plus_is_space=*/true), "a b");
}

TEST(PercentTest, ParsesFormBodies) {
  auto pairs = ParseFormEncoded("q=ValueError%3A+bad+%3Cthing%3E&empty=&flag&q=second");
  ASSERT_EQ(pairs.size(), 4u);
  EXPECT_EQ(pairs[0], std::make_pair(std::string("q"), std::string("ValueError: bad <thing>")));
  EXPECT_EQ(pairs[1], std::make_pair(std::string("empty"), std::string()));
  EXPECT_EQ(pairs[2], std::make_pair(std::string("flag"), std::string()));
  EXPECT_EQ(pairs[3].second, "second");
  EXPECT_TRUE(ParseFormEncoded("").empty());
  EXPECT_TRUE(ParseFormEncoded("&&").empty());
}

TEST(SafeExternalUrlTest, OnlyHttpAndHttpsWithAHost) {
  EXPECT_EQ(SafeExternalUrl("https://github.com/o/n/blob/abc/p.py#L3"), "https://github.com/o/n/blob/abc/p.py#L3");
  EXPECT_EQ(SafeExternalUrl("http://example.org/x"), "http://example.org/x");
  EXPECT_FALSE(SafeExternalUrl("javascript:alert(1)"));
  EXPECT_FALSE(SafeExternalUrl("JavaScript:alert(1)//https://x"));
  EXPECT_FALSE(SafeExternalUrl("data:text/html,<script>"));
  EXPECT_FALSE(SafeExternalUrl("//evil.example/x"));
  EXPECT_FALSE(SafeExternalUrl("/relative"));
  EXPECT_FALSE(SafeExternalUrl("https://"));
  EXPECT_FALSE(SafeExternalUrl("https:///path"));
  EXPECT_FALSE(SafeExternalUrl(" https://example.org"));
  EXPECT_FALSE(SafeExternalUrl("https://example.org/\" onmouseover=\"alert(1)"));
  EXPECT_FALSE(SafeExternalUrl("https://example.org/<script>"));
  EXPECT_FALSE(SafeExternalUrl("https://example.org/a\nb"));
  EXPECT_FALSE(SafeExternalUrl("https://example.org/\xFF"));
}

TEST(ShortenTextTest, CutsOnWordsWithAnEllipsis) {
  EXPECT_EQ(ShortenText("short", 10), "short");
  EXPECT_EQ(ShortenText("Failed to determine the arguments that were used to compile the module", 40),
            "Failed to determine the arguments…");
  const std::string cut = ShortenText("ééééééééééééééééé", 9);
  EXPECT_LE(cut.size(), 9u);
  EXPECT_EQ(cut.substr(cut.size() - 3), "…");
}

}  // namespace
}  // namespace errdex::web
