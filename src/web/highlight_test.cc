// Tests of the Python highlighting of the web pages (src/web/highlight.h).
#include "web/highlight.h"

#include <gtest/gtest.h>

namespace errdex::web {
namespace {

TEST(HighlightTest, KeywordsStringsCommentsNumbers) {
  auto lines = HighlightPython("if x > 10:  # too many\n    raise ValueError(f\"got {x}\")\n");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "<span class=\"kw\">if</span> x &gt; <span class=\"nu\">10</span>:  <span class=\"cm\"># too many</span>");
  EXPECT_EQ(lines[1], "    <span class=\"kw\">raise</span> ValueError(<span class=\"st\">f&quot;got {x}&quot;</span>)");
}

TEST(HighlightTest, IdentifiersContainingKeywordsAreNotKeywords) {
  auto lines = HighlightPython("raised = ifx or notin");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "raised = ifx <span class=\"kw\">or</span> notin");
}

TEST(HighlightTest, TripleQuotedStringsSpanLinesWithSpansClosedPerLine) {
  auto lines = HighlightPython("x = '''one\ntwo # not a comment\nthree''' # comment");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "x = <span class=\"st\">&#39;&#39;&#39;one</span>");
  EXPECT_EQ(lines[1], "<span class=\"st\">two # not a comment</span>");
  EXPECT_EQ(lines[2], "<span class=\"st\">three&#39;&#39;&#39;</span> <span class=\"cm\"># comment</span>");
}

TEST(HighlightTest, PrefixesEscapesAndUnterminatedStrings) {
  auto lines = HighlightPython("a = rb'\\d+' + b\"\\\"q\\\"\" + 'open\nnext = 1");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(
      lines[0],
      "a = <span class=\"st\">rb&#39;\\d+&#39;</span> + <span class=\"st\">b&quot;\\&quot;q\\&quot;&quot;</span> + "
      "<span class=\"st\">&#39;open</span>");
  EXPECT_EQ(lines[1], "next = <span class=\"nu\">1</span>");
}

TEST(HighlightTest, DecoratorsAndBlankLinesKeepLineNumbers) {
  auto lines = HighlightPython("\n@app.route('/x')\ndef f():\r\n\r\n    return 0x1F\n");
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0], "");
  EXPECT_EQ(lines[1], "<span class=\"dc\">@app.route</span>(<span class=\"st\">&#39;/x&#39;</span>)");
  EXPECT_EQ(lines[2], "<span class=\"kw\">def</span> f():");
  EXPECT_EQ(lines[3], "");
  EXPECT_EQ(lines[4], "    <span class=\"kw\">return</span> <span class=\"nu\">0x1F</span>");
}

TEST(HighlightTest, HostileCodeIsEscapedEverywhere) {
  auto lines = HighlightPython(
      "raise X(\"</script><script>alert(1)</script>\")  # <img src=x onerror=alert(2)>\n"
      "</textarea> & <b>");
  ASSERT_EQ(lines.size(), 2u);
  for (const std::string& line : lines) {
    EXPECT_EQ(line.find("<script"), std::string::npos) << line;
    EXPECT_EQ(line.find("<img"), std::string::npos) << line;
    EXPECT_EQ(line.find("</textarea"), std::string::npos) << line;
    EXPECT_EQ(line.find("<b>"), std::string::npos) << line;
  }
  EXPECT_NE(lines[1].find("&lt;/textarea&gt; &amp; &lt;b&gt;"), std::string::npos);
}

TEST(HighlightTest, EmptyAndInvalidInput) {
  EXPECT_TRUE(HighlightPython("").empty());
  auto lines = HighlightPython("x = '\xFF'");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("\xEF\xBF\xBD"), std::string::npos);
}

}  // namespace
}  // namespace errdex::web
