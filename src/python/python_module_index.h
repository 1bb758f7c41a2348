// The modules of one revision and what their names refer to: module names from paths and packages,
// the classes each module defines, and the names its imports bind. Resolves an exception type as
// written in a file ("errors.ConfigError") to a qualified name ("shopkit.errors.ConfigError") when the
// class is defined in the repository or is a builtin (docs/extraction.md).
//
// Lifetime: borrows the FileFacts it is built from; they must outlive it. Immutable once built, so
// const methods are thread-safe.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "extract/file_facts.h"

namespace errdex {

class PythonModuleIndex {
 public:
  struct FileRef {
    std::string path;
    const FileFacts* facts;  // may be null for files that were skipped
  };

  // FROM_IMPORT_ROOT: the paths are relative to a directory on sys.path (an installed distribution, the
  // standard library), so a directory without `__init__.py` is a namespace package (PEP 420:
  // `lazr/uri/_uri.py` is `lazr.uri._uri`); otherwise such a directory is a source folder (`src/`), unless
  // it holds a package and the files' own absolute imports name the two (`poetry.utils…` for Poetry's
  // `src/poetry/utils/`, `src/poetry/` having no `__init__.py`): then it is a namespace package too.
  explicit PythonModuleIndex(const std::vector<FileRef>& files, bool from_import_root = false);

  // Dotted module name of PATH ("src/shopkit/cart.py" -> "shopkit.cart" when src/ is no package).
  const std::string& ModuleOf(const std::string& path) const;

  // TYPE as written in the file at PATH, resolved to a qualified name: "pkg.mod.Class" for a class
  // defined in the repository, "builtins.ValueError" for a builtin; null otherwise.
  std::optional<std::string> Resolve(const std::string& path, const std::string& type) const;

  // Direct bases of a repository class, resolved (a base that does not resolve stays as written).
  std::vector<std::string> BasesOf(const std::string& qualified_class) const;

  // QUALIFIED_TYPE followed by all its bases, transitively and breadth first, through repository classes
  // and the builtin exception hierarchy ("shopkit.errors.CartError" → itself, "shopkit.errors.ShopError",
  // "builtins.Exception", "builtins.BaseException"). Bases that do not resolve stay as written. Bounded
  // (cycles and absurd hierarchies stop at 64 names).
  std::vector<std::string> TypeAndBases(const std::string& qualified_type) const;

  // --- Names of modules, classes and functions (what the code model, analysis/code_model.h, reads) ---

  // What a dotted name of the repository names. `qualified` is "pkg.mod" for a module, "pkg.mod.Class"
  // for a class, "pkg.mod.func" or "pkg.mod.Class.meth" for a function; `module` is the defining
  // module's name and `qualname` the rest ("" for a module); `path` the defining file.
  struct Symbol {
    enum class Kind { kModule, kClass, kFunction };
    Kind kind = Kind::kModule;
    std::string qualified;
    std::string module;
    std::string qualname;
    std::string path;
  };

  // NAME as written at module level of the file at PATH ("helpers.run", "Fabric.setup", "run"), made
  // absolute: its first component is replaced by what the module binds it to — a class or function
  // defined at the top of the file ("pkg.mod.run"), an import ("from .x import y as z": z → "pkg.x.y"),
  // or a wildcard import whose module defines it. Null when the first component is bound by none of
  // these (a local variable, a parameter, a builtin, an assignment). The result need not exist.
  std::optional<std::string> AbsoluteName(const std::string& path, const std::string& name) const;

  // The module, class or function an absolute dotted name denotes, following re-exports (imports in
  // the module a prefix names, `__init__` ones included, and wildcard imports, honouring `__all__`),
  // and a class's members through its bases ("pkg.Sub.run" → "pkg.base.Base.run" when only Base
  // defines run). Nested functions (`<locals>`) are not addressable. Bounded (16 hops, depth 4 of
  // wildcards); null when it names nothing of the repository.
  std::optional<Symbol> Lookup(const std::string& absolute) const;

  // The function NAME of repository class QUALIFIED_CLASS or of its first base (breadth first through
  // the bases, as TypeAndBases) that defines it; with SKIP_SELF the class itself is not searched
  // (`super().name`). Null when no repository class on the way defines it.
  std::optional<Symbol> FindMember(const std::string& qualified_class, const std::string& name,
                                   bool skip_self = false) const;

  // Whether the first component of an absolute dotted name is a top-level module or package of the
  // repository ("lightning.fabric.x" yes when lightning/ is a package here; "torch.compile" no).
  bool IsRepositoryName(const std::string& absolute) const;

  // The file of module NAME, or null.
  const std::string* PathOfModule(const std::string& name) const;

  // Where a module-level variable lives: NAME (a plain name read at module level of the file at PATH)
  // followed through `from X import NAME [as ...]` imports of repository modules to the module that
  // does not import it (its owner, which assigns it). Returns {module, name}; null when NAME is bound
  // by an import to something outside the repository or to a module. A name no import binds is owned
  // by PATH's module itself.
  std::optional<std::pair<std::string, std::string>> OwnerOfGlobal(const std::string& path,
                                                                   const std::string& name) const;

 private:
  struct Module {
    std::string name;
    std::string path;
    bool is_package = false;
    std::unordered_map<std::string, std::string> bindings;  // absolute targets
    std::vector<std::string> wildcards;                     // absolute module names
    std::unordered_set<std::string> classes;                // top-level class qualnames in this file
    std::unordered_set<std::string> functions;              // function qualnames without <locals>
    const FileFacts* facts = nullptr;
  };
  std::optional<std::string> Canonical(std::string candidate) const;
  std::optional<std::string> ResolveIn(const Module& module, const std::string& type) const;
  std::string Absolute(const Module& module, const std::string& target) const;
  std::optional<Symbol> LookupDepth(const std::string& absolute, int depth) const;
  // Whether `from MODULE import *` binds NAME: listed in its __all__, else not starting with '_'.
  bool WildcardExports(const std::string& module, const std::string& name) const;
  Symbol MakeSymbol(Symbol::Kind kind, const Module& module, const std::string& qualname) const;

  std::unordered_map<std::string, Module> by_path_;
  std::unordered_map<std::string, const Module*> by_name_;
  std::unordered_map<std::string, std::pair<const Module*, const ClassDef*>> classes_;  // qualified -> def
  std::unordered_map<std::string, const Module*> functions_;  // qualified ("pkg.mod.C.m") -> module
  std::unordered_set<std::string> roots_;                     // first components of module names
};

}  // namespace errdex
