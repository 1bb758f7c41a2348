#include "python/path_conditions.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "python/python_fields.h"
#include "python/python_template_builder.h"
#include "util/utf8.h"

namespace errdex {

namespace {

bool IsScope(TSNode node) {
  return Is(node, "function_definition") || Is(node, "class_definition") || Is(node, "lambda");
}

bool Contains(TSNode outer, TSNode inner) {
  return ts_node_start_byte(outer) <= ts_node_start_byte(inner) && ts_node_end_byte(inner) <= ts_node_end_byte(outer);
}

bool Same(TSNode a, TSNode b) { return !ts_node_is_null(a) && !ts_node_is_null(b) && ts_node_eq(a, b); }

TSNode Field(TSNode node, const char* name) {
  return ts_node_child_by_field_name(node, name, static_cast<uint32_t>(std::strlen(name)));
}

// Whether BLOCK leaves its enclosing block whenever it runs: a return, raise, continue or break among
// its own statements (not nested in another compound statement).
bool Exits(TSNode block) {
  if (ts_node_is_null(block)) return false;
  TSTreeCursor cursor = ts_tree_cursor_new(block);
  bool exits = false;
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      TSNode st = ts_tree_cursor_current_node(&cursor);
      if (Is(st, "return_statement") || Is(st, "raise_statement") || Is(st, "continue_statement") ||
          Is(st, "break_statement")) {
        exits = true;
        break;
      }
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return exits;
}

}  // namespace

Condition PathConditions::Header(const char* kind, TSNode node, bool negated) {
  // The header runs from the statement's first token to its own colon (a direct child: colons of
  // lambdas, slices or dicts in the header are inside its expressions).
  const uint32_t start = ts_node_start_byte(node);
  uint32_t end = ts_node_end_byte(node);
  TSTreeCursor cursor = ts_tree_cursor_new(node);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      TSNode child = ts_tree_cursor_current_node(&cursor);
      if (!ts_node_is_named(child) && Is(child, ":")) {
        end = ts_node_end_byte(child);
        break;
      }
      if (Is(child, "block")) {  // no colon (error recovery): stop before the body
        end = ts_node_start_byte(child);
        break;
      }
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  Condition c;
  c.kind = kind;
  c.line = static_cast<int>(ts_node_start_point(node).row) + 1;
  c.negated = negated;
  if (end > source_.size() || start > end) return c;
  std::string_view text = source_.substr(start, end - start);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' || text.back() == '\n')) {
    text.remove_suffix(1);
  }
  std::string code = CutUtf8(text, kMaxConditionCodeBytes + 64);
  code.erase(std::remove(code.begin(), code.end(), '\r'), code.end());  // CRLF files: keep line ends as \n
  c.code = CutUtf8(code, kMaxConditionCodeBytes);
  c.reads = reads_.Of(node, scopes_);
  return c;
}

const std::vector<PathConditions::EarlyExit>& PathConditions::EarlyExitsOf(TSNode container) {
  auto [it, inserted] = early_exits_.try_emplace(container.id);
  if (!inserted) return it->second;
  std::vector<EarlyExit>& exits = it->second;
  TSTreeCursor cursor = ts_tree_cursor_new(container);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      TSNode st = ts_tree_cursor_current_node(&cursor);
      if (!Is(st, "if_statement")) continue;
      const uint32_t start = ts_node_start_byte(st);
      // Branches in order: while each one leaves, the statements after the `if` need its condition false.
      // An `else` that leaves after an `if` that does not (and no `elif`) means they need it true.
      std::vector<TSNode> elifs;
      TSNode else_clause{};
      for (TSNode alt : NamedChildren(st)) {
        if (Is(alt, "elif_clause")) elifs.push_back(alt);
        if (Is(alt, "else_clause")) else_clause = alt;
      }
      if (Exits(Field(st, "consequence"))) {
        exits.push_back({start, Header("early_exit", st, true)});
        for (TSNode elif : elifs) {
          if (!Exits(Field(elif, "consequence"))) break;
          exits.push_back({start, Header("early_exit", elif, true)});
        }
      } else if (elifs.empty() && !ts_node_is_null(else_clause) && Exits(Field(else_clause, "body"))) {
        exits.push_back({start, Header("early_exit", st, false)});
      }
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return exits;
}

void PathConditions::Step(TSNode parent, TSNode child, std::vector<Condition>* out) {
  if (Is(parent, "if_statement")) {
    if (Same(child, Field(parent, "consequence"))) {
      out->push_back(Header("if", parent, false));
    } else if (Is(child, "elif_clause") || Is(child, "else_clause")) {
      // Every earlier branch was not taken.
      out->push_back(Header("if", parent, true));
      for (TSNode alt : NamedChildren(parent)) {
        if (Same(alt, child)) break;
        if (Is(alt, "elif_clause")) out->push_back(Header("elif", alt, true));
      }
    }
  } else if (Is(parent, "elif_clause")) {
    if (Same(child, Field(parent, "consequence"))) out->push_back(Header("elif", parent, false));
  } else if (Is(parent, "for_statement")) {
    if (Same(child, Field(parent, "body"))) out->push_back(Header("for", parent, false));
    if (Same(child, Field(parent, "alternative"))) out->push_back(Header("loop_else", parent, false));
  } else if (Is(parent, "while_statement")) {
    if (Same(child, Field(parent, "body"))) out->push_back(Header("while", parent, false));
    if (Same(child, Field(parent, "alternative"))) out->push_back(Header("while", parent, true));
  } else if (Is(parent, "try_statement")) {
    if (Is(child, "else_clause")) out->push_back(Header("try_else", child, false));
  } else if (Is(parent, "except_clause")) {
    if (Is(child, "block")) out->push_back(Header("except", parent, false));
  } else if (Is(parent, "finally_clause")) {
    if (Is(child, "block")) out->push_back(Header("finally", parent, false));
  } else if (Is(parent, "with_statement")) {
    if (Same(child, Field(parent, "body"))) out->push_back(Header("with", parent, false));
  } else if (Is(parent, "match_statement")) {
    if (Same(child, Field(parent, "body"))) out->push_back(Header("match", parent, false));
  } else if (Is(parent, "case_clause")) {
    if (Same(child, Field(parent, "consequence"))) out->push_back(Header("case", parent, false));
  }
}

std::vector<Condition> PathConditions::ConditionsOf(const std::vector<TSNode>& path) {
  std::vector<Condition> out;
  if (path.size() < 2) return out;
  const size_t target = path.size() - 1;
  size_t scope = 0;  // the module, unless a definition or lambda encloses the target
  for (size_t i = target; i-- > 0;) {
    if (IsScope(path[i])) {
      scope = i;
      break;
    }
  }
  scopes_.clear();
  for (size_t i = 0; i < target; ++i) {
    if (IsScope(path[i])) scopes_.push_back(path[i]);
  }
  for (size_t i = scope; i < target; ++i) {
    const TSNode parent = path[i], child = path[i + 1];
    if (Is(parent, "module") || Is(parent, "block")) {
      if (i > 0 && Is(path[i - 1], "match_statement") && Is(child, "case_clause")) {
        // The cases before this one did not match.
        std::vector<Condition> earlier;
        for (TSNode c : NamedChildren(parent)) {
          if (Same(c, child)) break;
          if (Is(c, "case_clause")) earlier.push_back(Header("case", c, true));
        }
        const size_t keep = std::min(earlier.size(), kMaxConditionsPerSite);
        out.insert(out.end(), earlier.end() - static_cast<std::ptrdiff_t>(keep), earlier.end());
        continue;
      }
      const std::vector<EarlyExit>& exits = EarlyExitsOf(parent);
      const uint32_t at = ts_node_start_byte(child);
      auto end = std::lower_bound(exits.begin(), exits.end(), at,
                                  [](const EarlyExit& e, uint32_t pos) { return e.start < pos; });
      const auto keep =
          std::min<std::ptrdiff_t>(end - exits.begin(), static_cast<std::ptrdiff_t>(kMaxConditionsPerSite));
      auto begin = end - keep;
      for (auto e = begin; e != end; ++e) out.push_back(e->condition);
      continue;
    }
    Step(parent, child, &out);
  }
  if (out.size() > kMaxConditionsPerSite) {
    // The nearest conditions say the most about the site: keep those.
    out.erase(out.begin(), out.end() - static_cast<std::ptrdiff_t>(kMaxConditionsPerSite));
  }
  return out;
}

void PathConditions::Compute(const std::vector<TSNode>& targets, std::vector<std::vector<Condition>>* out) {
  out->assign(targets.size(), {});
  if (targets.empty()) return;
  // Targets in document order, an enclosing one before those inside it.
  std::vector<size_t> order(targets.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const uint32_t sa = ts_node_start_byte(targets[a]), sb = ts_node_start_byte(targets[b]);
    if (sa != sb) return sa < sb;
    return ts_node_end_byte(targets[a]) > ts_node_end_byte(targets[b]);
  });
  TSTreeCursor cursor = ts_tree_cursor_new(root_);
  std::vector<TSNode> path = {root_};
  size_t next = 0;
  while (next < order.size()) {
    const TSNode node = path.back();
    const TSNode target = targets[order[next]];
    if (ts_node_eq(node, target)) {
      (*out)[order[next]] = ConditionsOf(path);
      ++next;
      continue;  // the next target may be the same node, or inside it
    }
    if (ts_node_start_byte(target) < ts_node_start_byte(node) && !Contains(node, target)) {
      ++next;  // passed without meeting it: not a node of this tree
      continue;
    }
    if (Contains(node, target) && ts_tree_cursor_goto_first_child_for_byte(&cursor, ts_node_start_byte(target)) >= 0) {
      path.push_back(ts_tree_cursor_current_node(&cursor));
      continue;
    }
    // Nothing left to find below NODE: on to its next sibling, or up.
    bool moved = false;
    while (!moved) {
      if (ts_tree_cursor_goto_next_sibling(&cursor)) {
        path.back() = ts_tree_cursor_current_node(&cursor);
        moved = true;
      } else if (ts_tree_cursor_goto_parent(&cursor)) {
        path.pop_back();
      } else {
        break;
      }
    }
    if (!moved) break;
  }
  ts_tree_cursor_delete(&cursor);
}

}  // namespace errdex
