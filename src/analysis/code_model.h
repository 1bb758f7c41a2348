// The cross-file code model of one revision (docs/analysis.md, "Code model"): every function and method of the
// repository, the module scope of every file, and each recorded call (FileFacts::calls) resolved to the
// functions it may reach. Resolution is static and honest: a target is *certain* when the name is bound
// in the repository (a definition of the same file, an import — through `__init__` re-exports, aliases,
// relative and wildcard imports —, a class's method through its bases, `super()`), and *possible* when
// only the called attribute's name is known (`x.m(...)` with x of unknown type: every repository
// function named m, when there are at most kMaxPossibleTargets of them). A call of a library
// (`torch.compile(...)`, `len(...)`) reaches nothing.
//
// Ownership and lifetime: the model borrows the PythonModuleIndex and the FileFacts it is built from;
// both must outlive it. Every reference and pointer it hands out lives as long as the model.
//
// Threading: immutable once constructed; all const methods are thread-safe (the index of callers,
// decorations and writes is built once, on the first call that needs it, under a once_flag).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "extract/file_facts.h"
#include "python/python_module_index.h"

namespace errdex {

// `x.m(...)` with x unknown reaches every repository function named m only when there are at most this
// many; with more, the call reaches nothing (it says nothing about any one of them).
inline constexpr size_t kMaxPossibleTargets = 8;

// Whether PATH lies under a directory of examples, documentation, benchmarks or tooling (examples, example,
// docs, doc, benchmarks, benchmark, bench, scripts, tools, tutorials): code that uses the API, even in a
// package. Its functions are no entry points, and its raises are not what tests provoke.
bool IsAuxiliaryPath(const std::string& path);

class CodeModel {
 public:
  struct File {
    std::string path;
    const FileFacts* facts = nullptr;  // null for a skipped file: it gets a module scope only
    bool is_test = false;              // docs/extraction.md, "Which files"
  };

  using FunctionId = uint32_t;
  static constexpr FunctionId kNone = UINT32_MAX;

  struct Function {
    std::string path;
    std::string module;          // PythonModuleIndex::ModuleOf(path)
    std::string qualname;        // FunctionDef::qualname, or "<module>" for the module scope
    std::string name;            // last component of qualname
    std::string class_qualname;  // for a method (directly in a class body): the class ("Outer.Inner")
    int line = 0, end_line = 0;
    bool is_method = false;
    bool is_module_scope = false;      // the file's module-level code (runs at import time)
    bool is_test = false;              // defined in a test file
    bool is_public = false;            // see IsPublic
    const FunctionDef* def = nullptr;  // null for the module scope
  };

  // A call site and the function that makes it.
  struct Caller {
    FunctionId caller = kNone;  // the enclosing function, or the file's module scope
    const CallFact* call = nullptr;
    bool certain = true;       // false for a "possible" target (by name only)
    bool import_time = false;  // the call is at module level or in a top-level class body
  };

  // What one call may reach.
  struct Target {
    FunctionId function = kNone;
    bool certain = true;
  };

  CodeModel(const PythonModuleIndex& index, const std::vector<File>& files);

  CodeModel(const CodeModel&) = delete;
  CodeModel& operator=(const CodeModel&) = delete;

  const PythonModuleIndex& index() const { return index_; }
  size_t size() const { return functions_.size(); }
  const Function& function(FunctionId id) const { return functions_[id]; }

  // The function QUALNAME of the file at PATH; "<module>" gives its module scope. kNone when absent.
  FunctionId Find(const std::string& path, const std::string& qualname) const;
  // The function a scope name (CallFact::function, StateWrite::function, Site::function) runs in: the
  // function itself, else the nearest enclosing function (a lambda, a class body nested in a function),
  // else the module scope (a top-level class body, a module-level lambda). kNone for an unknown path.
  FunctionId ScopeOf(const std::string& path, const std::string& scope) const;
  // The function of a qualified name ("pkg.mod.Class.meth", through re-exports and bases), or kNone.
  FunctionId FindQualified(const std::string& qualified) const;

  // The targets of CALL, made in the file at PATH: certain ones first, each function once.
  std::vector<Target> Resolve(const std::string& path, const CallFact& call) const;

  // Every call in the repository that may reach FUNCTION, in file order (certain and possible).
  const std::vector<Caller>& Callers(FunctionId function) const;

  // Module-level definitions decorated by FUNCTION (`@F` or `@F(...)` on a function or method that is
  // not nested in a function): the decorator runs at import time. Each is {decorated, decorator text}.
  struct Decoration {
    FunctionId decorated = kNone;
    std::string decorator;  // as written, without '@'
  };
  const std::vector<Decoration>& DecoratedBy(FunctionId function) const;

  // A function is public when it is not in a test file, not in a file outside every package of a
  // repository that has packages (scripts), not under a directory named examples, example, docs, doc,
  // benchmarks, benchmark, bench, scripts, tools or tutorials, not nested in a function (`<locals>`), not the
  // module scope, and no component of its module's name nor of its qualname starts with `_` (dunder
  // names such as `__init__` and `__call__` count as public) — or when it, or the class of a method
  // whose own name is public, is exported: named in the `__all__` of a public module, or bound under a
  // public name by the `__init__` of a public package (`from lightning.fabric.fabric import Fabric`) — or
  // when it is a method with a public name of a class that a public class inherits from
  // (`_BaseExitStack.enter_context` through `ExitStack`). A tree with packages and no project script at its
  // top level (setup.py, conftest.py, noxfile.py, ...: an installed tree such as the standard library) has
  // its top-level files as modules, not scripts.
  bool IsPublic(FunctionId function) const { return functions_[function].is_public; }

  // The class a scope belongs to for `self`/`cls`: "pkg.mod.Class" for a method or for a function nested
  // in one; "" otherwise.
  std::string EnclosingClass(FunctionId function) const;

  // Every repository function (not module scopes) whose name is NAME.
  const std::vector<FunctionId>& FunctionsNamed(const std::string& name) const;

  // Every state write (FileFacts::state_writes) of the repository whose name is NAME, in file order;
  // `scope` is the function it runs in (ScopeOf its StateWrite::function), whose path is the file's.
  struct Write {
    FunctionId scope = kNone;
    const StateWrite* write = nullptr;
  };
  const std::vector<Write>& WritesNamed(const std::string& name) const;

  // The files the model was built from, by path (null when unknown).
  const File* FileAt(const std::string& path) const;

 private:
  void ResolveInto(const std::string& path, FunctionId caller, const CallFact& call, std::vector<Target>* out) const;
  void AddSymbol(const PythonModuleIndex::Symbol& symbol, bool certain, std::vector<Target>* out) const;
  void AddByName(const std::string& name, FunctionId caller, std::vector<Target>* out) const;
  void AddOverrides(const std::string& qualified_class, const std::string& name, std::vector<Target>* out) const;
  // PythonModuleIndex::FindMember over the class chains computed once at construction.
  std::optional<PythonModuleIndex::Symbol> FindMember(const std::string& qualified_class, const std::string& name,
                                                      bool skip_self = false) const;

  const PythonModuleIndex& index_;
  std::vector<File> files_;
  std::unordered_map<std::string, size_t> file_index_;
  std::vector<Function> functions_;
  std::unordered_map<std::string, FunctionId> by_key_;  // path + '\0' + qualname
  std::unordered_map<std::string, std::vector<FunctionId>> by_name_;
  std::unordered_map<std::string, std::vector<std::string>> subclasses_;  // qualified class → direct subclasses
  struct ClassInfo {
    std::string path;
    std::string qualname;
  };
  std::unordered_map<std::string, ClassInfo> classes_;                // qualified class → where
  std::unordered_map<std::string, std::vector<std::string>> chains_;  // class → TypeAndBases
  // Resolves every call once (first use of Callers): the costly index, which a run with the call graph
  // does not need.
  void BuildCallIndex() const;
  mutable std::once_flag call_index_built_;
  mutable std::vector<std::vector<Caller>> callers_;
  // Resolves the decorators of module-level definitions and indexes the state writes (first use of
  // DecoratedBy or WritesNamed).
  void BuildWriteIndex() const;
  mutable std::once_flag write_index_built_;
  mutable std::vector<std::vector<Decoration>> decorated_by_;
  mutable std::unordered_map<std::string, std::vector<Write>> writes_by_name_;
};

// The sites of FILES' facts by (path, line, col), the place a catalog's site row names: their path
// conditions and snippets live there. Borrows FILES' facts and paths.
std::map<std::tuple<std::string_view, int, int>, const Site*> SitesByPlace(const std::vector<CodeModel::File>& files);

}  // namespace errdex
