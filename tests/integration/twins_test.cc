// Twins ranked by how directly they are reached (docs/matching.md, "Twins"): the same message raised at
// several places, nothing in the paste to choose; the site reached from the most public functions (then by
// the fewest calls) is shown, and `why` says so. A traceback's frame still decides
// when there is one.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "testing/indexed_fixture.h"

namespace errdex {
namespace {

using namespace testing_util;

// Like json.decoder: the same text raised by a scanner function that no public code calls in Python (the C
// scanner stands in for it at run time), by a private helper of the API, and by the public method itself.
const char* const kDecoder = R"py(class DecodeError(ValueError):
    pass


def _scan_value(text, idx):
    raise DecodeError("Expecting value at the start of the document")


def _parse_member(text):
    raise DecodeError("Expecting value at the start of the document")


class Decoder:
    def decode(self, text):
        if text.startswith("{"):
            return _parse_member(text)
        return self.raw_decode(text)

    def raw_decode(self, text):
        if not text:
            raise DecodeError("Expecting value at the start of the document")
        return text


def loads(text):
    return Decoder().decode(text)
)py";

class TwinsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fixture_.Write("codec/__init__.py", "from .decoder import loads\n");
    fixture_.Write("codec/decoder.py", kDecoder);
    std::string error;
    ASSERT_TRUE(fixture_.Index("acme/codec", &error)) << error;
  }

  Explanation Explain(std::string_view paste) { return fixture_.Explain(paste); }

  static bool Says(const ExplainMatch& m, std::string_view text) {
    return std::any_of(m.why.begin(), m.why.end(),
                       [&](const std::string& w) { return w.find(text) != std::string::npos; });
  }

  IndexedFixture fixture_;
};

TEST_F(TwinsTest, TheFinalLineAloneGetsTheTwinReachedMostDirectly) {
  Explanation e = Explain("codec.decoder.DecodeError: Expecting value at the start of the document");
  ASSERT_FALSE(e.matches.empty());
  // raw_decode is public and reached from decode and loads (3 public functions, itself too); _parse_member
  // is one call away; _scan_value is reached by no public function.
  EXPECT_EQ(e.matches[0].site.function, "Decoder.raw_decode");
  EXPECT_TRUE(Says(e.matches[0], "the same message is raised at 3 places")) << e.matches[0].why.size();
  EXPECT_TRUE(Says(e.matches[0],
                   "most directly reached from the public API (reached from 3 public functions, "
                   "its own function is public)"));
}

TEST_F(TwinsTest, TheOtherTwinsOfTheFinalLineAloneAreResultsToo) {
  // Nothing in the final line picks a twin: the other two are the next results, each saying whose twin it
  // is, so the one a user met is in the top five whichever it is (the generated errors' final lines).
  Explanation e = Explain("codec.decoder.DecodeError: Expecting value at the start of the document");
  ASSERT_GE(e.matches.size(), 3u);
  EXPECT_TRUE(Says(e.matches[0], "; 2 others follow as results"));
  std::vector<std::string> functions;
  for (size_t i = 0; i < 3; ++i) functions.push_back(e.matches[i].site.function);
  EXPECT_EQ(functions, (std::vector<std::string>{"Decoder.raw_decode", "_parse_member", "_scan_value"}));
  for (size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(e.matches[i].error_id, e.matches[0].error_id);
    EXPECT_TRUE(Says(e.matches[i], "a twin of codec/decoder.py:" + std::to_string(e.matches[0].site.line) +
                                       " (shown above): the same message is raised here too and nothing in the "
                                       "paste picks one of them"));
    EXPECT_FALSE(Says(e.matches[i], "other result"));
  }
}

TEST_F(TwinsTest, AFrameOfTheTracebackStillPicksItsTwin) {
  Explanation e = Explain(
      "Traceback (most recent call last):\n"
      "  File \"/srv/app.py\", line 3, in <module>\n"
      "    codec.loads(\"{\")\n"
      "  File \"/usr/lib/python3/dist-packages/codec/decoder.py\", line 10, in _parse_member\n"
      "    raise DecodeError(\"Expecting value at the start of the document\")\n"
      "codec.decoder.DecodeError: Expecting value at the start of the document\n");
  ASSERT_FALSE(e.matches.empty());
  EXPECT_EQ(e.matches[0].site.function, "_parse_member");
  EXPECT_TRUE(Says(e.matches[0], "the traceback picked this one"));
  EXPECT_EQ(std::count_if(e.matches.begin(), e.matches.end(),
                          [&](const ExplainMatch& m) { return m.error_id == e.matches[0].error_id; }),
            1);  // the frame picked one: its twins are not listed
}

// Twins in one function told apart by the arguments of the public calls: every public function calls the
// checker with `strict=False`, so the first raise (under `if strict:`) is reached by none of them
// (analysis/call_feasibility.h) and the second is the twin users meet, although the first comes first.
const char* const kChecker = R"py(class FormatError(ValueError):
    pass


def _check(value, strict):
    if strict:
        raise FormatError("Invalid value for this field")
    if value is None:
        raise FormatError("Invalid value for this field")
    return value


def parse(value):
    return _check(value, False)


def parse_all(values):
    return [_check(v, strict=False) for v in values]
)py";

TEST(TwinsByFeasibilityTest, ATwinThatNoPublicCallCanReachRanksBelowTheOneTheyReach) {
  IndexedFixture fixture;
  fixture.Write("forms/__init__.py", "from .fields import parse, parse_all\n");
  fixture.Write("forms/fields.py", kChecker);
  std::string error;
  ASSERT_TRUE(fixture.Index("acme/forms", &error)) << error;
  Explanation e = fixture.Explain("forms.fields.FormatError: Invalid value for this field");
  ASSERT_GE(e.matches.size(), 1u);
  EXPECT_EQ(e.matches[0].site.function, "_check");
  EXPECT_EQ(e.matches[0].site.line, 9);  // `if value is None:`, not the `if strict:` raise at line 7
}

// Twins told apart by the paste's own call: the same deprecation warned by two constructors; the final
// line alone gets the one more public functions reach (Body's), a warning shown at the caller's line
// (`stacklevel`) that calls `forms.Header(` gets the one Header reaches.
const char* const kParams = R"py(import warnings


class ExampleWarning(DeprecationWarning):
    pass


class Param:
    def __init__(self, example=None):
        if example is not None:
            warnings.warn("`example` is deprecated, use `examples`", ExampleWarning, stacklevel=3)


class Body:
    def __init__(self, example=None):
        if example is not None:
            warnings.warn("`example` is deprecated, use `examples`", ExampleWarning, stacklevel=3)


class Form(Body):
    def __init__(self, example=None):
        super().__init__(example=example)


def Header(example=None):
    return Param(example=example)


def make_body(example=None):
    return Body(example=example)


def make_form(example=None):
    return Form(example=example)


def make_file(example=None):
    return Form(example=example)
)py";

TEST(TwinsByTheCallInThePasteTest, TheCallerLineOfAWarningPicksTheTwinItReaches) {
  IndexedFixture fixture;
  fixture.Write("forms/__init__.py", "from .params import Header, make_body, make_form, make_file\n");
  fixture.Write("forms/params.py", kParams);
  std::string error;
  ASSERT_TRUE(fixture.Index("acme/forms", &error)) << error;
  Explanation alone = fixture.Explain("forms.params.ExampleWarning: `example` is deprecated, use `examples`");
  ASSERT_GE(alone.matches.size(), 1u);
  EXPECT_EQ(alone.matches[0].site.function, "Body.__init__");
  Explanation shown = fixture.Explain(
      "/srv/app/views.py:12: ExampleWarning: `example` is deprecated, use `examples`\n"
      "  token: str = forms.Header(example=\"abc\"),\n");
  ASSERT_GE(shown.matches.size(), 1u);
  EXPECT_EQ(shown.matches[0].site.function, "Param.__init__");
  EXPECT_TRUE(std::any_of(shown.matches[0].why.begin(), shown.matches[0].why.end(), [](const std::string& w) {
    return w.find("the paste calls Header, which reaches this one") != std::string::npos;
  }));
}

// Twins decided by a catching caller (docs/analysis.md, "Raises caught by a caller"), in the manner of
// starlette's routing: each route raises NoMatchFound, the router tries them in turn inside
// `try: ... except NoMatchFound: pass` and then raises its own, the one users see. The routes' raises do not
// escape through the router's call, so the public functions above the router reach its raise only.
const char* const kRouting = R"py(class NoMatchFound(Exception):
    pass


class Route:
    def __init__(self, name):
        self.name = name

    def url_path_for(self, name):
        if name != self.name:
            raise NoMatchFound("No route exists for this name")
        return "/" + name


class Mount:
    def __init__(self, name, routes):
        self.name = name
        self.routes = routes

    def url_path_for(self, name):
        if not name.startswith(self.name):
            raise NoMatchFound("No route exists for this name")
        return "/" + self.name + self.routes[0].url_path_for(name)


class Router:
    def __init__(self, routes):
        self.routes = routes

    def url_path_for(self, name):
        for route in self.routes:
            try:
                return route.url_path_for(name)
            except NoMatchFound:
                pass
        raise NoMatchFound("No route exists for this name")


class Application:
    def __init__(self):
        self.router = Router([Route("home"), Mount("api", [Route("users")])])

    def url_path_for(self, name):
        return self.router.url_path_for(name)


class Request:
    def __init__(self):
        self.app = Application()

    def url_for(self, name):
        return self.app.url_path_for(name)


def build_url(name):
    return Request().url_for(name)
)py";

TEST(TwinsByCatchingCallersTest, TheRaiseThatEscapesTheCallersIsTheTwinUsersMeet) {
  IndexedFixture fixture;
  fixture.Write("routes/__init__.py", "from .routing import Application, Mount, Request, Route, Router\n");
  fixture.Write("routes/routing.py", kRouting);
  std::string error;
  ASSERT_TRUE(fixture.Index("acme/routes", &error)) << error;
  Explanation e = fixture.Explain("routes.routing.NoMatchFound: No route exists for this name");
  ASSERT_GE(e.matches.size(), 1u);
  // Route's raise: reached from Route.url_path_for and Mount.url_path_for (which calls it without a `try`);
  // the router's: from Router.url_path_for, Application.url_path_for, Request.url_for and build_url.
  EXPECT_EQ(e.matches[0].site.function, "Router.url_path_for");
  EXPECT_EQ(e.matches[0].site.line, 36);
  EXPECT_TRUE(std::any_of(e.matches[0].why.begin(), e.matches[0].why.end(), [](const std::string& w) {
    return w.find("reached from 4 public functions") != std::string::npos;
  }));
}

}  // namespace
}  // namespace errdex
