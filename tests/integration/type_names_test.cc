// Tests of how a pasted class name is compared with a site's (match/type_agreement.h) when the paste was
// printed by another version of the code: a base written with Python 2's name of OSError
// (`EnvironmentError`), a project whose package was renamed (the pasted package named like the
// repository), a class renamed to take the `Error` suffix, and a library class whose message was
// reworded, raised in the file the traceback ends in (docs/matching.md, tiers).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "match/explainer.h"
#include "pipeline/indexer.h"
#include "testing/git_test_util.h"
#include "testing/indexed_fixture.h"
#include "testing/temp_dir.h"

namespace errdex {
namespace {

using namespace testing_util;

const char* const kErrors = R"py(class TokenMissingError(EnvironmentError):
    pass


class SetupException(Exception):
    pass
)py";

const char* const kSolver = R"py(import warnings


class SolveFailureError(Exception):
    pass


class OverrideNeeded(Exception):
    pass


class ReturnWarning(UserWarning):
    pass


def _resolve_conflict(incompatibility, overrides):
    if overrides:
        raise OverrideNeeded(*overrides)
    raise SolveFailureError(incompatibility)


def call_test(result, nodeid):
    if result is not None:
        warnings.warn(ReturnWarning(f"Test functions should return None, but {nodeid} returned {type(result)!r}."))
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
    WriteFile(dir_ / "src/newpkg/solver.py", kSolver);
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

TEST_F(TypeNamesTest, AClassRenamedToTakeTheErrorSuffixIsRelatedToItsOldName) {
  // Poetry's Cleo report of an older release: `SolveFailure` was renamed `SolveFailureError`; the frame pins
  // the function, the old name tells its two raises apart.
  Explanation e = Explain(
      "  SolveFailure\n"
      "\n"
      "  Because app depends on lib (0.1.7) which depends on dep (<2.1.0), version solving failed.\n"
      "\n"
      "  at /venv/lib/python3.9/site-packages/newpkg/solver.py:349 in _resolve_conflict\n"
      "      348│ \n"
      "    → 349│         raise SolveFailure(incompatibility)\n");
  ASSERT_FALSE(e.matches.empty());
  EXPECT_EQ(e.matches[0].site.line, 19);
  EXPECT_EQ(e.matches[0].kind, ExplainMatch::Kind::kPinnedByFrame);
  for (const ExplainMatch& m : e.matches) EXPECT_NE(m.site.line, 18) << "OverrideNeeded is another class";
  // Another suffix is another class.
  Explanation other = Explain(
      "  SolveFailureException\n"
      "\n"
      "  Because app depends on lib (0.1.7) which depends on dep (<2.1.0), version solving failed.\n"
      "\n"
      "  at /venv/lib/python3.9/site-packages/newpkg/solver.py:349 in _resolve_conflict\n"
      "    → 349│         raise SolveFailureException(incompatibility)\n");
  for (const ExplainMatch& m : other.matches) EXPECT_NE(m.site.line, 19);
}

TEST_F(TypeNamesTest, ALibraryClassRewordedInTheFileTheTracebackEndsInIsAnApproximateMatch) {
  const char* const paste =
      "tests/test_hist.py::test_transpose\n"
      "  /venv/lib/python3.9/site-packages/newpkg/solver.py:198: ReturnWarning: Expected None, but "
      "tests/test_hist.py::test_transpose returned NotImplemented, which will be an error in a future version.\n"
      "    warnings.warn(\n";
  Explanation e = Explain(paste);
  ASSERT_FALSE(e.matches.empty());
  EXPECT_EQ(e.matches[0].site.function, "call_test");
  EXPECT_EQ(e.matches[0].kind, ExplainMatch::Kind::kApproximate);
  EXPECT_NE(e.matches[0].why[0].find("in the file the traceback ends in"), std::string::npos) << e.matches[0].why[0];
  // Without the file, the reworded text alone is no match.
  std::string bare =
      "ReturnWarning: Expected None, but t returned NotImplemented, which will be an error in a "
      "future version.";
  for (const ExplainMatch& m : Explain(bare).matches) EXPECT_NE(m.site.function, "call_test");
}

TEST_F(TypeNamesTest, ATopLevelPackageCutOffKeepsTheRestOfThePath) {
  // `newpkg` pasted as `pkg`: the module and the class after it are the site's.
  Explanation e = Explain(
      "pkg.errors.TokenMissingError: A token is required, but none was found. Log in with "
      "`newtool login` first.");
  ASSERT_FALSE(e.matches.empty());
  EXPECT_EQ(e.matches[0].site.function, "token");
  for (const std::string& w : e.matches[0].why) EXPECT_EQ(w.find("type differs"), std::string::npos) << w;
  EXPECT_TRUE(e.note.empty()) << e.note;
  // Another module path is another class.
  Explanation other = Explain("pkg.auth.TokenMissingError: A token is required, but none was found.");
  for (const ExplainMatch& m : other.closest) {
    if (m.site.function != "token") continue;
    EXPECT_TRUE(std::any_of(m.why.begin(), m.why.end(),
                            [](const std::string& w) { return w.find("type differs") != std::string::npos; }));
  }
  EXPECT_TRUE(other.matches.empty());
}

TEST_F(TypeNamesTest, APasteLowerCasedWholeIsComparedIgnoringCase) {
  // The type's capitals come back from the catalog's one class of that name; the text is compared lower-cased.
  Explanation e =
      Explain("tokenmissingerror: a token is required, but none was found. log in with `newtool login` first.");
  ASSERT_FALSE(e.matches.empty());
  EXPECT_EQ(e.type, "TokenMissingError");
  EXPECT_EQ(e.matches[0].site.function, "token");
  EXPECT_EQ(e.matches[0].kind, ExplainMatch::Kind::kExact);
  // A builtin's capitals come from Python's table.
  EXPECT_EQ(Explain("oserror: a token is required, but none was found. log in with `newtool login` first.").type,
            "OSError");
  // One capital anywhere: the paste was not lower-cased, the words are not a type.
  Explanation mixed = Explain("tokenmissingerror: A token is required, but none was found.");
  EXPECT_EQ(mixed.type, "");
}

// Two classes of one name in two modules of one package, like oauthlib's OAuth 1 and OAuth 2
// `InsecureTransportError`: Python prints the defining module, so the pasted one is not the other's, whose
// raise comes first in the catalog (`oauth1` before `oauth2`) and is no nearer by reach.
TEST(TwoClassesOfOneNameTest, ThePrintedModuleTellsThemApart) {
  IndexedFixture fixture;
  fixture.Write("authkit/__init__.py", "");
  fixture.Write("authkit/oauth1/__init__.py", "");
  fixture.Write("authkit/oauth1/errors.py", "class InsecureTransportError(Exception):\n    pass\n");
  fixture.Write("authkit/oauth1/endpoint.py",
                "from .errors import InsecureTransportError\n\n\ndef check(uri):\n"
                "    if not uri.startswith('https://'):\n        raise InsecureTransportError()\n");
  fixture.Write("authkit/oauth2/__init__.py", "");
  fixture.Write("authkit/oauth2/errors.py", "class InsecureTransportError(Exception):\n    pass\n");
  fixture.Write("authkit/oauth2/params.py",
                "from .errors import InsecureTransportError\n\n\ndef prepare(uri):\n"
                "    if not uri.startswith('https://'):\n        raise InsecureTransportError()\n");
  std::string error;
  ASSERT_TRUE(fixture.Index("acme/authkit", &error)) << error;
  for (const char* module : {"oauth1", "oauth2"}) {
    Explanation e = fixture.Explain(fmt::format("authkit.{}.errors.InsecureTransportError: insecure transport", module));
    ASSERT_FALSE(e.matches.empty()) << module;
    EXPECT_EQ(e.matches[0].site.path, std::string(module == std::string("oauth1") ? "authkit/oauth1/endpoint.py"
                                                                                  : "authkit/oauth2/params.py"));
    for (const ExplainMatch& m : e.matches) {
      EXPECT_EQ(m.site.path.find(module == std::string("oauth1") ? "oauth2" : "oauth1"), std::string::npos)
          << m.site.path;
    }
  }
  // The bare name prints no module: both are the pasted class.
  Explanation bare = fixture.Explain("InsecureTransportError: insecure transport");
  EXPECT_GE(bare.matches.size(), 2u);
}

}  // namespace
}  // namespace errdex
