#include "analysis/generator_runs.h"

#include <algorithm>
#include <functional>
#include <string>

#include "python/callable_apis.h"

namespace errdex {
namespace {

// Calls each expression of the tree at EXPR (EXPR first), not entering lambdas (their bodies are other scopes).
void EachExpr(const FlowProgram& p, int expr, const std::function<void(const FlowExpr&)>& f) {
  if (expr < 0 || static_cast<size_t>(expr) >= p.exprs.size()) return;
  const FlowExpr& e = p.exprs[static_cast<size_t>(expr)];
  f(e);
  if (e.tag == 'F') return;
  for (int kid : e.kids) EachExpr(p, kid, f);
}

// Whether calling E iterates its positional arguments at once (python/callable_apis.h: `list(x)`, `"".join(x)`).
bool EagerConsumer(const FlowProgram& p, const FlowExpr& e) {
  if (e.tag != 'C' || e.kids.empty() || e.kids[0] < 0) return false;
  const FlowExpr& callee = p.exprs[static_cast<size_t>(e.kids[0])];
  return callee.name >= 0 && (callee.tag == 'N' || callee.tag == 'A') &&
         IteratesArguments(p.NameOf(callee.name), callee.tag == 'A');
}

// Calls F with each expression of statement ST (none for a definition or an import).
void EachExprOf(const FlowProgram& p, const FlowStatement& st, const std::function<void(const FlowExpr&)>& f) {
  if (st.kind == 'd' || st.kind == 'i' || st.kind == 'x') return;
  EachExpr(p, st.a, f);
  EachExpr(p, st.b, f);
}

// The line at which statement ST iterates an expression IS_IT accepts (that of the consuming call or of the
// iterated expression when known, else the statement's), or -1.
int Iterates(const FlowProgram& p, const FlowStatement& st, const std::function<bool(int)>& is_it) {
  if (st.kind == 'f' && is_it(st.b)) return st.line;
  // `a, b = gen()` unpacks it.
  if (st.kind == 'a' && st.a >= 0 && p.exprs[static_cast<size_t>(st.a)].tag == 'L' && is_it(st.b)) return st.line;
  int line = -1;
  auto at = [&](int own) { line = own > 0 ? own : st.line; };
  auto look = [&](const FlowExpr& e) {
    if (line >= 0) return;
    if ((e.tag == 'S' || e.tag == 'Y') && !e.kids.empty() && is_it(e.kids[0])) {
      at(p.exprs[static_cast<size_t>(e.kids[0])].line);
    } else if (EagerConsumer(p, e)) {
      for (int i = 1; i <= e.npos && static_cast<size_t>(i) < e.kids.size() && line < 0; ++i) {
        if (is_it(e.kids[i])) at(e.line);
      }
    }
  };
  EachExprOf(p, st, look);
  return line;
}

}  // namespace

bool HoldsYield(const FlowProgram& p, const std::vector<int>& statements) {
  for (int index : statements) {
    bool found = false;
    EachExprOf(p, p.statements[static_cast<size_t>(index)], [&](const FlowExpr& e) { found = found || e.tag == 'Y'; });
    if (found) return true;
  }
  return false;
}

int GeneratorRunLine(const FlowProgram& p, const std::vector<int>& statements, const std::vector<int>& calls) {
  auto is_call = [&](int expr) { return std::find(calls.begin(), calls.end(), expr) != calls.end(); };
  for (int index : statements) {
    const FlowStatement& st = p.statements[static_cast<size_t>(index)];
    if (const int line = Iterates(p, st, is_call); line >= 0) return line;
  }
  // `g = gen(...)`: the first later statement that iterates `g`.
  for (size_t i = 0; i < statements.size(); ++i) {
    const FlowStatement& st = p.statements[static_cast<size_t>(statements[i])];
    if (st.kind != 'a' || !is_call(st.b) || st.a < 0 || p.exprs[static_cast<size_t>(st.a)].tag != 'N') continue;
    const int name = p.exprs[static_cast<size_t>(st.a)].name;
    auto is_name = [&](int expr) {
      return expr >= 0 && p.exprs[static_cast<size_t>(expr)].tag == 'N' &&
             p.exprs[static_cast<size_t>(expr)].name == name;
    };
    for (size_t j = i + 1; j < statements.size(); ++j) {
      const FlowStatement& later = p.statements[static_cast<size_t>(statements[j])];
      if (later.line <= st.line) continue;
      if (const int line = Iterates(p, later, is_name); line >= 0) return line;
    }
  }
  return -1;
}

}  // namespace errdex
