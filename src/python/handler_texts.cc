#include "python/handler_texts.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <unordered_map>

#include "python/embedded_data.h"
#include "python/python_fields.h"
#include "python/python_template_builder.h"
#include "python/wrapped_errors.h"

namespace errdex {
namespace {

// name -> receiver it must be called on ("*": any).
const std::unordered_multimap<std::string_view, std::string_view>& OutputCalls() {
  static const std::unordered_multimap<std::string_view, std::string_view> table = [] {
    std::unordered_multimap<std::string_view, std::string_view> t;
    for (const std::vector<std::string_view>& row : EmbeddedPythonTable("data/output_calls.tsv")) {
      if (row.size() >= 2 && !row[0].empty()) t.emplace(row[0], row[1]);
    }
    return t;
  }();
  return table;
}

}  // namespace

bool IsOutputCall(std::string_view name, std::string_view receiver) {
  auto [first, last] = OutputCalls().equal_range(name);
  for (auto it = first; it != last; ++it) {
    if (it->second == "*" || it->second == receiver) return true;
  }
  return false;
}

std::optional<ExceptHandler> EnclosingExceptHandler(TSNode node, std::string_view source) {
  TSNode child = node;
  TSNode parent = ts_node_parent(node);
  for (int depth = 0; depth < 64 && !ts_node_is_null(parent); ++depth) {
    if (Is(parent, "function_definition") || Is(parent, "class_definition") || Is(parent, "lambda")) break;
    if ((Is(parent, "except_clause") || Is(parent, "except_group_clause")) && Is(child, "block")) {
      // The header: from `except` to the start of the body.
      const uint32_t start = ts_node_start_byte(parent);
      const uint32_t end = ts_node_start_byte(child);
      if (end <= start || end > source.size()) return std::nullopt;
      std::string header(source.substr(start, end - start));
      while (!header.empty() && header.back() != ':') header.pop_back();
      std::optional<WrappedErrors> parsed = ParseExceptHeader(header);
      if (!parsed) return std::nullopt;
      return ExceptHandler{std::move(parsed->types), std::move(parsed->name), parent};
    }
    child = parent;
    parent = ts_node_parent(parent);
  }
  return std::nullopt;
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

void HandlerTextReader::Note(const PendingCall& pending, FileFacts* facts) {
  if (!Is(pending.statement, "expression_statement") || ts_node_has_error(pending.statement)) return;
  const std::vector<TSNode> exprs = NamedChildren(pending.statement);
  if (exprs.size() != 1 || !Is(exprs[0], "call")) return;
  const uint32_t start = ts_node_start_byte(pending.statement);
  const uint32_t end = ts_node_end_byte(pending.statement);
  if (errors_.RegionStart(start, end) >= 0) return;
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

void HandlerTextReader::Link(FileFacts* facts) {
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

}  // namespace errdex
