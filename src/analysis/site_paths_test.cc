// Tests of where a site's searches start (src/analysis/site_paths.h) on a small package extracted for real: a
// raising helper whose callers supply different messages (`via` sites), one of them through a function that
// forwards its parameter to the helper.
#include "analysis/site_paths.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/graph_triggers_test_util.h"

namespace errdex {
namespace {

using graph_triggers_test::Repo;
using Strings = std::vector<std::string>;

const char* const kConfig =
    "class Config:\n"                                 // 1
    "    def load(self, path):\n"                     // 2
    "        if not path:\n"                          // 3
    "            self._fail('no path given')\n"       // 4
    "        return self._parse(path)\n"              // 5
    "    def validate(self):\n"                       // 6
    "        self._check_keys()\n"                    // 7
    "    def reload(self):\n"                         // 8
    "        try:\n"                                  // 9
    "            self._check_keys()\n"                // 10
    "        except ValueError:\n"                    // 11
    "            pass\n"                              // 12
    "    def _check_keys(self):\n"                    // 13
    "        self._fail('unknown key')\n"             // 14
    "    def _parse(self, path):\n"                   // 15
    "        self._strict('cannot parse ' + path)\n"  // 16
    "    def _strict(self, message):\n"               // 17
    "        self._fail(message)\n"                   // 18
    "    def relax(self):\n"                          // 19
    "        self._fail('lenient', raising=False)\n"  // 20
    "    def _fail(self, message, raising=True):\n"   // 21
    "        if raising:\n"                           // 22
    "            raise ValueError(message)\n";        // 23

Repo Package() {
  return Repo(
      {{"pkg/__init__.py", "from pkg.config import Config\n__all__ = ['Config']\n"}, {"pkg/config.py", kConfig}});
}

// The helper's raise (pkg/config.py:23), with the message the call at VIA ("path:line in f") hands it.
SiteRow HelperSite(const std::string& text, const std::string& via) {
  SiteRow row;
  row.path = "pkg/config.py";
  row.line = 23;
  row.function = "Config._fail";
  row.kind = "raise";
  row.type = "ValueError";
  row.type_qualified = "builtins.ValueError";
  row.template_text = text;
  if (!via.empty()) row.via = via;
  return row;
}

const Site& HelperRaise(const Repo& repo) {
  for (const Site& s : repo.facts[1].sites) {
    if (s.line == 23) return s;
  }
  ADD_FAILURE() << "no raise at line 23";
  return repo.facts[1].sites.front();
}

// Each path as "function:line -> ... -> function" (the last frame's line is 0: the raise).
Strings Describe(const std::vector<CallPath>& paths) {
  Strings out;
  for (const CallPath& p : paths) {
    std::string text;
    for (const CallFrame& f : p.frames) {
      if (!text.empty()) text += " -> ";
      text += f.function + ":" + std::to_string(f.line);
    }
    out.push_back(text + (p.certain ? "" : " (uncertain)"));
  }
  return out;
}

TEST(SitePathsTest, ParsesTheSupplyingCall) {
  const std::optional<ViaCall> via = ParseVia("src/my pkg/a.py:1502 in Config._decide_args");
  ASSERT_TRUE(via);
  EXPECT_EQ(via->path, "src/my pkg/a.py");
  EXPECT_EQ(via->line, 1502);
  EXPECT_EQ(via->function, "Config._decide_args");
  EXPECT_FALSE(ParseVia("a.py:x in f"));
  EXPECT_FALSE(ParseVia("a.py:12 in "));
  EXPECT_FALSE(ParseVia("a.py in f"));
  EXPECT_FALSE(ParseVia(""));
}

TEST(SitePathsTest, EachMessageIsReachedOnlyThroughTheCallerThatSuppliesIt) {
  Repo repo = Package();
  SitePaths paths(*repo.model, repo.triggers.get());
  const Site& raise = HelperRaise(repo);
  // The helper's own raise: every caller's way in (each entry once).
  const SiteRow own = HelperSite("{message}", "");
  EXPECT_EQ(
      Describe(paths.Paths(own, &raise, 6, 5)),
      (Strings{"Config.load:4 -> Config._fail:0", "Config.validate:7 -> Config._check_keys:14 -> Config._fail:0"}));
  // A public supplying function is the entry itself, citing its call.
  const SiteRow no_path = HelperSite("no path given", "pkg/config.py:4 in Config.load");
  EXPECT_EQ(Describe(paths.Paths(no_path, &raise, 6, 5)), (Strings{"Config.load:4 -> Config._fail:0"}));
  // A private one is reached from the public functions that call it; `reload` catches the error.
  const SiteRow unknown = HelperSite("unknown key", "pkg/config.py:14 in Config._check_keys");
  EXPECT_EQ(Describe(paths.Paths(unknown, &raise, 6, 5)),
            (Strings{"Config.validate:7 -> Config._check_keys:14 -> Config._fail:0"}));
  // Through a function that forwards its parameter to the helper: the chain below the supplying call.
  const SiteRow parse = HelperSite("cannot parse {path}", "pkg/config.py:16 in Config._parse");
  EXPECT_EQ(Describe(paths.Paths(parse, &raise, 6, 5)),
            (Strings{"Config.load:5 -> Config._parse:16 -> Config._strict:18 -> Config._fail:0"}));
  // The bounds count the chain's calls.
  EXPECT_TRUE(paths.Paths(parse, &raise, 2, 5).empty());
  // A supplying call whose arguments make the helper's raise impossible reaches nothing.
  const SiteRow lenient = HelperSite("lenient", "pkg/config.py:20 in Config.relax");
  EXPECT_TRUE(paths.Paths(lenient, &raise, 6, 5).empty());
  EXPECT_EQ(paths.PublicReachers(lenient, &raise, 6, 64), 0);
}

TEST(SitePathsTest, ReachAndTestTargetsGoThroughTheSupplyingCall) {
  Repo repo = Package();
  SitePaths paths(*repo.model, repo.triggers.get());
  const Site& raise = HelperRaise(repo);
  const SiteRow unknown = HelperSite("unknown key", "pkg/config.py:14 in Config._check_keys");
  std::vector<GraphTriggers::NodeId> reachers;
  EXPECT_EQ(paths.PublicReachers(unknown, &raise, 6, 64, &reachers), 1);
  ASSERT_EQ(reachers.size(), 1u);
  EXPECT_EQ(repo.graph.nodes[reachers[0]].qualname, "Config.validate");
  // The helper's own raise is reached from `load`, `validate` and the helper itself is private.
  EXPECT_EQ(paths.PublicReachers(HelperSite("{message}", ""), &raise, 6, 64), 2);
  // A test must reach the supplying function; the raise is the chain's calls further.
  const SiteRow parse = HelperSite("cannot parse {path}", "pkg/config.py:16 in Config._parse");
  const SitePaths::Target target = paths.TestTarget(parse);
  ASSERT_NE(target.node, GraphTriggers::kNoNode);
  EXPECT_EQ(repo.graph.nodes[target.node].qualname, "Config._parse");
  EXPECT_EQ(target.calls, 2);
  const SitePaths::Target own = paths.TestTarget(HelperSite("{message}", ""));
  ASSERT_NE(own.node, GraphTriggers::kNoNode);
  EXPECT_EQ(repo.graph.nodes[own.node].qualname, "Config._fail");
  EXPECT_EQ(own.calls, 0);
}

TEST(SitePathsTest, WithoutTheGraphTheCodeModelsPathsGoThroughTheSupplyingCall) {
  Repo repo = Package();
  SitePaths paths(*repo.model, nullptr);
  const SiteRow unknown = HelperSite("unknown key", "pkg/config.py:14 in Config._check_keys");
  const std::vector<CallPath> found = paths.Paths(unknown, nullptr, 6, 5);
  ASSERT_FALSE(found.empty());
  for (const CallPath& p : found) {
    ASSERT_GE(p.frames.size(), 2u);
    const CallFrame& supplying = p.frames[p.frames.size() - 2];
    EXPECT_EQ(supplying.function + ":" + std::to_string(supplying.line), "Config._check_keys:14");
    EXPECT_EQ(supplying.code, "self._fail('unknown key')");
    EXPECT_EQ(p.frames.back().function, "Config._fail");
  }
}

}  // namespace
}  // namespace errdex
