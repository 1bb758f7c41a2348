#include "match/anchor.h"

#include <gtest/gtest.h>

namespace errdex {
namespace {

std::vector<std::string> Anchors(const std::vector<std::string>& rendered) {
  std::vector<AlignableTemplate> templates;
  for (const std::string& r : rendered) templates.push_back(PrepareTemplate(r));
  return ChooseAnchors(templates);
}

TEST(AnchorTest, PrefersRareWordsOverCommonOnes) {
  std::vector<std::string> anchors = Anchors({
      "invalid value {x} for gizmotron calibration",
      "invalid value {y} for widget",
      "invalid value {z} for sprocket",
  });
  EXPECT_NE(anchors[0].find("gizmotron"), std::string::npos) << anchors[0];
  EXPECT_NE(anchors[1].find("widget"), std::string::npos) << anchors[1];
  EXPECT_NE(anchors[2].find("sprocket"), std::string::npos) << anchors[2];
}

TEST(AnchorTest, AnchorIsInEveryRendering) {
  std::vector<std::string> anchors = Anchors({"only {n} of {sku} left; restocking soon"});
  ASSERT_FALSE(anchors[0].empty());
  std::string rendering = "only 3 of X-1 left; restocking soon";
  EXPECT_NE(rendering.find(anchors[0]), std::string::npos) << anchors[0];
}

TEST(AnchorTest, TemplatesWithoutAWordHaveNone) {
  std::vector<std::string> anchors = Anchors({"{x}", "{a}: {b}", "{x} ab", ""});
  for (const std::string& a : anchors) EXPECT_EQ(a, "");
}

TEST(AnchorTest, LongPiecesGiveBoundedAnchors) {
  std::string long_word(500, 'q');
  std::vector<std::string> anchors =
      Anchors({"this is a very long message with many words that goes on and on and on {x}", long_word,
               "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9"
               "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9"
               "\xC3\xA9\xC3\xA9"});
  for (const std::string& a : anchors) {
    EXPECT_LE(a.size(), kMaxAnchorBytes);
    EXPECT_GE(a.size(), kMinAnchorBytes);
  }
  // A cut never splits a UTF-8 sequence.
  EXPECT_EQ(anchors[2].size() % 2, 0u);
}

TEST(MatchWordsTest, SplitsAtPunctuation) {
  std::vector<std::string_view> words = MatchWords("can't open 'x.py': errno_2 (é)");
  std::vector<std::string> got(words.begin(), words.end());
  EXPECT_EQ(got, (std::vector<std::string>{"can", "t", "open", "x", "py", "errno_2", "\xC3\xA9"}));
}

}  // namespace
}  // namespace errdex
