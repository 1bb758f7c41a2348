// Texts printed by exception handlers (docs/extraction.md and docs/matching.md, "Texts printed by exception
// handlers"): a program that catches its own exception and prints a report of its own (pytest's `ImportError
// while loading conftest '…'.` above the short traceback of the cause, written by print_conftest_import_error
// for `except ConftestImportFailure as e:`) shows no text of the exception. A fixture package in that manner is
// indexed; python3 runs it into the handler, and what it prints is explained by the raise of the caught class.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "testing/git_test_util.h"
#include "testing/indexed_fixture.h"

namespace errdex {
namespace {

using namespace testing_util;

const char* const kLoader = R"py(import importlib.util
import sys
import traceback


class PluginLoadFailure(Exception):
    def __init__(self, path, *, cause):
        self.path = path
        self.cause = cause


class SettingsError(Exception):
    pass


def load_plugin(path):
    spec = importlib.util.spec_from_file_location("plugin", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        raise PluginLoadFailure(path, cause=e) from e
    return module


def read_settings(settings):
    if "port" not in settings:
        raise SettingsError(f"missing key {'port'!r}")
    return settings


def report_plugin_failure(e, out):
    out.write(f"could not load the plugin module '{e.path}'.\n")
    for frame in traceback.extract_tb(e.cause.__traceback__)[-1:]:
        out.write(f"{frame.filename}:{frame.lineno}: in {frame.name}\n    {frame.line}\n")
    out.write(f"E   {type(e.cause).__name__}: {e.cause}\n")


def main(path, settings):
    try:
        load_plugin(path)
    except PluginLoadFailure as e:
        report_plugin_failure(e, out=sys.stderr)
        return 4
    try:
        read_settings(settings)
    except SettingsError as exc:
        print(f"the settings file is invalid: {exc}", file=sys.stderr)
        return 2
    return 0
)py";

TEST(HandlerPrintedTest, WhatTheHandlerPrintsIsExplainedByTheRaiseOfTheClassItCatches) {
  IndexedFixture fixture;
  fixture.Write("relay/__init__.py", "");
  fixture.Write("relay/loader.py", kLoader);
  std::string error;
  ASSERT_TRUE(fixture.Index("acme/relay", &error)) << error;
  WriteFile((std::filesystem::path(fixture.source()).parent_path() / "broken.py").string(),
            "import missing_dependency_xyz\n");
  std::string output;
  Shell("cd " + ShellQuote(fixture.source()) +
            " && python3 -c 'import relay.loader as l\nl.main(\"../broken.py\", {\"port\": 1})' 2>&1",
        &output);
  output = Trim(output);
  ASSERT_EQ(output.substr(0, output.find('\n')), "could not load the plugin module '../broken.py'.");
  ASSERT_NE(output.find("E   ModuleNotFoundError: No module named 'missing_dependency_xyz'"), std::string::npos)
      << output;
  Explanation e = fixture.Explain(output);
  ASSERT_FALSE(e.matches.empty()) << output;
  const ExplainMatch& m = e.matches[0];
  EXPECT_EQ(m.kind, ExplainMatch::Kind::kClassMessage);
  EXPECT_EQ(m.site.path, "relay/loader.py");
  EXPECT_EQ(m.site.function, "load_plugin");
  EXPECT_EQ(m.site.type.value_or(""), "PluginLoadFailure");
  std::string why;
  for (const std::string& w : m.why) why += w + "\n";
  EXPECT_NE(why.find("what the handler of relay.loader.PluginLoadFailure prints"), std::string::npos) << why;
  EXPECT_NE(why.find("written by report_plugin_failure"), std::string::npos) << why;

  // A handler's own print: the line alone answers with the raise, its text bound inside the printed one.
  Shell("cd " + ShellQuote(fixture.source()) +
            " && python3 -c 'import relay.loader as l\nl.main(\"relay/__init__.py\", {})' 2>&1",
        &output);
  output = Trim(output);
  ASSERT_EQ(output, "the settings file is invalid: missing key 'port'");
  Explanation s = fixture.Explain(output);
  ASSERT_FALSE(s.matches.empty());
  EXPECT_EQ(s.matches[0].site.function, "read_settings");
  why.clear();
  for (const std::string& w : s.matches[0].why) why += w + "\n";
  EXPECT_NE(why.find("what the handler of relay.loader.SettingsError prints"), std::string::npos) << why;
}

}  // namespace
}  // namespace errdex
