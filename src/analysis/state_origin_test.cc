// Tests of where the state a condition reads comes from (src/analysis/state_origin.h), on hand-made facts
// (src/analysis/code_model_test_util.h), and with the call graph on a program extracted for real.
#include "analysis/state_origin.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/code_model_test_util.h"
#include "analysis/graph_triggers_test_util.h"

namespace errdex {
namespace {

using testing_util::FakeRepo;
using Strings = std::vector<std::string>;

const std::string kWrappers = "lightning/fabric/wrappers.py";

// Writers as "path:line function | code [kind]", each install on its own line below, "  installed by
// path:line code".
Strings Describe(const StateOrigin& origin) {
  Strings out;
  for (const StateWriter& w : origin.writers) {
    out.push_back(w.path + ":" + std::to_string(w.line) + " " + w.function + " | " + w.code + " [" + w.kind + "]");
    for (const ImportTimeInstall& i : w.installed_by) {
      out.push_back("  installed by " + i.path + ":" + std::to_string(i.line) + " " + i.code);
    }
  }
  return out;
}

Condition If(int line, std::string code, std::vector<StateRead> reads) {
  Condition c;
  c.kind = "if";
  c.line = line;
  c.code = std::move(code);
  c.reads = std::move(reads);
  return c;
}

// The example page's explanation: `_compile_kwargs` exists only when the patched torch.compile ran, and
// the patch is installed when lightning.fabric.wrappers is imported.
TEST(StateOriginTest, LightningCompileKwargs) {
  FakeRepo repo;
  testing_util::AddLightningLike(repo);
  const CodeModel& model = repo.Build();
  std::vector<Condition> conditions = {
      If(354, "if isinstance(obj, OptimizedModule):", {{"name", "", "isinstance"}, {"name", "", "OptimizedModule"}}),
      If(355, "if (compile_kwargs := getattr(obj, \"_compile_kwargs\", None)) is None:",
         {{"getattr", "obj", "_compile_kwargs"}}),
  };
  std::vector<StateOrigin> origins = StateOriginsOf(model, kWrappers, "_unwrap_compiled", conditions);
  ASSERT_EQ(origins.size(), 1u);  // isinstance is a builtin, OptimizedModule a library class: not state
  const StateOrigin& o = origins[0];
  EXPECT_EQ(o.read.kind, "getattr");
  EXPECT_EQ(o.read.target, "obj");
  EXPECT_EQ(o.read.name, "_compile_kwargs");
  EXPECT_EQ(o.condition_line, 355);
  EXPECT_EQ(o.more, 0u);
  EXPECT_EQ(
      Describe(o),
      (Strings{
          // same module, installed at import time by the module-level patch
          "lightning/fabric/wrappers.py:416 _capture_compile_kwargs.<locals>._capture | "
          "compiled_model._compile_kwargs = kwargs [assign]",
          "  installed by lightning/fabric/wrappers.py:423 torch.compile = "
          "_capture_compile_kwargs(torch.compile)",
          // same package, then another package, then tests
          "lightning/fabric/strategies/strategy.py:60 Strategy.teardown | strategy._compile_kwargs = None [assign]",
          "lightning/pytorch/core/module.py:77 LightningModule.compile_stuff | self._compile_kwargs = None [assign]",
          "tests/tests_fabric/test_wrappers.py:10 test_unwrap | model._compile_kwargs = {} [assign]",
      }));
  // max_writers keeps the best and counts the rest.
  std::vector<StateOrigin> two = StateOriginsOf(model, kWrappers, "_unwrap_compiled", conditions, 2);
  ASSERT_EQ(two.size(), 1u);
  EXPECT_EQ(two[0].writers.size(), 2u);
  EXPECT_EQ(two[0].more, 2u);
  EXPECT_EQ(two[0].writers[1].path, "lightning/fabric/strategies/strategy.py");
}

TEST(StateOriginTest, GlobalNames) {
  FakeRepo repo;
  testing_util::AddLightningLike(repo);
  // Another module imports the global and reads it; a third reads it as an attribute of the module.
  repo.Import("lightning/fabric/hooks.py", "_in_fabric_backward", "lightning.fabric.wrappers._in_fabric_backward")
      .Import("lightning/fabric/hooks.py", "wrappers", "lightning.fabric.wrappers")
      .Def("lightning/fabric/hooks.py", "check", 1, 5);
  const CodeModel& model = repo.Build();
  const Strings expected = {
      "lightning/fabric/wrappers.py:30 <module> | _in_fabric_backward: bool = False [annassign]",
      "lightning/fabric/wrappers.py:40 _set_backward | _in_fabric_backward = flag [assign]",
      "lightning/fabric/fabric.py:480 Fabric.backward | wrappers._in_fabric_backward = True [assign]",
  };
  std::vector<Condition> in_module = {If(367, "if requires_backward and not _in_fabric_backward:",
                                         {{"name", "", "requires_backward"}, {"name", "", "_in_fabric_backward"}})};
  std::vector<StateOrigin> origins = StateOriginsOf(model, kWrappers, "_backward_hook", in_module);
  ASSERT_EQ(origins.size(), 1u);  // requires_backward is written nowhere
  EXPECT_EQ(Describe(origins[0]), expected);
  // Through `from wrappers import _in_fabric_backward`: the writers of the owning module (ranked from the
  // reading module: its package holds them all, so the order is by path).
  std::vector<Condition> imported = {If(2, "if _in_fabric_backward:", {{"name", "", "_in_fabric_backward"}})};
  origins = StateOriginsOf(model, "lightning/fabric/hooks.py", "check", imported);
  ASSERT_EQ(origins.size(), 1u);
  EXPECT_EQ(Describe(origins[0]), (Strings{expected[2], expected[0], expected[1]}));
  std::vector<Condition> attribute = {
      If(3, "if wrappers._in_fabric_backward:", {{"attribute", "wrappers", "_in_fabric_backward"}})};
  origins = StateOriginsOf(model, "lightning/fabric/hooks.py", "check", attribute);
  ASSERT_EQ(origins.size(), 1u);
  EXPECT_EQ(origins[0].writers.size(), 3u);
}

TEST(StateOriginTest, SelfAttributesPreferTheSitesClass) {
  FakeRepo repo;
  testing_util::AddLightningLike(repo);
  const CodeModel& model = repo.Build();
  std::vector<Condition> conditions = {If(901, "if not self._launched:", {{"attribute", "self", "_launched"}})};
  std::vector<StateOrigin> origins =
      StateOriginsOf(model, "lightning/fabric/fabric.py", "Fabric._move_model_to_device", conditions);
  ASSERT_EQ(origins.size(), 1u);
  EXPECT_EQ(
      Describe(origins[0]),
      (Strings{"lightning/fabric/fabric.py:510 Fabric.launch | self._launched = True [assign]",
               "lightning/fabric/strategies/strategy.py:61 Strategy.teardown | self._launched = False [assign]"}));
}

TEST(StateOriginTest, BuildingAnObjectAtImportTimeInstallsNothing) {
  FakeRepo repo;
  repo.File("pkg/__init__.py");
  repo.Class("pkg/dialect.py", "Dialect", 1)
      .Def("pkg/dialect.py", "Dialect.__init__", 2, 4, true)
      .Write("pkg/dialect.py", "Dialect.__init__", "self", "supports_alter", 3, "self.supports_alter = True")
      .Def("pkg/tag.py", "tag", 1, 3)
      .Write("pkg/tag.py", "tag", "obj", "supports_alter", 2, "obj.supports_alter = False")
      .Import("pkg/setup.py", "Dialect", ".dialect.Dialect")
      .Import("pkg/setup.py", "tag", ".tag.tag")
      .Call("pkg/setup.py", "<module>", "Dialect", 3, "default = Dialect()")
      .Call("pkg/setup.py", "<module>", "tag", 4, "tag(default)")
      .Def("pkg/ddl.py", "alter", 1, 5);
  repo.Import("tests/test_ddl.py", "tag", "pkg.tag.tag").Call("tests/test_ddl.py", "<module>", "tag", 2, "tag(x)");
  repo.File("tests/test_ddl.py", true);
  const CodeModel& model = repo.Build();
  std::vector<Condition> conditions = {
      If(2, "if not dialect.supports_alter:", {{"attribute", "dialect", "supports_alter"}})};
  std::vector<StateOrigin> origins = StateOriginsOf(model, "pkg/ddl.py", "alter", conditions);
  ASSERT_EQ(origins.size(), 1u);
  // `Dialect()` at module level builds an object; `tag(default)` writes another object's attribute at import
  // time (the call in a test file is no install).
  EXPECT_EQ(Describe(origins[0]), (Strings{"pkg/dialect.py:3 Dialect.__init__ | self.supports_alter = True [assign]",
                                           "pkg/tag.py:2 tag | obj.supports_alter = False [assign]",
                                           "  installed by pkg/setup.py:4 tag(default)"}));
}

TEST(StateOriginTest, AnotherClassWritingItsOwnObjectComesLast) {
  FakeRepo repo;
  repo.File("pkg/__init__.py");
  repo.Class("pkg/loggers.py", "Comet", 1)
      .Def("pkg/loggers.py", "Comet.__init__", 2, 3, true)
      .Write("pkg/loggers.py", "Comet.__init__", "self", "_experiment", 3, "self._experiment = None")
      .Def("pkg/loggers.py", "Comet.log", 4, 8, true)
      .Class("pkg/loggers.py", "Neptune", 10)
      .Def("pkg/loggers.py", "Neptune.__init__", 11, 12, true)
      .Write("pkg/loggers.py", "Neptune.__init__", "self", "_experiment", 12, "self._experiment = run")
      .Def("pkg/loggers.py", "attach", 20, 22)
      .Write("pkg/loggers.py", "attach", "logger", "_experiment", 21, "logger._experiment = exp");
  const CodeModel& model = repo.Build();
  std::vector<Condition> conditions = {If(5, "if self._experiment is None:", {{"attribute", "self", "_experiment"}})};
  std::vector<StateOrigin> origins = StateOriginsOf(model, "pkg/loggers.py", "Comet.log", conditions);
  ASSERT_EQ(origins.size(), 1u);
  EXPECT_EQ(Describe(origins[0]), (Strings{"pkg/loggers.py:3 Comet.__init__ | self._experiment = None [assign]",
                                           "pkg/loggers.py:21 attach | logger._experiment = exp [assign]",
                                           "pkg/loggers.py:12 Neptune.__init__ | self._experiment = run [assign]"}));
}

// Class-body attributes (StateWrite kind "class_attr", target the class): `self.name` finds those of the
// site's class and its bases first; no statement installs them, not even a module-level `DefaultDialect()`.
TEST(StateOriginTest, ClassAttributes) {
  FakeRepo repo;
  repo.File("pkg/__init__.py");
  repo.Class("pkg/default.py", "DefaultDialect", 1)
      .Write("pkg/default.py", "DefaultDialect", "DefaultDialect", "supports_alter", 2, "supports_alter = True",
             "class_attr")
      .Def("pkg/default.py", "DefaultDialect.__init__", 4, 6, true)
      .Write("pkg/default.py", "DefaultDialect.__init__", "self", "supports_alter", 5, "self.supports_alter = flag")
      .Def("pkg/default.py", "DefaultDialect.alter", 8, 12, true)
      .Import("pkg/sqlite.py", "DefaultDialect", ".default.DefaultDialect")
      .Class("pkg/sqlite.py", "SQLiteDialect", 3, {"DefaultDialect"})
      .Write("pkg/sqlite.py", "SQLiteDialect", "SQLiteDialect", "supports_alter", 4, "supports_alter = False",
             "class_attr")
      .Class("pkg/other.py", "Outer", 1)
      .Class("pkg/other.py", "Outer.Inner", 2)
      .Write("pkg/other.py", "Outer.Inner", "Outer.Inner", "supports_alter", 3, "supports_alter = None", "class_attr")
      .Import("pkg/setup.py", "DefaultDialect", ".default.DefaultDialect")
      .Call("pkg/setup.py", "<module>", "DefaultDialect", 2, "default = DefaultDialect()")
      .Def("pkg/ddl.py", "alter", 1, 5);
  const CodeModel& model = repo.Build();
  const Strings all = {"pkg/default.py:2 DefaultDialect | supports_alter = True [class_attr]",
                       "pkg/default.py:5 DefaultDialect.__init__ | self.supports_alter = flag [assign]",
                       "pkg/other.py:3 Outer.Inner | supports_alter = None [class_attr]",
                       "pkg/sqlite.py:4 SQLiteDialect | supports_alter = False [class_attr]"};
  std::vector<Condition> self_read = {If(9, "if not self.supports_alter:", {{"attribute", "self", "supports_alter"}})};
  std::vector<StateOrigin> origins = StateOriginsOf(model, "pkg/default.py", "DefaultDialect.alter", self_read);
  ASSERT_EQ(origins.size(), 1u);
  EXPECT_EQ(Describe(origins[0]), all);

  // From a subclass: its own class attribute and its base's rank first (by path, then line).
  FakeRepo sub;
  sub.File("pkg/__init__.py");
  sub.Class("pkg/default.py", "DefaultDialect", 1)
      .Write("pkg/default.py", "DefaultDialect", "DefaultDialect", "supports_alter", 2, "supports_alter = True",
             "class_attr")
      .Import("pkg/sqlite.py", "DefaultDialect", ".default.DefaultDialect")
      .Class("pkg/sqlite.py", "SQLiteDialect", 3, {"DefaultDialect"})
      .Write("pkg/sqlite.py", "SQLiteDialect", "SQLiteDialect", "supports_alter", 4, "supports_alter = False",
             "class_attr")
      .Def("pkg/sqlite.py", "SQLiteDialect.alter", 6, 9, true)
      .Class("pkg/a.py", "Unrelated", 1)
      .Write("pkg/a.py", "Unrelated", "Unrelated", "supports_alter", 2, "supports_alter = 1", "class_attr");
  const CodeModel& sub_model = sub.Build();
  origins = StateOriginsOf(sub_model, "pkg/sqlite.py", "SQLiteDialect.alter", self_read);
  ASSERT_EQ(origins.size(), 1u);
  EXPECT_EQ(Describe(origins[0]), (Strings{"pkg/default.py:2 DefaultDialect | supports_alter = True [class_attr]",
                                           "pkg/sqlite.py:4 SQLiteDialect | supports_alter = False [class_attr]",
                                           "pkg/a.py:2 Unrelated | supports_alter = 1 [class_attr]"}));

  // `dialect.supports_alter` on an object of unknown type: every class attribute and object write, by
  // rank (same package) and path.
  std::vector<Condition> object_read = {
      If(2, "if not dialect.supports_alter:", {{"attribute", "dialect", "supports_alter"}})};
  origins = StateOriginsOf(model, "pkg/ddl.py", "alter", object_read);
  ASSERT_EQ(origins.size(), 1u);
  EXPECT_EQ(Describe(origins[0]), all);

  // A bare name `supports_alter` is a module global: class attributes are not its writers.
  std::vector<Condition> name_read = {If(3, "if supports_alter:", {{"name", "", "supports_alter"}})};
  EXPECT_TRUE(StateOriginsOf(model, "pkg/ddl.py", "alter", name_read).empty());
}

TEST(StateOriginTest, ModulesAndLibraries) {
  FakeRepo repo;
  testing_util::AddLightningLike(repo);
  repo.Import(kWrappers, "sys", "sys").Import(kWrappers, "os", "os");
  const CodeModel& model = repo.Build();
  std::vector<Condition> conditions = {
      If(10, "if sys.version_info < (3, 9) or os.path.sep:",
         {{"attribute", "sys", "version_info"}, {"attribute", "os.path", "sep"}}),
      If(11, "if torch.compile is _original:", {{"attribute", "torch", "compile"}}),
      If(12, "if _unwrap_compiled:", {{"name", "", "_unwrap_compiled"}}),
  };
  std::vector<StateOrigin> origins = StateOriginsOf(model, kWrappers, "_unwrap_compiled", conditions);
  // A library's attribute counts only when the repository writes it (a monkeypatch); functions are not
  // state.
  ASSERT_EQ(origins.size(), 1u);
  EXPECT_EQ(origins[0].read.name, "compile");
  EXPECT_EQ(
      Describe(origins[0]),
      Strings{"lightning/fabric/wrappers.py:423 <module> | torch.compile = _capture_compile_kwargs(torch.compile) "
              "[assign]"});
}

TEST(StateOriginTest, DecoratorInstallsAndTooManyWriters) {
  FakeRepo repo;
  repo.Def("reg.py", "register", 1, 6)
      .Def("reg.py", "register.<locals>.wrap", 2, 5)
      .Write("reg.py", "register.<locals>.wrap", "fn", "_registered", 3, "fn._registered = True")
      .Def("reg.py", "plugin", 10, 12, false, {"register"})
      .Def("reg.py", "check", 20, 25);
  for (int i = 0; i < 51; ++i) {
    std::string object = "o";  // appended, not concatenated: GCC 12 warns wrongly on "o" + std::string
    object += std::to_string(i);
    repo.Write("many.py", "<module>", object, "crowded", i + 1, "o.crowded = 1");
  }
  const CodeModel& model = repo.Build();
  std::vector<Condition> conditions = {
      If(21, "if not getattr(fn, \"_registered\", False):", {{"getattr", "fn", "_registered"}}),
      If(22, "if x.crowded:", {{"attribute", "x", "crowded"}}),
  };
  std::vector<StateOrigin> origins = StateOriginsOf(model, "reg.py", "check", conditions);
  ASSERT_EQ(origins.size(), 2u);
  EXPECT_EQ(Describe(origins[0]), (Strings{"reg.py:3 register.<locals>.wrap | fn._registered = True [assign]",
                                           "  installed by reg.py:10 @register"}));
  EXPECT_TRUE(origins[1].writers.empty());
  EXPECT_EQ(origins[1].more, 51u);
}

// With the call graph, the statements that run a writer at import time are the graph's module-level calls
// of it: through an alias the code model's name lookup does not follow, and from a class body.
TEST(StateOriginTest, ImportTimeInstallsFromTheCallGraph) {
  graph_triggers_test::Repo repo({{"pkg/__init__.py", ""},
                                  {"pkg/hooks.py",
                                   "_installed = None\n"              // 1
                                   "def install(fn):\n"               // 2
                                   "    global _installed\n"          // 3
                                   "    _installed = fn\n"            // 4
                                   "    return fn\n"                  // 5
                                   "def _default(x):\n"               // 6
                                   "    return x\n"                   // 7
                                   "setup = install\n"                // 8
                                   "setup(_default)\n"                // 9
                                   "class Registry:\n"                // 10
                                   "    entry = install(_default)\n"  // 11
                                   "def later():\n"                   // 12
                                   "    install(_default)\n"          // 13
                                   "def check():\n"                   // 14
                                   "    if _installed is None:\n"     // 15
                                   "        raise RuntimeError('no hook')\n"}});
  const FileFacts& facts = repo.facts[1];
  ASSERT_EQ(facts.sites.size(), 1u);
  const std::vector<Condition>& conditions = facts.sites[0].conditions;
  std::vector<StateOrigin> origins =
      StateOriginsOf(*repo.model, "pkg/hooks.py", "check", conditions, 8, repo.triggers.get());
  ASSERT_EQ(origins.size(), 1u);
  EXPECT_EQ(origins[0].read.name, "_installed");
  Strings described = Describe(origins[0]);
  // The module-level assignment runs at import itself; `install` is run by the alias's call and the class
  // body, not by `later`, which nothing calls at import time.
  EXPECT_EQ(described, (Strings{"pkg/hooks.py:1 <module> | _installed = None [assign]",
                                "pkg/hooks.py:4 install | _installed = fn [assign]",
                                "  installed by pkg/hooks.py:9 setup(_default)",
                                "  installed by pkg/hooks.py:11 entry = install(_default)"}))
      << testing::PrintToString(described);
}

}  // namespace
}  // namespace errdex
