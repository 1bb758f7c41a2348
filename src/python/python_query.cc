#include "python/python_query.h"

#include <cctype>
#include <map>
#include <set>

#include "python/embedded_data.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace errdex {

namespace python_query {

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

}  // namespace python_query

namespace {

using python_query::QueryTables;
using python_query::RoleOf;
using python_query::TextPredicate;

// The node type each pattern of QUERY (compiled from SOURCE) starts with, read from its text:
// `(raise_statement ...)`.
void ReadRootSymbols(const TSQuery* query, const std::string& source, QueryTables* tables) {
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
  tables->root_symbols.assign(symbols, false);
  for (uint32_t sym = 0; sym < symbols; ++sym) {
    const auto symbol = static_cast<TSSymbol>(sym);
    if (ts_language_symbol_type(language, symbol) != TSSymbolTypeRegular) continue;
    if (root_names.count(ts_language_symbol_name(language, symbol))) tables->root_symbols[sym] = true;
  }
  tables->roots_known = known;
}

// The text predicates of each pattern of QUERY; false (with *ERROR set) for a predicate other than
// #eq?/#not-eq?.
bool ReadPredicates(const TSQuery* query, QueryTables* tables, std::string* error) {
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
        return false;
      }
      group.clear();
    }
    tables->predicates.push_back(std::move(predicates));
  }
  return true;
}

}  // namespace

std::unique_ptr<PythonQuery> CompilePythonQuery(std::string* error) {
  std::string source;
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
  auto compiled = std::make_unique<PythonQuery>();
  compiled->query = query;
  QueryTables& tables = compiled->tables;
  for (uint32_t i = 0; i < ts_query_capture_count(query); ++i) {
    uint32_t len = 0;
    const char* name = ts_query_capture_name_for_id(query, i, &len);
    tables.roles.push_back(RoleOf(std::string_view(name, len)));
  }
  ReadRootSymbols(query, source, &tables);
  if (!ReadPredicates(query, &tables, error)) return nullptr;
  return compiled;
}

}  // namespace errdex
