// Tests of how a pasted class name is compared with a site's (match/type_agreement.h) when the paste was
// printed by another version of the code: a base written with Python 2's name of OSError
// (`EnvironmentError`), and a project whose package was renamed (the pasted package named like the
// repository).
#include <gtest/gtest.h>

#include <string>

#include "match/explainer.h"
#include "pipeline/indexer.h"
#include "testing/git_test_util.h"
#include "testing/temp_dir.h"

namespace errdex {
namespace {

using namespace testing_util;

const char* const kErrors = R"py(class TokenMissingError(EnvironmentError):
    pass


class SetupException(Exception):
    pass
)py";

const char* const kAuth = R"py(from .errors import SetupException, TokenMissingError


def token(required):
    if required:
        raise TokenMissingError("A token is required, but none was found. Log in with `newtool login` first.")


def devices(wanted, available):
    raise SetupException(f"You requested devices: {wanted}\n But this machine only has: {available}")
)py";

class TypeNamesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteFile(dir_ / "src/newpkg/__init__.py", "");
    WriteFile(dir_ / "src/newpkg/errors.py", kErrors);
    WriteFile(dir_ / "src/newpkg/auth.py", kAuth);
    IndexOptions options;
    options.source = dir_ / "src";
    options.name = "acme/old-pkg";  // the project's package was `old_pkg` before it became `newpkg`
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

TEST_F(TypeNamesTest, OSErrorPastedIsABaseOfAClassDerivedFromEnvironmentError) {
  // An older release raised OSError itself; the reworded hint still shares most words.
  Explanation e = Explain("OSError: A token is required, but none was found. Log in with `oldtool login` first.");
  ASSERT_FALSE(e.matches.empty());
  EXPECT_EQ(e.matches[0].site.function, "token");
  EXPECT_NE(e.matches[0].why.back().find("related"), std::string::npos) << e.matches[0].why.back();
  for (const std::string& w : e.matches[0].why) EXPECT_EQ(w.find("type differs"), std::string::npos) << w;
}

TEST_F(TypeNamesTest, ThePackageNamedLikeTheRepositoryIsTheProjectsOwn) {
  Explanation e = Explain(
      "old_pkg.utilities.exceptions.SetupException: You requested DEVICES: [1]\n"
      " But this machine only has: []");
  ASSERT_FALSE(e.matches.empty());
  EXPECT_EQ(e.matches[0].site.function, "devices");
  for (const std::string& w : e.matches[0].why) EXPECT_EQ(w.find("type differs"), std::string::npos) << w;
  // Another package's class of the same name is another class.
  Explanation other = Explain(
      "otherlib.exceptions.SetupException: You requested DEVICES: [1]\n"
      " But this machine only has: []");
  for (const ExplainMatch& m : other.matches) EXPECT_NE(m.site.function, "devices");
}

}  // namespace
}  // namespace errdex
