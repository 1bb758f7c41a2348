#include "match/loose_similarity.h"

#include <gtest/gtest.h>

namespace errdex {
namespace {

TEST(LooseSimilarityTest, CaseAndEndingsAreIgnored) {
  LooseSimilarity s = CompareLoosely(PrepareTemplate("aiohttp only supports http(s) proxies (got: {proxy.scheme!r})."),
                                     "Only http proxies are supported");
  EXPECT_EQ(s.shared_words, 4u);  // only, http, proxies, support
  EXPECT_GT(s.message_share, 0.8);
  EXPECT_LT(s.template_share, s.message_share);  // `aiohttp` and `got` are the template's only
}

TEST(LooseSimilarityTest, ShortWordsAndPlaceholdersCountForNothing) {
  LooseSimilarity s = CompareLoosely(PrepareTemplate("{a} is in {b}"), "x is in y");
  EXPECT_EQ(s.shared_words, 0u);
  EXPECT_EQ(s.message_share, 0.0);
  EXPECT_EQ(s.template_share, 0.0);
}

TEST(LooseSimilarityTest, DifferentWordsShareNothing) {
  LooseSimilarity s = CompareLoosely(PrepareTemplate("Session is closed"), "Connection reset by peer");
  EXPECT_EQ(s.shared_words, 0u);
  EXPECT_EQ(s.shared_bytes, 0u);
}

TEST(LooseSimilarityTest, HostileInputIsBounded) {
  std::string many;
  for (int i = 0; i < 100000; ++i) many += "word" + std::to_string(i) + " ";
  LooseSimilarity s = CompareLoosely(PrepareTemplate(many), many);
  EXPECT_LE(s.shared_words, 512u);
  EXPECT_GT(s.message_share, 0.0);
}

}  // namespace
}  // namespace errdex
