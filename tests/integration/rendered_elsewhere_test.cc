// Messages rendered outside the raise (docs/extraction.md, "Templates"; docs/matching.md): each form indexed
// from a fixture package and found from the text Python prints for it.
#include <gtest/gtest.h>

#include <string>

#include "match/explainer.h"
#include "pipeline/indexer.h"
#include "testing/git_test_util.h"
#include "testing/temp_dir.h"

namespace errdex {
namespace {

using namespace testing_util;

const char* const kForms = R"py(import warnings

ERR_NO_CONFIG = """
No configuration file was found in the project directory.
"""


class NoSuchSetting(KeyError):
    pass


class InvalidFile(ValueError):
    def __init__(self, message="The file is not a settings file"):
        ValueError.__init__(self, message)


class RemoteFailure(Exception):
    @property
    def message(self):
        return f"the remote settings service answered {self.status}"

    def __str__(self):
        return self.message


class InterpolationError(Exception):
    def __init__(self, option, section, msg):
        Exception.__init__(self, msg)


class MissingReference(InterpolationError):
    def __init__(self, option, section, reference):
        msg = "Bad reference in option {!r} of section {!r}: {!r}".format(option, section, reference)
        InterpolationError.__init__(self, option, section, msg)


def setting(name):
    raise NoSuchSetting(f"no setting named {name}")


def scale(margin):
    raise ValueError(f"the scale needs a positive {margin=}")


def load():
    raise RuntimeError(ERR_NO_CONFIG.strip())


def parse(data):
    raise InvalidFile()


def fetch():
    raise RemoteFailure()


def resolve(option, section, reference):
    raise MissingReference(option, section, reference)


def _deprecated(what):
    warnings.warn(what, DeprecationWarning, stacklevel=3)


def old_loader():
    _deprecated("old_loader() is deprecated and will be removed, use load()")


class SettingsWarning(UserWarning):
    pass


class Loader:
    def _issue(self, warning):
        warnings.warn(warning, stacklevel=2)

    def legacy(self, name):
        self._issue(SettingsWarning(f"the legacy setting {name} is ignored"))
)py";

class RenderedElsewhereTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    WriteFile(*dir_ / "src/settings/__init__.py", "");
    WriteFile(*dir_ / "src/settings/forms.py", kForms);
    IndexOptions options;
    options.source = *dir_ / "src";
    options.name = "acme/settings";
    options.catalog = *dir_ / "catalog.db";
    options.jobs = 1;
    IndexSummary summary;
    std::string error;
    ASSERT_TRUE(Index(options, &summary, &error)) << error;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  // The function of the first match when its text decides (the site's own text or its class's, not the
  // pasted class alone: each class of the fixture is raised once, so the type would find it anyway), with
  // its bindings; "(nothing)" otherwise.
  static std::string FunctionOf(std::string_view paste) {
    auto catalog = Catalog::Open(*dir_ / "catalog.db", /*read_only=*/true);
    std::string note;
    auto matcher = ErrorMatcher::Load(catalog->matcher_tables(), false, &note);
    Explanation e = Explainer(*catalog, *matcher).Explain(paste, 5);
    if (e.matches.empty()) return "(nothing)";
    const ExplainMatch& m = e.matches[0];
    if (m.kind != ExplainMatch::Kind::kExact && m.kind != ExplainMatch::Kind::kClassMessage) return "(not by text)";
    std::string out = m.site.function;
    for (const auto& [name, value] : m.bindings) out += " " + name + "=" + value;
    return out;
  }

  static TempDir* dir_;
};

TempDir* RenderedElsewhereTest::dir_ = nullptr;

TEST_F(RenderedElsewhereTest, AKeyErrorSubclassPrintsItsMessageQuoted) {
  EXPECT_EQ(FunctionOf("settings.forms.NoSuchSetting: 'no setting named colour'"), "setting name=colour");
}

TEST_F(RenderedElsewhereTest, SelfDocumentingFString) {
  EXPECT_EQ(FunctionOf("ValueError: the scale needs a positive margin=-0.5"), "scale margin!r=-0.5");
}

TEST_F(RenderedElsewhereTest, ModuleConstantThroughStrip) {
  EXPECT_EQ(FunctionOf("RuntimeError: No configuration file was found in the project directory."), "load");
}

TEST_F(RenderedElsewhereTest, ClassMessageFromAParameterDefault) {
  EXPECT_EQ(FunctionOf("settings.forms.InvalidFile: The file is not a settings file"), "parse");
}

TEST_F(RenderedElsewhereTest, ClassMessageFromAProperty) {
  EXPECT_EQ(FunctionOf("settings.forms.RemoteFailure: the remote settings service answered 503"),
            "fetch self.status=503");
}

TEST_F(RenderedElsewhereTest, ClassMessageHandedToTheBaseAsALaterArgument) {
  EXPECT_EQ(FunctionOf("settings.forms.MissingReference: Bad reference in option 'a' of section 'b': 'c'"),
            "resolve option!r='a' section!r='b' reference!r='c'");
}

TEST_F(RenderedElsewhereTest, WarningFromAHelperFunction) {
  EXPECT_EQ(FunctionOf("DeprecationWarning: old_loader() is deprecated and will be removed, use load()"),
            "_deprecated");
}

TEST_F(RenderedElsewhereTest, WarningInstanceHandedToAHelper) {
  EXPECT_EQ(FunctionOf("settings.forms.SettingsWarning: the legacy setting colour is ignored"),
            "Loader._issue name=colour");
}

}  // namespace
}  // namespace errdex
