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

// Texts a class renders elsewhere than in the raise or its __str__ alone (extractor 28): assembled from lists,
// returned by format_message, formatrepr or a method __str__ calls.
const char* const kRender = R"py(class DuplicateEntry(Exception):
    def __init__(self, entry, source=None, lineno=None):
        msg = [repr(entry), " is already registered"]
        if source is not None:
            message = ["While reading ", repr(source)]
            if lineno is not None:
                message.append(" [line {0:2d}]".format(lineno))
            message.append(": entry ")
            message.extend(msg)
            msg = message
        else:
            msg.insert(0, "Entry ")
        Exception.__init__(self, "".join(msg))


class LookupReport:
    def __init__(self, msg, name):
        self.msg = msg
        self.name = name


class ResourceLookupError(LookupError):
    def __init__(self, name, registry, msg=None):
        self.name = name
        self.registry = registry
        self.msg = msg

    def formatrepr(self):
        msg = self.msg
        if msg is None:
            if self.name in self.registry:
                msg = f"resource '{self.name}' depends on itself"
            else:
                msg = f"resource '{self.name}' is not registered"
            msg += "\n known resources: {}".format(", ".join(sorted(self.registry)))
        return LookupReport(msg, self.name)


class MissingValue(Exception):
    def __init__(self, message=None, kind=None, hint=None):
        super().__init__(message or "")
        self.kind = kind
        self.hint = hint

    def format_message(self):
        hint = f" {self.hint}" if self.hint else ""
        if self.kind == "option":
            missing = "Missing required option"
        else:
            missing = "Missing required value"
        return f"{missing}{hint}."

    def __str__(self):
        return "Missing value: {}".format(self.kind)


class BuildFailed(Exception):
    def __init__(self, step, error):
        super().__init__()
        self.step = step
        self.error = error

    def generate_message(self):
        reasons = ["The isolated build of a package failed", str(self.error)]
        if self.step:
            reasons.append(f"while running {self.step}")
        return "\n\n".join(reasons)

    def __str__(self):
        return self.generate_message()


def register(entry, source=None, lineno=None):
    raise DuplicateEntry(entry, source, lineno)


def lookup(name, registry):
    raise ResourceLookupError(name, registry)


def registered(what):
    # A weak template that the formatrepr text below also fits: a placeholder holds most of it.
    raise ValueError("%s registered" % what)


def require(value, hint):
    if value is None:
        raise MissingValue(kind="option", hint=hint)


def build(step):
    raise BuildFailed(step, RuntimeError("the backend exited with status 1"))


MESSAGES = {"locked": "the settings file %s is locked by process %d"}


class Texts:
    READ_ONLY = "the setting {name} is read-only"


def unlock(path, pid):
    raise PermissionError(MESSAGES["locked"] % (path, pid))


def assign(name):
    raise AttributeError(Texts.READ_ONLY.format(name=name))


def needs(feature):
    message = f"the feature {feature} is switched off in this build"

    def decorator(function):
        def wrapper(*args, **kwargs):
            raise RuntimeError(message)

        return wrapper

    return decorator


@needs("sync")
def sync():
    pass
)py";

class RenderedElsewhereTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    WriteFile(*dir_ / "src/settings/__init__.py", "");
    WriteFile(*dir_ / "src/settings/forms.py", kForms);
    WriteFile(*dir_ / "src/settings/render.py", kRender);
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

  // What python3 prints when it runs CODE in the fixture's source folder (stdout, then stderr).
  static std::string Python(const std::string& code) {
    std::string output;
    Shell("cd " + ShellQuote(*dir_ / "src") + " && python3 -c " + ShellQuote(code), &output);
    return output;
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

// The texts below are what Python prints for the fixture: each error is produced by running it.

TEST_F(RenderedElsewhereTest, ClassTextAssembledFromLists) {
  const std::string traceback = Python("from settings.render import register\nregister('colour', '<string>', 3)");
  ASSERT_NE(traceback.find("DuplicateEntry: While reading '<string>' [line  3]: entry 'colour' is already"),
            std::string::npos)
      << traceback;
  EXPECT_EQ(FunctionOf(traceback).substr(0, 8), "register");
  const std::string other = Python("from settings.render import register\nregister('colour')");
  ASSERT_NE(other.find("DuplicateEntry: Entry 'colour' is already registered"), std::string::npos) << other;
  EXPECT_EQ(FunctionOf(other.substr(other.rfind("settings.render"))).substr(0, 8), "register");
}

TEST_F(RenderedElsewhereTest, ClassTextOfFormatreprFoundByItsFirstLine) {
  // A pytest-like report prints the text's first line after `E` and the others after `>`: the paste kept the
  // first line.
  const std::string printed = Trim(Python(
      "from settings.render import lookup, ResourceLookupError\n"
      "try:\n    lookup('db', {'cache', 'queue'})\n"
      "except ResourceLookupError as e:\n    print(e.formatrepr().msg.splitlines()[0])"));
  ASSERT_EQ(printed, "resource 'db' is not registered");
  // Before `registered`'s `{what} registered`, whose 11 literal bytes leave most of the message to a placeholder.
  EXPECT_EQ(FunctionOf(printed), "lookup self.name=db");
}

TEST_F(RenderedElsewhereTest, ClassTextOfFormatMessage) {
  const std::string printed = Trim(Python(
      "from settings.render import require, MissingValue\n"
      "try:\n    require(None, \"'--data-path'\")\n"
      "except MissingValue as e:\n    print(e.format_message())"));
  ASSERT_EQ(printed, "Missing required option '--data-path'.");
  EXPECT_EQ(FunctionOf(printed).substr(0, 7), "require");
}

TEST_F(RenderedElsewhereTest, ClassTextOfAMethodThatStrCalls) {
  const std::string traceback = Python("from settings.render import build\nbuild('wheel')");
  ASSERT_NE(traceback.find("BuildFailed: The isolated build of a package failed"), std::string::npos) << traceback;
  EXPECT_EQ(FunctionOf(traceback).substr(0, 5), "build");
}

TEST_F(RenderedElsewhereTest, EntryOfADictOfMessages) {
  const std::string traceback = Python("from settings.render import unlock\nunlock('/etc/app.ini', 4242)");
  ASSERT_NE(traceback.find("PermissionError: the settings file /etc/app.ini is locked by process 4242"),
            std::string::npos)
      << traceback;
  EXPECT_EQ(FunctionOf(traceback), "unlock path=/etc/app.ini pid=4242");
}

TEST_F(RenderedElsewhereTest, ClassAttributeThroughFormat) {
  const std::string traceback = Python("from settings.render import assign\nassign('colour')");
  ASSERT_NE(traceback.find("AttributeError: the setting colour is read-only"), std::string::npos) << traceback;
  EXPECT_EQ(FunctionOf(traceback), "assign name=colour");
}

TEST_F(RenderedElsewhereTest, MessageOfADecoratorFactoryBuiltInItsClosure) {
  const std::string traceback = Python("from settings.render import sync\nsync()");
  ASSERT_NE(traceback.find("RuntimeError: the feature sync is switched off in this build"), std::string::npos)
      << traceback;
  EXPECT_EQ(FunctionOf(traceback), "needs.<locals>.decorator.<locals>.wrapper feature=sync");
}

}  // namespace
}  // namespace errdex
