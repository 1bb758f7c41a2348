#include "python/python_module_index.h"

#include <algorithm>

#include "python/python_builtins.h"

namespace errdex {

namespace {

bool IsDottedIdentifier(const std::string& s) {
  if (s.empty() || s.front() == '.' || s.back() == '.') return false;
  bool start = true;
  for (char c : s) {
    if (c == '.') {
      if (start) return false;
      start = true;
      continue;
    }
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c & 0x80);
    if (!alpha && !(c >= '0' && c <= '9' && !start)) return false;
    start = false;
  }
  return true;
}

std::string Dirname(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

std::string Basename(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

namespace {

// A directory without `__init__.py` above a package is a source folder (`src/`), unless the repository's own
// imports name it: `from poetry.utils.env import …` in Poetry's `src/poetry/utils/env/…`, `src/poetry` having
// no `__init__.py` (a namespace package shared with poetry-core, PEP 420). Then it is a package too. One
// level: the directory must be the parent of a package, named as the first component of an absolute import
// whose second component is that package.
void AddNamespacePackages(const std::vector<PythonModuleIndex::FileRef>& files,
                          std::unordered_set<std::string>* packages) {
  std::unordered_set<std::string> imported;  // "a.b" of every absolute import target "a.b[.…]"
  for (const PythonModuleIndex::FileRef& f : files) {
    if (f.facts == nullptr) continue;
    for (const ImportBinding& b : f.facts->imports) {
      if (b.target.empty() || b.target[0] == '.') continue;
      const size_t first = b.target.find('.');
      if (first == std::string::npos) continue;
      imported.insert(b.target.substr(0, b.target.find('.', first + 1)));
    }
  }
  std::vector<std::string> found;
  for (const std::string& package : *packages) {
    const std::string parent = Dirname(package);
    if (parent.empty() || packages->count(parent) || !IsDottedIdentifier(Basename(parent))) continue;
    if (imported.count(Basename(parent) + "." + Basename(package))) found.push_back(parent);
  }
  packages->insert(found.begin(), found.end());
}

}  // namespace

PythonModuleIndex::PythonModuleIndex(const std::vector<FileRef>& files, bool from_import_root) {
  std::unordered_set<std::string> packages;  // directories that hold an __init__.py (or every one, from a root)
  for (const FileRef& f : files) {
    if (from_import_root) {
      for (std::string dir = Dirname(f.path); !dir.empty() && packages.insert(dir).second;) dir = Dirname(dir);
    } else if (Basename(f.path) == "__init__.py") {
      packages.insert(Dirname(f.path));
    }
  }
  if (!from_import_root) AddNamespacePackages(files, &packages);
  for (const FileRef& f : files) {
    Module m;
    std::string stem = Basename(f.path);
    stem = stem.substr(0, stem.size() - 3);  // ".py"
    m.is_package = stem == "__init__";
    std::vector<std::string> parts;
    if (!m.is_package) parts.push_back(stem);
    for (std::string dir = Dirname(f.path); !dir.empty() && packages.count(dir); dir = Dirname(dir)) {
      parts.push_back(Basename(dir));
    }
    std::reverse(parts.begin(), parts.end());
    for (size_t i = 0; i < parts.size(); ++i) m.name += (i ? "." : "") + parts[i];
    if (m.name.empty()) m.name = "__init__";
    m.facts = f.facts;
    m.path = f.path;
    by_path_[f.path] = std::move(m);
  }
  for (auto& [path, m] : by_path_) {
    // When two files claim one module name, the shorter (then smaller) path wins, deterministically.
    auto it = by_name_.find(m.name);
    if (it == by_name_.end() || path.size() < it->second->path.size() ||
        (path.size() == it->second->path.size() && path < it->second->path)) {
      by_name_[m.name] = &m;
    }
    if (m.facts == nullptr) continue;
    for (const ImportBinding& b : m.facts->imports) m.bindings[b.name] = Absolute(m, b.target);
    for (const std::string& w : m.facts->wildcard_imports) m.wildcards.push_back(Absolute(m, w));
    for (const ClassDef& c : m.facts->classes) {
      m.classes.insert(c.qualname);
      classes_.emplace(m.name + "." + c.qualname, std::make_pair(&m, &c));
    }
  }
  for (auto& [path, m] : by_path_) {
    if (m.facts == nullptr) continue;
    bool owns_name = by_name_[m.name] == &m;
    for (const FunctionDef& f : m.facts->functions) {
      if (f.qualname.find("<locals>") != std::string::npos) continue;
      m.functions.insert(f.qualname);
      if (owns_name) functions_.emplace(m.name + "." + f.qualname, &m);
    }
  }
  for (const auto& entry : by_name_) roots_.insert(entry.first.substr(0, entry.first.find('.')));
}

std::string PythonModuleIndex::Absolute(const Module& module, const std::string& target) const {
  size_t dots = 0;
  while (dots < target.size() && target[dots] == '.') ++dots;
  if (dots == 0) return target;
  // The package a relative import starts from: the module itself for an __init__, else its parent.
  std::string base = module.name;
  if (!module.is_package) {
    size_t dot = base.rfind('.');
    base = dot == std::string::npos ? std::string() : base.substr(0, dot);
  }
  for (size_t i = 1; i < dots; ++i) {
    size_t dot = base.rfind('.');
    base = dot == std::string::npos ? std::string() : base.substr(0, dot);
  }
  std::string rest = target.substr(dots);
  if (base.empty()) return rest;
  return rest.empty() ? base : base + "." + rest;
}

const std::string& PythonModuleIndex::ModuleOf(const std::string& path) const {
  static const std::string kEmpty;
  auto it = by_path_.find(path);
  return it == by_path_.end() ? kEmpty : it->second.name;
}

std::optional<std::string> PythonModuleIndex::Canonical(std::string candidate) const {
  // Follow re-exports (`from .errors import ConfigError` in a package's __init__) to the definition.
  for (int hop = 0; hop < 16; ++hop) {
    if (classes_.count(candidate)) return candidate;
    if (candidate.rfind("builtins.", 0) == 0) {
      return BuiltinExceptionBase(candidate.substr(9)) ? std::optional<std::string>(candidate) : std::nullopt;
    }
    // The longest prefix that is a module of the repository, then the name it binds.
    bool moved = false;
    for (size_t dot = candidate.rfind('.'); dot != std::string::npos && dot > 0; dot = candidate.rfind('.', dot - 1)) {
      auto it = by_name_.find(candidate.substr(0, dot));
      if (it == by_name_.end()) continue;
      std::string rest = candidate.substr(dot + 1);
      std::string head = rest.substr(0, rest.find('.'));
      std::string tail = rest.size() > head.size() ? rest.substr(head.size()) : std::string();
      const Module& m = *it->second;
      auto bound = m.bindings.find(head);
      if (bound != m.bindings.end()) {
        candidate = bound->second + tail;
        moved = true;
      } else {
        for (const std::string& w : m.wildcards) {
          if (classes_.count(w + "." + rest)) {
            candidate = w + "." + rest;
            moved = true;
            break;
          }
        }
      }
      break;
    }
    if (!moved) return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::string> PythonModuleIndex::ResolveIn(const Module& m, const std::string& type) const {
  if (!IsDottedIdentifier(type)) return std::nullopt;
  std::string head = type.substr(0, type.find('.'));
  std::string tail = type.substr(head.size());
  if (m.classes.count(head)) return Canonical(m.name + "." + type);
  auto bound = m.bindings.find(head);
  if (bound != m.bindings.end()) return Canonical(bound->second + tail);
  for (const std::string& w : m.wildcards) {
    if (auto found = Canonical(w + "." + type)) return found;
  }
  if (tail.empty() && BuiltinExceptionBase(head)) return "builtins." + head;
  return std::nullopt;
}

std::optional<std::string> PythonModuleIndex::Resolve(const std::string& path, const std::string& type) const {
  auto it = by_path_.find(path);
  if (it == by_path_.end()) return std::nullopt;
  return ResolveIn(it->second, type);
}

std::vector<std::string> PythonModuleIndex::BasesOf(const std::string& qualified_class) const {
  std::vector<std::string> out;
  auto it = classes_.find(qualified_class);
  if (it == classes_.end()) return out;
  const auto& [module, cls] = it->second;
  for (const std::string& base : cls->bases) {
    // A nested class's bases are looked up at module level, which is right for the usual case.
    out.push_back(ResolveIn(*module, base).value_or(base));
  }
  return out;
}

std::vector<std::string> PythonModuleIndex::TypeAndBases(const std::string& qualified_type) const {
  constexpr size_t kMaxNames = 64;
  std::vector<std::string> out = {qualified_type};
  std::unordered_set<std::string> seen = {qualified_type};
  for (size_t i = 0; i < out.size() && out.size() < kMaxNames; ++i) {
    std::vector<std::string> bases;
    if (out[i].rfind("builtins.", 0) == 0) {
      const char* base = BuiltinExceptionBase(out[i].substr(9));
      if (base != nullptr && *base != '\0') bases.push_back(std::string("builtins.") + base);
    } else {
      bases = BasesOf(out[i]);
    }
    for (std::string& b : bases) {
      if (out.size() >= kMaxNames) break;
      if (seen.insert(b).second) out.push_back(std::move(b));
    }
  }
  return out;
}

PythonModuleIndex::Symbol PythonModuleIndex::MakeSymbol(Symbol::Kind kind, const Module& module,
                                                        const std::string& qualname) const {
  Symbol s;
  s.kind = kind;
  s.module = module.name;
  s.qualname = qualname;
  s.qualified = qualname.empty() ? module.name : module.name + "." + qualname;
  s.path = module.path;
  return s;
}

std::optional<std::string> PythonModuleIndex::AbsoluteName(const std::string& path, const std::string& name) const {
  auto it = by_path_.find(path);
  if (it == by_path_.end() || !IsDottedIdentifier(name)) return std::nullopt;
  const Module& m = it->second;
  std::string head = name.substr(0, name.find('.'));
  std::string tail = name.substr(head.size());
  if (m.classes.count(head) || m.functions.count(head)) return m.name + "." + name;
  auto bound = m.bindings.find(head);
  if (bound != m.bindings.end()) return bound->second + tail;
  for (const std::string& w : m.wildcards) {
    if (WildcardExports(w, head) && Lookup(w + "." + head)) return w + "." + name;
  }
  return std::nullopt;
}

bool PythonModuleIndex::WildcardExports(const std::string& module, const std::string& name) const {
  auto it = by_name_.find(module);
  if (it == by_name_.end() || it->second->facts == nullptr) return !name.empty() && name.front() != '_';
  const FileFacts& facts = *it->second->facts;
  if (facts.has_all) return std::find(facts.all_names.begin(), facts.all_names.end(), name) != facts.all_names.end();
  return !name.empty() && name.front() != '_';
}

std::optional<PythonModuleIndex::Symbol> PythonModuleIndex::Lookup(const std::string& absolute) const {
  return LookupDepth(absolute, 0);
}

std::optional<PythonModuleIndex::Symbol> PythonModuleIndex::LookupDepth(const std::string& absolute, int depth) const {
  constexpr int kMaxWildcardDepth = 4;
  std::string candidate = absolute;
  for (int hop = 0; hop < 16; ++hop) {
    if (auto m = by_name_.find(candidate); m != by_name_.end()) {
      return MakeSymbol(Symbol::Kind::kModule, *m->second, "");
    }
    if (auto c = classes_.find(candidate); c != classes_.end()) {
      return MakeSymbol(Symbol::Kind::kClass, *c->second.first, c->second.second->qualname);
    }
    if (auto f = functions_.find(candidate); f != functions_.end()) {
      return MakeSymbol(Symbol::Kind::kFunction, *f->second, candidate.substr(f->second->name.size() + 1));
    }
    // The longest prefix that is a class (then a member through its bases) or a module of the
    // repository (then the name it binds).
    bool moved = false;
    for (size_t dot = candidate.rfind('.'); dot != std::string::npos && dot > 0; dot = candidate.rfind('.', dot - 1)) {
      std::string prefix = candidate.substr(0, dot);
      std::string rest = candidate.substr(dot + 1);
      if (classes_.count(prefix)) {
        if (rest.find('.') != std::string::npos) return std::nullopt;
        return FindMember(prefix, rest);
      }
      auto it = by_name_.find(prefix);
      if (it == by_name_.end()) continue;
      std::string head = rest.substr(0, rest.find('.'));
      std::string tail = rest.size() > head.size() ? rest.substr(head.size()) : std::string();
      const Module& m = *it->second;
      auto bound = m.bindings.find(head);
      if (bound != m.bindings.end()) {
        candidate = bound->second + tail;
        moved = true;
        break;
      }
      if (depth >= kMaxWildcardDepth) return std::nullopt;
      for (const std::string& w : m.wildcards) {
        if (!WildcardExports(w, head)) continue;
        if (auto found = LookupDepth(w + "." + rest, depth + 1)) return found;
      }
      return std::nullopt;
    }
    if (!moved) return std::nullopt;
  }
  return std::nullopt;
}

std::optional<PythonModuleIndex::Symbol> PythonModuleIndex::FindMember(const std::string& qualified_class,
                                                                       const std::string& name, bool skip_self) const {
  std::vector<std::string> chain = TypeAndBases(qualified_class);
  for (size_t i = skip_self ? 1 : 0; i < chain.size(); ++i) {
    auto c = classes_.find(chain[i]);
    if (c == classes_.end()) continue;
    std::string member = chain[i] + "." + name;
    if (auto f = functions_.find(member); f != functions_.end()) {
      return MakeSymbol(Symbol::Kind::kFunction, *f->second, member.substr(f->second->name.size() + 1));
    }
    if (auto k = classes_.find(member); k != classes_.end()) {
      return MakeSymbol(Symbol::Kind::kClass, *k->second.first, k->second.second->qualname);
    }
  }
  return std::nullopt;
}

bool PythonModuleIndex::IsRepositoryName(const std::string& absolute) const {
  return roots_.count(absolute.substr(0, absolute.find('.'))) > 0;
}

const std::string* PythonModuleIndex::PathOfModule(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : &it->second->path;
}

std::optional<std::pair<std::string, std::string>> PythonModuleIndex::OwnerOfGlobal(const std::string& path,
                                                                                    const std::string& name) const {
  auto it = by_path_.find(path);
  if (it == by_path_.end()) return std::nullopt;
  const Module* m = &it->second;
  std::string n = name;
  for (int hop = 0; hop < 16; ++hop) {
    auto bound = m->bindings.find(n);
    if (bound == m->bindings.end()) return std::make_pair(m->name, n);
    const std::string& target = bound->second;
    if (by_name_.count(target)) return std::nullopt;  // a module
    size_t dot = target.rfind('.');
    if (dot == std::string::npos) return std::nullopt;
    auto owner = by_name_.find(target.substr(0, dot));
    if (owner == by_name_.end()) return std::nullopt;  // outside the repository
    m = owner->second;
    n = target.substr(dot + 1);
  }
  return std::nullopt;
}

}  // namespace errdex
