#include "python/program_facts.h"

#include <algorithm>
#include <vector>

#include "python/definition_parts.h"
#include "python/python_fields.h"
#include "util/utf8.h"

namespace errdex {

namespace {

constexpr size_t kMaxCalleeBytes = 256;
constexpr size_t kMaxCallCodeBytes = 256;
constexpr size_t kMaxDocstringBytes = 4096;
constexpr size_t kMaxDecoratorBytes = 256;
constexpr size_t kMaxWriteTargetBytes = 256;

// Every parameter name in order: `self`, `*args`, keyword-only ones and `**kwargs` included.
std::vector<std::string> OrderedParameterNames(const PythonFileModel& model, TSNode parameters) {
  std::vector<std::string> names;
  for (TSNode name : ParameterNameNodes(parameters)) names.emplace_back(model.Text(name));
  return names;
}

// Appends the callee NODE as a dotted name (`f`, `a.b.c`, `super().run`) to OUT; false when it is not
// one or grows past kMaxCalleeBytes.
bool AppendDottedName(const PythonFileModel& model, TSNode node, int depth, std::string* out) {
  if (depth > 64 || out->size() > kMaxCalleeBytes) return false;
  if (Is(node, "identifier")) {
    out->append(model.Text(node));
    return out->size() <= kMaxCalleeBytes;
  }
  if (!Is(node, "attribute")) return false;
  TSNode object = FieldOf(node, PythonFields().object);
  TSNode attribute = FieldOf(node, PythonFields().attribute);
  if (ts_node_is_null(object) || ts_node_is_null(attribute)) return false;
  if (Is(object, "call")) {
    TSNode function = FieldOf(object, PythonFields().function);
    if (ts_node_is_null(function) || !Is(function, "identifier") || model.Text(function) != "super") return false;
    std::string_view text = model.Text(object);
    if (text.size() > kMaxCalleeBytes) return false;
    for (char c : text) {
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\\') out->push_back(c);
    }
  } else if (!AppendDottedName(model, object, depth + 1, out)) {
    return false;
  }
  out->push_back('.');
  out->append(model.Text(attribute));
  return out->size() <= kMaxCalleeBytes;
}

}  // namespace

int ProgramFactsReader::NonLambdaScope(int scope) const {
  while (scope > 0 && model_.scopes[static_cast<size_t>(scope)].kind == Scope::kLambda) {
    scope = model_.scopes[static_cast<size_t>(scope)].parent;
  }
  return std::max(scope, 0);
}

std::string ProgramFactsReader::StatementCode(TSNode statement) const {
  std::string code = CutUtf8(model_.Text(statement), kMaxStateCodeBytes + 64);
  code.erase(std::remove(code.begin(), code.end(), '\r'), code.end());
  return CutUtf8(code, kMaxStateCodeBytes);
}

void ProgramFactsReader::EmitFunctions(FileFacts* facts) {
  for (size_t i = 1; i < model_.scopes.size(); ++i) {
    const Scope& scope = model_.scopes[i];
    if (scope.kind != Scope::kFunction) continue;
    FunctionDef def;
    def.qualname = scope.qualname;
    def.is_method = scope.parent > 0 && model_.scopes[static_cast<size_t>(scope.parent)].kind == Scope::kClass;
    TSNode first = scope.node;
    if (auto it = captures_.decorated.find(scope.node.id); it != captures_.decorated.end()) {
      first = it->second;
      for (TSNode d : NamedChildren(it->second)) {
        if (!Is(d, "decorator")) continue;
        std::vector<TSNode> expr = NamedChildren(d);
        if (!expr.empty()) def.decorators.push_back(CutUtf8(model_.Text(expr[0]), kMaxDecoratorBytes));
      }
    }
    def.line = static_cast<int>(ts_node_start_point(first).row) + 1;
    // The end of the last token that is not a comment: a block's trailing comments are not part of it.
    TSNode last = scope.node;
    for (int depth = 0; depth < 2 * max_nesting_; ++depth) {
      TSNode next{};
      for (uint32_t c = ts_node_child_count(last); c-- > 0;) {
        TSNode child = ts_node_child(last, c);
        if (!Is(child, "comment") && ts_node_end_byte(child) > ts_node_start_byte(child)) {
          next = child;
          break;
        }
      }
      if (ts_node_is_null(next)) break;
      last = next;
    }
    const TSPoint end = ts_node_end_point(last);
    def.end_line =
        static_cast<int>(end.row) + (end.column == 0 && end.row > ts_node_start_point(scope.node).row ? 0 : 1);
    TSNode params = FieldOf(scope.node, PythonFields().parameters);
    if (!ts_node_is_null(params)) def.params = OrderedParameterNames(model_, params);
    TSNode body = FieldOf(scope.node, PythonFields().body);
    if (!ts_node_is_null(body)) {
      TSNode doc{};
      BodyStatements(body, &doc);
      std::string value;
      if (!ts_node_is_null(doc) && builder_.LiteralValue(doc, &value)) {
        def.docstring = CutUtf8(CleanDoc(value), kMaxDocstringBytes);
      }
    }
    facts->functions.push_back(std::move(def));
  }
}

void ProgramFactsReader::EmitCalls(FileFacts* facts) {
  std::string callee;
  for (const auto& [call, function] : captures_.model_calls) {
    if (facts->calls.size() >= kMaxCallsPerFile) break;
    callee.clear();
    if (!AppendDottedName(model_, function, 0, &callee)) continue;
    const int scope = errors_.SoundScope(model_, root_, call, &model_checks_);
    if (scope < 0) continue;
    CallFact fact;
    fact.function = model_.scopes[static_cast<size_t>(NonLambdaScope(scope))].qualname;
    const TSPoint point = ts_node_start_point(function);
    fact.line = static_cast<int>(point.row) + 1;
    fact.col = static_cast<int>(point.column);
    fact.code = lines_.Line(point.row, kMaxCallCodeBytes);
    fact.callee = callee;
    facts->calls.push_back(std::move(fact));
    if (scope == 0) all_.NoteCall(model_, builder_, call, callee);
    // `setattr(x, "a", v)` and `delattr(x, "a")` with a literal name write state.
    if ((callee == "setattr" || callee == "delattr") && facts->state_writes.size() < kMaxStateWritesPerFile) {
      CallArguments args = SplitArguments(model_, FieldOf(call, PythonFields().arguments));
      std::string name;
      if (args.leading_positional < 2 || !builder_.LiteralValue(args.positional[1], &name) || name.empty()) continue;
      TSNode statement = call;
      TSNode parent = ts_node_parent(call);
      if (!ts_node_is_null(parent) && Is(parent, "expression_statement")) statement = parent;
      StateWrite write;
      write.function = facts->calls.back().function;
      write.target = CutUtf8(model_.Text(args.positional[0]), kMaxWriteTargetBytes);
      write.name = std::move(name);
      write.kind = callee == "setattr" ? "setattr" : "delete";
      write.line = static_cast<int>(ts_node_start_point(statement).row) + 1;
      write.code = StatementCode(statement);
      facts->state_writes.push_back(std::move(write));
    }
  }
}

bool ProgramFactsReader::IsClassBody(int scope) const {
  if (scope <= 0 || model_.scopes[static_cast<size_t>(scope)].kind != Scope::kClass) return false;
  for (int s = model_.scopes[static_cast<size_t>(scope)].parent; s > 0;
       s = model_.scopes[static_cast<size_t>(s)].parent) {
    if (model_.scopes[static_cast<size_t>(s)].kind != Scope::kClass) return false;  // nested in a function
  }
  return true;
}

void ProgramFactsReader::AddWriteTargets(TSNode target, int scope, const char* kind, int line, const std::string& code,
                                         int depth, FileFacts* facts) {
  if (ts_node_is_null(target) || depth > 64 || facts->state_writes.size() >= kMaxStateWritesPerFile) return;
  if (Is(target, "attribute")) {
    TSNode object = FieldOf(target, PythonFields().object);
    TSNode attribute = FieldOf(target, PythonFields().attribute);
    if (ts_node_is_null(object) || ts_node_is_null(attribute)) return;
    facts->state_writes.push_back({model_.scopes[static_cast<size_t>(scope)].qualname,
                                   CutUtf8(model_.Text(object), kMaxWriteTargetBytes),
                                   std::string(model_.Text(attribute)), kind, line, code});
  } else if (Is(target, "identifier")) {
    std::string_view name = model_.Text(target);
    if (IsClassBody(scope)) {
      // A class attribute (`supports_alter = True` under `class Dialect:`); augmented assignments and
      // deletions in a class body are not recorded.
      if (std::string_view(kind) == "assign" || std::string_view(kind) == "annassign") {
        const std::string& cls = model_.scopes[static_cast<size_t>(scope)].qualname;
        facts->state_writes.push_back({cls, cls, std::string(name), "class_attr", line, code});
      }
      return;
    }
    bool module_state = scope == 0;
    if (!module_state) {
      auto it = globals_.find(scope);
      module_state = it != globals_.end() && it->second.count(name) > 0;
    }
    if (module_state) {
      facts->state_writes.push_back(
          {model_.scopes[static_cast<size_t>(scope)].qualname, "", std::string(name), kind, line, code});
    }
  } else if (Is(target, "pattern_list") || Is(target, "tuple_pattern") || Is(target, "list_pattern") ||
             Is(target, "expression_list") || Is(target, "tuple") || Is(target, "list") ||
             Is(target, "parenthesized_expression") || Is(target, "list_splat_pattern") || Is(target, "list_splat")) {
    for (TSNode t : NamedChildren(target)) AddWriteTargets(t, scope, kind, line, code, depth + 1, facts);
  }
}

void ProgramFactsReader::EmitStateWrites(FileFacts* facts) {
  for (TSNode g : captures_.globals) {
    const int scope = model_.ScopeAt(ts_node_start_byte(g), ts_node_end_byte(g));
    for (TSNode name : NamedChildren(g)) {
      if (Is(name, "identifier")) globals_[scope].insert(model_.Text(name));
    }
  }
  for (TSNode statement : captures_.state) {
    if (facts->state_writes.size() >= kMaxStateWritesPerFile) break;
    const int sound = errors_.SoundScope(model_, root_, statement, &model_checks_);
    if (sound < 0) continue;
    const int scope = NonLambdaScope(sound);
    const int line = static_cast<int>(ts_node_start_point(statement).row) + 1;
    std::vector<TSNode> targets;
    const char* kind = "assign";
    if (Is(statement, "delete_statement")) {
      kind = "delete";
      targets = NamedChildren(statement);
    } else if (Is(statement, "augmented_assignment")) {
      kind = "augassign";
      targets.push_back(FieldOf(statement, PythonFields().left));
    } else {
      if (!ts_node_is_null(FieldOf(statement, PythonFields().type))) {
        kind = "annassign";
        if (ts_node_is_null(FieldOf(statement, PythonFields().right))) continue;  // `x.a: T` writes nothing
      }
      // `x.a = y.b = v`: every target of the chain.
      for (TSNode a = statement; !ts_node_is_null(a) && Is(a, "assignment") && targets.size() < 64;
           a = FieldOf(a, PythonFields().right)) {
        targets.push_back(FieldOf(a, PythonFields().left));
      }
    }
    if (scope == 0 && targets.size() == 1 && !ts_node_is_null(targets[0]) && !Is(statement, "delete_statement")) {
      all_.Note(model_, builder_, statement, targets[0], facts);
    }
    const std::string code = StatementCode(statement);
    for (TSNode target : targets) AddWriteTargets(target, scope, kind, line, code, 0, facts);
  }
  // setattr/delattr calls were added while reading calls: all writes in source order.
  std::stable_sort(facts->state_writes.begin(), facts->state_writes.end(),
                   [](const StateWrite& a, const StateWrite& b) { return a.line < b.line; });
}

void ProgramFactsReader::Read(FileFacts* facts) {
  EmitFunctions(facts);
  EmitCalls(facts);
  EmitStateWrites(facts);
  all_.Finish(facts);
}

}  // namespace errdex
