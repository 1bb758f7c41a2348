#include "python/condition_reads.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "python/python_builtins.h"
#include "python/python_fields.h"
#include "python/python_template_builder.h"
#include "util/utf8.h"

namespace errdex {

namespace {

const PythonFieldIds& F() { return PythonFields(); }

bool IsBuiltin(std::string_view name) {
  // A builtin (python/data/builtins.tsv), or a name that is never module state: self, cls, __file__.
  return IsBuiltinName(name) || name == "self" || name == "cls" || name == "__file__";
}

// The value of a plain string literal without escapes or replacement fields (`"name"`, `'name'`).
bool PlainString(TSNode node, std::string_view source, std::string_view* value) {
  if (!Is(node, "string")) return false;
  std::vector<TSNode> parts = NamedChildren(node);
  if (parts.size() != 3 || !Is(parts[0], "string_start") || !Is(parts[1], "string_content")) return false;
  const uint32_t s = ts_node_start_byte(parts[0]), e = ts_node_end_byte(parts[0]);
  if (e > source.size() || s > e) return false;
  for (char c : source.substr(s, e - s)) {
    if (c == 'f' || c == 'F' || c == 'b' || c == 'B') return false;
  }
  if (ts_node_named_child_count(parts[1]) > 0) return false;  // escape sequences
  const uint32_t cs = ts_node_start_byte(parts[1]), ce = ts_node_end_byte(parts[1]);
  if (ce > source.size() || cs >= ce) return false;
  *value = source.substr(cs, ce - cs);
  return true;
}

void ParameterNamesOf(TSNode parameters, std::string_view source, std::unordered_set<std::string_view>* out) {
  for (TSNode name : ParameterNameNodes(parameters)) {
    const uint32_t s = ts_node_start_byte(name), e = ts_node_end_byte(name);
    if (e <= source.size() && s <= e) out->insert(source.substr(s, e - s));
  }
}

}  // namespace

void TargetNames(TSNode target, std::string_view source, int depth, std::unordered_set<std::string_view>* out) {
  if (ts_node_is_null(target) || depth > 64) return;
  if (Is(target, "identifier")) {
    const uint32_t s = ts_node_start_byte(target), e = ts_node_end_byte(target);
    if (e <= source.size() && s <= e) out->insert(source.substr(s, e - s));
    return;
  }
  if (Is(target, "pattern_list") || Is(target, "tuple_pattern") || Is(target, "list_pattern") ||
      Is(target, "expression_list") || Is(target, "tuple") || Is(target, "list") ||
      Is(target, "parenthesized_expression") || Is(target, "list_splat_pattern") || Is(target, "list_splat") ||
      Is(target, "as_pattern_target")) {
    for (TSNode c : NamedChildren(target)) TargetNames(c, source, depth + 1, out);
  }
}

std::string_view ConditionReads::Text(TSNode node) const {
  const uint32_t s = ts_node_start_byte(node), e = ts_node_end_byte(node);
  return e <= source_.size() && s <= e ? source_.substr(s, e - s) : std::string_view();
}

bool ConditionReads::HasWalrus(TSNode node) {
  if (!walrus_listed_) {
    // Every `:=` of the file (in strings and comments too: those only cost a needless descent).
    for (size_t p = source_.find(":="); p != std::string_view::npos; p = source_.find(":=", p + 2)) {
      walruses_.push_back(static_cast<uint32_t>(p));
    }
    walrus_listed_ = true;
  }
  auto it = std::lower_bound(walruses_.begin(), walruses_.end(), ts_node_start_byte(node));
  return it != walruses_.end() && *it < ts_node_end_byte(node);
}

const ConditionReads::Locals& ConditionReads::LocalsOf(TSNode scope) {
  auto [it, inserted] = locals_.try_emplace(scope.id);
  if (!inserted) return it->second;
  Locals& locals = it->second;
  TSNode body{};
  if (Is(scope, "lambda")) {
    ParameterNamesOf(FieldOf(scope, F().parameters), source_, &locals.bound);
    return locals;  // a lambda binds nothing else (walrus aside)
  }
  if (Is(scope, "function_definition")) ParameterNamesOf(FieldOf(scope, F().parameters), source_, &locals.bound);
  body = FieldOf(scope, F().body);
  if (ts_node_is_null(body)) return locals;
  // The body's bindings, not entering nested definitions, lambdas or comprehension targets (those are
  // scopes of their own). A cursor walk (indexing children one by one costs the square of their count)
  // through statements and clauses; expressions are entered only when their text holds a walrus.
  TSTreeCursor cursor = ts_tree_cursor_new(body);
  while (true) {
    const TSNode n = ts_tree_cursor_current_node(&cursor);
    bool descend = ts_node_is_named(n) && ts_node_child_count(n) > 0;
    if (descend) {
      const char* type = ts_node_type(n);
      auto is = [type](const char* t) { return std::strcmp(type, t) == 0; };
      const std::string_view type_name(type);
      const bool container = type_name.ends_with("_statement") || type_name.ends_with("_clause") || is("block") ||
                             is("assignment") || is("augmented_assignment") || is("with_item") || is("as_pattern") ||
                             is("decorated_definition") || is("case_pattern") || is("function_definition") ||
                             is("class_definition");
      if (!container && !HasWalrus(n)) {
        descend = false;
      } else if (is("function_definition") || is("class_definition")) {
        TSNode name = FieldOf(n, F().name);
        if (!ts_node_is_null(name)) locals.bound.insert(Text(name));
        descend = false;
      } else if (is("lambda")) {
        descend = false;
      } else if (is("assignment") || is("augmented_assignment") || is("for_statement")) {
        TargetNames(FieldOf(n, F().left), source_, 0, &locals.bound);
      } else if (is("as_pattern") || is("except_clause")) {
        TargetNames(FieldOf(n, F().alias), source_, 0, &locals.bound);
      } else if (is("named_expression")) {
        TargetNames(FieldOf(n, F().name), source_, 0, &locals.bound);
      } else if (is("global_statement")) {
        for (TSNode c : NamedChildren(n)) locals.globals.insert(Text(c));
        descend = false;
      } else if (is("nonlocal_statement") || is("delete_statement")) {
        for (TSNode c : NamedChildren(n)) TargetNames(c, source_, 0, &locals.bound);
        descend = false;
      } else if (is("import_statement") || is("import_from_statement")) {
        TSNode module = FieldOf(n, F().module_name);
        for (TSNode c : NamedChildren(n)) {
          if (!ts_node_is_null(module) && ts_node_eq(c, module)) continue;
          TSNode name = c;
          if (Is(c, "aliased_import")) name = FieldOf(c, F().alias);
          if (ts_node_is_null(name)) continue;
          if (Is(name, "dotted_name")) {
            std::vector<TSNode> parts = NamedChildren(name);
            if (!parts.empty()) locals.bound.insert(Text(parts[0]));
          } else if (Is(name, "identifier")) {
            locals.bound.insert(Text(name));
          }
        }
        descend = false;
      } else if (is("case_pattern")) {
        // Capture patterns bind a bare name (`case x:`, `case [a, *rest]:`, `case Point(x=px)`); dotted
        // value patterns and class names do not.
        std::vector<TSNode> inner = {n};
        while (!inner.empty() && inner.size() < 4096) {
          TSNode p = inner.back();
          inner.pop_back();
          if (Is(p, "dotted_name")) {
            std::vector<TSNode> parts = NamedChildren(p);
            if (parts.size() == 1) locals.bound.insert(Text(parts[0]));
            continue;
          }
          if (Is(p, "identifier")) {
            locals.bound.insert(Text(p));
            continue;
          }
          std::vector<TSNode> children = NamedChildren(p);
          // The class of a class pattern (`Point` of `Point(x=px)`) is read, not bound.
          const size_t first = Is(p, "class_pattern") ? 1 : 0;
          for (size_t k = first; k < children.size(); ++k) inner.push_back(children[k]);
        }
        descend = false;
      }
    }
    if (descend && ts_tree_cursor_goto_first_child(&cursor)) continue;
    bool done = false;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        done = true;
        break;
      }
    }
    if (done) break;
  }
  ts_tree_cursor_delete(&cursor);
  return locals;
}

void ConditionReads::Add(Walk* walk, const char* kind, std::string_view target, std::string_view name) {
  if (walk->out->size() >= kMaxReadsPerCondition || name.empty()) return;
  std::string t = CutUtf8(target, kMaxReadTargetBytes);
  for (const StateRead& r : *walk->out) {
    if (r.kind == kind && r.target == t && r.name == name) return;
  }
  walk->out->push_back({kind, std::move(t), std::string(name)});
}

void ConditionReads::ReadName(std::string_view name, Walk* walk) {
  if (IsBuiltin(name) || walk->bound.count(name)) return;
  const std::vector<TSNode>& scopes = *walk->scopes;
  for (size_t i = scopes.size(); i-- > 0;) {
    const bool innermost = i + 1 == scopes.size();
    // Class bodies are not visible from the functions inside them.
    if (!innermost && Is(scopes[i], "class_definition")) continue;
    const Locals& locals = LocalsOf(scopes[i]);
    if (locals.bound.count(name) && !locals.globals.count(name)) return;
    if (locals.globals.count(name)) break;
  }
  Add(walk, "name", "", name);
}

void ConditionReads::Read(TSNode node, int depth, Walk* walk) {
  if (ts_node_is_null(node) || depth > kMaxDepth || ++walk->visits > kMaxVisits) return;
  if (walk->out->size() >= kMaxReadsPerCondition) return;
  if (Is(node, "identifier")) {
    ReadName(Text(node), walk);
    return;
  }
  if (Is(node, "attribute")) {
    TSNode object = FieldOf(node, F().object), attribute = FieldOf(node, F().attribute);
    if (ts_node_is_null(object) || ts_node_is_null(attribute)) return;
    Add(walk, "attribute", Text(object), Text(attribute));
    Read(object, depth + 1, walk);
    return;
  }
  if (Is(node, "call")) {
    TSNode function = FieldOf(node, F().function), arguments = FieldOf(node, F().arguments);
    if (ts_node_is_null(function)) return;
    TSNode skip{};
    if (Is(function, "identifier")) {
      std::string_view name = Text(function);
      if ((name == "getattr" || name == "hasattr") && !ts_node_is_null(arguments) && Is(arguments, "argument_list")) {
        std::vector<TSNode> args = NamedChildren(arguments);
        std::string_view attr;
        if (args.size() >= 2 && !Is(args[0], "keyword_argument") && !Is(args[0], "list_splat") &&
            PlainString(args[1], source_, &attr)) {
          Add(walk, name == "getattr" ? "getattr" : "hasattr", Text(args[0]), attr);
          skip = args[1];
        }
      }
    } else if (Is(function, "attribute")) {
      Read(FieldOf(function, F().object), depth + 1, walk);  // `obj.m(...)`: the method's name is not a read
    } else {
      Read(function, depth + 1, walk);
    }
    if (ts_node_is_null(arguments)) return;
    if (!Is(arguments, "argument_list")) {  // `any(x.ok for x in items)`
      Read(arguments, depth + 1, walk);
      return;
    }
    for (TSNode a : NamedChildren(arguments)) {
      if (!ts_node_is_null(skip) && ts_node_eq(a, skip)) continue;
      Read(a, depth + 1, walk);
    }
    return;
  }
  if (Is(node, "keyword_argument")) {
    Read(FieldOf(node, F().value), depth + 1, walk);
    return;
  }
  if (Is(node, "named_expression")) {  // the walrus target is a local
    TargetNames(FieldOf(node, F().name), source_, 0, &walk->bound);
    Read(FieldOf(node, F().value), depth + 1, walk);
    return;
  }
  if (Is(node, "lambda")) {
    ParameterNamesOf(FieldOf(node, F().parameters), source_, &walk->bound);
    Read(FieldOf(node, F().body), depth + 1, walk);
    return;
  }
  if (Is(node, "list_comprehension") || Is(node, "set_comprehension") || Is(node, "dictionary_comprehension") ||
      Is(node, "generator_expression")) {
    std::vector<TSNode> parts = NamedChildren(node);
    for (TSNode c : parts) {
      if (Is(c, "for_in_clause")) TargetNames(FieldOf(c, F().left), source_, 0, &walk->bound);
    }
    // The first iterable runs outside the comprehension, but its variables cannot be in it anyway.
    for (TSNode c : parts) {
      if (Is(c, "for_in_clause")) {
        Read(FieldOf(c, F().right), depth + 1, walk);
      } else {
        Read(c, depth + 1, walk);
      }
    }
    return;
  }
  for (TSNode c : NamedChildren(node)) Read(c, depth + 1, walk);
}

std::vector<StateRead> ConditionReads::Of(TSNode node, const std::vector<TSNode>& scopes) {
  std::vector<StateRead> out;
  Walk walk;
  walk.scopes = &scopes;
  walk.out = &out;
  std::vector<TSNode> read;
  if (Is(node, "if_statement") || Is(node, "elif_clause") || Is(node, "while_statement")) {
    read.push_back(FieldOf(node, F().condition));
  } else if (Is(node, "for_statement")) {
    TargetNames(FieldOf(node, F().left), source_, 0, &walk.bound);
    read.push_back(FieldOf(node, F().right));
  } else if (Is(node, "with_statement")) {
    for (TSNode c : NamedChildren(node)) {
      if (!Is(c, "with_clause")) continue;
      for (TSNode item : NamedChildren(c)) {
        if (!Is(item, "with_item")) continue;
        TSNode value = FieldOf(item, F().value);
        if (!ts_node_is_null(value) && Is(value, "as_pattern")) {
          TargetNames(FieldOf(value, F().alias), source_, 0, &walk.bound);
          std::vector<TSNode> inner = NamedChildren(value);
          value = inner.empty() ? TSNode{} : inner[0];
        }
        read.push_back(value);
      }
    }
  } else if (Is(node, "except_clause")) {
    TargetNames(FieldOf(node, F().alias), source_, 0, &walk.bound);
    read.push_back(FieldOf(node, F().value));
  } else if (Is(node, "match_statement")) {
    read.push_back(FieldOf(node, F().subject));
  } else if (Is(node, "case_clause")) {
    for (TSNode c : NamedChildren(node)) {
      if (Is(c, "case_pattern")) {
        // Captures are locals; LocalsOf lists them for functions, this covers module-level matches.
        std::vector<TSNode> inner = {c};
        while (!inner.empty() && inner.size() < 256) {
          TSNode p = inner.back();
          inner.pop_back();
          if (Is(p, "dotted_name")) {
            std::vector<TSNode> parts = NamedChildren(p);
            if (parts.size() == 1) walk.bound.insert(Text(parts[0]));
            continue;
          }
          if (Is(p, "identifier")) walk.bound.insert(Text(p));
          std::vector<TSNode> children = NamedChildren(p);
          const size_t first = Is(p, "class_pattern") ? 1 : 0;
          for (size_t k = first; k < children.size(); ++k) inner.push_back(children[k]);
        }
      }
    }
    TSNode guard = FieldOf(node, F().guard);
    if (!ts_node_is_null(guard)) read.push_back(guard);
  }
  for (TSNode n : read) Read(n, 0, &walk);
  return out;
}

}  // namespace errdex
