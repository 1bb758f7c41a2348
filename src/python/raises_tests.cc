#include "python/raises_tests.h"

#include <string_view>
#include <vector>

#include "python/python_fields.h"
#include "python/raises_apis.h"
#include "util/utf8.h"

namespace errdex {

std::string RaisesTestReader::RaisesApi(TSNode call) const {
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
    const bool on_pytest = Is(object, "identifier") && imports_.IsPytestModule(std::string(model_.Text(object)));
    return on_pytest ? rule->api : "";
  }
  if (!Is(function, "identifier")) return "";
  if (imports_.IsRaisesFunction(std::string(model_.Text(function)))) return "pytest.raises";
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

std::string RaisesTestReader::MatchPattern(TSNode expr) {
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

void RaisesTestReader::AddRaisesTests(TSNode call, const std::string& api, bool call_form, TSNode statement,
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

void RaisesTestReader::ReadCall(const PendingCall& pending, FileFacts* facts) {
  if (ts_node_has_error(pending.statement)) return;
  if (errors_.RegionStart(ts_node_start_byte(pending.statement), ts_node_end_byte(pending.statement)) >= 0) return;
  std::vector<TSNode> exprs = NamedChildren(pending.statement);
  if (exprs.empty() || !Is(exprs[0], "call")) return;
  const std::string api = RaisesApi(exprs[0]);
  if (!api.empty() && RaisesApiNamed(api)->call_form) {
    AddRaisesTests(exprs[0], api, /*call_form=*/true, pending.statement, facts);
  }
}

void RaisesTestReader::ReadWith(TSNode with, FileFacts* facts) {
  TSNode clause{};
  for (TSNode c : NamedChildren(with)) {
    if (Is(c, "with_clause")) clause = c;
  }
  if (ts_node_is_null(clause) || ts_node_has_error(clause)) return;
  if (errors_.RegionStart(ts_node_start_byte(with), ts_node_end_byte(with)) >= 0) return;
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

}  // namespace errdex
