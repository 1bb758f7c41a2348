#include "match/loose_similarity.h"

#include <gtest/gtest.h>

#include <string>

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

TEST(LooseSimilarityTest, ValuesAreNotWording) {
  // huggingface_hub 0.9's one-line wording against today's several lines: the URL, the status and the request
  // id are what placeholders held; the message's own words are nearly all the template's.
  LooseSimilarity s = CompareLoosely(
      PrepareTemplate("{response.status_code} Client Error.\n\nRepository Not Found for url: {response.url}.\n"
                      "If you are trying to access a private or gated repo, make sure you are authenticated.\n"
                      "For more details, see https://huggingface.co/docs/huggingface_hub/authentication"),
      "401 Client Error: Repository Not Found for url: https://huggingface.co/cakiki/arxiv_taxonomy/resolve/main/"
      "README.md. If the repo is private, make sure you are authenticated. (Request ID: hMJcPE_5pIwLsE27s2pLt)");
  EXPECT_GT(s.message_share, 0.85);
  // A path, a number or an id shares nothing, whatever words it is made of.
  LooseSimilarity values =
      CompareLoosely(PrepareTemplate("Repository not found for url {url}"),
                     "/srv/repository/not/found 404 url_for_repository_2 http://found.example/url");
  EXPECT_EQ(values.shared_words, 0u);
  EXPECT_EQ(values.message_share, 0.0);
  // Words that only look like values' neighbours stay words: `and/or` is one separator, not a path.
  EXPECT_EQ(CompareLoosely(PrepareTemplate("either path and/or name"), "name and/or path").shared_words, 3u);
}

// Words of letters only, distinct: "wordba", "wordbb", ...
std::string LetterWord(int i) {
  std::string w = "word";
  do {
    w += static_cast<char>('a' + i % 26);
    i /= 26;
  } while (i > 0);
  return w;
}

TEST(LooseSimilarityTest, HostileInputIsBounded) {
  std::string many;
  for (int i = 0; i < 100000; ++i) many += LetterWord(i) + " ";
  LooseSimilarity s = CompareLoosely(PrepareTemplate(many), many);
  EXPECT_LE(s.shared_words, 512u);
  EXPECT_GT(s.message_share, 0.0);
}

}  // namespace
}  // namespace errdex
