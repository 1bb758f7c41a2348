#include "python/query_captures.h"

#include <string>

namespace errdex {

namespace {

using python_query::QueryTables;
using python_query::Role;
using python_query::TextPredicate;

void CollectMatches(TSQueryCursor* cursor, const QueryTables& tables, PythonFileModel* model, QueryCaptures* out) {
  TSQueryMatch match;
  while (ts_query_cursor_next_match(cursor, &match)) {
    // Text predicates of the pattern.
    bool accepted = true;
    for (const TextPredicate& p : tables.predicates[match.pattern_index]) {
      for (uint16_t i = 0; i < match.capture_count; ++i) {
        if (match.captures[i].index != p.capture) continue;
        bool equal = model->Text(match.captures[i].node) == p.text;
        if (equal == p.negate) accepted = false;
      }
    }
    if (!accepted) continue;

    constexpr size_t kRoles = 64;
    static_assert(static_cast<size_t>(Role::kModelDecorated) < kRoles);
    TSNode by_role[kRoles] = {};
    bool present[kRoles] = {};
    for (uint16_t i = 0; i < match.capture_count; ++i) {
      Role role = tables.roles[match.captures[i].index];
      auto r = static_cast<size_t>(role);
      if (r < kRoles) {
        by_role[r] = match.captures[i].node;
        present[r] = true;
      }
    }
    auto get = [&](Role r) { return by_role[static_cast<size_t>(r)]; };
    auto has = [&](Role r) { return present[static_cast<size_t>(r)]; };

    if (has(Role::kSiteRaise)) {
      out->raw_sites.push_back({Role::kSiteRaise, get(Role::kSiteRaise)});
    } else if (has(Role::kSiteAssert)) {
      out->raw_sites.push_back({Role::kSiteAssert, get(Role::kSiteAssert)});
    } else if (has(Role::kSiteCall)) {
      RawSite s{Role::kSiteCall, get(Role::kSiteCall)};
      s.call_module = get(Role::kCallModule);
      s.call_attr = get(Role::kCallAttr);
      s.call_name = get(Role::kCallName);
      out->raw_sites.push_back(s);
    } else if (has(Role::kScopeFunction) || has(Role::kScopeClass) || has(Role::kScopeLambda)) {
      Scope scope;
      TSNode node;
      if (has(Role::kScopeFunction)) {
        scope.kind = Scope::kFunction;
        node = get(Role::kScopeFunction);
      } else if (has(Role::kScopeClass)) {
        scope.kind = Scope::kClass;
        node = get(Role::kScopeClass);
      } else {
        scope.kind = Scope::kLambda;
        node = get(Role::kScopeLambda);
      }
      scope.node = node;
      // Default values, annotations, bases and decorators are evaluated in the enclosing scope, so a
      // scope's range is its body only.
      TSNode body = ts_node_child_by_field_name(node, "body", 4);
      TSNode range = ts_node_is_null(body) ? node : body;
      scope.start = ts_node_start_byte(range);
      scope.end = ts_node_end_byte(range);
      scope.name = has(Role::kScopeName) ? std::string(model->Text(get(Role::kScopeName))) : "<lambda>";
      model->scopes.push_back(std::move(scope));
    } else if (has(Role::kAssign) || has(Role::kAugAssign)) {
      TSNode stmt = has(Role::kAssign) ? get(Role::kAssign) : get(Role::kAugAssign);
      out->bindings.push_back({stmt, get(Role::kAssignName), get(Role::kAssignValue), has(Role::kAugAssign)});
    } else if (has(Role::kSyntaxError)) {
      TSNode e = get(Role::kSyntaxError);
      out->errors.emplace_back(ts_node_start_byte(e), ts_node_end_byte(e));
    } else if (has(Role::kMessageCall)) {
      out->calls.push_back({get(Role::kMessageCall), get(Role::kMessageCallName), get(Role::kMessageCallReceiver)});
    } else if (has(Role::kExpectWith)) {
      out->withs.push_back(get(Role::kExpectWith));
    } else if (has(Role::kModelCall)) {
      out->model_calls.push_back({get(Role::kModelCall), get(Role::kModelCallee)});
    } else if (has(Role::kModelWrite)) {
      out->state.push_back(get(Role::kModelWrite));
    } else if (has(Role::kModelDelete)) {
      out->state.push_back(get(Role::kModelDelete));
    } else if (has(Role::kModelGlobal)) {
      out->globals.push_back(get(Role::kModelGlobal));
    } else if (has(Role::kModelDecorated)) {
      TSNode definition = ts_node_child_by_field_name(get(Role::kModelDecorated), "definition", 10);
      if (!ts_node_is_null(definition)) out->decorated[definition.id] = get(Role::kModelDecorated);
    } else if (has(Role::kImport)) {
      out->imports.push_back({get(Role::kImportFrom), get(Role::kImportModule), get(Role::kImportName),
                              get(Role::kImportAlias), get(Role::kImportWildcard)});
    }
  }
}

}  // namespace

void CollectCaptures(TSNode root, const PythonQuery& compiled, PythonFileModel* model, QueryCaptures* out) {
  const TSQuery* query = compiled.query;
  const QueryTables& tables = compiled.tables;
  struct ThreadCursor {
    TSQueryCursor* cursor = ts_query_cursor_new();
    ~ThreadCursor() { ts_query_cursor_delete(cursor); }
  };
  thread_local ThreadCursor thread_cursor;
  TSQueryCursor* cursor = thread_cursor.cursor;
  if (!tables.roots_known) {
    ts_query_cursor_set_max_start_depth(cursor, UINT32_MAX);
    ts_query_cursor_exec(cursor, query, root);
    CollectMatches(cursor, tables, model, out);
    return;
  }
  ts_query_cursor_set_max_start_depth(cursor, 0);
  TSTreeCursor walk = ts_tree_cursor_new(root);
  while (true) {
    TSNode node = ts_tree_cursor_current_node(&walk);
    const TSSymbol symbol = ts_node_symbol(node);
    if (ts_node_is_error(node) || (symbol < tables.root_symbols.size() && tables.root_symbols[symbol])) {
      ts_query_cursor_exec(cursor, query, node);
      CollectMatches(cursor, tables, model, out);
    }
    if (ts_tree_cursor_goto_first_child(&walk)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&walk)) {
      if (!ts_tree_cursor_goto_parent(&walk)) {
        ts_tree_cursor_delete(&walk);
        return;
      }
    }
  }
}

}  // namespace errdex
