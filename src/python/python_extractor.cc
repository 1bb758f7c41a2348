#include "python/python_extractor.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "python/class_text_conditions.h"
#include "python/condition_truth.h"
#include "python/embedded_data.h"
#include "python/handler_texts.h"
#include "python/path_conditions.h"
#include "python/python_fields.h"
#include "python/python_file_model.h"
#include "python/python_flow_facts.h"
#include "python/python_template_builder.h"
#include "python/raised_value.h"
#include "python/raises_apis.h"
#include "util/utf8.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace errdex {

namespace python_query {

// The roles of the capture names used in src/python/queries/*.scm.
enum class Role {
  kNone,
  kSiteRaise,
  kSiteAssert,
  kSiteCall,
  kCallModule,
  kCallAttr,
  kCallName,
  kScopeFunction,
  kScopeClass,
  kScopeLambda,
  kScopeName,
  kAssign,
  kAugAssign,
  kAssignName,
  kAssignValue,
  kImport,
  kImportModule,
  kImportAlias,
  kImportFrom,
  kImportName,
  kImportWildcard,
  kSyntaxError,
  kMessageCall,
  kMessageCallName,
  kMessageCallReceiver,
  kExpectWith,
  kModelCall,
  kModelCallee,
  kModelWrite,
  kModelDelete,
  kModelGlobal,
  kModelDecorated,
};

Role RoleOf(std::string_view name) {
  static const std::map<std::string_view, Role> kRoles = {
      {"site.raise", Role::kSiteRaise},
      {"site.assert", Role::kSiteAssert},
      {"site.call", Role::kSiteCall},
      {"call.module", Role::kCallModule},
      {"call.attr", Role::kCallAttr},
      {"call.name", Role::kCallName},
      {"scope.function", Role::kScopeFunction},
      {"scope.class", Role::kScopeClass},
      {"scope.lambda", Role::kScopeLambda},
      {"scope.name", Role::kScopeName},
      {"assign", Role::kAssign},
      {"augassign", Role::kAugAssign},
      {"assign.name", Role::kAssignName},
      {"assign.value", Role::kAssignValue},
      {"import", Role::kImport},
      {"import.module", Role::kImportModule},
      {"import.alias", Role::kImportAlias},
      {"import.from", Role::kImportFrom},
      {"import.name", Role::kImportName},
      {"import.wildcard", Role::kImportWildcard},
      {"syntax.error", Role::kSyntaxError},
      {"message_call", Role::kMessageCall},
      {"message_call.name", Role::kMessageCallName},
      {"message_call.receiver", Role::kMessageCallReceiver},
      {"expect.with", Role::kExpectWith},
      {"model.call", Role::kModelCall},
      {"model.callee", Role::kModelCallee},
      {"model.write", Role::kModelWrite},
      {"model.delete", Role::kModelDelete},
      {"model.global", Role::kModelGlobal},
      {"model.decorated", Role::kModelDecorated},
  };
  auto it = kRoles.find(name);
  return it == kRoles.end() ? Role::kNone : it->second;
}

// `(#eq? @capture "text")` and `(#not-eq? ...)`: the C runtime leaves predicates to its caller.
struct TextPredicate {
  uint32_t capture = 0;
  std::string text;
  bool negate = false;
};

struct QueryTables {
  std::vector<Role> roles;                             // by capture id
  std::vector<std::vector<TextPredicate>> predicates;  // by pattern index
  // Node types at which some pattern starts, by symbol. Running the query only at such nodes (with a
  // start depth of 0) finds the same matches as running it over the whole tree, for less than half
  // the cost: the cursor's per-node work is the expensive part, and most nodes start no pattern.
  std::vector<bool> root_symbols;
  bool roots_known = false;  // false: some pattern's root could not be read; run over the whole tree
};

}  // namespace python_query

using python_query::QueryTables;
using python_query::Role;
using python_query::RoleOf;
using python_query::TextPredicate;

struct PythonExtractor::Compiled {
  TSQuery* query = nullptr;
  QueryTables tables;
  ~Compiled() { ts_query_delete(query); }
};

namespace {

struct DeadlinePayload {
  std::chrono::steady_clock::time_point deadline;
  bool expired = false;
};

bool ParseProgress(TSParseState* state) {
  auto* payload = static_cast<DeadlinePayload*>(state->payload);
  if (std::chrono::steady_clock::now() > payload->deadline) payload->expired = true;
  return payload->expired;  // true cancels the parse
}

// Bracket depth of the raw text, as a cheap first test for absurd nesting.
int BracketDepth(std::string_view text) {
  int depth = 0, max_depth = 0;
  for (char c : text) {
    if (c == '(' || c == '[' || c == '{') {
      max_depth = std::max(max_depth, ++depth);
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return max_depth;
}

int TreeDepth(TSNode root, int limit) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  int depth = 0, max_depth = 0;
  while (true) {
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      max_depth = std::max(max_depth, ++depth);
      if (max_depth > limit) break;
      continue;
    }
    bool moved = false;
    while (!moved) {
      if (ts_tree_cursor_goto_next_sibling(&cursor)) {
        moved = true;
      } else if (ts_tree_cursor_goto_parent(&cursor)) {
        --depth;
      } else {
        ts_tree_cursor_delete(&cursor);
        return max_depth;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
  return max_depth;
}

// inspect.cleandoc: strip the first line's leading blanks, the common indentation of the others, and
// leading and trailing blank lines.
std::string CleanDoc(const std::string& doc) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= doc.size()) {
    size_t nl = doc.find('\n', start);
    if (nl == std::string::npos) nl = doc.size();
    std::string line = doc.substr(start, nl - start);
    for (size_t p; (p = line.find('\t')) != std::string::npos;) line.replace(p, 1, 8 - p % 8, ' ');
    lines.push_back(std::move(line));
    start = nl + 1;
  }
  size_t indent = std::string::npos;
  for (size_t i = 1; i < lines.size(); ++i) {
    size_t first = lines[i].find_first_not_of(' ');
    if (first != std::string::npos) indent = std::min(indent, first);
  }
  if (!lines.empty()) {
    size_t first = lines[0].find_first_not_of(' ');
    lines[0] = first == std::string::npos ? "" : lines[0].substr(first);
  }
  for (size_t i = 1; i < lines.size(); ++i) {
    lines[i] = indent != std::string::npos && lines[i].size() >= indent ? lines[i].substr(indent) : "";
    while (!lines[i].empty() && lines[i].back() == ' ') lines[i].pop_back();
  }
  auto blank = [](const std::string& l) { return l.find_first_not_of(" \t\r") == std::string::npos; };
  while (!lines.empty() && blank(lines.back())) lines.pop_back();
  size_t begin = 0;
  while (begin < lines.size() && blank(lines[begin])) ++begin;
  std::string out;
  for (size_t i = begin; i < lines.size(); ++i) {
    if (i > begin) out.push_back('\n');
    out += lines[i];
  }
  return out;
}

std::vector<std::string> ParameterNames(const PythonFileModel& model, TSNode parameters) {
  std::vector<std::string> names;
  for (TSNode p : NamedChildren(parameters)) {
    if (Is(p, "identifier")) {
      names.emplace_back(model.Text(p));
    } else if (Is(p, "default_parameter") || Is(p, "typed_default_parameter")) {
      TSNode name = ts_node_child_by_field_name(p, "name", 4);
      if (!ts_node_is_null(name)) names.emplace_back(model.Text(name));
    } else if (Is(p, "typed_parameter")) {
      std::vector<TSNode> inner = NamedChildren(p);
      if (!inner.empty() && Is(inner[0], "identifier")) names.emplace_back(model.Text(inner[0]));
    }
  }
  return names;
}

// Every name a parameter list binds, `*args` and `**kwargs` included (they shadow module names).
std::vector<std::string> AllParameterNames(const PythonFileModel& model, TSNode parameters) {
  std::vector<std::string> names = ParameterNames(model, parameters);
  for (TSNode p : NamedChildren(parameters)) {
    TSNode target = p;
    if (Is(p, "typed_parameter")) {
      std::vector<TSNode> inner = NamedChildren(p);
      if (inner.empty()) continue;
      target = inner[0];
    }
    if (Is(target, "list_splat_pattern") || Is(target, "dictionary_splat_pattern")) {
      std::vector<TSNode> inner = NamedChildren(target);
      if (!inner.empty() && Is(inner[0], "identifier")) names.emplace_back(model.Text(inner[0]));
    }
  }
  return names;
}

// The statements of a block, comments excluded, with a leading docstring dropped when DROP_DOCSTRING.
std::vector<TSNode> BodyStatements(TSNode block, TSNode* docstring) {
  std::vector<TSNode> statements = NamedChildren(block);
  if (!statements.empty() && Is(statements[0], "expression_statement")) {
    std::vector<TSNode> inner = NamedChildren(statements[0]);
    TSNode value = inner.size() == 1 ? Unparenthesize(inner[0]) : TSNode{};  // `("doc")` is one too
    if (!ts_node_is_null(value) && (Is(value, "string") || Is(value, "concatenated_string"))) {
      if (docstring) *docstring = value;
      statements.erase(statements.begin());
    }
  }
  return statements;
}

struct RawSite {
  Role role;
  TSNode node;
  TSNode call_module{}, call_attr{}, call_name{};
};

class FileExtraction {
 public:
  FileExtraction(std::string_view source, const ExtractOptions& options)
      : source_(source), options_(options), model_(source), builder_(model_) {}

  // Fills FACTS from the parsed tree ROOT of the source. Returns false when scopes nest deeper than
  // the options allow (FACTS is then incomplete and must be dropped).
  bool Run(TSNode root, const TSQuery* query, const QueryTables& tables, FileFacts* facts);

 private:
  struct PendingBinding {
    TSNode statement, name, value;
    bool augmented;
  };
  struct PendingImport {
    TSNode from, module, name, alias, wildcard;
  };
  struct PendingCall {
    TSNode statement, name, receiver;
  };

  void Collect(TSNode root, const TSQuery* query, const QueryTables& tables);
  void CollectMatches(TSQueryCursor* cursor, const QueryTables& tables);
  void AddImport(const PendingImport& import, FileFacts* facts);
  void FindHelpersAndClasses(FileFacts* facts);
  void EmitSite(const RawSite& raw, FileFacts* facts);
  void FindClassMessage(int class_scope, ClassDef* cls);
  void FindOwnMessage(const std::unordered_map<std::string, int>& methods, ClassDef* cls);
  // The texts of the class CLS (its message and alternatives) with the conditions of those that have some
  // (pending_conditions_), kept for its raises when its `__init__` (INIT) builds them.
  void KeepTextConditions(const ClassDef& cls, int init);
  // The texts of the class raised by CALL that its arguments can render, when they rule some out.
  std::vector<std::string> TextsOfRaise(const std::string& type, TSNode call);
  void AddRenderedTexts(const std::unordered_map<std::string, int>& methods, ClassDef* cls);
  int SelfMethod(const std::unordered_map<std::string, int>& methods, TSNode value) const;
  Template ParameterDefault(int function_scope, TSNode argument);
  struct RaisedInstance {
    std::string type;
    std::string message;
  };
  std::optional<RaisedInstance> InstanceArgument(TSNode argument, int scope, uint32_t pos);
  Template PropertyText(const std::unordered_map<std::string, int>& methods, TSNode value);
  // The message a base class of this file renders, its __init__ parameters replaced by the arguments the
  // class hands to the base's __init__ (ARGS from index FIRST on); empty when BASE_NAME is no such class.
  Template ComposeBaseMessage(const std::string& base_name, const CallArguments& args, size_t first, int scope,
                              uint32_t at);
  void FillLocation(TSNode node, Site* site) const;
  void NoteRaisingHelper(const Site& site, int scope, uint32_t pos, FileFacts* facts);
  // A module-level instance of a class whose `__call__` is a raising helper (`fail: _Fail = _Fail()`, pytest's
  // fail/skip/exit/xfail) is a helper under the instance's name: `fail("text")` hands it its message.
  void NoteCallableInstanceHelpers(TSNode root, FileFacts* facts);
  // The other texts MESSAGE may render (Site::message_alternatives), evaluated in SCOPE as of POS.
  void NoteMessageAlternatives(TSNode message, int scope, uint32_t pos, Site* site);
  int ClassParameter(const std::string& type, int scope, uint32_t pos) const;
  void EmitMessageCall(const PendingCall& call, FileFacts* facts);
  // Texts printed by exception handlers (handler_texts.h): an output call in an `except` clause, or in a
  // module-level function a clause calls with the caught name (LinkReporterTexts, after every call).
  void NoteHandlerText(const PendingCall& call, FileFacts* facts);
  void LinkReporterTexts(FileFacts* facts);
  // Tests that expect an exception: the with statements and call statements of pytest.raises and
  // assertRaises*.
  void EmitRaisesWith(TSNode with_statement, FileFacts* facts);
  void EmitRaisesCall(const PendingCall& call, FileFacts* facts);
  // "pytest.raises", "assertRaises", "assertRaisesRegex", "assertRaisesMessage", "assert_raises_message",
  // "assert_raises", "expect_raises_message", "expect_raises" for a call of one of them, else "".
  std::string RaisesApi(TSNode call) const;
  // Records CALL (of API) as expecting its exception types; STATEMENT is the with or call statement.
  void AddRaisesTests(TSNode call, const std::string& api, bool call_form, TSNode statement, FileFacts* facts);
  std::string MatchPattern(TSNode expr);
  // Whether SCOPE is a class body not nested in a function (its names are class attributes).
  bool IsClassBody(int scope) const;
  // The program facts (docs/extraction.md, "Program facts").
  void EmitFunctions(FileFacts* facts);
  void EmitCalls(FileFacts* facts);
  void EmitStateWrites(FileFacts* facts);
  void AddWriteTargets(TSNode target, int scope, const char* kind, int line, const std::string& code, int depth,
                       FileFacts* facts);
  void NoteAll(TSNode statement, TSNode target, FileFacts* facts);
  void NoteAllCall(TSNode call, const std::string& callee);
  void FinishAll(FileFacts* facts);
  // The scope of NODE when its position in the tree is sound (as for sites), else -1; BUDGET bounds the
  // ancestor walks it may do.
  int SoundScope(TSNode node, int* budget);
  // SCOPE, or the def, class or module around it when it is a lambda.
  int NonLambdaScope(int scope) const;
  std::string SourceLine(uint32_t row) const;
  std::string StatementCode(TSNode statement) const;
  // Start of the innermost ERROR region containing [start, end), or -1.
  int64_t ErrorRegionStart(uint32_t start, uint32_t end) const;
  // True when an ERROR region starts in [from, to).
  bool ErrorBetween(uint32_t from, uint32_t to) const;

  std::string_view source_;
  const ExtractOptions& options_;
  PythonFileModel model_;
  PythonTemplateBuilder builder_;
  // Classes of this file whose message their __init__ hands to a base: message and __init__ parameters, for
  // the classes after them that call that __init__ (ComposeBaseMessage).
  struct InitMessage {
    std::string message;
    std::vector<std::string> parameters;
  };
  std::unordered_map<std::string, InitMessage> init_messages_;
  std::vector<RawSite> raw_sites_;
  std::vector<PendingBinding> pending_bindings_;
  std::vector<PendingImport> pending_imports_;
  std::vector<PendingCall> pending_calls_;
  // A call in an except clause handing the caught exception to a function by name
  // (`print_conftest_import_error(e, file=sys.stderr)`), and the texts output calls write in module-level
  // functions, by function name (NoteHandlerText).
  struct ReportCall {
    std::string name;
    std::vector<std::string> types;
    int handler_line = 0;
    std::string handler_function;
  };
  std::vector<ReportCall> report_calls_;
  std::unordered_map<std::string, std::vector<std::pair<std::string, int>>> function_outputs_;
  std::vector<TSNode> pending_withs_;
  std::vector<std::pair<TSNode, TSNode>> pending_model_calls_;  // (call, callee)
  std::vector<TSNode> pending_state_;                           // assignments and del statements
  std::vector<TSNode> pending_globals_;
  // Names a module-level `__all__.append("x")` / `__all__.extend([...])` adds (applied after the assignments,
  // whatever the order of collection); all_unknown_ when some part of `__all__` is not a literal.
  std::vector<std::string> all_additions_;
  bool all_unknown_ = false;
  std::unordered_map<const void*, TSNode> decorated_;                      // decorated definition by definition id
  std::unordered_map<int, std::unordered_set<std::string_view>> globals_;  // `global` names by scope
  int model_checks_ = kMaxAncestorChecks;                                  // ancestor walks left for the model
  // Class texts chosen by the raise's arguments (class_text_conditions.h): per class of the file whose
  // `__init__` builds texts in branches, that `__init__` and every text with its conditions.
  struct ClassTexts {
    int init = 0;
    std::vector<ConditionalText> texts;
  };
  std::unordered_map<std::string, ClassTexts> class_texts_;
  std::vector<std::pair<std::string, std::vector<Condition>>> pending_conditions_;  // of the class being read
  std::unique_ptr<ConditionTruth> truth_;                                           // made on first use
  std::vector<TSNode> site_nodes_;                            // the node of each site of facts->sites, in order
  std::unordered_set<std::string> warnings_modules_;          // names bound to the module `warnings`
  std::unordered_set<std::string> warn_functions_;            // names bound to `warnings.warn`
  std::unordered_set<std::string> pytest_modules_{"pytest"};  // names bound to the module `pytest`
  std::unordered_set<std::string> raises_functions_;          // names bound to `pytest.raises`
  std::vector<uint32_t> line_starts_;                         // byte offset of each line
  std::vector<std::pair<uint32_t, uint32_t>> errors_;         // ERROR node ranges, sorted by start
  static constexpr int kMaxAncestorChecks = 2000;
  int site_checks_ = kMaxAncestorChecks;  // ancestor walks left for sites
  TSNode root_{};
};

void FileExtraction::Collect(TSNode root, const TSQuery* query, const QueryTables& tables) {
  struct ThreadCursor {
    TSQueryCursor* cursor = ts_query_cursor_new();
    ~ThreadCursor() { ts_query_cursor_delete(cursor); }
  };
  thread_local ThreadCursor thread_cursor;
  TSQueryCursor* cursor = thread_cursor.cursor;
  if (!tables.roots_known) {
    ts_query_cursor_set_max_start_depth(cursor, UINT32_MAX);
    ts_query_cursor_exec(cursor, query, root);
    CollectMatches(cursor, tables);
    return;
  }
  ts_query_cursor_set_max_start_depth(cursor, 0);
  TSTreeCursor walk = ts_tree_cursor_new(root);
  while (true) {
    TSNode node = ts_tree_cursor_current_node(&walk);
    const TSSymbol symbol = ts_node_symbol(node);
    if (ts_node_is_error(node) || (symbol < tables.root_symbols.size() && tables.root_symbols[symbol])) {
      ts_query_cursor_exec(cursor, query, node);
      CollectMatches(cursor, tables);
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

void FileExtraction::CollectMatches(TSQueryCursor* cursor, const QueryTables& tables) {
  TSQueryMatch match;
  while (ts_query_cursor_next_match(cursor, &match)) {
    // Text predicates of the pattern.
    bool accepted = true;
    for (const TextPredicate& p : tables.predicates[match.pattern_index]) {
      for (uint16_t i = 0; i < match.capture_count; ++i) {
        if (match.captures[i].index != p.capture) continue;
        bool equal = model_.Text(match.captures[i].node) == p.text;
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
      raw_sites_.push_back({Role::kSiteRaise, get(Role::kSiteRaise)});
    } else if (has(Role::kSiteAssert)) {
      raw_sites_.push_back({Role::kSiteAssert, get(Role::kSiteAssert)});
    } else if (has(Role::kSiteCall)) {
      RawSite s{Role::kSiteCall, get(Role::kSiteCall)};
      s.call_module = get(Role::kCallModule);
      s.call_attr = get(Role::kCallAttr);
      s.call_name = get(Role::kCallName);
      raw_sites_.push_back(s);
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
      scope.name = has(Role::kScopeName) ? std::string(model_.Text(get(Role::kScopeName))) : "<lambda>";
      model_.scopes.push_back(std::move(scope));
    } else if (has(Role::kAssign) || has(Role::kAugAssign)) {
      TSNode stmt = has(Role::kAssign) ? get(Role::kAssign) : get(Role::kAugAssign);
      pending_bindings_.push_back({stmt, get(Role::kAssignName), get(Role::kAssignValue), has(Role::kAugAssign)});
    } else if (has(Role::kSyntaxError)) {
      TSNode e = get(Role::kSyntaxError);
      errors_.emplace_back(ts_node_start_byte(e), ts_node_end_byte(e));
    } else if (has(Role::kMessageCall)) {
      pending_calls_.push_back({get(Role::kMessageCall), get(Role::kMessageCallName), get(Role::kMessageCallReceiver)});
    } else if (has(Role::kExpectWith)) {
      pending_withs_.push_back(get(Role::kExpectWith));
    } else if (has(Role::kModelCall)) {
      pending_model_calls_.push_back({get(Role::kModelCall), get(Role::kModelCallee)});
    } else if (has(Role::kModelWrite)) {
      pending_state_.push_back(get(Role::kModelWrite));
    } else if (has(Role::kModelDelete)) {
      pending_state_.push_back(get(Role::kModelDelete));
    } else if (has(Role::kModelGlobal)) {
      pending_globals_.push_back(get(Role::kModelGlobal));
    } else if (has(Role::kModelDecorated)) {
      TSNode definition = ts_node_child_by_field_name(get(Role::kModelDecorated), "definition", 10);
      if (!ts_node_is_null(definition)) decorated_[definition.id] = get(Role::kModelDecorated);
    } else if (has(Role::kImport)) {
      pending_imports_.push_back({get(Role::kImportFrom), get(Role::kImportModule), get(Role::kImportName),
                                  get(Role::kImportAlias), get(Role::kImportWildcard)});
    }
  }
}

void FileExtraction::AddImport(const PendingImport& im, FileFacts* facts) {
  auto text = [&](TSNode n) { return ts_node_is_null(n) ? std::string() : std::string(model_.Text(n)); };
  if (ts_node_is_null(im.from)) {
    // import a.b.c  -> a bound to a;  import a.b as x -> x bound to a.b
    std::string module = text(im.module);
    if (module.empty()) return;
    std::string alias = text(im.alias);
    if (alias.empty()) {
      std::string head = module.substr(0, module.find('.'));
      facts->imports.push_back({head, head});
      if (module == "warnings") warnings_modules_.insert("warnings");
    } else {
      facts->imports.push_back({alias, module});
      if (module == "warnings") warnings_modules_.insert(alias);
      if (module == "pytest") pytest_modules_.insert(alias);
    }
    return;
  }
  std::string from = text(im.from);
  from.erase(std::remove_if(from.begin(), from.end(), [](char c) { return c == ' ' || c == '\t'; }), from.end());
  if (from == "__future__") return;
  if (!ts_node_is_null(im.wildcard)) {
    facts->wildcard_imports.push_back(from);
    return;
  }
  std::string name = text(im.name);
  if (name.empty()) return;
  std::string alias = text(im.alias);
  const std::string& bound = alias.empty() ? name : alias;
  std::string target = from;
  if (!target.empty() && target.back() != '.') target.push_back('.');
  target += name;
  facts->imports.push_back({bound, target});
  if (target == "warnings.warn" || target == "warnings.warn_explicit") warn_functions_.insert(bound);
  if (target == "pytest.raises") raises_functions_.insert(bound);
}

void FileExtraction::FindHelpersAndClasses(FileFacts* facts) {
  for (int i = 1; i < static_cast<int>(model_.scopes.size()); ++i) {
    const Scope& scope = model_.scopes[i];
    TSNode body = ts_node_child_by_field_name(scope.node, "body", 4);
    if (scope.parent == 0 && scope.kind != Scope::kLambda) {
      // A helper: a module-level (non-async) function whose body is one `return EXPR` (after a
      // docstring). A later definition of the same name replaces it, helper or not.
      bool is_helper = false;
      const bool is_async = ts_node_child_count(scope.node) > 0 && Is(ts_node_child(scope.node, 0), "async");
      if (scope.kind == Scope::kFunction && !is_async && !ts_node_is_null(body)) {
        std::vector<TSNode> statements = BodyStatements(body, nullptr);
        if (statements.size() == 1 && Is(statements[0], "return_statement")) {
          std::vector<TSNode> value = NamedChildren(statements[0]);
          if (value.size() == 1) {
            HelperFunction helper;
            helper.return_value = value[0];
            helper.scope = i;
            TSNode params = ts_node_child_by_field_name(scope.node, "parameters", 10);
            if (!ts_node_is_null(params)) helper.params = ParameterNames(model_, params);
            model_.helpers[scope.name] = std::move(helper);
            is_helper = true;
          }
        }
      }
      if (!is_helper) model_.helpers.erase(scope.name);
    }
    if (scope.kind == Scope::kClass) {
      bool nested_in_function = false;
      for (int p = scope.parent; p > 0; p = model_.scopes[p].parent) {
        if (model_.scopes[p].kind != Scope::kClass) nested_in_function = true;
      }
      if (nested_in_function) continue;
      ClassDef cls;
      cls.qualname = scope.qualname;
      cls.line = static_cast<int>(ts_node_start_point(scope.node).row) + 1;
      TSNode bases = ts_node_child_by_field_name(scope.node, "superclasses", 12);
      if (!ts_node_is_null(bases)) {
        for (TSNode b : NamedChildren(bases)) {
          if (!Is(b, "keyword_argument") && !Is(b, "list_splat") && !Is(b, "dictionary_splat")) {
            cls.bases.emplace_back(model_.Text(b));
          }
        }
      }
      TSNode doc{};
      if (!ts_node_is_null(body)) {
        BodyStatements(body, &doc);
        std::string value;
        if (!ts_node_is_null(doc) && builder_.LiteralValue(doc, &value)) cls.docstring = CleanDoc(value);
      }
      FindClassMessage(i, &cls);
      facts->classes.push_back(std::move(cls));
    }
  }
}

// The return statements of a function body in source order, through compound statements but not into
// nested definitions. Depth is bounded: the tree is already bounded, this keeps recursion small.
void CollectReturns(const std::vector<TSNode>& statements, int depth, std::vector<TSNode>* out) {
  if (depth > 32) return;
  for (TSNode st : statements) {
    if (Is(st, "return_statement")) {
      out->push_back(st);
    } else if (Is(st, "function_definition") || Is(st, "class_definition") || Is(st, "decorated_definition")) {
      continue;
    } else if (Is(st, "if_statement") || Is(st, "elif_clause") || Is(st, "else_clause") || Is(st, "try_statement") ||
               Is(st, "except_clause") || Is(st, "finally_clause") || Is(st, "with_statement") ||
               Is(st, "for_statement") || Is(st, "while_statement") || Is(st, "block") || Is(st, "match_statement") ||
               Is(st, "case_clause")) {
      CollectReturns(NamedChildren(st), depth + 1, out);
    }
  }
}

// TEMPLATES among CLS's alternatives: those that are not its message nor already there, at most
// kMaxClassMessageAlternatives.
void AddAlternatives(const std::vector<Template>& templates, ClassDef* cls) {
  for (const Template& t : templates) {
    if (cls->alternatives.size() >= kMaxClassMessageAlternatives) return;
    std::string text = t.Render();
    if (text == cls->message ||
        std::find(cls->alternatives.begin(), cls->alternatives.end(), text) != cls->alternatives.end()) {
      continue;
    }
    cls->alternatives.push_back(std::move(text));
  }
}

void FileExtraction::FindClassMessage(int class_scope, ClassDef* cls) {
  // Methods defined directly in the class body; a later definition replaces an earlier one.
  std::unordered_map<std::string, int> methods;
  for (int j = class_scope + 1; j < static_cast<int>(model_.scopes.size()); ++j) {
    const Scope& s = model_.scopes[j];
    if (s.parent == class_scope && s.kind == Scope::kFunction) methods[s.name] = j;
  }
  builder_.set_assembled_lists(true);
  pending_conditions_.clear();
  FindOwnMessage(methods, cls);
  AddRenderedTexts(methods, cls);
  builder_.set_assembled_lists(false);
  if (auto init = methods.find("__init__"); init != methods.end() && !pending_conditions_.empty()) {
    KeepTextConditions(*cls, init->second);
  }
}

void FileExtraction::KeepTextConditions(const ClassDef& cls, int init) {
  auto conditions_of = [&](const std::string& text) {
    for (const auto& [t, c] : pending_conditions_) {
      if (t == text) return c;
    }
    return std::vector<Condition>();
  };
  ClassTexts kept;
  kept.init = init;
  kept.texts.push_back({cls.message, conditions_of(cls.message)});
  for (const std::string& a : cls.alternatives) kept.texts.push_back({a, conditions_of(a)});
  class_texts_[cls.qualname] = std::move(kept);
}

std::vector<std::string> FileExtraction::TextsOfRaise(const std::string& type, TSNode call) {
  auto it = class_texts_.find(type);
  if (it == class_texts_.end()) return {};
  std::unordered_map<std::string, KnownValue> values;
  if (!BindLiteralArguments(model_, builder_, it->second.init, call, &values)) return {};
  if (!truth_) truth_ = std::make_unique<ConditionTruth>();
  return TextsRendered(it->second.texts, values, *truth_);
}

// The methods besides `__init__` whose text users see (docs/extraction.md, "Class messages"): `__str__`,
// click's `format_message` (what `ClickException.show` prints), pytest's `formatrepr` (its reports of a
// failed fixture lookup) and a `message` property or method — and what those return of the class's other
// methods (`return self.generate_message()`).
constexpr std::array<const char*, 4> kRenderingMethods{"__str__", "format_message", "formatrepr", "message"};

// Every text the rendering methods of the class may return, at most kMaxClassMessageAlternatives: each
// return's alternatives; a return of `self.NAME` or `self.NAME()` (NAME a method) takes NAME's texts; a return
// of a call of a capitalized class (`FixtureLookupErrorRepr(fspath, lineno, tblines, msg, self.argname)`)
// takes the texts of its positional arguments. The first text found becomes the message of a class that has
// none (`message_from` the rendering method).
void FileExtraction::AddRenderedTexts(const std::unordered_map<std::string, int>& methods, ClassDef* cls) {
  std::vector<int> todo;
  std::vector<std::string> from;
  for (const char* name : kRenderingMethods) {
    auto it = methods.find(name);
    if (it == methods.end()) continue;
    todo.push_back(it->second);
    from.emplace_back(name);
  }
  std::unordered_set<int> seen;
  std::vector<Template> texts;
  for (size_t k = 0; k < todo.size() && k < 16; ++k) {
    if (!seen.insert(todo[k]).second) continue;
    const int method = todo[k];
    TSNode body = ts_node_child_by_field_name(model_.scopes[static_cast<size_t>(method)].node, "body", 4);
    if (ts_node_is_null(body)) continue;
    std::vector<TSNode> returns;
    CollectReturns(BodyStatements(body, nullptr), 0, &returns);
    for (TSNode st : returns) {
      std::vector<TSNode> v = NamedChildren(st);
      if (v.size() != 1) continue;
      TSNode value = Unparenthesize(v[0]);
      const uint32_t at = ts_node_start_byte(st);
      if (const int called = SelfMethod(methods, value); called >= 0) {
        todo.push_back(called);
        from.push_back(from[k]);
        continue;
      }
      std::vector<TSNode> sources{value};
      if (Is(value, "call") && NamesAClass(model_, ts_node_child_by_field_name(value, "function", 8))) {
        sources = SplitArguments(model_, ts_node_child_by_field_name(value, "arguments", 9)).positional;
        if (sources.size() > 5) sources.resize(5);
      }
      for (TSNode source : sources) {
        for (Template& t : builder_.BuildAlternatives(source, method, at, kMaxClassMessageAlternatives)) {
          if (cls->message.empty()) {
            cls->message = t.Render();
            cls->message_from = from[k];
          } else {
            texts.push_back(std::move(t));
          }
        }
      }
    }
  }
  AddAlternatives(texts, cls);
}

// The method of the class that VALUE returns: `self.NAME` or `self.NAME()` without arguments; else -1.
int FileExtraction::SelfMethod(const std::unordered_map<std::string, int>& methods, TSNode value) const {
  if (Is(value, "call")) {
    TSNode args = ts_node_child_by_field_name(value, "arguments", 9);
    if (ts_node_is_null(args) || ts_node_named_child_count(args) != 0) return -1;
    value = ts_node_child_by_field_name(value, "function", 8);
  }
  if (ts_node_is_null(value) || !Is(value, "attribute")) return -1;
  TSNode object = ts_node_child_by_field_name(value, "object", 6);
  TSNode attribute = ts_node_child_by_field_name(value, "attribute", 9);
  if (ts_node_is_null(object) || ts_node_is_null(attribute) || model_.Text(object) != "self") return -1;
  auto it = methods.find(std::string(model_.Text(attribute)));
  return it == methods.end() ? -1 : it->second;
}

void FileExtraction::FindOwnMessage(const std::unordered_map<std::string, int>& methods, ClassDef* cls) {
  auto body_of = [&](int scope) {
    TSNode body = ts_node_child_by_field_name(model_.scopes[scope].node, "body", 4);
    return ts_node_is_null(body) ? std::vector<TSNode>() : BodyStatements(body, nullptr);
  };
  // `__str__` / `format_message`: the last `return EXPR` with literal text, in nested blocks too
  // (`if self.returncode < 0: return "... died ..."` / `else: return "... returned ..."`).
  for (const char* name : {"__str__", "format_message"}) {
    auto it = methods.find(name);
    if (it == methods.end()) continue;
    std::vector<TSNode> returns;
    CollectReturns(body_of(it->second), 0, &returns);
    for (auto st = returns.rbegin(); st != returns.rend(); ++st) {
      std::vector<TSNode> value = NamedChildren(*st);
      if (value.size() != 1) continue;
      Template t = builder_.Build(value[0], it->second, ts_node_start_byte(*st));
      if (!t.HasLiteralText()) t = PropertyText(methods, value[0]);
      if (t.HasLiteralText()) {
        cls->message = t.Render();
        cls->message_from = name;
        // The other texts it may render: every return's, each with the alternatives of its branches.
        for (TSNode other : returns) {
          std::vector<TSNode> v = NamedChildren(other);
          if (v.size() != 1) continue;
          AddAlternatives(
              builder_.BuildAlternatives(v[0], it->second, ts_node_start_byte(other), kMaxClassMessageAlternatives),
              cls);
        }
        return;
      }
    }
  }
  // `__init__` handing a text to its base: `super().__init__(TEXT, ...)` or `Base.__init__(self, TEXT)`.
  auto init = methods.find("__init__");
  if (init == methods.end()) return;
  for (TSNode st : body_of(init->second)) {
    if (!Is(st, "expression_statement")) continue;
    std::vector<TSNode> exprs = NamedChildren(st);
    if (exprs.size() != 1 || !Is(exprs[0], "call")) continue;
    TSNode function = ts_node_child_by_field_name(exprs[0], "function", 8);
    if (ts_node_is_null(function) || !Is(function, "attribute")) continue;
    TSNode attribute = ts_node_child_by_field_name(function, "attribute", 9);
    TSNode object = ts_node_child_by_field_name(function, "object", 6);
    if (ts_node_is_null(attribute) || model_.Text(attribute) != "__init__" || ts_node_is_null(object)) continue;
    const bool via_super = Is(object, "call") && model_.Text(object).rfind("super(", 0) == 0;
    CallArguments args = SplitArguments(model_, ts_node_child_by_field_name(exprs[0], "arguments", 9));
    size_t first = via_super ? 0 : 1;  // `Base.__init__(self, ...)` passes self first
    if (args.positional.size() <= first && args.keywords.empty()) continue;
    Template t;
    if (args.positional.size() > first)
      t = builder_.Build(args.positional[first], init->second, ts_node_start_byte(st));
    if (!t.HasLiteralText()) {
      // `RequestError.__init__(self, pool, url, message)`: the base's own message, with these arguments.
      const std::string base =
          via_super ? (cls->bases.empty() ? std::string() : cls->bases.front()) : std::string(model_.Text(object));
      t = ComposeBaseMessage(base, args, first, init->second, ts_node_start_byte(st));
    }
    // Else a later argument with literal text (`InterpolationError.__init__(self, option, section, msg)`), or
    // an argument that is a parameter with a default text (`def __init__(self, message="Invalid file")`).
    for (size_t k = first; !t.HasLiteralText() && k < args.positional.size() && k < first + 4; ++k) {
      t = builder_.Build(args.positional[k], init->second, ts_node_start_byte(st));
      if (!t.HasLiteralText()) t = ParameterDefault(init->second, args.positional[k]);
    }
    if (t.HasLiteralText()) {
      cls->message = t.Render();
      cls->message_from = "__init__";
      if (args.positional.size() > first) {
        // Each text with the conditions of the branches that build it (class_text_conditions.h).
        std::vector<std::vector<PythonTemplateBuilder::Step>> steps;
        std::vector<Template> texts =
            builder_.BuildAlternatives(args.positional[first], init->second, ts_node_start_byte(st),
                                       kMaxClassMessageAlternatives, nullptr, &steps);
        std::vector<std::vector<Condition>> conditions = ConditionsOfSteps(source_, root_, steps);
        for (size_t k = 0; k < texts.size() && k < conditions.size(); ++k) {
          if (!conditions[k].empty()) pending_conditions_.emplace_back(texts[k].Render(), std::move(conditions[k]));
        }
        AddAlternatives(texts, cls);
      }
      init_messages_[cls->qualname] = {cls->message, model_.scopes[init->second].parameters};
      return;
    }
  }
}

// `PytestConfigWarning("text")` handed to a helper that warns or raises it: the class as written and the
// message (its first positional argument, or `message=`/`msg=`), when the class name is capitalized and the
// message has literal text.
std::optional<FileExtraction::RaisedInstance> FileExtraction::InstanceArgument(TSNode argument, int scope,
                                                                               uint32_t pos) {
  argument = Unparenthesize(argument);
  if (!Is(argument, "call")) return std::nullopt;
  TSNode function = ts_node_child_by_field_name(argument, "function", 8);
  if (ts_node_is_null(function) || (!Is(function, "identifier") && !Is(function, "attribute"))) return std::nullopt;
  std::string type(model_.Text(function));
  const size_t dot = type.rfind('.');
  const char first = dot == std::string::npos ? type[0] : type[dot + 1];
  if (type.size() > 128 || !std::isupper(static_cast<unsigned char>(first))) return std::nullopt;
  CallArguments args = SplitArguments(model_, ts_node_child_by_field_name(argument, "arguments", 9));
  TSNode message{};
  if (!args.positional.empty()) message = args.positional[0];
  for (const auto& [keyword, value] : args.keywords) {
    if (ts_node_is_null(message) && (keyword == "message" || keyword == "msg")) message = value;
  }
  if (ts_node_is_null(message)) return std::nullopt;
  Template t = builder_.Build(message, scope, pos);
  if (!t.HasLiteralText()) {
    // `PytestConfigWarning(message)` with `message` a parameter of the calling function: that function
    // forwards its callers' text (docs/extraction.md, "Raising helpers": derived helpers).
    message = Unparenthesize(message);
    const std::vector<std::string>& params = model_.scopes[static_cast<size_t>(scope)].parameters;
    if (!Is(message, "identifier") || std::find(params.begin(), params.end(), model_.Text(message)) == params.end()) {
      return std::nullopt;
    }
  }
  return RaisedInstance{std::move(type), t.Render()};
}

// `return self.message` where `message` is a property (or method) of the class whose last return has text:
// the message is that text (`@property def message(self): return f"the property says {self.x}"`).
Template FileExtraction::PropertyText(const std::unordered_map<std::string, int>& methods, TSNode value) {
  const int method = SelfMethod(methods, Unparenthesize(value));
  if (method < 0) return Template{};
  TSNode body = ts_node_child_by_field_name(model_.scopes[static_cast<size_t>(method)].node, "body", 4);
  if (ts_node_is_null(body)) return Template{};
  std::vector<TSNode> returns;
  CollectReturns(BodyStatements(body, nullptr), 0, &returns);
  for (auto st = returns.rbegin(); st != returns.rend(); ++st) {
    std::vector<TSNode> inner = NamedChildren(*st);
    if (inner.size() != 1) continue;
    Template t = builder_.Build(inner[0], method, ts_node_start_byte(*st));
    if (t.HasLiteralText()) return t;
  }
  return Template{};
}

// `def __init__(self, message="Invalid file"): ValueError.__init__(self, message)`: the text a parameter
// holds when the caller passes none — the message of `raise InvalidFileException()` (a site passing its
// own text is matched by that text first, docs/matching.md).
Template FileExtraction::ParameterDefault(int function_scope, TSNode argument) {
  if (!Is(argument, "identifier")) return Template{};
  TSNode parameters =
      ts_node_child_by_field_name(model_.scopes[static_cast<size_t>(function_scope)].node, "parameters", 10);
  if (ts_node_is_null(parameters)) return Template{};
  for (TSNode p : NamedChildren(parameters)) {
    if (!Is(p, "default_parameter") && !Is(p, "typed_default_parameter")) continue;
    TSNode name = ts_node_child_by_field_name(p, "name", 4);
    TSNode value = ts_node_child_by_field_name(p, "value", 5);
    if (ts_node_is_null(name) || ts_node_is_null(value) || model_.Text(name) != model_.Text(argument)) continue;
    std::string text;
    if (!builder_.LiteralValue(value, &text) || text.empty()) return Template{};
    return Template::Literal(std::move(text));
  }
  return Template{};
}

Template FileExtraction::ComposeBaseMessage(const std::string& base_name, const CallArguments& args, size_t first,
                                            int scope, uint32_t at) {
  const auto base = init_messages_.find(base_name);
  if (base == init_messages_.end() || base->second.parameters.empty()) return Template();
  const std::vector<std::string>& params = base->second.parameters;  // "self" first
  std::unordered_map<std::string, TSNode> argument_of;
  for (size_t k = first; k < args.leading_positional && k < args.positional.size(); ++k) {
    const size_t param = k - first + 1;
    if (param >= params.size() || params[param].empty() || params[param][0] == '*') break;
    argument_of[params[param]] = args.positional[k];
  }
  for (const auto& [name, node] : args.keywords) argument_of.emplace(name, node);
  Template out;
  for (const TemplatePart& part : ParseRenderedTemplate(base->second.message)) {
    const auto arg = part.placeholder ? argument_of.find(part.text) : argument_of.end();
    if (!part.placeholder) {
      out.AppendLiteral(part.text);
    } else if (arg != argument_of.end()) {
      out.Append(builder_.Build(arg->second, scope, at));
    } else {
      out.AppendPlaceholder(part.text);
    }
  }
  return out;
}

int64_t FileExtraction::ErrorRegionStart(uint32_t start, uint32_t end) const {
  // Regions nest: walk back from the last one starting at or before START to the first that contains.
  auto it = std::upper_bound(errors_.begin(), errors_.end(), std::make_pair(start, UINT32_MAX));
  while (it != errors_.begin()) {
    --it;
    if (it->second >= end) return it->first;
  }
  return -1;
}

bool FileExtraction::ErrorBetween(uint32_t from, uint32_t to) const {
  auto it = std::lower_bound(errors_.begin(), errors_.end(), std::make_pair(from, uint32_t{0}));
  return it != errors_.end() && it->first < to;
}

void FileExtraction::FillLocation(TSNode node, Site* site) const {
  TSPoint start = ts_node_start_point(node);
  TSPoint end = ts_node_end_point(node);
  site->line = static_cast<int>(start.row) + 1;
  site->col = static_cast<int>(start.column);
  site->end_line = static_cast<int>(end.row) + 1;
  const int lines = static_cast<int>(line_starts_.size());
  const int first = std::max(1, site->line - options_.snippet_context);
  const int last = std::min(lines, site->end_line + options_.snippet_context);
  site->snippet_start = first;
  uint32_t from = line_starts_[static_cast<size_t>(first - 1)];
  uint32_t to = last < lines ? line_starts_[static_cast<size_t>(last)] : static_cast<uint32_t>(source_.size());
  site->snippet = std::string(source_.substr(from, to - from));
  while (!site->snippet.empty() && (site->snippet.back() == '\n' || site->snippet.back() == '\r')) {
    site->snippet.pop_back();
  }
}

int FileExtraction::SoundScope(TSNode node, int* budget) {
  const uint32_t start = ts_node_start_byte(node);
  const uint32_t end = ts_node_end_byte(node);
  // A statement whose own subtree parsed cleanly is kept even when error recovery wrapped its
  // surroundings in an ERROR node (tree-sitter's indentation scanner trips on rare valid code).
  if (ts_node_has_error(node)) return -1;
  const int scope = model_.ScopeAt(start, end);
  if (const int64_t region = ErrorRegionStart(start, end); region >= 0) {
    // The definitions around a statement in an error region may be broken: keep it only when a
    // definition inside the region encloses it, so that its qualified name is sound.
    if (scope == 0 || model_.scopes[static_cast<size_t>(scope)].start < region) return -1;
  } else if (ErrorBetween(model_.scopes[static_cast<size_t>(scope)].start, start)) {
    // Error recovery before the statement in the same scope can re-parent it (`if x` without its colon
    // swallows the next `def`): keep it only when no statement around it, up to its scope, has errors.
    // ts_node_parent walks from the root, so the number of such checks per file is bounded.
    if (--*budget < 0) return -1;
    const TSNode scope_node = model_.scopes[static_cast<size_t>(scope)].node;
    for (TSNode n = ts_node_parent(node); !ts_node_is_null(n) && !ts_node_eq(n, root_); n = ts_node_parent(n)) {
      if (scope != 0 && ts_node_eq(n, scope_node)) break;
      if (ts_node_has_error(n)) return -1;
    }
  }
  return scope;
}

void FileExtraction::EmitSite(const RawSite& raw, FileFacts* facts) {
  const uint32_t start = ts_node_start_byte(raw.node);
  const int scope = SoundScope(raw.node, &site_checks_);
  if (scope < 0) return;
  Site site;
  site.function = model_.scopes[static_cast<size_t>(scope)].qualname;
  TSNode message_node{};  // the expression of the message, when there is one

  if (raw.role == Role::kSiteRaise) {
    TSNode cause = ts_node_child_by_field_name(raw.node, "cause", 5);
    TSNode value{};
    for (TSNode c : NamedChildren(raw.node)) {
      if (ts_node_is_null(cause) || !ts_node_eq(c, cause)) {
        value = c;
        break;
      }
    }
    if (ts_node_is_null(value)) {
      site.kind = "reraise";
    } else {
      site.kind = "raise";
      while (Is(value, "parenthesized_expression") && NamedChildren(value).size() == 1) {
        value = NamedChildren(value)[0];
      }
      if (TSNode bound = CallBoundToRaisedName(model_, value, scope, start); !ts_node_is_null(bound)) value = bound;
      // `raise exc.with_traceback(tb)` of a name bound to no class call (an `except ... as exc` name) raises exc.
      if (TSNode named = WithTracebackOfName(model_, value); !ts_node_is_null(named)) value = named;
      if (Is(value, "call")) {
        TSNode function = ts_node_child_by_field_name(value, "function", 8);
        // X(...).with_traceback(tb) raises X(...).
        if (Is(function, "attribute")) {
          TSNode object = ts_node_child_by_field_name(function, "object", 6);
          TSNode attribute = ts_node_child_by_field_name(function, "attribute", 9);
          if (!ts_node_is_null(object) && Is(object, "call") && model_.Text(attribute) == "with_traceback") {
            value = object;
            function = ts_node_child_by_field_name(value, "function", 8);
          }
        }
        site.type =
            ClassOfIndirectRaise(model_, function, ts_node_child_by_field_name(value, "arguments", 9), scope, start)
                .value_or(std::string(model_.Text(Unparenthesize(function))));
        site.template_text = MessageOfRaise(model_, builder_, value, scope, start, *site.type, &message_node);
        site.class_texts = TextsOfRaise(*site.type, value);
      } else {
        site.type = std::string(model_.Text(value));
      }
    }
  } else if (raw.role == Role::kSiteAssert) {
    // The message is the second expression; extras such as a `\` line continuation are not one.
    std::vector<TSNode> parts = NamedChildren(raw.node);
    if (parts.size() < 2) return;
    const TSNode message = parts[1];
    site.kind = "assert";
    site.type = "AssertionError";
    site.template_text = builder_.Build(message, scope, start).Render();
    message_node = message;
  } else {
    bool is_warn = false;
    if (!ts_node_is_null(raw.call_module)) {
      is_warn = warnings_modules_.count(std::string(model_.Text(raw.call_module))) > 0;
    } else if (!ts_node_is_null(raw.call_name)) {
      is_warn = warn_functions_.count(std::string(model_.Text(raw.call_name))) > 0;
    }
    if (!is_warn) return;
    site.kind = "warn";
    CallArguments args = SplitArguments(model_, ts_node_child_by_field_name(raw.node, "arguments", 9));
    TSNode message{}, category{};
    // As for raise, a starred argument stands where it is: `warn(*args)` has the placeholder `{*args}`.
    if (!args.positional_with_splats.empty()) message = args.positional_with_splats[0];
    if (args.positional_with_splats.size() > 1) category = args.positional_with_splats[1];
    for (const auto& [name, value] : args.keywords) {
      if (name == "message" && ts_node_is_null(message)) message = value;
      if (name == "category" && ts_node_is_null(category)) category = value;
    }
    // `category=None` (warn_explicit's way of saying "the message is a Warning instance") is no category.
    if (!ts_node_is_null(category) && model_.Text(Unparenthesize(category)) == "None") category = TSNode{};
    std::optional<WarningInstance> instance;
    if (ts_node_is_null(category) && !ts_node_is_null(message)) instance = WarningOfInstance(model_, message);
    if (instance) message = instance->message;
    site.type = instance                    ? instance->category
                : ts_node_is_null(category) ? std::string("UserWarning")
                                            : std::string(model_.Text(Unparenthesize(category)));
    if (!ts_node_is_null(message)) site.template_text = builder_.Build(message, scope, start).Render();
    message_node = message;
  }
  if (!ts_node_is_null(message_node) && site.template_text) NoteMessageAlternatives(message_node, scope, start, &site);
  FillLocation(raw.node, &site);
  NoteRaisingHelper(site, scope, ts_node_start_byte(raw.node), facts);
  facts->sites.push_back(std::move(site));
  site_nodes_.push_back(raw.node);
}

void FileExtraction::NoteMessageAlternatives(TSNode message, int scope, uint32_t pos, Site* site) {
  // Lists are read as the class texts read them (docs/extraction.md): `*errors`, `"\n".join(errors)`.
  builder_.set_assembled_lists(true);
  bool capped = false;
  // (Two more than kept: the template itself and its form with a placeholder for each choice come first.)
  std::vector<Template> texts =
      builder_.BuildAlternatives(message, scope, pos, kMaxSiteMessageAlternatives + 2, &capped);
  builder_.set_assembled_lists(false);
  // An alternative that differs from the template only in what its placeholders hold says nothing more.
  std::set<std::string> seen{NormalizeTemplate(*site->template_text)};
  for (const Template& t : texts) {
    std::string text = t.Render();
    if (!seen.insert(NormalizeTemplate(text)).second) continue;
    if (site->message_alternatives.size() >= kMaxSiteMessageAlternatives) {
      capped = true;
      break;
    }
    site->message_alternatives.push_back(std::move(text));
  }
  site->alternatives_capped = capped;
}

// The parameter of SCOPE whose value TYPE raises, or -1: TYPE is the parameter (`raise error_class(msg)`), or a
// local whose last binding before POS looks the parameter up with itself as the default
// (`error = _condition_map.get(condition, condition)`).
int FileExtraction::ClassParameter(const std::string& type, int scope, uint32_t pos) const {
  const std::vector<std::string>& params = model_.scopes[static_cast<size_t>(scope)].parameters;
  auto index_of = [&](std::string_view name) {
    auto it = std::find(params.begin(), params.end(), name);
    return it == params.end() ? -1 : static_cast<int>(it - params.begin());
  };
  const std::vector<Binding>* list = model_.BindingsOf(scope, type);
  if (list == nullptr) return index_of(type);
  const Binding* last = nullptr;
  for (const Binding& b : *list) {
    if (b.end <= pos) last = &b;
  }
  if (last == nullptr || last->is_augmented || !Is(last->value, "call")) return -1;
  TSNode function = ts_node_child_by_field_name(last->value, "function", 8);
  TSNode attribute = ts_node_is_null(function) || !Is(function, "attribute")
                         ? TSNode{}
                         : ts_node_child_by_field_name(function, "attribute", 9);
  if (ts_node_is_null(attribute) || model_.Text(attribute) != "get") return -1;
  CallArguments args = SplitArguments(model_, ts_node_child_by_field_name(last->value, "arguments", 9));
  if (args.has_splat || args.positional.size() != 2 || !args.keywords.empty()) return -1;
  if (!Is(args.positional[0], "identifier") || !Is(args.positional[1], "identifier") ||
      model_.Text(args.positional[0]) != model_.Text(args.positional[1])) {
    return -1;
  }
  return index_of(model_.Text(args.positional[1]));
}

void FileExtraction::NoteRaisingHelper(const Site& site, int scope, uint32_t pos, FileFacts* facts) {
  // `def _warn(msg): warnings.warn(msg, DeprecationWarning)` hands its callers' text to a warning the same way.
  if ((site.kind != "raise" && site.kind != "warn") || !site.template_text || scope <= 0) return;
  const Scope& s = model_.scopes[static_cast<size_t>(scope)];
  if (s.kind != Scope::kFunction) return;
  std::vector<TemplatePart> parts = ParseRenderedTemplate(*site.template_text);
  if (parts.size() != 1 || !parts[0].placeholder) return;
  for (size_t i = 0; i < s.parameters.size(); ++i) {
    if (s.parameters[i] != parts[0].text) continue;
    RaisingHelper helper;
    helper.function = s.qualname;
    helper.name = s.name;
    helper.is_method = s.parent > 0 && model_.scopes[static_cast<size_t>(s.parent)].kind == Scope::kClass;
    helper.param_index = static_cast<int>(i);
    helper.param = s.parameters[i];
    helper.line = site.line;
    helper.col = site.col;
    if (site.kind == "raise" && site.type) {
      const int type_param = ClassParameter(*site.type, scope, pos);
      if (type_param >= 0 && static_cast<size_t>(type_param) != i) {
        helper.type_param_index = type_param;
        helper.type_param = s.parameters[static_cast<size_t>(type_param)];
      }
    }
    facts->raising_helpers.push_back(std::move(helper));
    return;
  }
}

void FileExtraction::NoteCallableInstanceHelpers(TSNode root, FileFacts* facts) {
  std::unordered_map<std::string, size_t> call_helpers;  // class name -> its `__call__` helper
  for (size_t i = 0; i < facts->raising_helpers.size(); ++i) {
    const RaisingHelper& h = facts->raising_helpers[i];
    const size_t dot = h.function.find('.');
    if (h.is_method && h.name == "__call__" && dot != std::string::npos && dot == h.function.rfind('.')) {
      call_helpers.emplace(h.function.substr(0, dot), i);
    }
  }
  if (call_helpers.empty()) return;
  const uint32_t n = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode statement = ts_node_named_child(root, i);
    if (!Is(statement, "expression_statement") || ts_node_named_child_count(statement) != 1) continue;
    TSNode assignment = ts_node_named_child(statement, 0);
    if (!Is(assignment, "assignment")) continue;
    TSNode left = ts_node_child_by_field_name(assignment, "left", 4);
    TSNode right = ts_node_child_by_field_name(assignment, "right", 5);
    if (ts_node_is_null(left) || ts_node_is_null(right) || !Is(left, "identifier") || !Is(right, "call")) continue;
    TSNode called = ts_node_child_by_field_name(right, "function", 8);
    TSNode arguments = ts_node_child_by_field_name(right, "arguments", 9);
    if (ts_node_is_null(called) || !Is(called, "identifier") || ts_node_is_null(arguments) ||
        ts_node_named_child_count(arguments) != 0) {
      continue;
    }
    auto helper = call_helpers.find(std::string(model_.Text(called)));
    if (helper == call_helpers.end()) continue;
    RaisingHelper alias = facts->raising_helpers[helper->second];
    if (alias.param_index < 1) continue;
    // Called by the instance's name, as a function (`fail(msg)`, `pytest.fail(msg)`): `self` is bound already.
    alias.name = std::string(model_.Text(left));
    alias.is_method = false;
    alias.param_index -= 1;
    if (alias.type_param_index >= 0) alias.type_param_index -= 1;
    facts->raising_helpers.push_back(std::move(alias));
  }
}

void FileExtraction::EmitMessageCall(const PendingCall& pending, FileFacts* facts) {
  // Logging and output calls hand text to no raise: skip them rather than store every log message.
  static const std::unordered_set<std::string_view> kNotHelpers = {
      "print",      "debug",      "info", "warning", "warn",        "exception", "critical",     "log",
      "write",      "append",     "echo", "secho",   "assertEqual", "assertIn",  "assertRaises", "assertRaisesRegex",
      "assertTrue", "assertFalse"};
  std::string_view name = model_.Text(pending.name);
  // `logger.warn("text")` logs; `self.warn(PytestCollectionWarning("text"))` (pytest's Node.warn) hands a
  // warning instance to a helper that issues it: kept when an argument is an instance of a Warning class.
  // (`warnings.warn(...)` itself is a site, not a call of a helper.)
  const bool warns_instance = name == "warn" && !(!ts_node_is_null(pending.receiver) &&
                                                  warnings_modules_.count(std::string(model_.Text(pending.receiver))));
  if (kNotHelpers.count(name) && !warns_instance) return;
  if (ts_node_has_error(pending.statement)) return;
  const uint32_t start = ts_node_start_byte(pending.statement);
  const uint32_t end = ts_node_end_byte(pending.statement);
  if (ErrorRegionStart(start, end) >= 0) return;
  const int scope = model_.ScopeAt(start, end);
  // The call: the statement itself, the value assigned (`data = _fail_neg(data, errmsg)`) or returned.
  std::vector<TSNode> exprs = NamedChildren(pending.statement);
  if (!exprs.empty() && Is(exprs[0], "assignment")) exprs = {ts_node_child_by_field_name(exprs[0], "right", 5)};
  if (exprs.empty() || ts_node_is_null(exprs[0]) || !Is(exprs[0], "call")) return;
  CallArguments args = SplitArguments(model_, ts_node_child_by_field_name(exprs[0], "arguments", 9));
  if (args.has_splat) return;
  MessageCall call;
  constexpr size_t kMaxArguments = 4;
  for (size_t i = 0; i < args.positional.size() && i < kMaxArguments; ++i) {
    Template t = builder_.Build(args.positional[i], scope, start);
    if (t.HasLiteralText()) {
      call.arguments.push_back({static_cast<int>(i), "", t.Render(), ""});
    } else if (std::optional<RaisedInstance> instance = InstanceArgument(args.positional[i], scope, start)) {
      call.arguments.push_back({static_cast<int>(i), "", instance->message, instance->type});
    } else if (NamesAClass(model_, Unparenthesize(args.positional[i])) &&
               model_.Text(args.positional[i]).size() <= 128) {
      call.class_arguments.emplace_back(static_cast<int>(i), std::string(model_.Text(args.positional[i])));
    }
  }
  for (const auto& [keyword, value] : args.keywords) {
    Template t = builder_.Build(value, scope, start);
    if (t.HasLiteralText()) call.arguments.push_back({-1, std::string(keyword), t.Render(), ""});
    if (call.arguments.size() >= 2 * kMaxArguments) break;
  }
  if (call.arguments.empty()) return;
  if (warns_instance && std::none_of(call.arguments.begin(), call.arguments.end(), [](const MessageCall::Argument& a) {
        return a.instance_type.ends_with("Warning");
      })) {
    return;
  }
  call.name = std::string(name);
  call.receiver = ts_node_is_null(pending.receiver) ? "" : std::string(model_.Text(pending.receiver));
  if (call.receiver.size() > 64) call.receiver = call.receiver.substr(0, 64);
  call.function = model_.scopes[static_cast<size_t>(scope)].qualname;
  TSPoint point = ts_node_start_point(pending.statement);
  call.line = static_cast<int>(point.row) + 1;
  call.col = static_cast<int>(point.column);
  facts->message_calls.push_back(std::move(call));
}

namespace {

// Bytes of literal text other than white space: a printed text says something only with enough of them.
size_t LiteralBytes(const Template& t) {
  size_t n = 0;
  for (const TemplatePart& p : t.parts()) {
    if (p.placeholder) continue;
    for (char c : p.text) n += std::isspace(static_cast<unsigned char>(c)) ? 0 : 1;
  }
  return n;
}

// Fewer literal bytes are too common a text to stand for one exception class (`Error: {e}`, `ERROR: {msg}`).
constexpr size_t kMinHandlerTextBytes = 12;

}  // namespace

void FileExtraction::NoteHandlerText(const PendingCall& pending, FileFacts* facts) {
  if (!Is(pending.statement, "expression_statement") || ts_node_has_error(pending.statement)) return;
  const std::vector<TSNode> exprs = NamedChildren(pending.statement);
  if (exprs.size() != 1 || !Is(exprs[0], "call")) return;
  const uint32_t start = ts_node_start_byte(pending.statement);
  const uint32_t end = ts_node_end_byte(pending.statement);
  if (ErrorRegionStart(start, end) >= 0) return;
  const std::string_view name = model_.Text(pending.name);
  const std::string_view receiver =
      ts_node_is_null(pending.receiver) ? std::string_view() : model_.Text(pending.receiver);
  const bool output = IsOutputCall(name, receiver);
  std::optional<ExceptHandler> handler = EnclosingExceptHandler(pending.statement, source_);
  if (!output && (!handler || handler->name.empty() || !receiver.empty() || handler->types.empty())) return;
  const int scope = model_.ScopeAt(start, end);
  const Scope& sc = model_.scopes[static_cast<size_t>(scope)];
  CallArguments args = SplitArguments(model_, ts_node_child_by_field_name(exprs[0], "arguments", 9));
  const int line = static_cast<int>(ts_node_start_point(pending.statement).row) + 1;
  if (!output) {  // `report(e, ...)`: the function may print what the handler caught
    for (TSNode a : args.positional) {
      if (Is(a, "identifier") && model_.Text(a) == handler->name) {
        const int handler_line = static_cast<int>(ts_node_start_point(handler->clause).row) + 1;
        report_calls_.push_back({std::string(name), handler->types, handler_line, sc.qualname});
        break;
      }
    }
    return;
  }
  if (args.positional.empty()) return;
  const Template t = builder_.Build(args.positional[0], scope, start);
  if (LiteralBytes(t) < kMinHandlerTextBytes) return;
  if (!handler) {
    // A module-level function's text, for the handlers that call it with what they caught.
    if (sc.kind == Scope::kFunction && sc.parent == 0) function_outputs_[sc.qualname].emplace_back(t.Render(), line);
    return;
  }
  const int handler_line = static_cast<int>(ts_node_start_point(handler->clause).row) + 1;
  for (const std::string& type : handler->types) {
    if (facts->handler_texts.size() >= kMaxHandlerTextsPerFile) return;
    facts->handler_texts.push_back({type, t.Render(), line, sc.qualname, handler_line, sc.qualname});
  }
}

void FileExtraction::LinkReporterTexts(FileFacts* facts) {
  for (const ReportCall& call : report_calls_) {
    auto texts = function_outputs_.find(call.name);
    if (texts == function_outputs_.end()) continue;
    for (const auto& [text, line] : texts->second) {
      for (const std::string& type : call.types) {
        if (facts->handler_texts.size() >= kMaxHandlerTextsPerFile) return;
        facts->handler_texts.push_back({type, text, line, call.name, call.handler_line, call.handler_function});
      }
    }
  }
  std::stable_sort(facts->handler_texts.begin(), facts->handler_texts.end(),
                   [](const HandlerText& a, const HandlerText& b) { return a.handler_line < b.handler_line; });
}

std::string FileExtraction::RaisesApi(TSNode call) const {
  // Which names are such APIs, and how they are called: src/python/data/raises_apis.tsv.
  TSNode function = ts_node_child_by_field_name(call, "function", 8);
  if (ts_node_is_null(function)) return "";
  if (Is(function, "attribute")) {
    TSNode object = ts_node_child_by_field_name(function, "object", 6);
    TSNode attribute = ts_node_child_by_field_name(function, "attribute", 9);
    if (ts_node_is_null(object) || ts_node_is_null(attribute)) return "";
    const RaisesApiRule* rule = FindRaisesApi(model_.Text(attribute), /*attribute=*/true);
    if (rule == nullptr) return "";
    if (rule->called_as != RaisesApiRule::CalledAs::kPytest) return rule->api;
    const bool on_pytest = Is(object, "identifier") && pytest_modules_.count(std::string(model_.Text(object)));
    return on_pytest ? rule->api : "";
  }
  if (!Is(function, "identifier")) return "";
  if (raises_functions_.count(std::string(model_.Text(function)))) return "pytest.raises";
  const RaisesApiRule* rule = FindRaisesApi(model_.Text(function), /*attribute=*/false);
  return rule != nullptr && rule->called_as != RaisesApiRule::CalledAs::kPytest ? rule->api : "";
}

namespace {

// Python's re.escape (3.7+): the characters it escapes with a backslash.
std::string PythonReEscape(std::string_view text) {
  static constexpr std::string_view kSpecial = "()[]{}?*+-|^$\\.&~# \t\n\r\v\f";
  std::string out;
  for (char c : text) {
    if (kSpecial.find(c) != std::string_view::npos) out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::string FileExtraction::MatchPattern(TSNode expr) {
  expr = Unparenthesize(expr);
  std::string value;
  if (builder_.LiteralValue(expr, &value)) return value;
  // `re.escape("literal")` and `re.compile("literal")` say the pattern as plainly as a literal does.
  if (Is(expr, "call")) {
    std::string_view function = model_.Text(ts_node_child_by_field_name(expr, "function", 8));
    CallArguments args = SplitArguments(model_, ts_node_child_by_field_name(expr, "arguments", 9));
    if (args.has_splat || args.positional.empty() || !builder_.LiteralValue(args.positional[0], &value)) return "";
    if (function == "re.escape" || function == "escape") return PythonReEscape(value);
    if (function == "re.compile") return value;
  }
  return "";
}

void FileExtraction::AddRaisesTests(TSNode call, const std::string& api, bool call_form, TSNode statement,
                                    FileFacts* facts) {
  CallArguments args = SplitArguments(model_, ts_node_child_by_field_name(call, "arguments", 9));
  TSNode type{}, match{};
  if (!args.positional.empty() && args.leading_positional > 0) type = args.positional[0];
  for (const auto& [name, value] : args.keywords) {
    if ((name == "expected_exception" || name == "except_cls") && ts_node_is_null(type)) type = value;
  }
  if (ts_node_is_null(type)) return;
  // Where the API takes its pattern (src/python/data/raises_apis.tsv).
  const RaisesApiRule* rule = RaisesApiNamed(api);
  if (rule == nullptr) return;
  if (!rule->pattern_keyword.empty()) {
    if (rule->pattern_positional && args.leading_positional > 1) match = args.positional[1];
    for (const auto& [name, value] : args.keywords) {
      if (name == rule->pattern_keyword && ts_node_is_null(match)) match = value;
    }
  }
  // The callable follows the type (and the pattern).
  const size_t needed = rule->pattern_positional ? 3 : 2;
  if (call_form && args.leading_positional < needed) return;
  std::vector<TSNode> types;
  type = Unparenthesize(type);
  if (Is(type, "tuple")) {
    for (TSNode t : NamedChildren(type)) {
      if (!Is(t, "list_splat")) types.push_back(Unparenthesize(t));
    }
  } else {
    types.push_back(type);
  }
  constexpr size_t kMaxTypes = 8;
  if (types.size() > kMaxTypes) types.resize(kMaxTypes);
  const uint32_t start = ts_node_start_byte(statement);
  const uint32_t end = ts_node_end_byte(statement);
  RaisesTest test;
  test.function = model_.scopes[static_cast<size_t>(model_.ScopeAt(start, end))].qualname;
  test.line = static_cast<int>(ts_node_start_point(statement).row) + 1;
  const bool literal_message = rule->substring;  // Django's assertRaisesMessage: a substring, not a pattern
  if (!ts_node_is_null(match) && literal_message) {
    std::string value;
    if (builder_.LiteralValue(Unparenthesize(match), &value)) test.match = PythonReEscape(value);
  } else if (!ts_node_is_null(match)) {
    test.match = MatchPattern(match);
  }
  if (test.match.size() > kMaxRaisesTestCodeBytes) {  // cut on a UTF-8 boundary, without a marker
    size_t cut = kMaxRaisesTestCodeBytes;
    while (cut > 0 && (static_cast<unsigned char>(test.match[cut]) & 0xC0) == 0x80) --cut;
    if (literal_message) {  // not inside an escape: an odd run of trailing backslashes loses one
      size_t run = 0;
      while (run < cut && test.match[cut - 1 - run] == '\\') ++run;
      if (run % 2 == 1) --cut;
    }
    test.match.resize(cut);
  }
  test.kind = call_form ? api + "_call" : api;
  // The statement's text, its continuation lines dedented by its own column, so that it reads as code.
  const uint32_t column = ts_node_start_point(statement).column;
  std::string_view text = model_.Text(statement);
  if (text.size() > 4 * kMaxRaisesTestCodeBytes) text = text.substr(0, 4 * kMaxRaisesTestCodeBytes);
  std::string code;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r') continue;
    code.push_back(text[i]);
    if (text[i] != '\n') continue;
    size_t skip = 0;
    while (skip < column && i + 1 + skip < text.size() && (text[i + 1 + skip] == ' ' || text[i + 1 + skip] == '\t')) {
      ++skip;
    }
    if (skip == column) i += skip;
  }
  test.code = CutUtf8(code, kMaxRaisesTestCodeBytes);
  for (TSNode t : types) {
    test.type = CutUtf8(model_.Text(t), 256);
    facts->raises_tests.push_back(test);
  }
}

void FileExtraction::EmitRaisesCall(const PendingCall& pending, FileFacts* facts) {
  if (ts_node_has_error(pending.statement)) return;
  if (ErrorRegionStart(ts_node_start_byte(pending.statement), ts_node_end_byte(pending.statement)) >= 0) return;
  std::vector<TSNode> exprs = NamedChildren(pending.statement);
  if (exprs.empty() || !Is(exprs[0], "call")) return;
  const std::string api = RaisesApi(exprs[0]);
  if (!api.empty() && RaisesApiNamed(api)->call_form) {
    AddRaisesTests(exprs[0], api, /*call_form=*/true, pending.statement, facts);
  }
}

void FileExtraction::EmitRaisesWith(TSNode with, FileFacts* facts) {
  TSNode clause{};
  for (TSNode c : NamedChildren(with)) {
    if (Is(c, "with_clause")) clause = c;
  }
  if (ts_node_is_null(clause) || ts_node_has_error(clause)) return;
  if (ErrorRegionStart(ts_node_start_byte(with), ts_node_end_byte(with)) >= 0) return;
  for (TSNode item : NamedChildren(clause)) {
    if (!Is(item, "with_item")) continue;
    TSNode value = ts_node_child_by_field_name(item, "value", 5);
    if (ts_node_is_null(value)) continue;
    if (Is(value, "as_pattern")) {
      std::vector<TSNode> inner = NamedChildren(value);
      if (inner.empty()) continue;
      value = inner[0];
    }
    value = Unparenthesize(value);
    if (!Is(value, "call")) continue;
    const std::string api = RaisesApi(value);
    if (!api.empty() && RaisesApiNamed(api)->with_form) AddRaisesTests(value, api, /*call_form=*/false, with, facts);
  }
}

// ---- The program facts (docs/extraction.md, "Program facts") ----

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

int FileExtraction::NonLambdaScope(int scope) const {
  while (scope > 0 && model_.scopes[static_cast<size_t>(scope)].kind == Scope::kLambda) {
    scope = model_.scopes[static_cast<size_t>(scope)].parent;
  }
  return std::max(scope, 0);
}

std::string FileExtraction::SourceLine(uint32_t row) const {
  if (row >= line_starts_.size()) return "";
  const uint32_t from = line_starts_[row];
  const uint32_t to = row + 1 < line_starts_.size() ? line_starts_[row + 1] : static_cast<uint32_t>(source_.size());
  std::string_view line = source_.substr(from, to - from);
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'; };
  while (!line.empty() && blank(line.front())) line.remove_prefix(1);
  while (!line.empty() && blank(line.back())) line.remove_suffix(1);
  return CutUtf8(line, kMaxCallCodeBytes);
}

std::string FileExtraction::StatementCode(TSNode statement) const {
  std::string code = CutUtf8(model_.Text(statement), kMaxStateCodeBytes + 64);
  code.erase(std::remove(code.begin(), code.end(), '\r'), code.end());
  return CutUtf8(code, kMaxStateCodeBytes);
}

void FileExtraction::EmitFunctions(FileFacts* facts) {
  for (size_t i = 1; i < model_.scopes.size(); ++i) {
    const Scope& scope = model_.scopes[i];
    if (scope.kind != Scope::kFunction) continue;
    FunctionDef def;
    def.qualname = scope.qualname;
    def.is_method = scope.parent > 0 && model_.scopes[static_cast<size_t>(scope.parent)].kind == Scope::kClass;
    TSNode first = scope.node;
    if (auto it = decorated_.find(scope.node.id); it != decorated_.end()) {
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
    for (int depth = 0; depth < 2 * options_.max_nesting; ++depth) {
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

void FileExtraction::EmitCalls(FileFacts* facts) {
  std::string callee;
  for (const auto& [call, function] : pending_model_calls_) {
    if (facts->calls.size() >= kMaxCallsPerFile) break;
    callee.clear();
    if (!AppendDottedName(model_, function, 0, &callee)) continue;
    const int scope = SoundScope(call, &model_checks_);
    if (scope < 0) continue;
    CallFact fact;
    fact.function = model_.scopes[static_cast<size_t>(NonLambdaScope(scope))].qualname;
    const TSPoint point = ts_node_start_point(function);
    fact.line = static_cast<int>(point.row) + 1;
    fact.col = static_cast<int>(point.column);
    fact.code = SourceLine(point.row);
    fact.callee = callee;
    facts->calls.push_back(std::move(fact));
    if (scope == 0) NoteAllCall(call, callee);
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

bool FileExtraction::IsClassBody(int scope) const {
  if (scope <= 0 || model_.scopes[static_cast<size_t>(scope)].kind != Scope::kClass) return false;
  for (int s = model_.scopes[static_cast<size_t>(scope)].parent; s > 0;
       s = model_.scopes[static_cast<size_t>(s)].parent) {
    if (model_.scopes[static_cast<size_t>(s)].kind != Scope::kClass) return false;  // nested in a function
  }
  return true;
}

void FileExtraction::AddWriteTargets(TSNode target, int scope, const char* kind, int line, const std::string& code,
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

void FileExtraction::NoteAll(TSNode statement, TSNode target, FileFacts* facts) {
  if (!Is(target, "identifier") || model_.Text(target) != "__all__") return;
  const bool augmented = Is(statement, "augmented_assignment");
  if (augmented) {
    TSNode op = FieldOf(statement, PythonFields().operator_);
    if (ts_node_is_null(op) || model_.Text(op) != "+=") return;
  }
  TSNode value = FieldOf(statement, PythonFields().right);
  if (ts_node_is_null(value)) return;
  value = Unparenthesize(value);
  if (!Is(value, "list") && !Is(value, "tuple") && !Is(value, "expression_list")) {
    all_unknown_ = true;  // `__all__ = base.__all__ + [...]`, `__all__ += other.__all__`
    return;
  }
  if (!augmented) facts->all_names.clear();
  facts->has_all = true;
  for (TSNode element : NamedChildren(value)) {
    std::string name;
    if (!builder_.LiteralValue(element, &name)) {
      all_unknown_ = true;
    } else if (facts->all_names.size() < kMaxStateWritesPerFile) {
      facts->all_names.push_back(std::move(name));
    }
  }
}

void FileExtraction::NoteAllCall(TSNode call, const std::string& callee) {
  if (callee != "__all__.append" && callee != "__all__.extend") return;
  CallArguments args = SplitArguments(model_, FieldOf(call, PythonFields().arguments));
  if (args.leading_positional != 1) {
    all_unknown_ = true;
    return;
  }
  std::vector<TSNode> elements = {args.positional[0]};
  if (callee == "__all__.extend") {
    TSNode value = Unparenthesize(args.positional[0]);
    if (!Is(value, "list") && !Is(value, "tuple")) {
      all_unknown_ = true;  // `__all__.extend(os._get_exports_list(_socket))`
      return;
    }
    elements = NamedChildren(value);
  }
  for (TSNode element : elements) {
    std::string name;
    if (!builder_.LiteralValue(element, &name)) {
      all_unknown_ = true;
      return;
    }
    if (all_additions_.size() < kMaxStateWritesPerFile) all_additions_.push_back(std::move(name));
  }
}

// A `__all__` with a part that is not a literal is not known: the file then has none (has_all false), so
// that every public name counts (docs/extraction.md) rather than the literal part only.
void FileExtraction::FinishAll(FileFacts* facts) {
  if (all_unknown_) {
    facts->has_all = false;
    facts->all_names.clear();
    return;
  }
  if (!facts->has_all) return;
  for (std::string& name : all_additions_) {
    if (facts->all_names.size() >= kMaxStateWritesPerFile) break;
    facts->all_names.push_back(std::move(name));
  }
}

void FileExtraction::EmitStateWrites(FileFacts* facts) {
  for (TSNode g : pending_globals_) {
    const int scope = model_.ScopeAt(ts_node_start_byte(g), ts_node_end_byte(g));
    for (TSNode name : NamedChildren(g)) {
      if (Is(name, "identifier")) globals_[scope].insert(model_.Text(name));
    }
  }
  for (TSNode statement : pending_state_) {
    if (facts->state_writes.size() >= kMaxStateWritesPerFile) break;
    const int sound = SoundScope(statement, &model_checks_);
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
      NoteAll(statement, targets[0], facts);
    }
    const std::string code = StatementCode(statement);
    for (TSNode target : targets) AddWriteTargets(target, scope, kind, line, code, 0, facts);
  }
  // setattr/delattr calls were added while reading calls: all writes in source order.
  std::stable_sort(facts->state_writes.begin(), facts->state_writes.end(),
                   [](const StateWrite& a, const StateWrite& b) { return a.line < b.line; });
}

bool FileExtraction::Run(TSNode root, const TSQuery* query, const QueryTables& tables, FileFacts* facts) {
  line_starts_.push_back(0);
  for (uint32_t i = 0; i < source_.size(); ++i) {
    if (source_[i] == '\n') line_starts_.push_back(i + 1);
  }
  root_ = root;
  Collect(root, query, tables);

  if (!model_.FinishScopes(options_.max_scope_depth)) return false;
  std::sort(errors_.begin(), errors_.end());
  for (Scope& scope : model_.scopes) {
    if (scope.kind != Scope::kFunction && scope.kind != Scope::kLambda) continue;
    TSNode params = ts_node_child_by_field_name(scope.node, "parameters", 10);
    if (!ts_node_is_null(params)) scope.parameters = AllParameterNames(model_, params);
  }
  for (const PendingImport& im : pending_imports_) AddImport(im, facts);
  for (const PendingBinding& b : pending_bindings_) {
    // Only single-name targets count: neither `a` nor `b` of `a = b = VALUE` is bound.
    if (Is(b.value, "assignment")) continue;
    TSNode parent = ts_node_parent(b.statement);
    if (!ts_node_is_null(parent) && Is(parent, "assignment")) continue;
    Binding binding;
    binding.start = ts_node_start_byte(b.statement);
    binding.end = ts_node_end_byte(b.statement);
    binding.is_augmented = b.augmented;
    binding.value = b.value;
    model_.AddBinding(model_.ScopeAt(binding.start, binding.end), model_.Text(b.name), binding);
  }
  model_.FinishBindings();
  FindHelpersAndClasses(facts);
  for (const RawSite& raw : raw_sites_) EmitSite(raw, facts);
  NoteCallableInstanceHelpers(root, facts);
  {
    std::vector<std::vector<Condition>> conditions;
    PathConditions(source_, root).Compute(site_nodes_, &conditions);
    for (size_t i = 0; i < conditions.size() && i < facts->sites.size(); ++i) {
      facts->sites[i].conditions = std::move(conditions[i]);
    }
  }
  for (const PendingCall& call : pending_calls_) {
    EmitMessageCall(call, facts);
    EmitRaisesCall(call, facts);
    NoteHandlerText(call, facts);
  }
  LinkReporterTexts(facts);
  for (TSNode with : pending_withs_) EmitRaisesWith(with, facts);
  EmitFunctions(facts);
  EmitCalls(facts);
  EmitStateWrites(facts);
  FinishAll(facts);
  std::stable_sort(facts->raises_tests.begin(), facts->raises_tests.end(),
                   [](const RaisesTest& a, const RaisesTest& b) { return a.line < b.line; });
  std::sort(facts->sites.begin(), facts->sites.end(),
            [](const Site& a, const Site& b) { return a.line != b.line ? a.line < b.line : a.col < b.col; });
  if (ts_node_has_error(root)) {
    facts->status = "partial";
    facts->reason = "syntax_error";
  }
  return true;
}

}  // namespace

PythonExtractor::PythonExtractor(std::unique_ptr<Compiled> compiled) : compiled_(std::move(compiled)) {}

PythonExtractor::~PythonExtractor() = default;

std::unique_ptr<PythonExtractor> PythonExtractor::Create(std::string* error) {
  std::string source;
  std::vector<std::string_view> names;
  for (const EmbeddedFile& q : EmbeddedPythonFiles()) {
    if (!q.name.starts_with("queries/") || !q.name.ends_with(".scm")) continue;
    source.append(q.text);
    source.push_back('\n');
  }
  uint32_t error_offset = 0;
  TSQueryError error_type = TSQueryErrorNone;
  TSQuery* query = ts_query_new(tree_sitter_python(), source.data(), static_cast<uint32_t>(source.size()),
                                &error_offset, &error_type);
  if (query == nullptr) {
    size_t line_start = source.rfind('\n', error_offset == 0 ? 0 : error_offset - 1);
    size_t line_end = source.find('\n', error_offset);
    *error = "src/python/queries: error " + std::to_string(static_cast<int>(error_type)) + " near: " +
             source.substr(line_start == std::string::npos ? 0 : line_start + 1,
                           line_end == std::string::npos ? std::string::npos : line_end - line_start - 1);
    return nullptr;
  }
  auto compiled = std::make_unique<Compiled>();
  compiled->query = query;
  QueryTables& tables = compiled->tables;
  for (uint32_t i = 0; i < ts_query_capture_count(query); ++i) {
    uint32_t len = 0;
    const char* name = ts_query_capture_name_for_id(query, i, &len);
    tables.roles.push_back(RoleOf(std::string_view(name, len)));
  }
  // The node type each pattern starts with, read from its text: `(raise_statement ...)`.
  {
    const TSLanguage* language = tree_sitter_python();
    std::set<std::string> root_names;
    bool known = true;
    for (uint32_t p = 0; p < ts_query_pattern_count(query); ++p) {
      size_t i = ts_query_start_byte_for_pattern(query, p);
      while (i < source.size() && (source[i] == ' ' || source[i] == '\n' || source[i] == '\t')) ++i;
      if (i >= source.size() || source[i] != '(') {
        known = false;
        break;
      }
      size_t j = ++i;
      while (j < source.size() && (std::isalnum(static_cast<unsigned char>(source[j])) || source[j] == '_')) ++j;
      std::string name = source.substr(i, j - i);
      if (name.empty() || name == "_") {
        known = false;
        break;
      }
      root_names.insert(name);
    }
    const uint32_t symbols = ts_language_symbol_count(language);
    tables.root_symbols.assign(symbols, false);
    for (uint32_t sym = 0; sym < symbols; ++sym) {
      const auto symbol = static_cast<TSSymbol>(sym);
      if (ts_language_symbol_type(language, symbol) != TSSymbolTypeRegular) continue;
      if (root_names.count(ts_language_symbol_name(language, symbol))) tables.root_symbols[sym] = true;
    }
    tables.roots_known = known;
  }
  for (uint32_t p = 0; p < ts_query_pattern_count(query); ++p) {
    uint32_t steps = 0;
    const TSQueryPredicateStep* step = ts_query_predicates_for_pattern(query, p, &steps);
    std::vector<TextPredicate> predicates;
    // Steps form `(#op @capture "text")` groups separated by Done.
    std::vector<TSQueryPredicateStep> group;
    for (uint32_t i = 0; i <= steps; ++i) {
      if (i < steps && step[i].type != TSQueryPredicateStepTypeDone) {
        group.push_back(step[i]);
        continue;
      }
      if (group.empty()) continue;
      uint32_t len = 0;
      std::string op = ts_query_string_value_for_id(query, group[0].value_id, &len);
      if ((op == "eq?" || op == "not-eq?") && group.size() == 3 && group[1].type == TSQueryPredicateStepTypeCapture &&
          group[2].type == TSQueryPredicateStepTypeString) {
        predicates.push_back(
            {group[1].value_id, ts_query_string_value_for_id(query, group[2].value_id, &len), op == "not-eq?"});
      } else {
        *error = "src/python/queries: unsupported predicate #" + op;
        return nullptr;
      }
      group.clear();
    }
    tables.predicates.push_back(std::move(predicates));
  }
  return std::unique_ptr<PythonExtractor>(new PythonExtractor(std::move(compiled)));
}

FileFacts PythonExtractor::Extract(std::string_view content, const ExtractOptions& options) const {
  FileFacts facts;
  auto skip = [&](const char* reason) {
    facts.status = "skipped";
    facts.reason = reason;
    return facts;
  };
  if (content.size() > options.max_file_size) return skip("too_large");
  if (content.substr(0, 3) == "\xEF\xBB\xBF") content.remove_prefix(3);  // CPython ignores a BOM
  if (std::memchr(content.data(), '\0', content.size()) != nullptr) return skip("binary");
  if (!IsValidUtf8(content)) return skip("not_utf8");

  // One parser per thread, reused across files: creating one per file costs allocations.
  struct ThreadParser {
    TSParser* parser = ts_parser_new();
    ThreadParser() { ts_parser_set_language(parser, tree_sitter_python()); }
    ~ThreadParser() { ts_parser_delete(parser); }
  };
  thread_local ThreadParser thread_parser;
  TSParser* parser = thread_parser.parser;
  DeadlinePayload deadline{std::chrono::steady_clock::now() + std::chrono::milliseconds(options.parse_timeout_ms)};
  TSParseOptions parse_options{&deadline, &ParseProgress};
  TSInput input{};
  struct Text {
    std::string_view text;
  } text{content};
  input.payload = &text;
  input.encoding = TSInputEncodingUTF8;
  input.read = [](void* payload, uint32_t byte, TSPoint, uint32_t* bytes_read) -> const char* {
    auto* t = static_cast<Text*>(payload);
    if (byte >= t->text.size()) {
      *bytes_read = 0;
      return "";
    }
    *bytes_read = static_cast<uint32_t>(t->text.size() - byte);
    return t->text.data() + byte;
  };
  TSTree* tree = ts_parser_parse_with_options(parser, nullptr, input, parse_options);
  ts_parser_reset(parser);
  if (tree == nullptr) return skip(deadline.expired ? "timeout" : "parse_failed");
  TSNode root = ts_tree_root_node(tree);
  if (BracketDepth(content) > 200 && TreeDepth(root, options.max_nesting) > options.max_nesting) {
    ts_tree_delete(tree);
    return skip("too_deep");
  }
  FileExtraction extraction(content, options);
  if (!extraction.Run(root, compiled_->query, compiled_->tables, &facts)) {
    ts_tree_delete(tree);
    facts = FileFacts();
    return skip("too_deep");
  }
  if (options.flow_facts) facts.flow = ExtractPythonFlowFacts(root, content, &facts.flow_truncated);
  ts_tree_delete(tree);
  return facts;
}

}  // namespace errdex
