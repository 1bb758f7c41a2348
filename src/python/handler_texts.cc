#include "python/handler_texts.h"

#include <cstring>
#include <unordered_map>

#include "python/embedded_data.h"
#include "python/python_fields.h"
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

}  // namespace errdex
