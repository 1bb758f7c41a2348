#include "analysis/state_origin.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <unordered_set>

namespace errdex {

namespace {

using FunctionId = CodeModel::FunctionId;
using Symbol = PythonModuleIndex::Symbol;

// Candidate writes are filtered one by one; a name written more often than this is not filtered at all.
constexpr size_t kMaxRawWrites = 1000;

// What the object of an attribute read or write denotes.
struct Owner {
  enum class Kind { kObject, kSelf, kModule, kExternal } kind = Kind::kObject;
  std::string name;  // kModule: the module; kExternal: the absolute dotted name
};

Owner OwnerOf(const CodeModel& model, const std::string& path, const std::string& target) {
  Owner o;
  if (target == "self" || target == "cls") {
    o.kind = Owner::Kind::kSelf;
    return o;
  }
  const PythonModuleIndex& index = model.index();
  std::optional<std::string> absolute = index.AbsoluteName(path, target);
  if (!absolute) return o;
  if (std::optional<Symbol> symbol = index.Lookup(*absolute)) {
    if (symbol->kind == Symbol::Kind::kModule) {
      o.kind = Owner::Kind::kModule;
      o.name = symbol->qualified;
    }
    return o;  // a class or a function: an object like any other
  }
  if (!index.IsRepositoryName(*absolute)) {
    o.kind = Owner::Kind::kExternal;
    o.name = *absolute;
  }
  return o;
}

// The module-level statements that install the writes of scope WRITER (and of the functions it is nested
// in): module-level calls of them, and decorators naming them.
// Not counted: class attributes (StateWrite kind "class_attr"), a constructor or method writing its own object (`self.x
// = ...` in `__init__`: a module-level `DefaultDialect()` builds an object, it installs nothing), and statements in
// test files.
// The module-level statements (class bodies included) whose certain call runs F: from the call graph when
// there is one, else from the code model's call index. CODE is the call's line.
std::vector<ImportTimeInstall> ImportTimeCallsOf(const CodeModel& model, const GraphTriggers* triggers, FunctionId f) {
  std::vector<ImportTimeInstall> out;
  if (triggers != nullptr) {
    const CodeModel::Function& fn = model.function(f);
    const GraphTriggers::NodeId node = triggers->NodeOf(fn.path, fn.qualname, fn.line);
    if (node == GraphTriggers::kNoNode) return out;
    for (GraphTriggers::ImportTimeCall& c : triggers->ImportTimeCallers(node)) {
      out.push_back(ImportTimeInstall{std::move(c.path), c.line, std::move(c.code)});
    }
    return out;
  }
  for (const CodeModel::Caller& c : model.Callers(f)) {
    if (!c.import_time || !c.certain) continue;
    out.push_back(ImportTimeInstall{model.function(c.caller).path, c.call->line, c.call->code});
  }
  return out;
}

std::vector<ImportTimeInstall> InstallsOf(const CodeModel& model, const GraphTriggers* triggers, FunctionId writer,
                                          const StateWrite& write) {
  std::vector<ImportTimeInstall> out;
  const CodeModel::Function& w = model.function(writer);
  // A class attribute is set when its class body runs: no statement installs it (its scope is the
  // module's, or a function's that happens to share the class's name).
  if (w.is_module_scope || write.kind == "class_attr") return out;
  std::set<std::pair<std::string, int>> seen;
  std::string q = w.qualname;
  const bool own_object = write.target == "self" || write.target == "cls";
  while (out.size() < kMaxInstallsPerWriter) {
    FunctionId f = model.Find(w.path, q);
    // A closure (`W.<locals>.inner`) is installed by whatever runs W at import time; the writer itself only
    // when it does not write its own object.
    if (f != CodeModel::kNone && (q != w.qualname || !own_object)) {
      for (ImportTimeInstall& install : ImportTimeCallsOf(model, triggers, f)) {
        if (out.size() >= kMaxInstallsPerWriter) break;
        const CodeModel::File* file = model.FileAt(install.path);
        if (file == nullptr || file->is_test) continue;
        if (!seen.insert({install.path, install.line}).second) continue;
        // The statement that keeps the result (`torch.compile = _capture(torch.compile)`) says more than the call.
        if (file->facts != nullptr) {
          for (const StateWrite& sw : file->facts->state_writes) {
            if (sw.line != install.line) continue;
            const FunctionId scope = model.ScopeOf(install.path, sw.function);
            if (scope != CodeModel::kNone && model.function(scope).is_module_scope) {
              install.code = sw.code;
              break;
            }
          }
        }
        out.push_back(std::move(install));
      }
      for (const CodeModel::Decoration& d : model.DecoratedBy(f)) {
        const CodeModel::Function& decorated = model.function(d.decorated);
        if (out.size() >= kMaxInstallsPerWriter) break;
        if (decorated.is_test) continue;
        if (!seen.insert({decorated.path, decorated.line}).second) continue;
        out.push_back(ImportTimeInstall{decorated.path, decorated.line, "@" + d.decorator});
      }
    }
    size_t locals = q.rfind(".<locals>.");
    if (locals == std::string::npos) break;
    q.resize(locals);
  }
  std::sort(out.begin(), out.end(), [](const ImportTimeInstall& a, const ImportTimeInstall& b) {
    return std::tie(a.path, a.line) < std::tie(b.path, b.line);
  });
  return out;
}

bool InPackage(const std::string& module, const std::string& package) {
  if (package.empty()) return false;
  return module == package || (module.size() > package.size() && module.compare(0, package.size(), package) == 0 &&
                               module[package.size()] == '.');
}

}  // namespace

std::vector<StateOrigin> StateOriginsOf(const CodeModel& model, const std::string& site_path,
                                        const std::string& site_function, const std::vector<Condition>& conditions,
                                        size_t max_writers, const GraphTriggers* triggers) {
  std::vector<StateOrigin> out;
  const PythonModuleIndex& index = model.index();
  FunctionId site = model.ScopeOf(site_path, site_function);
  if (site == CodeModel::kNone) return out;
  const std::string& site_module = model.function(site).module;
  size_t last_dot = site_module.rfind('.');
  std::string site_package = last_dot == std::string::npos ? std::string() : site_module.substr(0, last_dot);
  std::string site_class = model.EnclosingClass(site);
  std::unordered_set<std::string> family;  // the site's class and its bases
  if (!site_class.empty()) {
    for (std::string& c : index.TypeAndBases(site_class)) family.insert(std::move(c));
  }

  std::set<std::tuple<std::string, std::string, std::string>> done;
  for (const Condition& condition : conditions) {
    for (const StateRead& read : condition.reads) {
      if (!done.insert({read.kind, read.target, read.name}).second) continue;

      // What the read is about: a global of a repository module, an attribute of an external module,
      // or an attribute of an object.
      Owner owner;
      std::string name = read.name;
      if (read.kind == "name") {
        if (std::optional<std::string> absolute = index.AbsoluteName(site_path, read.name)) {
          if (index.Lookup(*absolute) || !index.IsRepositoryName(*absolute)) continue;  // not state
        }
        owner.kind = Owner::Kind::kModule;
        owner.name = site_module;
      } else {
        owner = OwnerOf(model, site_path, read.target);
      }
      if (owner.kind == Owner::Kind::kModule) {
        // Follow `from X import NAME` to the module that owns the variable.
        const std::string* module_path = index.PathOfModule(owner.name);
        if (module_path == nullptr) continue;
        auto global = index.OwnerOfGlobal(*module_path, name);
        if (!global) continue;
        owner.name = global->first;
        name = global->second;
      }

      const std::vector<CodeModel::Write>& writes = model.WritesNamed(name);
      StateOrigin origin;
      origin.read = read;
      origin.condition_line = condition.line;
      if (writes.size() > kMaxRawWrites) {
        origin.more = writes.size();
        out.push_back(std::move(origin));
        continue;
      }
      struct Ranked {
        int rank;
        const CodeModel::Write* write;
      };
      std::vector<Ranked> ranked;
      for (const CodeModel::Write& w : writes) {
        const CodeModel::Function& scope = model.function(w.scope);
        const StateWrite& sw = *w.write;
        bool matches = false;
        const bool class_attr = sw.kind == "class_attr";  // target is the class's qualname in its file
        if (class_attr) {
          // A class attribute is what `obj.name` and `self.name` read when no instance attribute hides
          // it; it is neither a module global nor a library module's attribute.
          matches = owner.kind == Owner::Kind::kObject || owner.kind == Owner::Kind::kSelf;
        } else if (owner.kind == Owner::Kind::kModule) {
          if (sw.target.empty()) {
            matches = scope.module == owner.name;
          } else {
            Owner o = OwnerOf(model, scope.path, sw.target);
            matches = o.kind == Owner::Kind::kModule && o.name == owner.name;
          }
        } else if (!sw.target.empty()) {
          Owner o = OwnerOf(model, scope.path, sw.target);
          if (owner.kind == Owner::Kind::kExternal) {
            matches = o.kind == Owner::Kind::kExternal && o.name == owner.name;
          } else {
            matches = o.kind == Owner::Kind::kObject || o.kind == Owner::Kind::kSelf;
          }
        }
        if (!matches) continue;
        int rank = 3;
        if (scope.is_test) {
          rank = 4;
        } else if ((sw.target == "self" || sw.target == "cls") && !family.empty() &&
                   family.count(model.EnclosingClass(w.scope))) {
          rank = 0;
        } else if (class_attr && family.count(scope.module + "." + sw.target)) {
          rank = 0;
        } else if ((read.target == "self" || read.target == "cls") && (sw.target == "self" || sw.target == "cls") &&
                   !family.empty()) {
          rank = 3;  // the site reads its own object; another class writing its own says little
        } else if (scope.module == site_module) {
          rank = 1;
        } else if (InPackage(scope.module, site_package)) {
          rank = 2;
        }
        ranked.push_back(Ranked{rank, &w});
      }
      if (ranked.empty()) continue;
      std::stable_sort(ranked.begin(), ranked.end(), [&](const Ranked& a, const Ranked& b) {
        const std::string& pa = model.function(a.write->scope).path;
        const std::string& pb = model.function(b.write->scope).path;
        return std::tie(a.rank, pa, a.write->write->line) < std::tie(b.rank, pb, b.write->write->line);
      });
      if (ranked.size() > kMaxWritersPerRead) {
        origin.more = ranked.size();
        out.push_back(std::move(origin));
        continue;
      }
      for (const Ranked& r : ranked) {
        if (origin.writers.size() >= max_writers) {
          ++origin.more;
          continue;
        }
        const CodeModel::Function& scope = model.function(r.write->scope);
        const StateWrite& sw = *r.write->write;
        origin.writers.push_back(StateWriter{scope.path, sw.line, sw.function, sw.code, sw.kind,
                                             InstallsOf(model, triggers, r.write->scope, sw)});
      }
      out.push_back(std::move(origin));
    }
  }
  return out;
}

}  // namespace errdex
