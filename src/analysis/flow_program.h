// The flow records of every file of a revision read back into one program: scopes, expressions and
// statements in arenas, names interned (docs/callgraph.md, "Flow facts"). Internal to the call-graph
// resolver (call_graph.cc).
//
// Not thread-safe; a plain value.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace errdex {

struct FlowExpr {
  char tag = '?';  // N A C S L G D Q K I V F X O U M W Y ? (docs/callgraph.md)
  // N: the name, A: the attribute, O: the operator, Q: the string, K: "i:" and the integer's digits,
  // V: "None", "True" or "False"
  int name = -1;
  int scope = -1;  // F: the lambda's scope; N: the scope the name is read in
  int line = 0, col = 0;
  int npos = 0;           // C: positional arguments count
  std::vector<int> kids;  // A: [object], C: [callee, positional..., keyword values...], X: [obj, key], ...
  std::vector<int> kw;    // C: keyword names (interned, "**" for a splat)
  int call = -1;          // C: index of the call site
};

struct FlowParam {
  int name = -1;
  char kind = 'n';                          // 'n', '*', 'k' (**)
  int annotation = -1, default_value = -1;  // expressions evaluated in the parent scope, -1 when absent
};

struct FlowScope {
  int module = 0;   // index into FlowProgram::modules
  int parent = -1;  // global scope index; -1 for a module scope
  char kind = 'm';  // 'm' module, 'c' class, 'f' function, 'l' lambda
  int name = -1;    // interned; -1 for a module
  int line = 0, end_line = 0;
  std::string full_name;  // PyCG name ("pkg.mod.C.f")
  std::string qualname;   // "C.f", "f.<locals>.g", "<module>"
  std::vector<FlowParam> params;
  std::vector<int> decorators;  // expressions in the parent scope, outermost first
  std::vector<int> bases;
  int return_annotation = -1;
  bool is_static = false, is_classmethod = false, is_property = false;
  int setter_of = -1;            // a `@x.setter` function: the property name x
  std::vector<int> bound_names;  // names bound in this scope (sorted, unique after Finish)
  std::vector<int> global_names;
};

struct FlowStatement {
  char kind = 'e';  // a t r e w f i z(raise) d(def binding) x(star import)
  int scope = 0, line = 0;
  int a = -1, b = -1;     // expressions; for 'i': a = bound name, b = path string id; for 'd': a = scope defined
  bool straight = false;  // 'a', 'e' and 'd': a straight-line statement of its scope's body (not in a compound)
};

struct FlowModule {
  std::string name;         // PyCG name from the path
  std::string import_name;  // name under which it is imported (outermost package dir first)
  std::string path;
  bool is_package = false;
  int scope = 0;
};

// An `if` test's outcome over some lines of its scope (record `h`, docs/callgraph.md): lines FIRST..LAST run
// only when TEXT (the test's source, at LINE) is true, or false when NEGATED. IN_LOOP: the `if` is inside a
// `for` or `while` of its scope (a later assignment may reach the test on the next iteration).
struct FlowGuard {
  int scope = 0, line = 0, first = 0, last = 0;
  bool negated = false, in_loop = false;
  std::string text;
};

// An exception handler over some lines of a scope (record `k`, docs/callgraph.md): calls at lines FIRST..LAST
// (a `try` body, or a `with suppress(...)` body) whose raise of one of TYPES (expressions of the scope) the
// handler at LINE takes. FORM 'e': an `except` clause that ends the raise; 'r': one that re-raises it; no TYPES
// for a bare `except:`. The clauses of one `try` (same scope, FIRST and LAST) come in their order. 's': a
// `with` item calling CALLEE (an expression), which ends a raise of TYPES when it is `contextlib.suppress`.
struct FlowCatch {
  int scope = 0, line = 0, first = 0, last = 0;
  char form = 'e';
  int callee = -1;
  std::vector<int> types;
};

class FlowProgram {
 public:
  int Intern(std::string_view text);
  const std::string& NameOf(int id) const { return names_[static_cast<size_t>(id)]; }
  int FindName(std::string_view text) const;

  // Adds one file's records; malformed records are skipped.
  void AddFile(const std::string& path, const std::string& flow);
  // Computes import names of modules; call once after every file was added.
  void Finish();

  std::vector<FlowModule> modules;
  std::vector<FlowScope> scopes;
  std::vector<FlowExpr> exprs;
  std::vector<FlowStatement> statements;
  std::vector<int> call_exprs;     // expression of each call site
  std::vector<FlowGuard> guards;   // in record order
  std::vector<FlowCatch> catches;  // in record order

 private:
  class Tokens;  // the tokens of one record, read in turn (flow_program.cc)
  int ParseExpr(Tokens& tokens, int scope, int depth);
  void ParseRecord(std::string_view line, int module, std::vector<int>* local_scopes);
  void ParseScope(Tokens& tokens, int module, std::vector<int>* local_scopes);  // record `s`
  bool ParseCatch(Tokens& tokens, int scope);  // record `k`; false when malformed (its lambdas left unmapped)
  void BindTarget(int expr, int scope);

  // Names are looked up by their view (a token of a record), with no string made for the lookup: an open
  // addressing table hashed with XXH3 (std::unordered_map and std::hash, then absl's own string hash, were a
  // fifth of the reading of SQLAlchemy's records; docs/benchmarks.md, ninth round).
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const;
  };
  struct NameEq {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const { return a == b; }
  };
  std::vector<std::string> names_;
  absl::flat_hash_map<std::string, int, NameHash, NameEq> name_ids_;
  // A name made of a prefix and a token, kept from record to record.
  std::string scratch_;
};

// Calls VISIT with each target expression statement ST of P binds: of an assignment ('a'), an annotated
// target ('t'), a `for` ('f') or a `with ... as` ('w'); a tuple or list target first, then its elements (a
// starred one's too), each in turn.
template <typename Visit>
void ForEachTarget(const FlowProgram& p, const FlowStatement& st, Visit visit) {
  std::vector<int> stack(1, st.kind == 'a' || st.kind == 't' || st.kind == 'f' ? st.a : st.kind == 'w' ? st.b : -1);
  while (!stack.empty()) {
    const int t = stack.back();
    stack.pop_back();
    if (t < 0) continue;
    const FlowExpr& e = p.exprs[static_cast<size_t>(t)];
    visit(e);
    if (e.tag == 'L' || e.tag == 'S') stack.insert(stack.end(), e.kids.begin(), e.kids.end());
  }
}

}  // namespace errdex
