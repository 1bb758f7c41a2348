#include "analysis/call_feasibility.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "analysis/generator_runs.h"
#include "analysis/literal_value.h"

namespace errdex {

namespace {

bool MentionsAny(const std::vector<Condition>& conditions, const FlowProgram& p, const FlowScope& s) {
  for (const FlowParam& param : s.params) {
    const std::string& name = p.NameOf(param.name);
    for (const Condition& c : conditions) {
      if (c.code.find(name) != std::string::npos) return true;
    }
  }
  return false;
}

void Collect(const FlowProgram& p, int expr, int line, int depth, std::vector<int>* out) {
  if (expr < 0 || depth > 64) return;
  const FlowExpr& e = p.exprs[static_cast<size_t>(expr)];
  if (e.tag == 'C' && e.line == line) out->push_back(expr);
  for (int k : e.kids) Collect(p, k, line, depth + 1, out);
}

// Adds the names statement ST binds (its targets' plain names, an import's name) to OUT.
void AddBoundNames(const FlowProgram& p, const FlowStatement& st, std::unordered_set<int>* out) {
  if (st.kind == 'i') out->insert(st.a);
  ForEachTarget(p, st, [&](const FlowExpr& e) {
    if (e.tag == 'N') out->insert(e.name);
  });
}

// A tuple or dict of ITEMS items: empty, or sized.
KnownValue SizedValue(long long items) {
  KnownValue v;
  v.kind = items == 0 ? KnownValue::Kind::kEmpty : KnownValue::Kind::kSized;
  v.integer = items;
  return v;
}

// Whether a call's arguments reach the body of S as written: a decorator other than `staticmethod`,
// `classmethod` or one that KEEPS the function's signature (ArgumentClasses::KeepsSignature) may change them.
bool ArgumentsReachUnchanged(const FlowProgram& flow, const FlowScope& s, const std::function<bool(int)>& keeps) {
  for (int d : s.decorators) {
    const FlowExpr& e = flow.exprs[static_cast<size_t>(d)];
    const std::string& n = e.name >= 0 ? flow.NameOf(e.name) : std::string();
    if ((e.tag != 'N' || (n != "staticmethod" && n != "classmethod")) && !keeps(d)) return false;
  }
  return true;
}

// The calls at LINE of the statements STATEMENTS (of one scope, in order): those of every statement that starts
// at or before LINE.
std::vector<int> CallsAtLine(const FlowProgram& p, const std::vector<int>& statements, int line) {
  std::vector<int> calls;
  for (int index : statements) {
    const FlowStatement& st = p.statements[static_cast<size_t>(index)];
    if (st.line > line || st.kind == 'd' || st.kind == 'i' || st.kind == 'x') continue;
    Collect(p, st.a, line, 0, &calls);
    Collect(p, st.b, line, 0, &calls);
  }
  return calls;
}

// The name CALL calls (`f` of `f(x)`, `m` of `obj.m(x)`), or null for another callee.
const std::string* CalledName(const FlowProgram& p, int call) {
  const FlowExpr& c = p.exprs[static_cast<size_t>(call)];
  if (c.kids.empty() || c.kids[0] < 0) return nullptr;
  const FlowExpr& callee = p.exprs[static_cast<size_t>(c.kids[0])];
  return (callee.tag == 'N' || callee.tag == 'A') && callee.name >= 0 ? &p.NameOf(callee.name) : nullptr;
}

// Whether a statement of STATEMENTS calls something named NAME at LINE (`cm.__exit__(...)`).
bool CallsNamed(const FlowProgram& p, const std::vector<int>& statements, int line, const std::string& name) {
  for (int call : CallsAtLine(p, statements, line)) {
    const std::string* called = CalledName(p, call);
    if (called != nullptr && *called == name) return true;
  }
  return false;
}

}  // namespace

std::vector<Condition> ConditionsOfSite(const Site& site) {
  std::vector<Condition> out = site.conditions;
  if (site.kind != "assert" || site.line < site.snippet_start) return out;
  // The statement's lines from the snippet, each without its indentation (inside brackets or after a
  // backslash it does not matter).
  std::string statement;
  int line = site.snippet_start;
  size_t start = 0;
  while (start <= site.snippet.size() && line <= std::max(site.line, site.end_line)) {
    size_t end = site.snippet.find('\n', start);
    if (end == std::string::npos) end = site.snippet.size();
    if (line >= site.line) {
      const std::string_view text = std::string_view(site.snippet).substr(start, end - start);
      const size_t first = text.find_first_not_of(" \t");
      if (first != std::string_view::npos) statement += text.substr(first);
      statement += '\n';
    }
    start = end + 1;
    ++line;
  }
  if (statement.rfind("assert", 0) != 0 || statement.size() > kMaxConditionCodeBytes * 4) return out;
  Condition c;
  c.kind = "assert";
  c.code = std::move(statement);
  c.line = site.line;
  out.push_back(std::move(c));
  return out;
}

CallFeasibility::Program* CallFeasibility::ProgramOf(const std::string& path) {
  auto [it, inserted] = programs_.try_emplace(path);
  if (inserted) {
    const CodeModel::File* file = model_.FileAt(path);
    if (file != nullptr && file->facts != nullptr && !file->facts->flow_truncated) {
      it->second = std::make_unique<Program>();
      it->second->path = path;
      it->second->flow.AddFile(path, file->facts->flow);
      it->second->flow.Finish();
      const std::vector<FlowStatement>& statements = it->second->flow.statements;
      for (size_t i = 0; i < statements.size(); ++i) {
        it->second->statements[statements[i].scope].push_back(static_cast<int>(i));
      }
    }
  }
  return it->second.get();
}

int CallFeasibility::ScopeHolding(const FlowProgram& p, const std::string& qualname, int line) {
  int best = -1;
  for (size_t i = 0; i < p.scopes.size(); ++i) {
    const FlowScope& s = p.scopes[i];
    if (s.kind != 'f' || s.qualname != qualname || line < s.line || line > s.end_line) continue;
    if (best < 0 || s.line > p.scopes[static_cast<size_t>(best)].line) best = static_cast<int>(i);
  }
  return best;
}

const std::unordered_set<int>& CallFeasibility::Assigned(Program* p, int scope) {
  auto [it, inserted] = p->assigned.try_emplace(scope);
  if (inserted) {
    const FlowProgram& f = p->flow;
    for (int index : p->statements[scope]) {
      const FlowStatement& st = f.statements[static_cast<size_t>(index)];
      AddBoundNames(f, st, &it->second);
    }
    // A nested function declaring it `nonlocal` (or `global`) may assign it too.
    for (const FlowScope& s : f.scopes) {
      if (s.parent == scope) it->second.insert(s.global_names.begin(), s.global_names.end());
    }
  }
  return it->second;
}

KnownValue CallFeasibility::ArgumentValue(Program* p, int scope, int expr, bool as_argument) {
  KnownValue v = LiteralValue(p->flow, expr);
  if (expr < 0 || v.kind != KnownValue::Kind::kUnknown) return v;
  const FlowProgram& f = p->flow;
  const FlowExpr& e = f.exprs[static_cast<size_t>(expr)];
  const std::string* name = e.name >= 0 ? &f.NameOf(e.name) : nullptr;
  switch (e.tag) {
    case 'C':
      if (as_argument) v = classes_.ArgumentClass({f, p->path, scope, call_line_}, expr);
      break;
    case 'N': {
      if (!as_argument) break;
      v = classes_.ArgumentClass({f, p->path, scope, call_line_}, expr);
      if (v.kind != KnownValue::Kind::kUnknown) break;
      if (*name == "self" || *name == "cls") {
        v.kind = KnownValue::Kind::kNotNone;
        break;
      }
      // A parameter of the calling function, annotated with a type that does not admit None.
      if (!trust_annotations_) break;
      const FlowScope& s = f.scopes[static_cast<size_t>(scope)];
      for (const FlowParam& param : s.params) {
        if (param.name != e.name || param.kind != 'n' || param.annotation < 0) continue;
        if (AnnotationAdmitsNone(f, param.annotation) || Assigned(p, scope).count(e.name)) break;
        if (param.default_value >= 0 &&
            ArgumentValue(p, scope, param.default_value, false).kind == KnownValue::Kind::kNone) {
          break;
        }
        v.kind = KnownValue::Kind::kNotNone;
      }
      break;
    }
    default:
      break;
  }
  return v;
}

bool CallFeasibility::Bind(Program* caller, int caller_scope, int call, Program* callee, int callee_scope,
                           std::unordered_map<std::string, KnownValue>* out) {
  const FlowProgram& cf = caller->flow;
  const FlowProgram& pf = callee->flow;
  const FlowExpr& c = cf.exprs[static_cast<size_t>(call)];
  const FlowScope& s = pf.scopes[static_cast<size_t>(callee_scope)];
  const std::string& own = pf.NameOf(s.name);
  const bool constructor = own == "__init__" || own == "__new__";
  const FlowExpr* callee_expr = c.kids.empty() || c.kids[0] < 0 ? nullptr : &cf.exprs[static_cast<size_t>(c.kids[0])];
  if (callee_expr == nullptr) return false;
  // Does the call pass the receiver itself (self, cls)?
  size_t first = 0;
  const bool method = s.parent >= 0 && pf.scopes[static_cast<size_t>(s.parent)].kind == 'c' && !s.is_static;
  if (method) {
    if (callee_expr->tag == 'N') {
      if (!constructor) return false;  // an alias of a bound method, or the function through its class
      first = 1;
    } else if (callee_expr->tag == 'A') {
      const FlowExpr* obj = callee_expr->kids.empty() || callee_expr->kids[0] < 0
                                ? nullptr
                                : &cf.exprs[static_cast<size_t>(callee_expr->kids[0])];
      const std::string& attr = cf.NameOf(callee_expr->name);
      const bool super_call = obj != nullptr && obj->tag == 'C';
      if (constructor && attr == own && !super_call) {
        first = 0;  // Base.__init__(self, ...)
      } else if (obj != nullptr && obj->tag == 'N' && !s.is_classmethod) {
        const std::string& o = cf.NameOf(obj->name);
        if (o != "self" && o != "cls" && !o.empty() && o[0] >= 'A' && o[0] <= 'Z') return false;  // Class.method?
        first = 1;
      } else {
        first = 1;
      }
    } else {
      return false;
    }
  }
  std::vector<int> bound(s.params.size(), -1);  // expression bound to each parameter; -2: unknown
  if (first > s.params.size()) return false;
  for (size_t i = 0; i < first; ++i) {
    if (s.params[i].kind != 'n') return false;  // `def m(*args)`: the receiver is among the args
    bound[i] = -2;
  }
  size_t next = first;
  bool rest_unknown = false;
  long long star_items = 0, kw_items = 0;  // the items of the `*args` and `**kwargs` parameters
  for (int i = 0; i < c.npos; ++i) {
    const int arg = c.kids[static_cast<size_t>(1 + i)];
    if (arg >= 0 && cf.exprs[static_cast<size_t>(arg)].tag == 'S') {
      rest_unknown = true;
      break;
    }
    while (next < s.params.size() && s.params[next].kind == 'k') ++next;
    if (next >= s.params.size()) return false;
    if (s.params[next].kind == '*') {
      bound[next] = -2;
      ++star_items;
      continue;
    }
    bound[next++] = arg;
  }
  bool kw_splat = false;
  for (size_t i = 0; i < c.kw.size(); ++i) {
    const std::string& kw = cf.NameOf(c.kw[i]);
    if (kw == "**") {
      kw_splat = true;
      continue;
    }
    bool matched = false, absorbed = false;
    for (size_t j = 0; j < s.params.size(); ++j) {
      if (s.params[j].kind == 'k') absorbed = true;
      if (s.params[j].kind != 'n' || pf.NameOf(s.params[j].name) != kw) continue;
      if (bound[j] != -1) return false;  // given twice: the binding is not what this reads
      bound[j] = c.kids[static_cast<size_t>(1 + c.npos) + i];
      matched = true;
    }
    if (!matched && !absorbed) return false;
    if (!matched) ++kw_items;
  }
  const std::unordered_set<int>& assigned = Assigned(callee, callee_scope);
  bool keyword_only = false;  // after a `*args` parameter: a positional splat cannot fill it
  for (size_t j = 0; j < s.params.size(); ++j) {
    const FlowParam& param = s.params[j];
    const bool splat_param = param.kind == '*' || param.kind == 'k';
    keyword_only = keyword_only || param.kind == '*';
    if (assigned.count(param.name) && !UnassignedBefore(callee, callee_scope, param.name)) continue;
    KnownValue v;
    if (splat_param) {
      // What the call leaves to `*args` (without a positional splat) and `**kwargs` (without a `**` splat).
      if (param.kind == '*' ? rest_unknown : kw_splat) continue;
      v = SizedValue(param.kind == '*' ? star_items : kw_items);
    } else if (bound[j] >= 0) {
      v = ArgumentValue(caller, caller_scope, bound[j], true);
    } else if (bound[j] == -1 && (!rest_unknown || keyword_only) && !kw_splat) {
      if (param.default_value < 0) return false;  // a required parameter without an argument
      v = ArgumentValue(callee, s.parent, param.default_value, false);
    }
    if (v.kind != KnownValue::Kind::kUnknown) (*out)[pf.NameOf(param.name)] = v;
  }
  return true;
}

std::vector<int> CallFeasibility::CallsOfLine(Program* from, int caller_scope, int call_line, Program* target,
                                              int scope) {
  const FlowScope& s = target->flow.scopes[static_cast<size_t>(scope)];
  // The calls of that line that name the raising function.
  const FlowProgram& cf = from->flow;
  const std::string& own = target->flow.NameOf(s.name);
  const bool constructor = own == "__init__" || own == "__new__";
  const std::string class_name = s.parent >= 0 && target->flow.scopes[static_cast<size_t>(s.parent)].kind == 'c'
                                     ? target->flow.NameOf(target->flow.scopes[static_cast<size_t>(s.parent)].name)
                                     : std::string();
  const std::vector<int> all = CallsAtLine(cf, from->statements[caller_scope], call_line);
  std::vector<int> calls;
  for (int call : all) {
    const std::string* n = CalledName(cf, call);
    if (n == nullptr) continue;
    if (*n == own || (constructor && *n == class_name) ||
        (constructor && !class_name.empty() && ConstructsThrough(from, caller_scope, call, target, scope))) {
      calls.push_back(call);
    }
  }
  // The only call of the line made the edge, whatever name it calls the function by (an alias:
  // `LEGACY_PATH = LocalPath; LEGACY_PATH(path)`).
  if (calls.empty() && all.size() == 1) calls = all;
  return calls;
}

bool CallFeasibility::AddNamesFor(const std::vector<Condition>& conditions, Program* callee, int scope, int line,
                                  std::unordered_map<std::string, KnownValue>* values) {
  // The classes and sentinels the conditions name matter only to an argument of a known class, or to a
  // known literal tested against a sentinel (`is`).
  bool identity = false;
  for (const Condition& c : conditions) identity = identity || c.code.find(" is ") != std::string::npos;
  for (const auto& [name, v] : *values) {
    if (v.kind == KnownValue::Kind::kInstance || (identity && v.kind != KnownValue::Kind::kNotNone)) {
      classes_.AddNamesOf(conditions, {callee->flow, callee->path, scope, line}, values);
      break;
    }
  }
  return true;
}

bool CallFeasibility::ConstructsThrough(Program* from, int caller_scope, int call, Program* target, int scope) {
  const std::optional<PythonModuleIndex::Symbol> cls =
      classes_.ClassCalled({from->flow, from->path, caller_scope, 0}, call);
  if (!cls) return false;
  const FlowScope& s = target->flow.scopes[static_cast<size_t>(scope)];
  const std::optional<PythonModuleIndex::Symbol> init =
      model_.index().FindMember(cls->qualified, target->flow.NameOf(s.name));
  return init && init->path == target->path && init->qualname == s.qualname;
}

bool CallFeasibility::UnassignedBefore(Program* p, int scope, int name) const {
  if (read_line_ <= 0) return false;
  const FlowProgram& f = p->flow;
  for (const FlowScope& nested : f.scopes) {
    if (nested.parent != scope) continue;
    for (int g : nested.global_names) {
      if (g == name) return false;  // `nonlocal` in a nested function: assigned whenever it runs
    }
  }
  auto it = p->statements.find(scope);
  if (it == p->statements.end()) return true;
  for (int index : it->second) {
    const FlowStatement& st = f.statements[static_cast<size_t>(index)];
    if (st.line > read_line_) continue;
    std::unordered_set<int> names;
    AddBoundNames(f, st, &names);
    if (names.count(name)) return false;
  }
  return true;
}

bool CallFeasibility::ImpossibleThrough(const Function& caller, int call_line, const Function& middle, int middle_line,
                                        bool trust_annotations) {
  Program* target = ProgramOf(middle.path);
  if (target == nullptr || target->flow.guards.empty()) return false;
  const int scope = ScopeHolding(target->flow, middle.qualname, middle_line);
  if (scope < 0) return false;
  const FlowScope& s = target->flow.scopes[static_cast<size_t>(scope)];
  // The guards of the middle function's own line: `if` tests of its scope outside loops (a parameter
  // assigned after the test, in the same pass, is still the argument there) that read a parameter.
  std::vector<Condition> conditions;
  int last_test = 0;
  for (const FlowGuard& g : target->flow.guards) {
    if (g.scope != scope || g.in_loop || middle_line < g.first || middle_line > g.last) continue;
    bool reads_parameter = false;
    for (const FlowParam& param : s.params) {
      if (g.text.find(target->flow.NameOf(param.name)) != std::string::npos) reads_parameter = true;
    }
    if (!reads_parameter) continue;
    Condition c;
    c.kind = "if";
    c.code = "if " + g.text + ":";
    c.line = g.line;
    c.negated = g.negated;
    conditions.push_back(std::move(c));
    last_test = std::max(last_test, g.line);
  }
  if (conditions.empty()) return false;
  if (!ArgumentsReachUnchanged(target->flow, s,
                               [&](int d) { return classes_.KeepsSignature(target->flow, middle.path, d); })) {
    return false;
  }
  Program* from = ProgramOf(caller.path);
  if (from == nullptr) return false;
  const int caller_scope = ScopeHolding(from->flow, caller.qualname, call_line);
  if (caller_scope < 0) return false;
  const std::string& own = target->flow.NameOf(s.name);
  if (own == "__exit__" || own == "__aexit__") {
    trust_annotations_ = trust_annotations;
    std::unordered_map<std::string, KnownValue> values;
    if (AddReceiverState(from, caller_scope, call_line, -1, middle.path, target, scope, last_test, &values)) {
      return !values.empty() && !truth_.Possible(conditions, values);
    }
    // Otherwise only an explicit `cm.__exit__(...)` binds its parameters (a `with`'s own calls do not).
    if (!CallsNamed(from->flow, from->statements[caller_scope], call_line, own)) return false;
  }
  const std::vector<int> calls = CallsOfLine(from, caller_scope, call_line, target, scope);
  if (calls.empty()) return false;
  trust_annotations_ = trust_annotations;
  read_line_ = last_test;
  call_line_ = call_line;
  bool impossible = true;
  for (int call : calls) {
    std::unordered_map<std::string, KnownValue> values;
    const bool bound = Bind(from, caller_scope, call, target, scope, &values);
    if (bound) AddReceiverState(from, caller_scope, call_line, call, middle.path, target, scope, last_test, &values);
    if (!bound || values.empty() || !AddNamesFor(conditions, target, scope, last_test, &values) ||
        truth_.Possible(conditions, values)) {
      impossible = false;
      break;
    }
  }
  read_line_ = 0;
  return impossible;
}

bool CallFeasibility::Impossible(const Function& caller, int call_line, const Function& callee, const Site& site,
                                 bool trust_annotations) {
  return Impossible(CheckCallee(callee, site), caller, call_line, trust_annotations);
}

CallFeasibility::CalleeCheck CallFeasibility::CheckCallee(const Function& callee, const Site& site) {
  CalleeCheck check;
  check.site = &site;
  check.conditions = ConditionsOfSite(site);
  if (check.conditions.empty()) return check;
  Program* target = ProgramOf(callee.path);
  if (target == nullptr) return check;
  const int scope = ScopeHolding(target->flow, callee.qualname, site.line);
  if (scope < 0) return check;
  const FlowScope& s = target->flow.scopes[static_cast<size_t>(scope)];
  if (!ArgumentsReachUnchanged(target->flow, s,
                               [&](int d) { return classes_.KeepsSignature(target->flow, callee.path, d); })) {
    return check;
  }
  if (!MentionsAny(check.conditions, target->flow, s)) return check;
  check.target = target;
  check.scope = scope;
  return check;
}

bool CallFeasibility::Impossible(const CalleeCheck& check, const Function& caller, int call_line,
                                 bool trust_annotations) {
  if (check.target == nullptr) return false;
  trust_annotations_ = trust_annotations;
  Program* target = check.target;
  const int scope = check.scope;
  const Site& site = *check.site;
  const std::vector<Condition>& conditions = check.conditions;
  const FlowScope& s = target->flow.scopes[static_cast<size_t>(scope)];
  Program* from = ProgramOf(caller.path);
  if (from == nullptr) return false;
  const int caller_scope = ScopeHolding(from->flow, caller.qualname, call_line);
  if (caller_scope < 0) return false;
  const std::string& own = target->flow.NameOf(s.name);
  if (own == "__exit__" || own == "__aexit__") {
    // Run by a `with` of the line: only the receiver's state is known (its arguments are the raise's).
    std::unordered_map<std::string, KnownValue> values;
    if (AddReceiverState(from, caller_scope, call_line, -1, target->path, target, scope, site.line, &values)) {
      return !values.empty() && !truth_.Possible(conditions, values);
    }
    if (!CallsNamed(from->flow, from->statements[caller_scope], call_line, own)) return false;
  }
  const std::vector<int> calls = CallsOfLine(from, caller_scope, call_line, target, scope);
  if (calls.empty()) return false;
  call_line_ = call_line;
  for (int call : calls) {
    std::unordered_map<std::string, KnownValue> values;
    if (!Bind(from, caller_scope, call, target, scope, &values)) return false;
    AddReceiverState(from, caller_scope, call_line, call, target->path, target, scope, site.line, &values);
    if (values.empty() || !AddNamesFor(conditions, target, scope, site.line, &values) ||
        truth_.Possible(conditions, values)) {
      return false;
    }
  }
  return true;
}

int CallFeasibility::BodyRunLine(const Function& caller, int call_line, const Function& callee, int callee_line) {
  Program* target = ProgramOf(callee.path);
  const int scope = target == nullptr ? -1 : ScopeHolding(target->flow, callee.qualname, callee_line);
  if (scope < 0 || !HoldsYield(target->flow, target->statements[scope])) return call_line;
  // A decorated generator function is run by its decorator's wrapper (`@contextlib.contextmanager`: on `with`).
  const FlowScope& s = target->flow.scopes[static_cast<size_t>(scope)];
  if (s.decorators.size() > static_cast<size_t>(s.is_static) + static_cast<size_t>(s.is_classmethod)) return call_line;
  Program* from = ProgramOf(caller.path);
  const int caller_scope = from == nullptr ? -1 : ScopeHolding(from->flow, caller.qualname, call_line);
  if (caller_scope < 0) return call_line;
  const std::vector<int> calls = CallsOfLine(from, caller_scope, call_line, target, scope);
  if (calls.empty()) return call_line;
  return GeneratorRunLine(from->flow, from->statements[caller_scope], calls);
}

bool CallFeasibility::AddReceiverState(Program* from, int caller_scope, int call_line, int call,
                                       const std::string& path, Program* target, int scope, int read_line,
                                       std::unordered_map<std::string, KnownValue>* values) {
  const ReceiverState::Fresh fresh =
      ReceiverState::FreshReceiver(from->flow, from->statements, caller_scope, call_line, call, target->flow, scope);
  if (fresh.construction < 0) return false;
  std::unordered_map<std::string, KnownValue> arguments;
  const int init = ReceiverState::ConstructorOf(target->flow, scope);
  const int saved = read_line_;
  read_line_ = 0;  // a parameter `__init__` assigns is unknown
  if (init >= 0 && !Bind(from, caller_scope, fresh.construction, target, init, &arguments)) arguments.clear();
  read_line_ = saved;
  receivers_.AddKnown(path, target->flow, target->statements, scope, read_line, fresh, arguments, values);
  return true;
}

}  // namespace errdex
