#include "analysis/argument_classes.h"

#include <algorithm>
#include <cctype>
#include <unordered_set>

namespace errdex {

namespace {

using Kind = KnownValue::Kind;

// The builtin classes whose call gives an instance of exactly that class.
bool IsBuiltinConstructor(const std::string& name) {
  for (const char* b :
       {"list", "dict", "set", "frozenset", "tuple", "str", "int", "float", "bytes", "bytearray", "object"}) {
    if (name == b) return true;
  }
  return false;
}

std::string WithoutSubscript(const std::string& text) { return text.substr(0, text.find('[')); }

// A base that adds nothing to an instance's classes as the checks read them.
bool IsNeutralBase(const std::string& text) {
  return text == "object" || text == "Generic" || text == "typing.Generic" || text == "typing_extensions.Generic";
}

bool IsPlainEnumBase(const std::string& text) { return text == "Enum" || text == "enum.Enum"; }

// The names statement ST binds in its scope.
std::vector<int> BoundBy(const FlowProgram& f, const FlowStatement& st) {
  std::vector<int> names;
  if (st.kind != 't') {  // an annotation alone (`x: T`) binds nothing
    ForEachTarget(f, st, [&](const FlowExpr& e) {
      if (e.tag == 'N') names.push_back(e.name);
    });
  }
  if (st.kind == 'i') names.push_back(st.a);
  if (st.kind == 'd') names.push_back(f.scopes[static_cast<size_t>(st.a)].name);
  return names;
}

bool HasYield(const FlowProgram& f, int expr, int depth) {
  if (expr < 0 || depth > 64) return false;
  const FlowExpr& e = f.exprs[static_cast<size_t>(expr)];
  if (e.tag == 'Y') return true;
  for (int k : e.kids) {
    if (HasYield(f, k, depth + 1)) return true;
  }
  return false;
}

bool DeclaredGlobalBelow(const FlowProgram& f, int scope, int name) {
  for (const FlowScope& s : f.scopes) {
    if (s.parent != scope && !(scope >= 0 && f.scopes[static_cast<size_t>(scope)].kind == 'm')) continue;
    if (std::find(s.global_names.begin(), s.global_names.end(), name) != s.global_names.end()) return true;
  }
  return false;
}

}  // namespace

const std::vector<int>& ArgumentClasses::StatementsOf(const FlowProgram& flow, int scope) {
  auto [it, inserted] = statements_.try_emplace({&flow, scope});
  if (inserted) {
    for (size_t i = 0; i < flow.statements.size(); ++i) {
      if (flow.statements[i].scope == scope) it->second.push_back(static_cast<int>(i));
    }
  }
  return it->second;
}

bool ArgumentClasses::BoundAround(const FlowProgram& flow, int scope, const std::string& first) const {
  const int id = flow.FindName(first);
  if (id < 0) return false;
  for (int s = scope; s >= 0; s = flow.scopes[static_cast<size_t>(s)].parent) {
    const FlowScope& fs = flow.scopes[static_cast<size_t>(s)];
    if (fs.kind != 'f' && fs.kind != 'l' && s != scope) continue;  // a class body is not seen from its methods
    if (fs.kind == 'm') break;
    if (std::binary_search(fs.bound_names.begin(), fs.bound_names.end(), id)) return true;
  }
  return false;
}

std::string ArgumentClasses::DottedName(const FlowProgram& flow, int expr) const {
  if (expr < 0) return "";
  const FlowExpr& e = flow.exprs[static_cast<size_t>(expr)];
  if (e.tag == 'N' && e.name >= 0) return flow.NameOf(e.name);
  if (e.tag == 'A' && e.name >= 0 && !e.kids.empty()) {
    const std::string object = DottedName(flow, e.kids[0]);
    return object.empty() ? object : object + "." + flow.NameOf(e.name);
  }
  return "";
}

int ArgumentClasses::ScopeOfSymbol(const FlowProgram& flow, const std::string& qualname, char kind) const {
  for (size_t i = 0; i < flow.scopes.size(); ++i) {
    if (flow.scopes[i].kind == kind && flow.scopes[i].qualname == qualname) return static_cast<int>(i);
  }
  return -1;
}

KnownValue ArgumentClasses::Chain(const std::string& qualified) {
  auto cached = chains_.find(qualified);
  if (cached != chains_.end()) return cached->second;
  const PythonModuleIndex& index = model_.index();
  KnownValue v;
  v.classes = {qualified};
  v.complete = true;
  std::unordered_set<std::string> seen = {qualified};
  for (size_t i = 0; i < v.classes.size() && v.classes.size() < 64; ++i) {
    const std::string q = v.classes[i];
    if (q.rfind("builtins.", 0) == 0) {
      for (const std::string& b : index.TypeAndBases(q)) {
        if (seen.insert(b).second) v.classes.push_back(b);
      }
      continue;
    }
    const std::optional<PythonModuleIndex::Symbol> symbol = index.Lookup(q);
    if (!symbol || symbol->kind != PythonModuleIndex::Symbol::Kind::kClass) {
      if (!IsPlainEnumBase(q)) v.complete = false;  // Enum's own classes are itself and object
      continue;
    }
    for (const std::string& written : index.BasesOf(q)) {
      std::string base = written;
      const std::optional<PythonModuleIndex::Symbol> known = index.Lookup(base);
      if (base.rfind("builtins.", 0) != 0 && !(known && known->kind == PythonModuleIndex::Symbol::Kind::kClass)) {
        base = WithoutSubscript(base);
        if (IsNeutralBase(base)) continue;
        if (std::optional<std::string> resolved = index.Resolve(symbol->path, base)) base = *resolved;
      }
      if (seen.insert(base).second) v.classes.push_back(base);
    }
  }
  if (v.classes.size() >= 64) v.complete = false;
  chains_.emplace(qualified, v);
  return v;
}

bool ArgumentClasses::StraightBody(const FlowProgram& flow, int scope) {
  for (int index : StatementsOf(flow, scope)) {
    const FlowStatement& st = flow.statements[static_cast<size_t>(index)];
    if (st.kind == 'f' || st.kind == 'w') return false;
    if ((st.kind == 'a' || st.kind == 'e') && !st.straight) return false;
    if (HasYield(flow, st.a, 0) || HasYield(flow, st.b, 0)) return false;  // a generator returns a generator
  }
  for (const FlowGuard& g : flow.guards) {
    if (g.scope == scope) return false;
  }
  for (const FlowCatch& c : flow.catches) {
    if (c.scope == scope) return false;
  }
  return true;
}

ArgumentClasses::FunctionPlace ArgumentClasses::FunctionScope(const std::string& qualified_function) {
  const std::optional<PythonModuleIndex::Symbol> symbol =
      qualified_function.empty() ? std::nullopt : model_.index().Lookup(qualified_function);
  if (!symbol || symbol->kind != PythonModuleIndex::Symbol::Kind::kFunction) return {};
  const FlowProgram* flow = flow_of_(symbol->path);
  const int scope = flow == nullptr ? -1 : ScopeOfSymbol(*flow, symbol->qualname, 'f');
  return scope < 0 ? FunctionPlace{} : FunctionPlace{flow, scope};
}

bool ArgumentClasses::ReturnsItsArgument(const std::string& qualified_function) {
  const FunctionPlace place = FunctionScope(qualified_function);
  const FlowProgram* flow = place.flow;
  const int scope = place.scope;
  if (flow == nullptr) return false;
  const FlowScope& s = flow->scopes[static_cast<size_t>(scope)];
  if (s.params.empty() || !s.decorators.empty() || !StraightBody(*flow, scope)) return false;
  const int argument = s.params[0].name;
  int returns = 0;
  for (int index : StatementsOf(*flow, scope)) {
    const FlowStatement& st = flow->statements[static_cast<size_t>(index)];
    const std::vector<int> bound = BoundBy(*flow, st);
    if (std::find(bound.begin(), bound.end(), argument) != bound.end()) return false;
    if (st.kind != 'r') continue;
    const FlowExpr* e = st.a < 0 ? nullptr : &flow->exprs[static_cast<size_t>(st.a)];
    if (e == nullptr || e->tag != 'N' || e->name != argument) return false;
    ++returns;
  }
  return returns > 0;
}

bool ArgumentClasses::PlainClass(const std::string& qualified) {
  auto cached = plain_.find(qualified);
  if (cached != plain_.end()) return cached->second;
  const PythonModuleIndex& index = model_.index();
  bool plain = !index.FindMember(qualified, "__new__").has_value();
  const std::optional<PythonModuleIndex::Symbol> symbol = index.Lookup(qualified);
  const FlowProgram* flow = plain && symbol ? flow_of_(symbol->path) : nullptr;
  const int scope = flow == nullptr ? -1 : ScopeOfSymbol(*flow, symbol->qualname, 'c');
  if (scope < 0) plain = false;
  if (plain) {
    // A class decorator may replace the class: only one that returns its argument is read through.
    for (int d : flow->scopes[static_cast<size_t>(scope)].decorators) {
      if (!KeepsFunction(*flow, symbol->path, d)) plain = false;
    }
  }
  plain_.emplace(qualified, plain);
  return plain;
}

std::optional<PythonModuleIndex::Symbol> ArgumentClasses::ClassCalled(const Place& at, int call) const {
  const FlowExpr& e = at.flow.exprs[static_cast<size_t>(call)];
  if (e.tag != 'C' || e.kids.empty()) return std::nullopt;
  const std::string name = DottedName(at.flow, e.kids[0]);
  if (name.empty() || BoundAround(at.flow, at.scope, name.substr(0, name.find('.')))) return std::nullopt;
  const PythonModuleIndex& index = model_.index();
  const std::optional<std::string> absolute = index.AbsoluteName(at.path, name);
  std::optional<PythonModuleIndex::Symbol> symbol = absolute ? index.Lookup(*absolute) : std::nullopt;
  if (!symbol || symbol->kind != PythonModuleIndex::Symbol::Kind::kClass) return std::nullopt;
  return symbol;
}

KnownValue ArgumentClasses::Constructed(const Place& at, int call, int depth) {
  KnownValue v;
  const FlowExpr& e = at.flow.exprs[static_cast<size_t>(call)];
  if (e.tag != 'C' || e.kids.empty()) return v;
  const std::string name = DottedName(at.flow, e.kids[0]);
  if (name.empty() || BoundAround(at.flow, at.scope, name.substr(0, name.find('.')))) return v;
  const PythonModuleIndex& index = model_.index();
  const std::optional<std::string> absolute = index.AbsoluteName(at.path, name);
  const std::optional<PythonModuleIndex::Symbol> symbol = ClassCalled(at, call);
  if (symbol) {
    if (!PlainClass(symbol->qualified)) return v;
    v = Chain(symbol->qualified);
    v.kind = Kind::kInstance;
    v.exact = true;
    v.truthy = v.complete && !index.FindMember(symbol->qualified, "__bool__") &&
               !index.FindMember(symbol->qualified, "__len__");
    return v;
  }
  if (!absolute && IsBuiltinConstructor(name)) {
    int module = at.scope;
    while (module >= 0 && at.flow.scopes[static_cast<size_t>(module)].parent >= 0) {
      module = at.flow.scopes[static_cast<size_t>(module)].parent;
    }
    const int id = at.flow.FindName(name);
    const FlowScope& m = at.flow.scopes[static_cast<size_t>(module < 0 ? 0 : module)];
    if (std::binary_search(m.bound_names.begin(), m.bound_names.end(), id)) return v;  // rebound in the module
    v.kind = Kind::kInstance;
    v.classes = {"builtins." + name};
    if (name != "object") v.classes.push_back("builtins.object");
    v.complete = v.exact = true;
    v.truthy = name == "object";
    return v;
  }
  return depth == 0 ? Returned(at, call) : v;
}

KnownValue ArgumentClasses::Returned(const Place& at, int call) {
  KnownValue v;
  const FlowExpr& e = at.flow.exprs[static_cast<size_t>(call)];
  const std::string name = DottedName(at.flow, e.kids[0]);
  const PythonModuleIndex& index = model_.index();
  std::optional<PythonModuleIndex::Symbol> symbol;
  if (name.rfind("self.", 0) == 0 && name.find('.', 5) == std::string::npos) {
    // `self.m(...)`: the method of the class, when no other function of the repository is named m.
    const std::string method = name.substr(5);
    if (Self(at).kind != Kind::kInstance || model_.FunctionsNamed(method).size() != 1) return v;
    symbol = index.FindMember(Self(at).classes[0], method);
  } else if (name.find('.') == std::string::npos) {
    const std::optional<std::string> absolute = index.AbsoluteName(at.path, name);
    if (absolute) symbol = index.Lookup(*absolute);
    if (symbol && symbol->qualname.find('.') != std::string::npos) return v;  // a method through its class
  }
  if (!symbol || symbol->kind != PythonModuleIndex::Symbol::Kind::kFunction) return v;
  const FlowProgram* flow = flow_of_(symbol->path);
  const int scope = flow == nullptr ? -1 : ScopeOfSymbol(*flow, symbol->qualname, 'f');
  if (scope < 0 || !flow->scopes[static_cast<size_t>(scope)].decorators.empty() || !StraightBody(*flow, scope)) {
    return v;
  }
  KnownValue first;
  for (int index_of : StatementsOf(*flow, scope)) {
    const FlowStatement& st = flow->statements[static_cast<size_t>(index_of)];
    if (st.kind != 'r') continue;
    const KnownValue r = st.a < 0 ? KnownValue() : Constructed({*flow, symbol->path, scope, st.line}, st.a, 1);
    if (r.kind != Kind::kInstance || (first.kind == Kind::kInstance && r.classes[0] != first.classes[0])) return v;
    first = r;
  }
  return first;
}

KnownValue ArgumentClasses::Self(const Place& at) {
  KnownValue v;
  const FlowScope& s = at.flow.scopes[static_cast<size_t>(at.scope)];
  if (s.kind != 'f' || s.parent < 0 || s.is_static || s.is_classmethod || s.params.empty() ||
      at.flow.NameOf(s.params[0].name) != "self") {
    return v;
  }
  const FlowScope& c = at.flow.scopes[static_cast<size_t>(s.parent)];
  if (c.kind != 'c' || c.qualname.find('<') != std::string::npos) return v;
  const int self = s.params[0].name;
  if (DeclaredGlobalBelow(at.flow, at.scope, self)) return v;
  for (int index : StatementsOf(at.flow, at.scope)) {
    const std::vector<int> bound = BoundBy(at.flow, at.flow.statements[static_cast<size_t>(index)]);
    if (std::find(bound.begin(), bound.end(), self) != bound.end()) return v;
  }
  const std::string qualified = model_.index().ModuleOf(at.path) + "." + c.qualname;
  const std::optional<PythonModuleIndex::Symbol> symbol = model_.index().Lookup(qualified);
  if (!symbol || symbol->kind != PythonModuleIndex::Symbol::Kind::kClass) return v;
  v = Chain(qualified);
  v.kind = Kind::kInstance;
  v.exact = v.truthy = false;  // a subclass may be what self is
  return v;
}

KnownValue ArgumentClasses::AssignedOnce(const Place& at, int name) {
  KnownValue v;
  const FlowScope& s = at.flow.scopes[static_cast<size_t>(at.scope)];
  if (s.kind != 'f') return v;
  for (const FlowParam& p : s.params) {
    if (p.name == name) return v;
  }
  // `global NAME` (or `nonlocal`) here or in a nested function: assigned elsewhere too.
  if (std::find(s.global_names.begin(), s.global_names.end(), name) != s.global_names.end() ||
      DeclaredGlobalBelow(at.flow, at.scope, name)) {
    return v;
  }
  const FlowStatement* only = nullptr;
  for (int index : StatementsOf(at.flow, at.scope)) {
    const FlowStatement& st = at.flow.statements[static_cast<size_t>(index)];
    const std::vector<int> bound = BoundBy(at.flow, st);
    if (std::find(bound.begin(), bound.end(), name) == bound.end()) continue;
    if (only != nullptr) return v;  // assigned twice
    only = &st;
  }
  if (only == nullptr || only->kind != 'a' || only->line >= at.line || only->a < 0 ||
      at.flow.exprs[static_cast<size_t>(only->a)].tag != 'N' || only->b < 0) {
    return v;
  }
  return Constructed({at.flow, at.path, at.scope, only->line}, only->b, 0);
}

KnownValue ArgumentClasses::ArgumentClass(const Place& at, int expr) {
  if (expr < 0 || at.scope < 0) return KnownValue();
  const FlowExpr& e = at.flow.exprs[static_cast<size_t>(expr)];
  if (e.tag == 'C') return Constructed(at, expr, 0);
  if (e.tag != 'N' || e.name < 0) return KnownValue();
  if (at.flow.NameOf(e.name) == "self") return Self(at);
  return AssignedOnce(at, e.name);
}

KnownValue ArgumentClasses::EnumMember(const std::string& path, const std::string& dotted) {
  KnownValue v;
  const size_t dot = dotted.rfind('.');
  if (dot == std::string::npos) return v;
  const PythonModuleIndex& index = model_.index();
  const std::optional<std::string> absolute = index.AbsoluteName(path, dotted.substr(0, dot));
  const std::optional<PythonModuleIndex::Symbol> symbol = absolute ? index.Lookup(*absolute) : std::nullopt;
  if (!symbol || symbol->kind != PythonModuleIndex::Symbol::Kind::kClass) return v;
  KnownValue chain = Chain(symbol->qualified);
  const bool is_enum = std::any_of(chain.classes.begin(), chain.classes.end(), IsPlainEnumBase);
  if (!is_enum || !chain.complete) return v;
  const FlowProgram* flow = flow_of_(symbol->path);
  const int scope = flow == nullptr ? -1 : ScopeOfSymbol(*flow, symbol->qualname, 'c');
  const int member = flow == nullptr ? -1 : flow->FindName(dotted.substr(dot + 1));
  if (scope < 0 || member < 0) return v;
  bool assigned = false;
  for (int index_of : StatementsOf(*flow, scope)) {
    const FlowStatement& st = flow->statements[static_cast<size_t>(index_of)];
    const std::vector<int> bound = BoundBy(*flow, st);
    if (std::find(bound.begin(), bound.end(), member) == bound.end()) continue;
    if (st.kind != 'a') return v;  // a method or a nested class is no member
    assigned = true;
  }
  if (!assigned) return v;
  chain.kind = Kind::kSentinel;
  return chain;
}

KnownValue ArgumentClasses::ModuleSentinel(const std::string& path, const std::string& name) {
  KnownValue v;
  const PythonModuleIndex& index = model_.index();
  const auto owner = index.OwnerOfGlobal(path, name);
  const std::string* owner_path = owner ? index.PathOfModule(owner->first) : nullptr;
  const FlowProgram* flow = owner_path == nullptr ? nullptr : flow_of_(*owner_path);
  if (flow == nullptr) return v;
  int module = -1;
  for (size_t i = 0; i < flow->scopes.size() && module < 0; ++i) {
    if (flow->scopes[i].kind == 'm') module = static_cast<int>(i);
  }
  const int id = flow->FindName(owner->second);
  if (module < 0 || id < 0 || DeclaredGlobalBelow(*flow, module, id)) return v;
  const FlowStatement* only = nullptr;
  for (int index_of : StatementsOf(*flow, module)) {
    const FlowStatement& st = flow->statements[static_cast<size_t>(index_of)];
    const std::vector<int> bound = BoundBy(*flow, st);
    if (std::find(bound.begin(), bound.end(), id) == bound.end()) continue;
    if (only != nullptr) return v;
    only = &st;
  }
  if (only == nullptr || only->kind != 'a' || !only->straight || only->b < 0) return v;
  const FlowExpr& value = flow->exprs[static_cast<size_t>(only->b)];
  if (value.tag == 'A') return EnumMember(*owner_path, DottedName(*flow, only->b));
  const int object = flow->FindName("object");
  const FlowScope& m = flow->scopes[static_cast<size_t>(module)];
  if (value.tag == 'C' && value.kids.size() == 1 && value.kw.empty() && DottedName(*flow, value.kids[0]) == "object" &&
      !std::binary_search(m.bound_names.begin(), m.bound_names.end(), object)) {
    v.kind = Kind::kSentinel;
    v.classes = {"builtins.object"};
    v.complete = true;
  }
  return v;
}

const FlowStatement* ArgumentClasses::AssignedOnceAtTop(const FlowProgram& flow, int module, int name) {
  if (module < 0 || name < 0 || DeclaredGlobalBelow(flow, module, name)) return nullptr;
  const FlowStatement* only = nullptr;
  for (int index_of : StatementsOf(flow, module)) {
    const FlowStatement& st = flow.statements[static_cast<size_t>(index_of)];
    const std::vector<int> bound = BoundBy(flow, st);
    if (std::find(bound.begin(), bound.end(), name) == bound.end()) continue;
    if (only != nullptr) return nullptr;
    only = &st;
  }
  return only != nullptr && only->kind == 'a' && only->straight && only->b >= 0 ? only : nullptr;
}

// The repository function DOTTED (as written in the file PATH) names: a function, or a module-level name
// assigned once to a method of a module-level instance assigned once (`preload_module = _reg.preload_module`).
std::string ArgumentClasses::FunctionNamed(const std::string& path, const std::string& dotted) {
  const PythonModuleIndex& index = model_.index();
  const std::optional<std::string> absolute = index.AbsoluteName(path, dotted);
  if (!absolute) return "";
  if (auto symbol = index.Lookup(*absolute)) {
    return symbol->kind == PythonModuleIndex::Symbol::Kind::kFunction ? symbol->qualified : "";
  }
  const size_t dot = absolute->rfind('.');
  const std::string* module_path = dot == std::string::npos ? nullptr : index.PathOfModule(absolute->substr(0, dot));
  const auto owner =
      module_path == nullptr ? std::nullopt : index.OwnerOfGlobal(*module_path, absolute->substr(dot + 1));
  const std::string* owner_path = owner ? index.PathOfModule(owner->first) : nullptr;
  const FlowProgram* flow = owner_path == nullptr ? nullptr : flow_of_(*owner_path);
  if (flow == nullptr || flow->scopes.empty() || flow->scopes[0].kind != 'm') return "";
  const FlowStatement* alias = AssignedOnceAtTop(*flow, 0, flow->FindName(owner->second));
  const FlowExpr* method = alias == nullptr ? nullptr : &flow->exprs[static_cast<size_t>(alias->b)];
  if (method == nullptr || method->tag != 'A' || method->kids.empty() || method->kids[0] < 0) return "";
  const FlowExpr& object = flow->exprs[static_cast<size_t>(method->kids[0])];
  const FlowStatement* instance = object.tag == 'N' ? AssignedOnceAtTop(*flow, 0, object.name) : nullptr;
  if (instance == nullptr) return "";
  const KnownValue v = Constructed({*flow, *owner_path, 0, instance->line}, instance->b, 1);
  if (v.kind != Kind::kInstance || !v.exact) return "";
  const auto member = index.FindMember(v.classes[0], flow->NameOf(method->name));
  return member && member->kind == PythonModuleIndex::Symbol::Kind::kFunction ? member->qualified : "";
}

bool ArgumentClasses::KeepsFunction(const FlowProgram& flow, const std::string& path, int decorator) {
  if (decorator < 0) return false;
  const FlowExpr& e = flow.exprs[static_cast<size_t>(decorator)];
  if (e.tag != 'C') {
    const std::string name = DottedName(flow, decorator);
    return !name.empty() && ReturnsItsArgument(FunctionNamed(path, name));
  }
  // A decorator factory: every return of its straight-line body is `lambda fn: fn`.
  const FunctionPlace place = FunctionScope(e.kids.empty() ? "" : FunctionNamed(path, DottedName(flow, e.kids[0])));
  const FlowProgram* f = place.flow;
  const int scope = place.scope;
  if (f == nullptr || !f->scopes[static_cast<size_t>(scope)].decorators.empty() || !StraightBody(*f, scope)) {
    return false;
  }
  int returns = 0;
  for (int index_of : StatementsOf(*f, scope)) {
    const FlowStatement& st = f->statements[static_cast<size_t>(index_of)];
    if (st.kind != 'r') continue;
    const FlowExpr* lambda = st.a < 0 ? nullptr : &f->exprs[static_cast<size_t>(st.a)];
    if (lambda == nullptr || lambda->tag != 'F' || lambda->scope < 0) return false;
    const FlowScope& l = f->scopes[static_cast<size_t>(lambda->scope)];
    if (l.params.size() != 1 || l.params[0].kind != 'n') return false;
    bool identity = false;
    for (int body : StatementsOf(*f, lambda->scope)) {
      const FlowStatement& r = f->statements[static_cast<size_t>(body)];
      const FlowExpr* value = r.a < 0 ? nullptr : &f->exprs[static_cast<size_t>(r.a)];
      identity = r.kind == 'r' && value != nullptr && value->tag == 'N' && value->name == l.params[0].name;
    }
    if (!identity) return false;
    ++returns;
  }
  return returns > 0;
}

bool ArgumentClasses::KeepsSignature(const FlowProgram& flow, const std::string& path, int decorator) {
  if (KeepsFunction(flow, path, decorator)) return true;
  if (decorator < 0) return false;
  const FlowExpr& e = flow.exprs[static_cast<size_t>(decorator)];
  const bool factory = e.tag == 'C';
  const int named = factory ? (e.kids.empty() ? -1 : e.kids[0]) : decorator;
  const FunctionPlace place = FunctionScope(named < 0 ? "" : FunctionNamed(path, DottedName(flow, named)));
  const FlowProgram* f = place.flow;
  const int scope = place.scope;
  if (f == nullptr) return false;
  const FlowScope& s = f->scopes[static_cast<size_t>(scope)];
  auto expr = [&](int i) -> const FlowExpr* { return i < 0 ? nullptr : &f->exprs[static_cast<size_t>(i)]; };
  const FlowExpr* returned = expr(s.return_annotation);
  if (returned == nullptr) return false;
  if (!factory) {  // def d(fn: F) -> F
    const FlowExpr* taken = s.params.empty() || s.params[0].kind != 'n' ? nullptr : expr(s.params[0].annotation);
    return taken != nullptr && taken->tag == 'N' && returned->tag == 'N' && taken->name == returned->name &&
           IsTypeVar(*f, s.return_annotation);
  }
  // def d(...) -> Callable[[F], F]: a subscript (`X`), or a generic type as annotations are read (`M` of the
  // name and its type parameters)
  const int head =
      (returned->tag == 'X' || returned->tag == 'M') && returned->kids.size() == 2 ? returned->kids[0] : -1;
  const std::string callable = head < 0 ? "" : DottedName(*f, head);
  if (callable != "Callable" && (callable.size() < 9 || callable.compare(callable.size() - 9, 9, ".Callable") != 0)) {
    return false;
  }
  const FlowExpr* pair = expr(returned->kids[1]);
  if (pair == nullptr || (pair->tag != 'L' && pair->tag != 'M') || pair->kids.size() != 2) return false;
  const FlowExpr* taken = expr(pair->kids[0]);
  const FlowExpr* gives = expr(pair->kids[1]);
  const FlowExpr* only =
      taken == nullptr || taken->tag != 'L' || taken->kids.size() != 1 ? nullptr : expr(taken->kids[0]);
  return only != nullptr && gives != nullptr && only->tag == 'N' && gives->tag == 'N' && only->name == gives->name &&
         IsTypeVar(*f, pair->kids[1]);
}

// Whether EXPR (a name of FLOW's module scope) is assigned once, at the module's top level, to `TypeVar(...)`.
bool ArgumentClasses::IsTypeVar(const FlowProgram& flow, int expr) {
  const FlowExpr& e = flow.exprs[static_cast<size_t>(expr)];
  if (e.tag != 'N' || flow.scopes.empty() || flow.scopes[0].kind != 'm') return false;
  const FlowStatement* assigned = AssignedOnceAtTop(flow, 0, e.name);
  const FlowExpr* call = assigned == nullptr ? nullptr : &flow.exprs[static_cast<size_t>(assigned->b)];
  if (call == nullptr || call->tag != 'C' || call->kids.empty()) return false;
  const std::string callee = DottedName(flow, call->kids[0]);
  return callee == "TypeVar" || callee == "typing.TypeVar" || callee == "typing_extensions.TypeVar";
}

void ArgumentClasses::AddNamesOf(const std::vector<Condition>& conditions, const Place& at,
                                 std::unordered_map<std::string, KnownValue>* values) {
  std::unordered_set<std::string> names;
  for (const Condition& c : conditions) {
    const std::string& code = c.code;
    for (size_t i = 0; i < code.size();) {
      const char ch = code[i];
      if (ch == '"' || ch == '\'') {  // skip a string literal
        size_t j = i + 1;
        while (j < code.size() && code[j] != ch) j += code[j] == '\\' ? 2 : 1;
        i = j + 1;
        continue;
      }
      if (!(std::isalpha(static_cast<unsigned char>(ch)) || ch == '_') ||
          (i > 0 && (std::isalnum(static_cast<unsigned char>(code[i - 1])) || code[i - 1] == '.'))) {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < code.size() && (std::isalnum(static_cast<unsigned char>(code[j])) || code[j] == '_' ||
                                 (code[j] == '.' && j + 1 < code.size() &&
                                  (std::isalpha(static_cast<unsigned char>(code[j + 1])) || code[j + 1] == '_')))) {
        ++j;
      }
      names.insert(code.substr(i, j - i));
      i = j;
    }
  }
  const PythonModuleIndex& index = model_.index();
  for (const std::string& name : names) {
    if (values->count(name) || BoundAround(at.flow, at.scope, name.substr(0, name.find('.')))) continue;
    const std::optional<std::string> absolute = index.AbsoluteName(at.path, name);
    const std::optional<PythonModuleIndex::Symbol> symbol = absolute ? index.Lookup(*absolute) : std::nullopt;
    KnownValue v;
    if (symbol && symbol->kind == PythonModuleIndex::Symbol::Kind::kClass) {
      v = Chain(symbol->qualified);
      v.kind = Kind::kClass;
    } else if (name.find('.') != std::string::npos) {
      v = EnumMember(at.path, name);
    } else {
      v = ModuleSentinel(at.path, name);
    }
    if (v.kind != Kind::kUnknown) (*values)[name] = v;
  }
}

}  // namespace errdex
