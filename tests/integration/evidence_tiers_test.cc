// Tests of the evidence `explain` uses when the literal template does not decide (docs/matching.md,
// "Evidence tiers"): the pasted class raised with a run-time message, similar wording of the same class,
// and noise control for templates with little literal text.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "match/explainer.h"
#include "pipeline/indexer.h"
#include "testing/git_test_util.h"
#include "testing/temp_dir.h"

namespace errdex {
namespace {

using namespace testing_util;

const char* const kErrors = R"py(class APIError(Exception):
    pass


class NotFound(APIError):
    pass
)py";

const char* const kClient = R"py(from .errors import APIError, NotFound


def create_error(e, code):
    cls = APIError
    if code == 404:
        cls = NotFound
    raise cls(e)


def login(user):
    raise PermissionError(f"user {user} may not log in to the archive at this hour")
)py";

// A documentation example that raises the library's text itself: not the code users import.
const char* const kExample = R"py(def read_archive():
    raise PermissionError("user bob may not log in to the archive at this hour")
)py";

const char* const kTest = R"py(def test_messages():
    raise Exception("name")
)py";

class EvidenceTiersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteFile(dir_ / "src/pkg/__init__.py", "");
    WriteFile(dir_ / "src/pkg/errors.py", kErrors);
    WriteFile(dir_ / "src/pkg/client.py", kClient);
    WriteFile(dir_ / "src/tests/test_client.py", kTest);
    WriteFile(dir_ / "src/docs_src/tutorial001.py", kExample);
    IndexOptions options;
    options.source = dir_ / "src";
    options.name = "acme/pkg";
    options.catalog = dir_ / "catalog.db";
    options.jobs = 1;
    IndexSummary summary;
    std::string error;
    ASSERT_TRUE(Index(options, &summary, &error)) << error;
  }

  Explanation Explain(std::string_view paste) {
    auto catalog = Catalog::Open(dir_ / "catalog.db", /*read_only=*/true);
    std::string note;
    auto matcher = ErrorMatcher::Load(catalog->matcher_tables(), false, &note);
    return Explainer(*catalog, *matcher).Explain(paste, 5);
  }

  TempDir dir_;
};

TEST_F(EvidenceTiersTest, SubclassChosenAtRunTimeFindsTheSiteRaisingItsBase) {
  Explanation e = Explain("pkg.errors.NotFound: 404 Client Error for url: http://localhost/v1/images/x/json");
  ASSERT_FALSE(e.matches.empty());
  EXPECT_EQ(e.matches[0].site.function, "create_error");
  EXPECT_EQ(e.matches[0].kind, ExplainMatch::Kind::kByType);
  EXPECT_NE(e.matches[0].why[0].find("by type"), std::string::npos);
}

TEST_F(EvidenceTiersTest, ReorderedWordsOfTheSameClassAreSimilar) {
  Explanation e = Explain("PermissionError: at this hour user bob may not log in to the archive");
  ASSERT_FALSE(e.matches.empty());
  EXPECT_EQ(e.matches[0].site.function, "login");
  EXPECT_EQ(e.matches[0].kind, ExplainMatch::Kind::kApproximate);
  EXPECT_NE(e.matches[0].why[0].find("words are shared"), std::string::npos);
}

TEST_F(EvidenceTiersTest, AnOlderWordingWithOtherEndingsAndCaseIsSimilarWords) {
  // Another release's wording: `Users`, `logged`, `Archives` are `user`, `log`, `archive` once case and endings
  // are ignored; most of the message's words are the template's.
  Explanation e = Explain("PermissionError: Users cannot be logged in to Archives at this hour");
  ASSERT_FALSE(e.matches.empty());
  EXPECT_EQ(e.matches[0].site.function, "login");
  EXPECT_EQ(e.matches[0].kind, ExplainMatch::Kind::kApproximate);
  EXPECT_NE(e.matches[0].why[0].find("similar words"), std::string::npos) << e.matches[0].why[0];
  // Another class, or too few shared words, is no match.
  for (const char* paste :
       {"ValueError: Users cannot be logged in to Archives at this hour", "PermissionError: this archive is closed"}) {
    for (const ExplainMatch& m : Explain(paste).matches) EXPECT_NE(m.site.function, "login") << paste;
  }
}

TEST_F(EvidenceTiersTest, ADocumentationExampleRanksAfterTheLibrary) {
  // The example's constant text explains the paste better than the library's f-string; it still comes after.
  Explanation e = Explain("PermissionError: user bob may not log in to the archive at this hour");
  ASSERT_GE(e.matches.size(), 2u);
  EXPECT_EQ(e.matches[0].site.function, "login");
  EXPECT_EQ(e.matches[1].site.function, "read_archive");
  EXPECT_NE(std::find(e.matches[1].why.begin(), e.matches[1].why.end(),
                      "the site is in a documentation example or script, not in the library"),
            e.matches[1].why.end());
}

TEST_F(EvidenceTiersTest, AFewCommonWordsAreNotAMatch) {
  // "name" is all the test's template says: found inside a longer message of another class, it is noise.
  Explanation e = Explain("RuntimeError: the name of the flux capacitor is not set");
  for (const ExplainMatch& m : e.matches) EXPECT_NE(m.site.function, "test_messages");
  EXPECT_TRUE(e.matches.empty());
}

TEST_F(EvidenceTiersTest, APasteFromALibraryNotIndexedSaysSo) {
  Explanation e = Explain(
      "Traceback (most recent call last):\n"
      "  File \"/venv/lib/python3.12/site-packages/otherlib/client.py\", line 12, in get\n"
      "    raise Boom(url)\n"
      "otherlib.errors.Boom: user bob may not log in");
  EXPECT_NE(e.note.find("module otherlib"), std::string::npos) << e.note;
  EXPECT_TRUE(e.matches.empty());
}

TEST_F(EvidenceTiersTest, APasteFromTheIndexedLibrarySaysWhichRepository) {
  Explanation e = Explain("pkg.errors.NotFound: 404 Client Error for url: http://localhost/v1/images/x/json");
  ASSERT_FALSE(e.matches.empty());
  EXPECT_TRUE(e.note.empty());
  const std::vector<std::string>& why = e.matches[0].why;
  EXPECT_TRUE(std::any_of(why.begin(), why.end(), [](const std::string& w) {
    return w.find("the paste points at acme/pkg (module pkg)") != std::string::npos;
  }));
}

TEST_F(EvidenceTiersTest, EveryLinkOfAChainIsMatchedAndTheOutermostAnswers) {
  const char* const paste =
      "Traceback (most recent call last):\n"
      "  File \"/venv/lib/python3.12/site-packages/pkg/client.py\", line 12, in login\n"
      "    raise PermissionError(f\"user {user} may not log in to the archive at this hour\")\n"
      "PermissionError: user bob may not log in to the archive at this hour\n"
      "\n"
      "The above exception was the direct cause of the following exception:\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"/venv/lib/python3.12/site-packages/pkg/client.py\", line 8, in create_error\n"
      "    raise cls(e)\n"
      "pkg.errors.NotFound: 404 Client Error\n";
  Explanation e = Explain(paste);
  ASSERT_FALSE(e.matches.empty());
  EXPECT_EQ(e.matches[0].site.function, "create_error");
  ASSERT_EQ(e.chain.size(), 1u);
  EXPECT_EQ(e.chain[0].site.function, "login");
  // The outer link from a library the catalog lacks: the inner one, which it has, answers.
  std::string wrapped = std::string(paste).substr(0, std::string(paste).find("Traceback", 10)) +
                        "Traceback (most recent call last):\n"
                        "  File \"/venv/lib/python3.12/site-packages/otherlib/api.py\", line 3, in call\n"
                        "    raise Boom(str(exc)) from exc\n"
                        "otherlib.Boom: user bob may not log in to the archive at this hour\n";
  Explanation inner = Explain(wrapped);
  ASSERT_FALSE(inner.matches.empty());
  EXPECT_EQ(inner.matches[0].site.function, "login");
  EXPECT_EQ(inner.type, "PermissionError");
}

}  // namespace
}  // namespace errdex
