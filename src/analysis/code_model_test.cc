// Tests of the cross-file code model (src/analysis/code_model.h): function table, resolution of calls
// (imports, re-exports, relative imports, aliases, wildcards, classes, self/cls, super(), nested
// functions, possible targets), callers, decorators and public-ness. Facts are hand-made, as extraction
// documents them (src/extract/file_facts.h).
#include "analysis/code_model.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/code_model_test_util.h"

namespace errdex {
namespace {

using testing_util::FakeRepo;
using Strings = std::vector<std::string>;

// The targets of a call of CALLEE made in FUNCTION of PATH: "module.qualname", "?" appended when only
// possible.
Strings Targets(const CodeModel& model, const std::string& path, const std::string& function,
                const std::string& callee) {
  CallFact call;
  call.function = function;
  call.callee = callee;
  call.line = 1;
  Strings out;
  for (const CodeModel::Target& t : model.Resolve(path, call)) {
    const CodeModel::Function& f = model.function(t.function);
    out.push_back(f.module + "." + f.qualname + (t.certain ? "" : "?"));
  }
  return out;
}

// A package used by several tests:
//   pkg/__init__.py      from .core import run as go; from .core import Engine; from ._impl import Hidden
//   pkg/core.py          def run; def _helper; class Engine(Base) with start, _step; import of Base
//   pkg/base.py          class Base with __init__, start, shared
//   pkg/_impl.py         class Hidden with go, _inner
//   pkg/sub/mod.py       relative imports, aliases, calls
void AddPackage(FakeRepo& repo) {
  repo.Import("pkg/__init__.py", "go", ".core.run")
      .Import("pkg/__init__.py", "Engine", ".core.Engine")
      .Import("pkg/__init__.py", "Hidden", "._impl.Hidden")
      .Import("pkg/__init__.py", "_private_alias", ".core.run");
  repo.Import("pkg/core.py", "Base", ".base.Base")
      .Def("pkg/core.py", "run", 3, 5)
      .Def("pkg/core.py", "_helper", 7, 9)
      .Class("pkg/core.py", "Engine", 11, {"Base"})
      .Def("pkg/core.py", "Engine.start", 12, 14, true)
      .Def("pkg/core.py", "Engine._step", 15, 17, true);
  repo.Class("pkg/base.py", "Base", 1)
      .Def("pkg/base.py", "Base.__init__", 2, 3, true)
      .Def("pkg/base.py", "Base.start", 4, 5, true)
      .Def("pkg/base.py", "Base.shared", 6, 7, true);
  repo.Class("pkg/_impl.py", "Hidden", 1)
      .Def("pkg/_impl.py", "Hidden.go", 2, 3, true)
      .Def("pkg/_impl.py", "Hidden._inner", 4, 5, true)
      .Def("pkg/_impl.py", "loose", 6, 7);
  repo.Import("pkg/sub/__init__.py", "mod", ".mod");
  repo.Import("pkg/sub/mod.py", "run", "..core.run")
      .Import("pkg/sub/mod.py", "go", "pkg.go")
      .Import("pkg/sub/mod.py", "c", "pkg.core")
      .Import("pkg/sub/mod.py", "core", "..core")
      .Import("pkg/sub/mod.py", "pkg", "pkg")
      .Import("pkg/sub/mod.py", "torch", "torch")
      .Import("pkg/sub/mod.py", "E", "pkg.Engine")
      .Def("pkg/sub/mod.py", "main", 10, 20)
      .Def("pkg/sub/mod.py", "main.<locals>.inner", 11, 12)
      .Def("pkg/sub/mod.py", "main.<locals>.inner.<locals>.deeper", 12, 12);
}

TEST(CodeModelTest, FunctionTable) {
  FakeRepo repo;
  AddPackage(repo);
  const CodeModel& model = repo.Build();
  CodeModel::FunctionId start = model.Find("pkg/core.py", "Engine.start");
  ASSERT_NE(start, CodeModel::kNone);
  const CodeModel::Function& f = model.function(start);
  EXPECT_EQ(f.module, "pkg.core");
  EXPECT_EQ(f.name, "start");
  EXPECT_EQ(f.class_qualname, "Engine");
  EXPECT_TRUE(f.is_method);
  EXPECT_EQ(f.line, 12);
  EXPECT_EQ(f.end_line, 14);
  CodeModel::FunctionId scope = model.Find("pkg/core.py", "<module>");
  ASSERT_NE(scope, CodeModel::kNone);
  EXPECT_TRUE(model.function(scope).is_module_scope);
  EXPECT_EQ(model.Find("pkg/core.py", "nothing"), CodeModel::kNone);
  // Scopes that are not functions map to the nearest enclosing function, else the module scope.
  EXPECT_EQ(model.ScopeOf("pkg/core.py", "Engine.start.<locals>.<lambda>"), start);
  EXPECT_EQ(model.ScopeOf("pkg/core.py", "Engine"), scope);
  EXPECT_EQ(model.ScopeOf("nowhere.py", "f"), CodeModel::kNone);
  EXPECT_EQ(model.FindQualified("pkg.Engine.start"), start);
  EXPECT_EQ(model.FindQualified("pkg.Engine.shared"), model.Find("pkg/base.py", "Base.shared"));
  EXPECT_EQ(model.EnclosingClass(start), "pkg.core.Engine");
  EXPECT_EQ(model.EnclosingClass(model.Find("pkg/core.py", "run")), "");
}

TEST(CodeModelTest, ImportsReExportsRelativeAndAliases) {
  FakeRepo repo;
  AddPackage(repo);
  const CodeModel& model = repo.Build();
  const std::string p = "pkg/sub/mod.py";
  EXPECT_EQ(Targets(model, p, "main", "run"), Strings{"pkg.core.run"});               // from ..core import run
  EXPECT_EQ(Targets(model, p, "main", "go"), Strings{"pkg.core.run"});                // re-export under an alias
  EXPECT_EQ(Targets(model, p, "main", "c.run"), Strings{"pkg.core.run"});             // import pkg.core as c
  EXPECT_EQ(Targets(model, p, "main", "core._helper"), Strings{"pkg.core._helper"});  // from .. import core
  EXPECT_EQ(Targets(model, p, "main", "pkg.core.run"), Strings{"pkg.core.run"});      // import pkg
  EXPECT_EQ(Targets(model, p, "main", "pkg.go"), Strings{"pkg.core.run"});
  // A class: its __init__, inherited from a base of another module.
  EXPECT_EQ(Targets(model, p, "main", "E"), Strings{"pkg.base.Base.__init__"});
  // Class attribute access: a method, directly or through the bases.
  EXPECT_EQ(Targets(model, p, "main", "E.start"), Strings{"pkg.core.Engine.start"});
  EXPECT_EQ(Targets(model, p, "main", "E.shared"), Strings{"pkg.base.Base.shared"});
  // Libraries and builtins reach nothing; neither does an unknown bare name.
  EXPECT_EQ(Targets(model, p, "main", "torch.compile"), Strings{});
  EXPECT_EQ(Targets(model, p, "main", "len"), Strings{});
  EXPECT_EQ(Targets(model, p, "<module>", "undefined_name"), Strings{});
}

TEST(CodeModelTest, SameFileNestedAndWildcard) {
  FakeRepo repo;
  AddPackage(repo);
  repo.File("app.py").wildcard_imports.push_back("pkg.core");
  repo.Def("app.py", "local", 1, 2);
  repo.File("strict.py").wildcard_imports.push_back("pkg.limited");
  repo.Def("pkg/limited.py", "shown", 1, 2).Def("pkg/limited.py", "hidden", 3, 4);
  repo.File("pkg/limited.py").has_all = true;
  repo.File("pkg/limited.py").all_names = {"shown"};
  const CodeModel& model = repo.Build();
  EXPECT_EQ(Targets(model, "app.py", "<module>", "local"), Strings{"app.local"});
  EXPECT_EQ(Targets(model, "app.py", "local", "run"), Strings{"pkg.core.run"});  // from pkg.core import *
  EXPECT_EQ(Targets(model, "strict.py", "<module>", "shown"), Strings{"pkg.limited.shown"});
  EXPECT_EQ(Targets(model, "strict.py", "<module>", "hidden"), Strings{});  // not in __all__
  // Nested functions: in the calling scope, then in the scopes around it.
  const std::string p = "pkg/sub/mod.py";
  EXPECT_EQ(Targets(model, p, "main", "inner"), Strings{"pkg.sub.mod.main.<locals>.inner"});
  EXPECT_EQ(Targets(model, p, "main.<locals>.inner", "deeper"),
            Strings{"pkg.sub.mod.main.<locals>.inner.<locals>.deeper"});
  EXPECT_EQ(Targets(model, p, "main.<locals>.inner.<locals>.deeper", "inner"),
            Strings{"pkg.sub.mod.main.<locals>.inner"});
}

TEST(CodeModelTest, SelfClsAndSuper) {
  FakeRepo repo;
  AddPackage(repo);
  // A subclass of Engine in another module overrides start.
  repo.Import("pkg/turbo.py", "Engine", "pkg.core.Engine")
      .Class("pkg/turbo.py", "Turbo", 1, {"Engine"})
      .Def("pkg/turbo.py", "Turbo.start", 2, 4, true)
      .Def("pkg/turbo.py", "Turbo.start.<locals>.cb", 3, 3);
  const CodeModel& model = repo.Build();
  // self.m: the class's own method, overrides in subclasses as possible.
  EXPECT_EQ(Targets(model, "pkg/core.py", "Engine._step", "self.start"),
            (Strings{"pkg.core.Engine.start", "pkg.turbo.Turbo.start?"}));
  // Inherited through a base of another module; cls too.
  EXPECT_EQ(Targets(model, "pkg/core.py", "Engine._step", "self.shared"), Strings{"pkg.base.Base.shared"});
  EXPECT_EQ(Targets(model, "pkg/core.py", "Engine._step", "cls.shared"), Strings{"pkg.base.Base.shared"});
  // self in a function nested in a method is the method's self.
  EXPECT_EQ(Targets(model, "pkg/turbo.py", "Turbo.start.<locals>.cb", "self._step"), Strings{"pkg.core.Engine._step"});
  // super(): the bases only.
  EXPECT_EQ(Targets(model, "pkg/turbo.py", "Turbo.start", "super().start"), Strings{"pkg.core.Engine.start"});
  EXPECT_EQ(Targets(model, "pkg/core.py", "Engine.start", "super().start"), Strings{"pkg.base.Base.start"});
  EXPECT_EQ(Targets(model, "pkg/turbo.py", "Turbo.start", "super().__init__"), Strings{"pkg.base.Base.__init__"});
  // self outside a class, and self.attr.m: by name.
  EXPECT_EQ(Targets(model, "pkg/core.py", "run", "self._inner"), Strings{"pkg._impl.Hidden._inner?"});
  EXPECT_EQ(Targets(model, "pkg/core.py", "Engine.start", "self.helper_obj._inner"),
            Strings{"pkg._impl.Hidden._inner?"});
}

TEST(CodeModelTest, PossibleTargetsByName) {
  FakeRepo repo;
  for (int i = 0; i < 2; ++i) repo.Def("two" + std::to_string(i) + ".py", "Thing.frobnicate", 1, 2, true);
  for (int i = 0; i < 9; ++i) repo.Def("nine" + std::to_string(i) + ".py", "Thing.common", 1, 2, true);
  for (int i = 0; i < 8; ++i) repo.Def("eight" + std::to_string(i) + ".py", "Thing.several", 1, 2, true);
  repo.Def("tests/test_x.py", "helper_only_in_tests", 1, 2);
  repo.File("tests/test_x.py", true);
  repo.Def("lib.py", "Store.append", 1, 2, true);
  repo.Def("app.py", "main", 1, 9).Import("app.py", "torch", "torch");
  const CodeModel& model = repo.Build();
  EXPECT_EQ(Targets(model, "app.py", "main", "x.frobnicate"),
            (Strings{"two0.Thing.frobnicate?", "two1.Thing.frobnicate?"}));
  EXPECT_EQ(Targets(model, "app.py", "main", "x.several").size(), 8u);
  EXPECT_EQ(Targets(model, "app.py", "main", "x.common"), Strings{});          // more than 8: none
  EXPECT_EQ(Targets(model, "app.py", "main", "x.append"), Strings{});          // a builtin type's method
  EXPECT_EQ(Targets(model, "app.py", "main", "torch.frobnicate"), Strings{});  // a library
  EXPECT_EQ(Targets(model, "app.py", "main", "a.b.frobnicate").size(), 2u);
  // Functions of test files are targets for calls from tests only.
  EXPECT_EQ(Targets(model, "app.py", "main", "x.helper_only_in_tests"), Strings{});
  EXPECT_EQ(Targets(model, "tests/test_x.py", "<module>", "x.helper_only_in_tests"),
            Strings{"test_x.helper_only_in_tests?"});
}

TEST(CodeModelTest, CallersAndDecorators) {
  FakeRepo repo;
  repo.Def("m.py", "target", 1, 3)
      .Def("m.py", "register", 5, 8)
      .Def("m.py", "user", 10, 12)
      .Def("m.py", "plugin", 14, 15, false, {"register"})
      .Def("m.py", "other", 17, 18, false, {"register(name='x')"})
      .Class("m.py", "K", 20)
      .Call("m.py", "user", "target", 11, "target()")
      .Call("m.py", "<module>", "target", 30, "target()")
      .Call("m.py", "K", "target", 21, "x = target()")
      .Call("m.py", "user.<locals>.<lambda>", "target", 12, "f = lambda: target()")
      .Call("m.py", "<lambda>", "target", 31, "g = lambda: target()")
      .Call("m.py", "user", "y.target", 11, "y.target()");
  const CodeModel& model = repo.Build();
  CodeModel::FunctionId target = model.Find("m.py", "target");
  const auto& callers = model.Callers(target);
  ASSERT_EQ(callers.size(), 6u);
  struct Expect {
    std::string caller;
    int line;
    bool certain, import_time;
  };
  std::vector<Expect> expected = {{"user", 11, true, false},     {"<module>", 30, true, true},
                                  {"<module>", 21, true, true},  {"user", 12, true, false},
                                  {"<module>", 31, true, false}, {"user", 11, false, false}};
  for (size_t i = 0; i < callers.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(model.function(callers[i].caller).qualname, expected[i].caller);
    EXPECT_EQ(callers[i].call->line, expected[i].line);
    EXPECT_EQ(callers[i].certain, expected[i].certain);
    EXPECT_EQ(callers[i].import_time, expected[i].import_time);
  }
  const auto& decorated = model.DecoratedBy(model.Find("m.py", "register"));
  ASSERT_EQ(decorated.size(), 2u);
  EXPECT_EQ(model.function(decorated[0].decorated).qualname, "plugin");
  EXPECT_EQ(decorated[1].decorator, "register(name='x')");
}

TEST(CodeModelTest, PublicNames) {
  FakeRepo repo;
  AddPackage(repo);
  repo.Def("pkg/_private_mod.py", "exported_fn", 1, 2).Def("pkg/_private_mod.py", "not_exported", 3, 4);
  repo.File("pkg/_private_mod.py").has_all = true;
  repo.File("pkg/_private_mod.py").all_names = {"exported_fn"};
  repo.Import("pkg/api.py", "exported_fn", "._private_mod.exported_fn");
  repo.File("pkg/api.py").has_all = true;
  repo.File("pkg/api.py").all_names = {"exported_fn"};
  repo.Def("tests/test_core.py", "test_run", 1, 2);
  repo.File("tests/test_core.py", true);
  repo.Def("examples/train.py", "main", 1, 2);  // scripts outside every package
  repo.Def("setup.py", "build", 1, 2);
  repo.Class("pkg/_impl.py", "_Launcher", 30).Def("pkg/_impl.py", "_Launcher.launch", 31, 32, true);
  repo.Import("pkg/__init__.py", "_Launcher", "._impl._Launcher");
  repo.File("pkg/__init__.py").has_all = true;
  repo.File("pkg/__init__.py").all_names = {"_Launcher"};
  repo.File("examples/__init__.py");  // a package, still examples
  repo.Def("examples/perf/bulk.py", "setup_database", 1, 2);
  repo.File("examples/perf/__init__.py");
  const CodeModel& model = repo.Build();
  auto is_public = [&](const std::string& path, const std::string& qualname) {
    CodeModel::FunctionId id = model.Find(path, qualname);
    EXPECT_NE(id, CodeModel::kNone) << path << " " << qualname;
    return id != CodeModel::kNone && model.IsPublic(id);
  };
  EXPECT_TRUE(is_public("pkg/core.py", "run"));
  EXPECT_TRUE(is_public("pkg/core.py", "Engine.start"));
  EXPECT_TRUE(is_public("pkg/base.py", "Base.__init__"));  // dunder
  EXPECT_FALSE(is_public("pkg/core.py", "_helper"));
  EXPECT_FALSE(is_public("pkg/core.py", "Engine._step"));
  EXPECT_FALSE(is_public("pkg/sub/mod.py", "main.<locals>.inner"));
  EXPECT_FALSE(is_public("tests/test_core.py", "test_run"));
  EXPECT_FALSE(is_public("pkg/core.py", "<module>"));
  // Re-exported by a package's __init__ from a private module: the class and its public methods.
  EXPECT_TRUE(is_public("pkg/_impl.py", "Hidden.go"));
  EXPECT_FALSE(is_public("pkg/_impl.py", "Hidden._inner"));
  EXPECT_FALSE(is_public("pkg/_impl.py", "loose"));
  // Listed in the __all__ of a public module (through its import), not in the private one's own.
  EXPECT_TRUE(is_public("pkg/_private_mod.py", "exported_fn"));
  EXPECT_FALSE(is_public("pkg/_private_mod.py", "not_exported"));
  // The repository has packages: scripts and examples are not its API.
  EXPECT_FALSE(is_public("examples/train.py", "main"));
  EXPECT_FALSE(is_public("setup.py", "build"));
  EXPECT_FALSE(is_public("examples/perf/bulk.py", "setup_database"));
  // Listed in __all__, still named private.
  EXPECT_FALSE(is_public("pkg/_impl.py", "_Launcher.launch"));
}

TEST(CodeModelTest, WithoutPackagesTopLevelModulesAreTheApi) {
  FakeRepo repo;
  repo.Def("tool.py", "run", 1, 2).Def("tool.py", "_inner", 3, 4);
  const CodeModel& model = repo.Build();
  EXPECT_TRUE(model.IsPublic(model.Find("tool.py", "run")));
  EXPECT_FALSE(model.IsPublic(model.Find("tool.py", "_inner")));
}

TEST(CodeModelTest, AnInstalledTreesTopLevelModulesAreTheApi) {
  // The standard library: packages (json/) beside top-level modules, and no project script at the top.
  FakeRepo repo;
  repo.File("json/__init__.py");
  repo.Def("json/decoder.py", "JSONObject", 1, 2).Def("configparser.py", "get", 1, 2);
  repo.Def("configparser.py", "_unify", 3, 4);
  const CodeModel& model = repo.Build();
  EXPECT_TRUE(model.IsPublic(model.Find("configparser.py", "get")));
  EXPECT_FALSE(model.IsPublic(model.Find("configparser.py", "_unify")));
  EXPECT_TRUE(model.IsPublic(model.Find("json/decoder.py", "JSONObject")));
}

TEST(CodeModelTest, AModulesAllNamesItsApi) {
  // json/decoder.py: `__all__ = ['JSONDecoder', 'JSONDecodeError']`; JSONObject is internal.
  FakeRepo repo;
  repo.File("json/__init__.py");
  repo.File("json/decoder.py").has_all = true;
  repo.File("json/decoder.py").all_names = {"JSONDecoder"};
  repo.Def("json/decoder.py", "JSONObject", 1, 2);
  repo.Class("json/decoder.py", "JSONDecoder", 3).Def("json/decoder.py", "JSONDecoder.raw_decode", 4, 5, true);
  repo.Def("json/scanner.py", "make_scanner", 1, 2);  // no __all__: the name decides
  const CodeModel& model = repo.Build();
  EXPECT_FALSE(model.IsPublic(model.Find("json/decoder.py", "JSONObject")));
  EXPECT_TRUE(model.IsPublic(model.Find("json/decoder.py", "JSONDecoder.raw_decode")));
  EXPECT_TRUE(model.IsPublic(model.Find("json/scanner.py", "make_scanner")));
}

TEST(CodeModelTest, AMethodOfAPrivateBaseIsPublicThroughAPublicSubclass) {
  FakeRepo repo;
  repo.File("pkg/__init__.py");
  repo.Class("pkg/stack.py", "_BaseStack", 1).Def("pkg/stack.py", "_BaseStack.enter", 2, 3, true);
  repo.Def("pkg/stack.py", "_BaseStack._push", 4, 5, true);
  repo.Class("pkg/stack.py", "ExitStack", 10, {"_BaseStack"});
  repo.Class("pkg/stack.py", "_Unused", 20).Def("pkg/stack.py", "_Unused.enter", 21, 22, true);
  const CodeModel& model = repo.Build();
  EXPECT_TRUE(model.IsPublic(model.Find("pkg/stack.py", "_BaseStack.enter")));
  EXPECT_FALSE(model.IsPublic(model.Find("pkg/stack.py", "_BaseStack._push")));
  EXPECT_FALSE(model.IsPublic(model.Find("pkg/stack.py", "_Unused.enter")));
}

}  // namespace
}  // namespace errdex
