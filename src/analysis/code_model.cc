#include "analysis/code_model.h"

#include <algorithm>
#include <unordered_set>

namespace errdex {

namespace {

constexpr const char* kModuleScope = "<module>";
constexpr size_t kMaxOverrideClasses = 64;  // subclasses searched for overrides of self.m

bool IsDunder(const std::string& s) {
  return s.size() > 4 && s.compare(0, 2, "__") == 0 && s.compare(s.size() - 2, 2, "__") == 0;
}

// Whether every '.'-separated component of NAME is public: not starting with '_' unless a dunder.
bool AllComponentsPublic(const std::string& name) {
  size_t start = 0;
  while (start <= name.size()) {
    size_t dot = name.find('.', start);
    std::string part = name.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!part.empty() && part.front() == '_' && !IsDunder(part)) return false;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return true;
}

std::string LastComponent(const std::string& s) {
  size_t dot = s.rfind('.');
  return dot == std::string::npos ? s : s.substr(dot + 1);
}

std::string Key(const std::string& path, const std::string& qualname) { return path + '\0' + qualname; }

bool IsInitFile(const std::string& path) {
  return path == "__init__.py" || (path.size() > 12 && path.compare(path.size() - 12, 12, "/__init__.py") == 0);
}

// Methods of builtin types (str, list, dict, set, bytes, files): `x.append(...)` is far more often one
// of these than a repository method of the same name, so such calls get no possible targets.
bool IsCommonBuiltinMethod(const std::string& name) {
  static const std::unordered_set<std::string> kNames = {
      "append",       "extend",     "insert",     "pop",        "remove",    "clear",      "copy",
      "count",        "index",      "sort",       "reverse",    "get",       "items",      "keys",
      "values",       "update",     "setdefault", "popitem",    "add",       "discard",    "union",
      "intersection", "difference", "issubset",   "issuperset", "join",      "split",      "rsplit",
      "strip",        "lstrip",     "rstrip",     "replace",    "format",    "startswith", "endswith",
      "lower",        "upper",      "encode",     "decode",     "find",      "rfind",      "splitlines",
      "read",         "write",      "close",      "readline",   "readlines", "flush",      "seek"};
  return kNames.count(name) > 0;
}

// Files a project checkout keeps at its top level to build, test or run it: their presence says the top level
// is not a folder of importable modules.
bool IsProjectScript(const std::string& path) {
  static const std::unordered_set<std::string> kScripts = {"setup.py", "conftest.py", "noxfile.py",   "manage.py",
                                                           "tasks.py", "fabfile.py",  "runtests.py",  "toxfile.py",
                                                           "dodo.py",  "build.py",    "bootstrap.py", "hatch_build.py"};
  return kScripts.count(path) != 0;
}

// "a/b/c.py" → "a/b"; "c.py" → "".
std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

}  // namespace

// Directories of examples, documentation, benchmarks and tooling hold code that uses the API, even when
// they are packages (SQLAlchemy's examples/): their functions are no entry points.
bool IsAuxiliaryPath(const std::string& path) {
  static const std::unordered_set<std::string> kAuxiliary = {"examples",  "example", "docs",    "doc",   "benchmarks",
                                                             "benchmark", "bench",   "scripts", "tools", "tutorials"};
  size_t start = 0;
  for (size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', start)) {
    if (kAuxiliary.count(path.substr(start, slash - start)) != 0) return true;
    start = slash + 1;
  }
  return false;
}

CodeModel::CodeModel(const PythonModuleIndex& index, const std::vector<File>& files) : index_(index), files_(files) {
  for (size_t i = 0; i < files_.size(); ++i) file_index_.emplace(files_[i].path, i);

  // Functions: one module scope per file, then every definition.
  for (const File& file : files_) {
    const std::string& module = index_.ModuleOf(file.path);
    Function scope;
    scope.path = file.path;
    scope.module = module;
    scope.qualname = scope.name = kModuleScope;
    scope.is_module_scope = true;
    scope.is_test = file.is_test;
    by_key_.emplace(Key(file.path, kModuleScope), static_cast<FunctionId>(functions_.size()));
    functions_.push_back(std::move(scope));
    if (file.facts == nullptr) continue;
    for (const FunctionDef& def : file.facts->functions) {
      Function f;
      f.path = file.path;
      f.module = module;
      f.qualname = def.qualname;
      f.name = LastComponent(def.qualname);
      f.line = def.line;
      f.end_line = def.end_line;
      f.is_method = def.is_method;
      if (def.is_method) {
        size_t dot = def.qualname.rfind('.');
        f.class_qualname = dot == std::string::npos ? std::string() : def.qualname.substr(0, dot);
      }
      f.is_test = file.is_test;
      f.def = &def;
      auto id = static_cast<FunctionId>(functions_.size());
      if (!by_key_.emplace(Key(file.path, def.qualname), id).second) continue;  // redefinition: first wins
      by_name_[f.name].push_back(id);
      functions_.push_back(std::move(f));
    }
    for (const ClassDef& c : file.facts->classes) {
      std::string qualified = module + "." + c.qualname;
      classes_.emplace(qualified, ClassInfo{file.path, c.qualname});
      for (const std::string& base : index_.BasesOf(qualified)) subclasses_[base].push_back(qualified);
    }
  }

  for (const auto& entry : classes_) chains_.emplace(entry.first, index_.TypeAndBases(entry.first));

  // Public-ness: names first, then exports (__all__ of public modules, public names bound by the
  // __init__ of public packages).
  std::unordered_set<std::string> exported;  // qualified classes and functions
  for (const File& file : files_) {
    if (file.facts == nullptr || file.is_test) continue;
    const std::string& module = index_.ModuleOf(file.path);
    if (!AllComponentsPublic(module)) continue;
    auto add = [&](const std::string& name) {
      std::optional<std::string> absolute = index_.AbsoluteName(file.path, name);
      if (!absolute) return;
      std::optional<PythonModuleIndex::Symbol> symbol = index_.Lookup(*absolute);
      if (symbol && symbol->kind != PythonModuleIndex::Symbol::Kind::kModule) exported.insert(symbol->qualified);
    };
    if (file.facts->has_all) {
      for (const std::string& name : file.facts->all_names) add(name);
    }
    if (IsInitFile(file.path)) {
      for (const ImportBinding& b : file.facts->imports) {
        if (AllComponentsPublic(b.name)) add(b.name);
      }
    }
  }
  // When the repository has packages, a file outside every package is a script, an example or a piece of
  // documentation (examples/, docs/, setup.py): what it defines is not the API.
  // An installed tree (the standard library, a site-packages folder) has no project scripts at its top
  // level: there every top-level file is an importable module (`json`, `configparser`, `six`).
  std::unordered_set<std::string> package_dirs;
  bool project_scripts_at_top = false;
  for (const File& file : files_) {
    if (IsInitFile(file.path)) package_dirs.insert(DirectoryOf(file.path));
    if (DirectoryOf(file.path).empty() && IsProjectScript(file.path)) project_scripts_at_top = true;
  }
  if (!package_dirs.empty() && !project_scripts_at_top) package_dirs.insert("");
  auto in_package = [&package_dirs](const std::string& path) {
    return (package_dirs.empty() || package_dirs.count(DirectoryOf(path)) != 0) && !IsAuxiliaryPath(path);
  };
  // A module with a literal `__all__` names its API (PEP 8): a public-looking name it does not list
  // (json.decoder's `JSONObject`) is internal unless exported elsewhere.
  std::unordered_map<std::string_view, const FileFacts*> facts_of;
  for (const File& file : files_) {
    if (file.facts != nullptr && file.facts->has_all) facts_of.emplace(file.path, file.facts);
  }
  auto listed_in_own_all = [&facts_of](const Function& f) {
    auto it = facts_of.find(f.path);
    if (it == facts_of.end()) return true;
    const std::string top = f.qualname.substr(0, f.qualname.find('.'));
    const std::vector<std::string>& names = it->second->all_names;
    return std::find(names.begin(), names.end(), top) != names.end();
  };
  for (Function& f : functions_) {
    if (f.is_module_scope || f.is_test || f.qualname.find("<locals>") != std::string::npos) continue;
    if (!in_package(f.path)) continue;
    if (AllComponentsPublic(f.module) && AllComponentsPublic(f.qualname) && listed_in_own_all(f)) {
      f.is_public = true;
    } else if (exported.count(f.module + "." + f.qualname) && AllComponentsPublic(f.qualname)) {
      f.is_public = true;  // exported from a private module; a leading underscore stays private
    } else if (f.is_method && AllComponentsPublic(f.qualname) && exported.count(f.module + "." + f.class_qualname)) {
      f.is_public = true;
    }
  }
  // A public method of a private base class is public through a public subclass that inherits it:
  // `ExitStack().enter_context(...)` runs `_BaseExitStack.enter_context`.
  auto public_class = [&](const std::string& qualified) {
    auto it = classes_.find(qualified);
    if (it == classes_.end() || !in_package(it->second.path) || IsAuxiliaryPath(it->second.path)) return false;
    const std::string& module = index_.ModuleOf(it->second.path);
    return (AllComponentsPublic(module) && AllComponentsPublic(it->second.qualname)) || exported.count(qualified) != 0;
  };
  for (Function& f : functions_) {
    if (f.is_public || !f.is_method || f.is_test || f.name.empty() || !AllComponentsPublic(f.name) ||
        f.qualname.find("<locals>") != std::string::npos || !in_package(f.path)) {
      continue;
    }
    std::vector<std::string> pending{f.module + "." + f.class_qualname};
    std::unordered_set<std::string> seen;
    while (!pending.empty() && seen.size() < kMaxOverrideClasses && !f.is_public) {
      std::string cls = std::move(pending.back());
      pending.pop_back();
      if (!seen.insert(cls).second) continue;
      auto sub = subclasses_.find(cls);
      if (sub == subclasses_.end()) continue;
      for (const std::string& s : sub->second) {
        if (public_class(s)) {
          f.is_public = true;
          break;
        }
        pending.push_back(s);
      }
    }
  }
}

// Calls, resolved once. Built on first use: a run without the analysis only resolves the few calls of raising
// helpers (Resolve), and one with the call graph takes callers from the graph.
void CodeModel::BuildCallIndex() const {
  callers_.resize(functions_.size());
  std::vector<Target> targets;
  for (const File& file : files_) {
    if (file.facts == nullptr) continue;
    const std::string& module = index_.ModuleOf(file.path);
    const std::string* last_scope = nullptr;
    FunctionId caller = kNone;
    for (const CallFact& call : file.facts->calls) {
      if (last_scope == nullptr || *last_scope != call.function) {
        caller = ScopeOf(file.path, call.function);
        last_scope = &call.function;
      }
      if (caller == kNone) continue;
      bool import_time = call.function == kModuleScope;
      if (!import_time && functions_[caller].is_module_scope) {
        // A class body runs at import time; a module-level lambda does not.
        auto symbol = index_.Lookup(module + "." + call.function);
        import_time = symbol && symbol->kind == PythonModuleIndex::Symbol::Kind::kClass && symbol->path == file.path;
      }
      targets.clear();
      ResolveInto(file.path, caller, call, &targets);
      for (const Target& t : targets) callers_[t.function].push_back(Caller{caller, &call, t.certain, import_time});
    }
  }
}

void CodeModel::BuildWriteIndex() const {
  decorated_by_.resize(functions_.size());
  std::vector<Target> targets;
  for (const File& file : files_) {
    if (file.facts == nullptr) continue;
    for (const StateWrite& w : file.facts->state_writes) {
      FunctionId in = ScopeOf(file.path, w.function);
      if (in != kNone) writes_by_name_[w.name].push_back(Write{in, &w});
    }
    FunctionId scope = Find(file.path, kModuleScope);
    for (const FunctionDef& def : file.facts->functions) {
      if (def.decorators.empty() || def.qualname.find("<locals>") != std::string::npos) continue;
      FunctionId decorated = Find(file.path, def.qualname);
      if (decorated == kNone) continue;
      for (const std::string& decorator : def.decorators) {
        CallFact fake;
        fake.function = kModuleScope;
        fake.callee = decorator.substr(0, decorator.find('('));
        fake.callee.erase(std::remove_if(fake.callee.begin(), fake.callee.end(),
                                         [](char c) { return c == ' ' || c == '\t' || c == '\n'; }),
                          fake.callee.end());
        targets.clear();
        ResolveInto(file.path, scope, fake, &targets);
        for (const Target& t : targets) {
          if (t.certain) decorated_by_[t.function].push_back(Decoration{decorated, decorator});
        }
      }
    }
  }
}

CodeModel::FunctionId CodeModel::Find(const std::string& path, const std::string& qualname) const {
  auto it = by_key_.find(Key(path, qualname));
  return it == by_key_.end() ? kNone : it->second;
}

CodeModel::FunctionId CodeModel::ScopeOf(const std::string& path, const std::string& scope) const {
  std::string s = scope;
  while (true) {
    FunctionId id = Find(path, s);
    if (id != kNone) return id;
    size_t dot = s.rfind('.');
    if (dot == std::string::npos) break;
    s.resize(dot);
  }
  return Find(path, kModuleScope);
}

CodeModel::FunctionId CodeModel::FindQualified(const std::string& qualified) const {
  std::optional<PythonModuleIndex::Symbol> symbol = index_.Lookup(qualified);
  if (!symbol || symbol->kind != PythonModuleIndex::Symbol::Kind::kFunction) return kNone;
  return Find(symbol->path, symbol->qualname);
}

const std::vector<CodeModel::Caller>& CodeModel::Callers(FunctionId function) const {
  std::call_once(call_index_built_, [this] { BuildCallIndex(); });
  static const std::vector<Caller> kEmpty;
  return function < callers_.size() ? callers_[function] : kEmpty;
}

const std::vector<CodeModel::Decoration>& CodeModel::DecoratedBy(FunctionId function) const {
  std::call_once(write_index_built_, [this] { BuildWriteIndex(); });
  static const std::vector<Decoration> kEmpty;
  return function < decorated_by_.size() ? decorated_by_[function] : kEmpty;
}

const std::vector<CodeModel::FunctionId>& CodeModel::FunctionsNamed(const std::string& name) const {
  static const std::vector<FunctionId> kEmpty;
  auto it = by_name_.find(name);
  return it == by_name_.end() ? kEmpty : it->second;
}

const std::vector<CodeModel::Write>& CodeModel::WritesNamed(const std::string& name) const {
  std::call_once(write_index_built_, [this] { BuildWriteIndex(); });
  static const std::vector<Write> kEmpty;
  auto it = writes_by_name_.find(name);
  return it == writes_by_name_.end() ? kEmpty : it->second;
}

const CodeModel::File* CodeModel::FileAt(const std::string& path) const {
  auto it = file_index_.find(path);
  return it == file_index_.end() ? nullptr : &files_[it->second];
}

std::string CodeModel::EnclosingClass(FunctionId function) const {
  if (function >= functions_.size()) return "";
  const Function& f = functions_[function];
  if (f.is_module_scope) return "";
  // The innermost method among the function and the functions it is nested in.
  std::string q = f.qualname;
  while (true) {
    FunctionId id = Find(f.path, q);
    if (id != kNone && functions_[id].is_method) return f.module + "." + functions_[id].class_qualname;
    size_t locals = q.rfind(".<locals>.");
    if (locals == std::string::npos) return "";
    q.resize(locals);
  }
}

std::optional<PythonModuleIndex::Symbol> CodeModel::FindMember(const std::string& qualified_class,
                                                               const std::string& name, bool skip_self) const {
  auto chain = chains_.find(qualified_class);
  if (chain == chains_.end()) return index_.FindMember(qualified_class, name, skip_self);
  for (size_t i = skip_self ? 1 : 0; i < chain->second.size(); ++i) {
    auto info = classes_.find(chain->second[i]);
    if (info == classes_.end()) continue;
    // The index knows the function when this file owns its module name (the usual case).
    FunctionId id = Find(info->second.path, info->second.qualname + "." + name);
    if (id != kNone) {
      PythonModuleIndex::Symbol symbol;
      symbol.kind = PythonModuleIndex::Symbol::Kind::kFunction;
      symbol.path = info->second.path;
      symbol.module = index_.ModuleOf(info->second.path);
      symbol.qualname = info->second.qualname + "." + name;
      symbol.qualified = symbol.module + "." + symbol.qualname;
      return symbol;
    }
  }
  return std::nullopt;
}

std::vector<CodeModel::Target> CodeModel::Resolve(const std::string& path, const CallFact& call) const {
  std::vector<Target> out;
  FunctionId caller = ScopeOf(path, call.function);
  if (caller != kNone) ResolveInto(path, caller, call, &out);
  return out;
}

void CodeModel::AddSymbol(const PythonModuleIndex::Symbol& symbol, bool certain, std::vector<Target>* out) const {
  using Kind = PythonModuleIndex::Symbol::Kind;
  FunctionId id = kNone;
  if (symbol.kind == Kind::kFunction) {
    id = Find(symbol.path, symbol.qualname);
  } else if (symbol.kind == Kind::kClass) {
    // Calling a class runs its __init__ (the first one through its bases).
    if (auto init = FindMember(symbol.qualified, "__init__")) id = Find(init->path, init->qualname);
  }
  if (id == kNone) return;
  for (Target& t : *out) {
    if (t.function == id) {
      t.certain = t.certain || certain;
      return;
    }
  }
  out->push_back(Target{id, certain});
}

void CodeModel::AddByName(const std::string& name, FunctionId caller, std::vector<Target>* out) const {
  if (name.empty() || IsCommonBuiltinMethod(name)) return;
  const std::vector<FunctionId>& all = FunctionsNamed(name);
  bool from_test = caller != kNone && functions_[caller].is_test;
  std::vector<FunctionId> candidates;
  for (FunctionId id : all) {
    if (functions_[id].is_test && !from_test) continue;
    candidates.push_back(id);
    if (candidates.size() > kMaxPossibleTargets) return;
  }
  for (FunctionId id : candidates) {
    bool seen = false;
    for (const Target& t : *out) seen = seen || t.function == id;
    if (!seen) out->push_back(Target{id, false});
  }
}

void CodeModel::AddOverrides(const std::string& qualified_class, const std::string& name,
                             std::vector<Target>* out) const {
  std::vector<std::string> queue = {qualified_class};
  std::unordered_set<std::string> seen = {qualified_class};
  std::vector<FunctionId> found;
  for (size_t i = 0; i < queue.size() && queue.size() <= kMaxOverrideClasses; ++i) {
    auto sub = subclasses_.find(queue[i]);
    if (sub == subclasses_.end()) continue;
    for (const std::string& s : sub->second) {
      if (!seen.insert(s).second) continue;
      queue.push_back(s);
      auto info = classes_.find(s);
      if (info == classes_.end()) continue;
      FunctionId id = Find(info->second.path, info->second.qualname + "." + name);
      if (id != kNone) found.push_back(id);
    }
  }
  if (found.size() > kMaxPossibleTargets) return;
  for (FunctionId id : found) {
    bool seen_target = false;
    for (const Target& t : *out) seen_target = seen_target || t.function == id;
    if (!seen_target) out->push_back(Target{id, false});
  }
}

void CodeModel::ResolveInto(const std::string& path, FunctionId caller, const CallFact& call,
                            std::vector<Target>* out) const {
  const std::string& callee = call.callee;
  if (callee.empty()) return;
  std::string last = LastComponent(callee);

  // super().m: the bases of the enclosing class.
  if (callee.rfind("super().", 0) == 0) {
    std::string member = callee.substr(8);
    std::string cls = EnclosingClass(caller);
    if (member.find('.') == std::string::npos && !cls.empty()) {
      if (auto symbol = FindMember(cls, member, /*skip_self=*/true)) {
        AddSymbol(*symbol, true, out);
        return;
      }
    }
    AddByName(last, caller, out);
    return;
  }

  size_t dot = callee.find('.');
  std::string head = callee.substr(0, dot);

  // self.m / cls.m: the class (or its first base defining m), and overrides in subclasses as possible.
  if ((head == "self" || head == "cls") && dot != std::string::npos) {
    std::string cls = EnclosingClass(caller);
    if (!cls.empty() && callee.find('.', dot + 1) == std::string::npos) {
      if (auto symbol = FindMember(cls, last)) AddSymbol(*symbol, true, out);
      AddOverrides(cls, last, out);
      if (!out->empty()) return;
    }
    AddByName(last, caller, out);
    return;
  }

  // A plain name: a function nested in the calling scope or one enclosing it, then module level.
  if (dot == std::string::npos) {
    std::string scope = call.function;
    while (scope != kModuleScope && !scope.empty()) {
      FunctionId nested = Find(path, scope + ".<locals>." + callee);
      if (nested != kNone) {
        out->push_back(Target{nested, true});
        return;
      }
      size_t locals = scope.rfind(".<locals>.");
      if (locals == std::string::npos) break;
      scope.resize(locals);
    }
  }

  std::optional<std::string> absolute = index_.AbsoluteName(path, callee);
  if (absolute) {
    if (auto symbol = index_.Lookup(*absolute)) {
      AddSymbol(*symbol, true, out);
      return;
    }
    // Bound, but to nothing the repository defines: a library (nothing), or an attribute of a
    // repository object the model does not follow (possible by name).
    if (!index_.IsRepositoryName(*absolute) || dot == std::string::npos) return;
    AddByName(last, caller, out);
    return;
  }
  // Unbound head: a local variable, a parameter, an attribute chain of one. A bare unbound name is a
  // builtin or a local callable: nothing.
  if (dot != std::string::npos) AddByName(last, caller, out);
}

std::map<std::tuple<std::string_view, int, int>, const Site*> SitesByPlace(const std::vector<CodeModel::File>& files) {
  std::map<std::tuple<std::string_view, int, int>, const Site*> out;
  for (const CodeModel::File& f : files) {
    if (f.facts == nullptr) continue;
    for (const Site& s : f.facts->sites) out[{f.path, s.line, s.col}] = &s;
  }
  return out;
}

}  // namespace errdex
