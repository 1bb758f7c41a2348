// Tests of module naming and type resolution across a revision (src/index/python_module_index.h). The
// facts come from the real extractor run on small Python files, as in an index run.
#include "python/python_module_index.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "python/python_extractor.h"
#include "testing/test_extractor.h"

namespace errdex {
namespace {

using testing_util::TestExtractor;

using Strings = std::vector<std::string>;

// A revision of Python files: path -> source. Keeps the facts alive as long as the index.
class Repo {
 public:
  Repo(const PythonExtractor& extractor, const std::map<std::string, std::string>& files,
       bool from_import_root = false) {
    facts_.reserve(files.size());
    std::vector<PythonModuleIndex::FileRef> refs;
    for (const auto& [path, source] : files) {
      facts_.push_back(extractor.Extract(source, ExtractOptions()));
      EXPECT_EQ(facts_.back().status, "ok") << path << ": " << facts_.back().reason;
    }
    size_t i = 0;
    for (const auto& entry : files) refs.push_back({entry.first, &facts_[i++]});
    index_ = std::make_unique<PythonModuleIndex>(refs, from_import_root);
  }

  const PythonModuleIndex& index() const { return *index_; }
  std::string Module(const std::string& path) const { return index_->ModuleOf(path); }
  std::string Resolve(const std::string& path, const std::string& type) const {
    return index_->Resolve(path, type).value_or("<null>");
  }

 private:
  std::vector<FileFacts> facts_;
  std::unique_ptr<PythonModuleIndex> index_;
};

class PythonModuleIndexTest : public ::testing::Test {
 protected:
  static Repo Make(const std::map<std::string, std::string>& files) { return Repo(TestExtractor(), files); }
};

// A small package used by several tests:
//   shop/__init__.py         re-exports ConfigError from .errors
//   shop/errors.py           the exception classes
//   shop/base.py             BaseError
//   shop/sub/__init__.py
//   shop/sub/mod.py          relative imports one and two levels up
const std::map<std::string, std::string> kShop = {
    {"shop/__init__.py", "from .errors import ConfigError\nfrom .errors import PaymentError as Declined\n"},
    {"shop/errors.py",
     "from .base import BaseError\n"
     "class ConfigError(BaseError):\n    pass\n"
     "class PaymentError(BaseError, ValueError):\n    class Detail(Exception):\n        pass\n"},
    {"shop/base.py", "class BaseError(Exception):\n    \"\"\"Base.\"\"\"\n"},
    {"shop/sub/__init__.py", "from ..base import BaseError\n"},
    {"shop/sub/mod.py",
     "from ..base import BaseError\n"
     "from ..errors import ConfigError as CE\n"
     "from .. import errors\n"
     "from . import helpers\n"
     "import shop.errors as errs\n"
     "import shop.errors\n"
     "import requests\n"
     "from shop import ConfigError, Declined\n"
     "class Local(BaseError):\n    pass\n"},
    {"shop/sub/helpers.py", "class HelperError(Exception):\n    pass\n"},
};

// ---------------------------------------------------------------------------------------------------
// Module names.

TEST_F(PythonModuleIndexTest, ModuleNames) {
  Repo repo = Make({
      {"pkg/__init__.py", ""},
      {"pkg/mod.py", ""},
      {"pkg/inner/__init__.py", ""},
      {"pkg/inner/deep.py", ""},
      {"src/lib/__init__.py", ""},
      {"src/lib/mod.py", ""},
      {"setup.py", ""},
      {"scripts/run.py", ""},         // scripts/ is no package
      {"loose/sub/__init__.py", ""},  // loose/ is no package, loose/sub is
      {"loose/sub/x.py", ""},
  });
  EXPECT_EQ(repo.Module("pkg/__init__.py"), "pkg");
  EXPECT_EQ(repo.Module("pkg/mod.py"), "pkg.mod");
  EXPECT_EQ(repo.Module("pkg/inner/__init__.py"), "pkg.inner");
  EXPECT_EQ(repo.Module("pkg/inner/deep.py"), "pkg.inner.deep");
  EXPECT_EQ(repo.Module("src/lib/__init__.py"), "lib");
  EXPECT_EQ(repo.Module("src/lib/mod.py"), "lib.mod");
  EXPECT_EQ(repo.Module("setup.py"), "setup");
  EXPECT_EQ(repo.Module("scripts/run.py"), "run");
  EXPECT_EQ(repo.Module("loose/sub/__init__.py"), "sub");
  EXPECT_EQ(repo.Module("loose/sub/x.py"), "sub.x");
  EXPECT_EQ(repo.Module("not/in/the/index.py"), "");
}

TEST_F(PythonModuleIndexTest, NamespacePackagesOfAnInstalledDistribution) {
  const std::map<std::string, std::string> files = {
      {"lazr/uri/__init__.py", "from lazr.uri._uri import InvalidURIError\n"},
      {"lazr/uri/_uri.py", "class InvalidURIError(Exception):\n    pass\n"},
  };
  Repo installed(TestExtractor(), files, /*from_import_root=*/true);
  EXPECT_EQ(installed.Module("lazr/uri/_uri.py"), "lazr.uri._uri");
  EXPECT_EQ(installed.Module("lazr/uri/__init__.py"), "lazr.uri");
  EXPECT_EQ(installed.Resolve("lazr/uri/__init__.py", "InvalidURIError"), "lazr.uri._uri.InvalidURIError");
  // A checkout: lazr/ is a source folder, unless the checkout's own imports name it (the next test).
  Repo checkout(TestExtractor(), {{"lazr/uri/__init__.py", "from ._uri import InvalidURIError\n"},
                                  {"lazr/uri/_uri.py", "class InvalidURIError(Exception):\n    pass\n"}});
  EXPECT_EQ(checkout.Module("lazr/uri/_uri.py"), "uri._uri");
}

// Poetry's checkout: `src/poetry/` has no __init__.py (a namespace package shared with poetry-core), and the
// code imports `poetry.utils.…`: the directory the imports name is a package; `src/` stays a source folder.
TEST_F(PythonModuleIndexTest, ANamespacePackageOfACheckoutIsNamedByItsImports) {
  Repo repo = Make({{"src/poetry/utils/__init__.py", ""},
                    {"src/poetry/utils/errors.py", "class InvalidVersion(Exception):\n    pass\n"},
                    {"src/poetry/utils/manager.py", "from poetry.utils.errors import InvalidVersion\n"},
                    {"src/other/__init__.py", ""},
                    {"src/other/mod.py", "import json.decoder\n"}});
  EXPECT_EQ(repo.Module("src/poetry/utils/errors.py"), "poetry.utils.errors");
  EXPECT_EQ(repo.Resolve("src/poetry/utils/manager.py", "InvalidVersion"), "poetry.utils.errors.InvalidVersion");
  EXPECT_EQ(repo.Module("src/other/mod.py"), "other.mod");
}

TEST_F(PythonModuleIndexTest, SrcIsAPackageWhenItHasAnInit) {
  Repo repo = Make({{"src/__init__.py", ""}, {"src/pkg/__init__.py", ""}, {"src/pkg/mod.py", ""}});
  EXPECT_EQ(repo.Module("src/pkg/mod.py"), "src.pkg.mod");
  EXPECT_EQ(repo.Module("src/__init__.py"), "src");
}

// ---------------------------------------------------------------------------------------------------
// Resolution.

TEST_F(PythonModuleIndexTest, ClassOfTheSameFile) {
  Repo repo = Make(kShop);
  EXPECT_EQ(repo.Resolve("shop/errors.py", "ConfigError"), "shop.errors.ConfigError");
  EXPECT_EQ(repo.Resolve("shop/errors.py", "PaymentError.Detail"), "shop.errors.PaymentError.Detail");
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "Local"), "shop.sub.mod.Local");
  EXPECT_EQ(repo.Resolve("shop/errors.py", "PaymentError.Missing"), "<null>");
}

TEST_F(PythonModuleIndexTest, RelativeImports) {
  Repo repo = Make(kShop);
  // `from .base import BaseError` in shop/errors.py.
  EXPECT_EQ(repo.Resolve("shop/errors.py", "BaseError"), "shop.base.BaseError");
  // `from ..base import BaseError` in shop/sub/mod.py and in the package's own __init__.
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "BaseError"), "shop.base.BaseError");
  EXPECT_EQ(repo.Resolve("shop/sub/__init__.py", "BaseError"), "shop.base.BaseError");
  // `from ..errors import ConfigError as CE`.
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "CE"), "shop.errors.ConfigError");
  // `from .. import errors` then `errors.ConfigError`; `from . import helpers`.
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "errors.ConfigError"), "shop.errors.ConfigError");
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "errors.PaymentError.Detail"), "shop.errors.PaymentError.Detail");
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "helpers.HelperError"), "shop.sub.helpers.HelperError");
}

TEST_F(PythonModuleIndexTest, ImportedModulesAndAliases) {
  Repo repo = Make(kShop);
  // `import shop.errors as errs` + `errs.ConfigError`.
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "errs.ConfigError"), "shop.errors.ConfigError");
  // `import shop.errors` + the full dotted name.
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "shop.errors.PaymentError"), "shop.errors.PaymentError");
  // Through the package's re-export: `shop.ConfigError` is shop.errors.ConfigError.
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "shop.ConfigError"), "shop.errors.ConfigError");
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "errs.NoSuchClass"), "<null>");
}

TEST_F(PythonModuleIndexTest, ReExportThroughPackageInit) {
  Repo repo = Make(kShop);
  // `from shop import ConfigError, Declined`: shop/__init__.py imports them from .errors.
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "ConfigError"), "shop.errors.ConfigError");
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "Declined"), "shop.errors.PaymentError");
  // In the __init__ itself.
  EXPECT_EQ(repo.Resolve("shop/__init__.py", "ConfigError"), "shop.errors.ConfigError");
  EXPECT_EQ(repo.Resolve("shop/__init__.py", "Declined"), "shop.errors.PaymentError");
}

TEST_F(PythonModuleIndexTest, WildcardImports) {
  Repo repo = Make({
      {"app/__init__.py", ""},
      {"app/errors.py", "class AppError(Exception):\n    pass\n"},
      {"app/api.py", "from .errors import *\nfrom os.path import *\n"},
      {"app/abs.py", "from app.errors import *\n"},
      {"app/chain.py", "from app.api import *\n"},
  });
  EXPECT_EQ(repo.Resolve("app/api.py", "AppError"), "app.errors.AppError");
  EXPECT_EQ(repo.Resolve("app/abs.py", "AppError"), "app.errors.AppError");
  EXPECT_EQ(repo.Resolve("app/chain.py", "AppError"), "app.errors.AppError");
  // Names the wildcard does not provide still fall back to the builtins.
  EXPECT_EQ(repo.Resolve("app/api.py", "KeyError"), "builtins.KeyError");
  EXPECT_EQ(repo.Resolve("app/api.py", "Missing"), "<null>");
}

TEST_F(PythonModuleIndexTest, Builtins) {
  Repo repo = Make({{"m.py", "import os\n"}});
  EXPECT_EQ(repo.Resolve("m.py", "ValueError"), "builtins.ValueError");
  EXPECT_EQ(repo.Resolve("m.py", "BaseException"), "builtins.BaseException");
  EXPECT_EQ(repo.Resolve("m.py", "DeprecationWarning"), "builtins.DeprecationWarning");
  EXPECT_EQ(repo.Resolve("m.py", "AssertionError"), "builtins.AssertionError");
  // `builtins.X` written out is not bound by this file, so it stays unresolved unless imported.
  EXPECT_EQ(repo.Resolve("m.py", "ValueError.x"), "<null>");
  // Not exceptions.
  EXPECT_EQ(repo.Resolve("m.py", "int"), "<null>");
  EXPECT_EQ(repo.Resolve("m.py", "print"), "<null>");
}

TEST_F(PythonModuleIndexTest, RepositoryClassShadowsABuiltin) {
  Repo repo = Make({
      {"net/__init__.py", ""},
      {"net/errors.py", "class TimeoutError(Exception):\n    pass\n"},
      {"net/client.py", "from .errors import TimeoutError\n"},
      {"net/local.py", "class ValueError(Exception):\n    pass\n"},
      {"net/plain.py", "import os\n"},
  });
  EXPECT_EQ(repo.Resolve("net/client.py", "TimeoutError"), "net.errors.TimeoutError");
  EXPECT_EQ(repo.Resolve("net/errors.py", "TimeoutError"), "net.errors.TimeoutError");
  EXPECT_EQ(repo.Resolve("net/local.py", "ValueError"), "net.local.ValueError");
  // Files that do not import or define them still see the builtins.
  EXPECT_EQ(repo.Resolve("net/plain.py", "TimeoutError"), "builtins.TimeoutError");
  EXPECT_EQ(repo.Resolve("net/plain.py", "ValueError"), "builtins.ValueError");
}

TEST_F(PythonModuleIndexTest, UnresolvableTypesAreNull) {
  Repo repo = Make(kShop);
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "self.error_cls"), "<null>");
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "e"), "<null>");
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "exc"), "<null>");
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "requests.HTTPError"), "<null>");  // third-party
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "get_error()"), "<null>");
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "errors[0]"), "<null>");
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", ""), "<null>");
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "a..b"), "<null>");
  EXPECT_EQ(repo.Resolve("not/indexed.py", "ValueError"), "<null>");
  // An imported module is not a class.
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "errs"), "<null>");
  EXPECT_EQ(repo.Resolve("shop/sub/mod.py", "errors"), "<null>");
}

TEST_F(PythonModuleIndexTest, ImportCyclesTerminate) {
  Repo repo = Make({
      {"cyc/__init__.py", "from cyc.a import Loop\n"},
      {"cyc/a.py", "from cyc.b import Loop\nfrom .b import *\n"},
      {"cyc/b.py", "from cyc.a import Loop\nfrom .a import *\n"},
      {"cyc/self.py", "from cyc.self import Me\n"},
      {"cyc/user.py", "from cyc import Loop\nimport cyc.a as a\n"},
  });
  EXPECT_EQ(repo.Resolve("cyc/a.py", "Loop"), "<null>");
  EXPECT_EQ(repo.Resolve("cyc/b.py", "Loop"), "<null>");
  EXPECT_EQ(repo.Resolve("cyc/user.py", "Loop"), "<null>");
  EXPECT_EQ(repo.Resolve("cyc/user.py", "a.Loop"), "<null>");
  EXPECT_EQ(repo.Resolve("cyc/self.py", "Me"), "<null>");
  EXPECT_EQ(repo.Resolve("cyc/a.py", "Nothing"), "<null>");
  // Builtins still resolve in the files of the cycle.
  EXPECT_EQ(repo.Resolve("cyc/a.py", "KeyError"), "builtins.KeyError");
}

TEST_F(PythonModuleIndexTest, BasesOf) {
  Repo repo = Make(kShop);
  EXPECT_EQ(repo.index().BasesOf("shop.base.BaseError"), (Strings{"builtins.Exception"}));
  EXPECT_EQ(repo.index().BasesOf("shop.errors.ConfigError"), (Strings{"shop.base.BaseError"}));
  EXPECT_EQ(repo.index().BasesOf("shop.errors.PaymentError"), (Strings{"shop.base.BaseError", "builtins.ValueError"}));
  EXPECT_EQ(repo.index().BasesOf("shop.errors.PaymentError.Detail"), (Strings{"builtins.Exception"}));
  EXPECT_EQ(repo.index().BasesOf("shop.sub.mod.Local"), (Strings{"shop.base.BaseError"}));
  EXPECT_EQ(repo.index().BasesOf("shop.helpers.HelperError"), Strings{});  // no such class
  EXPECT_EQ(repo.index().BasesOf("shop.errors"), Strings{});

  // Bases that do not resolve stay as written.
  Repo other = Make({{"x.py", "import requests\nclass E(requests.HTTPError, Mixin, object):\n    pass\n"}});
  EXPECT_EQ(other.index().BasesOf("x.E"), (Strings{"requests.HTTPError", "Mixin", "object"}));
}

TEST_F(PythonModuleIndexTest, TypeAndBases) {
  Repo repo = Make(kShop);
  EXPECT_EQ(repo.index().TypeAndBases("shop.errors.PaymentError"),
            (Strings{"shop.errors.PaymentError", "shop.base.BaseError", "builtins.ValueError", "builtins.Exception",
                     "builtins.BaseException"}));
  EXPECT_EQ(repo.index().TypeAndBases("builtins.KeyError"),
            (Strings{"builtins.KeyError", "builtins.LookupError", "builtins.Exception", "builtins.BaseException"}));
  EXPECT_EQ(repo.index().TypeAndBases("no.such.Type"), (Strings{"no.such.Type"}));
  // A cycle of bases (not valid Python, but content is hostile) terminates.
  Repo cyclic = Make({{"c.py", "class A(B):\n    pass\nclass B(A):\n    pass\n"}});
  EXPECT_EQ(cyclic.index().TypeAndBases("c.A"), (Strings{"c.A", "c.B"}));
}

TEST_F(PythonModuleIndexTest, SkippedFilesHaveAModuleButNoBindings) {
  FileFacts ok = TestExtractor().Extract("from .skipped import Gone\n", ExtractOptions());
  std::vector<PythonModuleIndex::FileRef> refs = {
      {"p/__init__.py", nullptr}, {"p/skipped.py", nullptr}, {"p/user.py", &ok}};
  PythonModuleIndex index(refs);
  EXPECT_EQ(index.ModuleOf("p/skipped.py"), "p.skipped");
  EXPECT_EQ(index.ModuleOf("p/__init__.py"), "p");
  EXPECT_EQ(index.Resolve("p/user.py", "Gone"), std::nullopt);
  EXPECT_EQ(index.Resolve("p/skipped.py", "ValueError"), "builtins.ValueError");
}

TEST_F(PythonModuleIndexTest, DuplicateModuleNamesPickTheShorterPath) {
  // src/pkg/errors.py and pkg/errors.py both claim pkg.errors: the shorter path wins, deterministically.
  Repo repo = Make({
      {"pkg/__init__.py", ""},
      {"pkg/errors.py", "class A(Exception):\n    pass\n"},
      {"src/pkg/__init__.py", ""},
      {"src/pkg/errors.py", "class B(Exception):\n    pass\n"},
      {"user.py", "from pkg.errors import A, B\n"},
  });
  EXPECT_EQ(repo.Module("src/pkg/errors.py"), "pkg.errors");
  EXPECT_EQ(repo.Module("pkg/errors.py"), "pkg.errors");
  EXPECT_EQ(repo.Resolve("user.py", "A"), "pkg.errors.A");
}

// Names of functions, modules and variables, on hand-made facts: extraction fills
// FileFacts::functions from v12 on.
TEST(PythonModuleIndexNamesTest, AbsoluteNameLookupMembersAndGlobals) {
  std::map<std::string, FileFacts> files;
  files["pkg/__init__.py"].imports = {{"run", ".core.run"}, {"Engine", ".core.Engine"}};
  FileFacts& core = files["pkg/core.py"];
  core.imports = {{"Base", ".base.Base"}, {"FLAG", ".base.FLAG"}, {"np", "numpy"}};
  core.functions = {{"run", 1, 2, "", {}, {}, false},
                    {"run.<locals>.inner", 1, 1, "", {}, {}, false},
                    {"Engine.start", 4, 5, "", {}, {}, true}};
  core.classes = {{"Engine", 3, {"Base"}, "", "", "", {}}};
  FileFacts& base = files["pkg/base.py"];
  base.classes = {{"Base", 1, {}, "", "", "", {}}};
  base.functions = {{"Base.stop", 2, 3, "", {}, {}, true}};
  std::vector<PythonModuleIndex::FileRef> refs;
  for (auto& [path, facts] : files) refs.push_back({path, &facts});
  PythonModuleIndex index(refs);
  using Kind = PythonModuleIndex::Symbol::Kind;
  EXPECT_EQ(index.AbsoluteName("pkg/core.py", "run"), "pkg.core.run");
  EXPECT_EQ(index.AbsoluteName("pkg/core.py", "Base.stop"), "pkg.base.Base.stop");
  EXPECT_EQ(index.AbsoluteName("pkg/core.py", "np.asarray"), "numpy.asarray");
  EXPECT_EQ(index.AbsoluteName("pkg/core.py", "local_var.x"), std::nullopt);
  auto run = index.Lookup("pkg.run");  // through the __init__ re-export
  ASSERT_TRUE(run.has_value());
  EXPECT_EQ(run->kind, Kind::kFunction);
  EXPECT_EQ(run->qualified, "pkg.core.run");
  EXPECT_EQ(run->path, "pkg/core.py");
  EXPECT_EQ(run->qualname, "run");
  auto stop = index.Lookup("pkg.Engine.stop");  // a member through the bases
  ASSERT_TRUE(stop.has_value());
  EXPECT_EQ(stop->qualified, "pkg.base.Base.stop");
  EXPECT_EQ(index.Lookup("pkg.core")->kind, Kind::kModule);
  EXPECT_EQ(index.Lookup("pkg.Engine")->kind, Kind::kClass);
  EXPECT_FALSE(index.Lookup("pkg.core.run.inner").has_value());  // nested functions have no name
  EXPECT_FALSE(index.Lookup("numpy.asarray").has_value());
  EXPECT_TRUE(index.IsRepositoryName("pkg.anything"));
  EXPECT_FALSE(index.IsRepositoryName("numpy.asarray"));
  EXPECT_FALSE(index.FindMember("pkg.core.Engine", "start", /*skip_self=*/true).has_value());
  EXPECT_EQ(index.FindMember("pkg.core.Engine", "start")->qualified, "pkg.core.Engine.start");
  auto flag = index.OwnerOfGlobal("pkg/core.py", "FLAG");
  ASSERT_TRUE(flag.has_value());
  EXPECT_EQ(flag->first, "pkg.base");
  EXPECT_EQ(flag->second, "FLAG");
  EXPECT_EQ(index.OwnerOfGlobal("pkg/core.py", "mine")->first, "pkg.core");
  EXPECT_FALSE(index.OwnerOfGlobal("pkg/core.py", "np").has_value());
  ASSERT_NE(index.PathOfModule("pkg.base"), nullptr);
  EXPECT_EQ(*index.PathOfModule("pkg.base"), "pkg/base.py");
}

}  // namespace
}  // namespace errdex
