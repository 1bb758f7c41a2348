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

  explicit PythonModuleIndex(const std::vector<FileRef>& files);

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

 private:
  struct Module {
    std::string name;
    std::string path;
    bool is_package = false;
    std::unordered_map<std::string, std::string> bindings;  // absolute targets
    std::vector<std::string> wildcards;                      // absolute module names
    std::unordered_set<std::string> classes;                 // top-level class qualnames in this file
    const FileFacts* facts = nullptr;
  };
  std::optional<std::string> Canonical(std::string candidate) const;
  std::optional<std::string> ResolveIn(const Module& module, const std::string& type) const;
  std::string Absolute(const Module& module, const std::string& target) const;

  std::unordered_map<std::string, Module> by_path_;
  std::unordered_map<std::string, const Module*> by_name_;
  std::unordered_map<std::string, std::pair<const Module*, const ClassDef*>> classes_;  // qualified -> def
};

}  // namespace errdex
