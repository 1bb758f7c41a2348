#include "analysis/receiver_state.h"

#include <algorithm>
#include <set>

#include "analysis/literal_value.h"

namespace errdex {

namespace {

const FlowExpr& Expr(const FlowProgram& p, int e) { return p.exprs[static_cast<size_t>(e)]; }

// The called name of a call expression: `C` of `C(...)` and of `mod.C(...)`; "" otherwise.
std::string CalleeName(const FlowProgram& p, int call) {
  if (call < 0 || Expr(p, call).tag != 'C' || Expr(p, call).kids.empty() || Expr(p, call).kids[0] < 0) return "";
  const FlowExpr& callee = Expr(p, Expr(p, call).kids[0]);
  if ((callee.tag != 'N' && callee.tag != 'A') || callee.name < 0) return "";
  return p.NameOf(callee.name);
}

// How many times EXPR (deeply) reads the name NAME.
int Reads(const FlowProgram& p, int expr, int name, int depth) {
  if (expr < 0 || depth > 64) return 0;
  const FlowExpr& e = Expr(p, expr);
  int n = e.tag == 'N' && e.name == name ? 1 : 0;
  for (int k : e.kids) n += Reads(p, k, name, depth + 1);
  return n;
}

int ReadsIn(const FlowProgram& p, const FlowStatement& st, int name) {
  if (st.kind == 'i' || st.kind == 'x' || st.kind == 'd') return 0;
  return Reads(p, st.a, name, 0) + Reads(p, st.b, name, 0);
}

// Whether statement ST binds NAME (a target of an assignment, `for`, `with`, an import).
bool Binds(const FlowProgram& p, const FlowStatement& st, int name) {
  if (st.kind == 'i') return st.a == name;
  bool binds = false;
  ForEachTarget(p, st, [&](const FlowExpr& e) { binds = binds || (e.tag == 'N' && e.name == name); });
  return binds;
}

const std::vector<int>& StatementsOf(const ReceiverState::StatementsByScope& statements, int scope) {
  static const std::vector<int> kNone;
  auto it = statements.find(scope);
  return it == statements.end() ? kNone : it->second;
}

// The receiver `v` of `v.m()`: made by `v = C(args)` alone, read by nothing until the call.
int LocalConstruction(const FlowProgram& from, const ReceiverState::StatementsByScope& from_statements,
                      int caller_scope, int call_line, int v, const std::string& class_name) {
  const FlowScope& s = from.scopes[static_cast<size_t>(caller_scope)];
  if (std::find(s.global_names.begin(), s.global_names.end(), v) != s.global_names.end()) return -1;
  const std::vector<int>& own = StatementsOf(from_statements, caller_scope);
  const FlowStatement* assignment = nullptr;
  for (int index : own) {
    const FlowStatement& st = from.statements[static_cast<size_t>(index)];
    if (!Binds(from, st, v)) continue;
    if (assignment != nullptr) return -1;  // bound twice
    assignment = &st;
  }
  if (assignment == nullptr || assignment->kind != 'a' || !assignment->straight || assignment->line >= call_line ||
      Expr(from, assignment->a).tag != 'N' || CalleeName(from, assignment->b) != class_name) {
    return -1;
  }
  bool call_straight = false;
  int reads_at_call = 0, reads_after = 0;
  for (int index : own) {
    const FlowStatement& st = from.statements[static_cast<size_t>(index)];
    const int reads = ReadsIn(from, st, v);
    if (st.line > assignment->line && st.line < call_line && reads > 0) return -1;
    if (st.line == call_line) {
      reads_at_call += reads;
      if (reads > 0) call_straight = st.straight && (st.kind == 'a' || st.kind == 'e');
    }
    if (st.line > call_line) reads_after += reads;
  }
  if (reads_at_call != 1 || (!call_straight && reads_after > 0)) return -1;
  // A nested function may read it whenever it is called.
  for (size_t i = 0; i < from.scopes.size(); ++i) {
    if (from.scopes[i].parent != caller_scope) continue;
    for (int index : StatementsOf(from_statements, static_cast<int>(i))) {
      if (ReadsIn(from, from.statements[static_cast<size_t>(index)], v) > 0) return -1;
    }
  }
  return assignment->b;
}

// The methods of class scope CLASS_SCOPE by name (the last definition of each).
std::unordered_map<std::string, int> MethodsOf(const FlowProgram& p, int class_scope) {
  std::unordered_map<std::string, int> out;
  for (size_t i = 0; i < p.scopes.size(); ++i) {
    const FlowScope& s = p.scopes[i];
    if (s.parent != class_scope || s.kind != 'f') continue;
    auto [it, inserted] = out.try_emplace(p.NameOf(s.name), static_cast<int>(i));
    if (!inserted && s.line > p.scopes[static_cast<size_t>(it->second)].line) it->second = static_cast<int>(i);
  }
  return out;
}

// The names of the bases of CLASS_SCOPE, and of their bases when they are classes of the same file.
std::vector<std::string> BaseNames(const FlowProgram& p, int class_scope, std::vector<int>* base_scopes) {
  std::vector<std::string> names;
  std::vector<int> todo = {class_scope};
  for (size_t i = 0; i < todo.size() && i < 64; ++i) {
    for (int b : p.scopes[static_cast<size_t>(todo[i])].bases) {
      const FlowExpr& e = Expr(p, b);
      const FlowExpr& head = e.tag == 'X' && !e.kids.empty() && e.kids[0] >= 0 ? Expr(p, e.kids[0]) : e;  // Generic[T]
      if ((head.tag != 'N' && head.tag != 'A') || head.name < 0) continue;
      const std::string& n = p.NameOf(head.name);
      if (std::find(names.begin(), names.end(), n) != names.end()) continue;
      names.push_back(n);
      for (size_t k = 0; k < p.scopes.size(); ++k) {
        if (p.scopes[k].kind == 'c' && p.scopes[k].name == head.name) {
          todo.push_back(static_cast<int>(k));
          base_scopes->push_back(static_cast<int>(k));
        }
      }
    }
  }
  return names;
}

bool IsConstructorName(const std::string& n) {
  return !n.empty() && n[0] >= 'A' && n[0] <= 'Z' &&
         std::any_of(n.begin(), n.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// The value of an assignment's VALUE (in a method whose parameters bind as ARGUMENTS), ANNOTATION its
// annotation or -1.
KnownValue AssignedValue(const FlowProgram& p, int value, int annotation,
                         const std::unordered_map<std::string, KnownValue>* arguments) {
  KnownValue v = LiteralValue(p, value);
  if (value < 0 || v.kind != KnownValue::Kind::kUnknown) return v;
  const FlowExpr& e = Expr(p, value);
  const std::string* name = e.name >= 0 ? &p.NameOf(e.name) : nullptr;
  switch (e.tag) {
    case 'C':
      if (IsConstructorName(CalleeName(p, value))) v.kind = KnownValue::Kind::kNotNone;
      break;
    case 'N':
      if (arguments != nullptr) {
        auto it = arguments->find(*name);
        if (it != arguments->end()) v = it->second;
      }
      break;
    default:
      break;
  }
  if (v.kind == KnownValue::Kind::kUnknown && annotation >= 0 && !AnnotationAdmitsNone(p, annotation)) {
    v.kind = KnownValue::Kind::kNotNone;
  }
  return v;
}

}  // namespace

bool AnnotationAdmitsNone(const FlowProgram& p, int expr, int depth) {
  if (expr < 0 || depth > 16) return true;
  const FlowExpr& e = Expr(p, expr);
  switch (e.tag) {
    case 'V':
    case 'Q':
    case '?':
    case 'I':
      return true;
    case 'M': {  // a subscript `list[str]`, `ExceptionInfo[E]`: what it names (`Union[...]`: its arguments)
      if (e.kids.empty() || e.kids[0] < 0) return true;
      const FlowExpr& head = Expr(p, e.kids[0]);
      const std::string n = head.name >= 0 && (head.tag == 'N' || head.tag == 'A') ? p.NameOf(head.name) : "";
      if (n != "Union" && n != "Annotated" && n != "Literal") return AnnotationAdmitsNone(p, e.kids[0], depth + 1);
      break;
    }
    case 'N':
    case 'A': {
      const std::string& n = p.NameOf(e.name);
      if (n == "Optional" || n == "Any" || n == "object" || n == "None" || n == "TypeVar") return true;
      return !n.empty() && n.size() <= 2;  // a type variable such as T
    }
    default:
      break;
  }
  for (int k : e.kids) {
    if (AnnotationAdmitsNone(p, k, depth + 1)) return true;
  }
  return false;
}

ReceiverState::Fresh ReceiverState::FreshReceiver(const FlowProgram& from, const StatementsByScope& from_statements,
                                                  int caller_scope, int call_line, int call, const FlowProgram& target,
                                                  int method) {
  Fresh out;
  const FlowScope& m = target.scopes[static_cast<size_t>(method)];
  if (m.parent < 0 || target.scopes[static_cast<size_t>(m.parent)].kind != 'c' || m.is_static || m.is_classmethod) {
    return out;
  }
  const std::string& class_name = target.NameOf(target.scopes[static_cast<size_t>(m.parent)].name);
  if (call < 0) {
    // The `with` items of the line that construct the class.
    int found = -1, count = 0;
    for (int index : StatementsOf(from_statements, caller_scope)) {
      const FlowStatement& st = from.statements[static_cast<size_t>(index)];
      if (st.kind != 'w' || st.line != call_line || CalleeName(from, st.a) != class_name) continue;
      found = index;
      ++count;
    }
    if (count == 1) {
      const FlowStatement& st = from.statements[static_cast<size_t>(found)];
      out = Fresh{st.a, true, st.b >= 0 && Expr(from, st.b).tag != '?'};
    }
    return out;
  }
  const FlowExpr& c = Expr(from, call);
  if (c.kids.empty() || c.kids[0] < 0 || Expr(from, c.kids[0]).tag != 'A') return out;
  const FlowExpr& callee = Expr(from, c.kids[0]);
  if (callee.kids.empty() || callee.kids[0] < 0) return out;
  const int object = callee.kids[0];
  const FlowExpr& o = Expr(from, object);
  if (o.tag == 'C' && CalleeName(from, object) == class_name) {
    out.construction = object;  // `C(args).m()`
  } else if (o.tag == 'N' && o.name >= 0 && from.NameOf(o.name) != "self" && from.NameOf(o.name) != "cls") {
    out.construction = LocalConstruction(from, from_statements, caller_scope, call_line, o.name, class_name);
  }
  return out;
}

int ReceiverState::ConstructorOf(const FlowProgram& target, int method) {
  const int class_scope = target.scopes[static_cast<size_t>(method)].parent;
  if (class_scope < 0) return -1;
  const std::unordered_map<std::string, int> methods = MethodsOf(target, class_scope);
  auto it = methods.find("__init__");
  return it == methods.end() ? -1 : it->second;
}

bool ReceiverState::SameNamedClassElsewhere(const std::string& path, const std::string& class_qualname) const {
  auto simple = [](const std::string& q) {
    const size_t dot = q.rfind('.');
    return dot == std::string::npos ? q : q.substr(dot + 1);
  };
  const std::string name = simple(class_qualname);
  for (CodeModel::FunctionId id = 0; id < model_.size(); ++id) {
    const CodeModel::Function& f = model_.function(id);
    if (f.is_method && simple(f.class_qualname) == name && (f.path != path || f.class_qualname != class_qualname)) {
      return true;
    }
  }
  return false;
}

bool ReceiverState::WrittenElsewhere(const std::string& attr, const std::string& path,
                                     const std::string& class_qualname, const std::vector<std::string>& base_names,
                                     bool escaped) const {
  for (const CodeModel::Write& w : model_.WritesNamed(attr)) {
    if (w.write == nullptr || w.write->kind == "class_attr" || w.write->target.empty()) continue;
    // A write through another object reaches the receiver only when the `with` body holds it.
    if (w.write->target != "self" && escaped) return true;
    if (w.write->target != "self" || w.scope == CodeModel::kNone) continue;
    const CodeModel::Function& fn = model_.function(w.scope);
    const bool own = fn.path == path && fn.class_qualname == class_qualname;
    if (fn.path == path && w.write->function.rfind(class_qualname + ".", 0) == 0 &&
        (!own || fn.qualname != w.write->function)) {
      return true;  // a function nested in a method of the class
    }
    if (own) {
      if (w.write->kind == "setattr" || w.write->kind == "delete") return true;  // not read from the flow
      continue;
    }
    const size_t dot = fn.class_qualname.rfind('.');
    const std::string simple = dot == std::string::npos ? fn.class_qualname : fn.class_qualname.substr(dot + 1);
    if (fn.is_method && std::find(base_names.begin(), base_names.end(), simple) != base_names.end()) return true;
  }
  return false;
}

namespace {

// The attributes `self.X` the statements of scope RUN assign, each with the value the method leaves when
// it is known (the last straight-line assignment before any `return`), or unknown.
void AssignedAttributes(const FlowProgram& target, const ReceiverState::StatementsByScope& statements, int run,
                        const std::unordered_map<std::string, KnownValue>* arguments,
                        std::unordered_map<std::string, KnownValue>* known) {
  const FlowScope& r = target.scopes[static_cast<size_t>(run)];
  if (r.params.empty()) return;
  const int self = r.params[0].name;
  int first_return = 1 << 30;
  std::unordered_map<int, int> annotations;  // line -> annotation of a `self.x: T = v`
  for (int index : StatementsOf(statements, run)) {
    const FlowStatement& st = target.statements[static_cast<size_t>(index)];
    if (st.kind == 'r') first_return = std::min(first_return, st.line);
    if (st.kind == 't') annotations[st.line] = st.b;
  }
  for (int index : StatementsOf(statements, run)) {
    const FlowStatement& st = target.statements[static_cast<size_t>(index)];
    if (st.kind != 'a' && st.kind != 'f' && st.kind != 'w') continue;
    std::vector<int> todo = {st.kind == 'w' ? st.b : st.a};
    for (size_t i = 0; i < todo.size() && i < 256; ++i) {
      if (todo[i] < 0) continue;
      const FlowExpr& e = Expr(target, todo[i]);
      if (e.tag == 'L' || e.tag == 'S') todo.insert(todo.end(), e.kids.begin(), e.kids.end());
      if (e.tag != 'A' || e.kids.empty() || e.kids[0] < 0 || Expr(target, e.kids[0]).tag != 'N' ||
          Expr(target, e.kids[0]).name != self) {
        continue;
      }
      KnownValue v;
      if (st.kind == 'a' && st.straight && i == 0 && st.line < first_return && known != nullptr) {
        auto a = annotations.find(st.line);
        v = AssignedValue(target, st.b, a == annotations.end() ? -1 : a->second, arguments);
      }
      if (known != nullptr) (*known)[target.NameOf(e.name)] = v;
    }
  }
}

// What the statements of RUN up to line UPTO do with its `self`: the methods they call through it
// (`self.NAME(...)`) into CALLED, and "*" when `self` escapes: handed to a call, stored (`x.owner = self`,
// `[self]`), a bound method handed out (`Thread(target=self.run)`), read by a nested function.
void SelfUses(const FlowProgram& p, const ReceiverState::StatementsByScope& statements, int run, int upto,
              const std::set<std::string>& method_names, std::set<std::string>* called) {
  const FlowScope& r = p.scopes[static_cast<size_t>(run)];
  if (r.params.empty()) return;
  const int self = r.params[0].name;
  auto is_self = [&](int e) { return e >= 0 && Expr(p, e).tag == 'N' && Expr(p, e).name == self; };
  for (int index : StatementsOf(statements, run)) {
    const FlowStatement& st = p.statements[static_cast<size_t>(index)];
    if (st.line > upto || st.kind == 'i' || st.kind == 'x' || st.kind == 'd' || st.kind == 'r' || st.kind == 't') {
      continue;
    }
    std::vector<int> todo = {st.a, st.b};
    for (size_t i = 0; i < todo.size() && i < 4096; ++i) {
      const int x = todo[i];
      if (x < 0) continue;
      const FlowExpr& e = Expr(p, x);
      if (e.tag == 'N' && e.name == self) {
        called->insert("*");
        continue;
      }
      if (e.tag == 'A' && !e.kids.empty() && is_self(e.kids[0])) {
        if (method_names.count(p.NameOf(e.name))) called->insert("*");  // a bound method, not called
        continue;
      }
      if (e.tag == 'C' && !e.kids.empty() && e.kids[0] >= 0) {
        const FlowExpr& callee = Expr(p, e.kids[0]);
        if (callee.tag == 'A' && !callee.kids.empty() && is_self(callee.kids[0])) {
          called->insert(p.NameOf(callee.name));
          todo.insert(todo.end(), e.kids.begin() + 1, e.kids.end());
          continue;
        }
      }
      todo.insert(todo.end(), e.kids.begin(), e.kids.end());
    }
  }
  for (size_t i = 0; i < p.scopes.size(); ++i) {
    if (p.scopes[i].parent != run) continue;
    for (int index : StatementsOf(statements, static_cast<int>(i))) {
      if (ReadsIn(p, p.statements[static_cast<size_t>(index)], self) > 0) called->insert("*");
    }
  }
}

// Whether the scope RUN returns its `self`.
bool ReturnsSelf(const FlowProgram& p, const ReceiverState::StatementsByScope& statements, int run) {
  const FlowScope& r = p.scopes[static_cast<size_t>(run)];
  for (int index : StatementsOf(statements, run)) {
    const FlowStatement& st = p.statements[static_cast<size_t>(index)];
    if (st.kind == 'r' &&
        (st.a < 0 || (Expr(p, st.a).tag == 'N' && !r.params.empty() && Expr(p, st.a).name == r.params[0].name))) {
      return true;
    }
  }
  return false;
}

}  // namespace

void ReceiverState::AddKnown(const std::string& path, const FlowProgram& target, const StatementsByScope& statements,
                             int method, int read_line, const Fresh& fresh,
                             const std::unordered_map<std::string, KnownValue>& init_arguments,
                             std::unordered_map<std::string, KnownValue>* values) const {
  const FlowScope& m = target.scopes[static_cast<size_t>(method)];
  if (m.parent < 0 || m.params.empty() || m.params[0].kind != 'n') return;
  const int class_scope = m.parent;
  if (SameNamedClassElsewhere(path, target.scopes[static_cast<size_t>(class_scope)].qualname)) return;
  std::vector<int> base_scopes;
  const std::vector<std::string> base_names = BaseNames(target, class_scope, &base_scopes);
  std::set<std::string> method_names;  // of the class and its bases of this file
  base_scopes.push_back(class_scope);
  for (int c : base_scopes) {
    for (const auto& [name, scope] : MethodsOf(target, c)) method_names.insert(name);
  }
  for (const char* hook : {"__setattr__", "__getattribute__", "__delattr__", "__new__"}) {
    if (method_names.count(hook)) return;
  }
  const std::unordered_map<std::string, int> own = MethodsOf(target, class_scope);
  std::vector<int> runs;
  if (auto it = own.find("__init__"); it != own.end()) runs.push_back(it->second);
  if (fresh.entered) {
    auto it = own.find(target.NameOf(m.name) == "__aexit__" ? "__aenter__" : "__enter__");
    if (it == own.end()) return;  // an inherited `__enter__` may write anything
    runs.push_back(it->second);
  }
  // What the modelled methods leave, in order: the last straight-line assignment wins.
  std::unordered_map<std::string, KnownValue> known;
  std::set<std::string> called;  // methods called through `self` before the test
  for (int run : runs) {
    if (!target.scopes[static_cast<size_t>(run)].decorators.empty()) return;
    const bool is_init = target.NameOf(target.scopes[static_cast<size_t>(run)].name) == "__init__";
    AssignedAttributes(target, statements, run, is_init ? &init_arguments : nullptr, &known);
    SelfUses(target, statements, run, 1 << 30, method_names, &called);
  }
  SelfUses(target, statements, method, read_line, method_names, &called);
  if (called.count("*")) return;  // `self` escaped: anything may write it
  const bool escapes = fresh.named && fresh.entered && ReturnsSelf(target, statements, runs.back());
  // The other methods of the class (and of its bases in this file), with what they assign and call.
  std::unordered_map<std::string, std::set<std::string>> writes_of, calls_of;
  for (int c : base_scopes) {
    for (const auto& [name, scope] : MethodsOf(target, c)) {
      if (std::find(runs.begin(), runs.end(), scope) != runs.end()) continue;
      std::unordered_map<std::string, KnownValue> assigned;
      AssignedAttributes(target, statements, scope, nullptr, &assigned);
      for (const auto& [attr, v] : assigned) writes_of[attr].insert(name);
      SelfUses(target, statements, scope, 1 << 30, method_names, &calls_of[name]);
    }
  }
  // The raising method's own assignments before the test.
  std::unordered_map<std::string, KnownValue> own_before;
  {
    std::unordered_map<std::string, KnownValue> all;
    AssignedAttributes(target, statements, method, nullptr, &all);
    for (int index : StatementsOf(statements, method)) {
      const FlowStatement& st = target.statements[static_cast<size_t>(index)];
      if (st.line > read_line) continue;
      StatementsByScope one = {{method, {index}}};
      AssignedAttributes(target, one, method, nullptr, &own_before);
    }
  }
  const std::string& self_name = target.NameOf(m.params[0].name);
  const std::string& class_qualname = target.scopes[static_cast<size_t>(class_scope)].qualname;
  for (const auto& [attr, v] : known) {
    if (v.kind == KnownValue::Kind::kUnknown || method_names.count(attr) || own_before.count(attr)) continue;
    // The methods that may write it when called, through calls on `self`.
    std::set<std::string> writers = writes_of[attr];
    writers.erase(target.NameOf(m.name));  // its own writes after the test
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto& [name, calls] : calls_of) {
        if (writers.count(name)) continue;
        for (const std::string& w : writers) {
          if (calls.count(w)) {
            grew = writers.insert(name).second;
            break;
          }
        }
      }
    }
    bool reached = escapes && !writers.empty();
    for (const std::string& w : writers) reached = reached || called.count(w) > 0;
    if (reached || WrittenElsewhere(attr, path, class_qualname, base_names, escapes)) continue;
    (*values)[self_name + "." + attr] = v;
  }
}

}  // namespace errdex
