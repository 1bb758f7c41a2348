#include "catalog/stored_lists.h"

#include <nlohmann/json.hpp>

namespace errdex {
namespace {

// The items of a list of strings without escapes, or nothing when TEXT is not that simple shape.
std::optional<std::vector<std::string>> PlainStrings(std::string_view text) {
  if (text.find('\\') != std::string_view::npos || text.size() < 2 || text.front() != '[' || text.back() != ']') {
    return std::nullopt;
  }
  std::vector<std::string> items;
  std::string_view rest = text.substr(1, text.size() - 2);
  while (!rest.empty()) {
    if (rest.front() != '"') return std::nullopt;
    const size_t close = rest.find('"', 1);
    if (close == std::string_view::npos) return std::nullopt;
    items.emplace_back(rest.substr(1, close - 1));
    rest.remove_prefix(close + 1);
    if (rest.empty()) break;
    if (rest.front() != ',') return std::nullopt;
    rest.remove_prefix(1);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    if (rest.empty()) return std::nullopt;  // a trailing comma is no JSON
  }
  return items;
}

}  // namespace

std::vector<std::string> StoredStrings(std::string_view text) {
  if (text.empty() || text == "[]") return {};
  if (std::optional<std::vector<std::string>> plain = PlainStrings(text)) return std::move(*plain);
  std::vector<std::string> out;
  const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
  if (!parsed.is_array()) return out;
  for (const auto& item : parsed) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

std::optional<std::string> StoredStringsText(const std::vector<std::string>& list) {
  if (list.empty()) return std::nullopt;
  return nlohmann::json(list).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string StoredPrintedTextsText(const std::vector<PrintedText>& texts) {
  if (texts.empty()) return {};
  nlohmann::json list = nlohmann::json::array();
  for (const PrintedText& t : texts) {
    list.push_back({t.template_text, t.path, t.line, t.function, t.handler_line, t.handler_function});
  }
  return list.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<PrintedText> StoredPrintedTexts(std::string_view text) {
  std::vector<PrintedText> out;
  if (text.empty()) return out;
  const nlohmann::json printed = nlohmann::json::parse(text, nullptr, false);
  if (!printed.is_array()) return out;
  for (const auto& p : printed) {
    if (!p.is_array() || p.size() < 6 || !p[0].is_string() || !p[1].is_string() || !p[2].is_number_integer() ||
        !p[3].is_string() || !p[4].is_number_integer() || !p[5].is_string()) {
      continue;
    }
    out.push_back({p[0].get<std::string>(), p[1].get<std::string>(), p[2].get<int>(), p[3].get<std::string>(),
                   p[4].get<int>(), p[5].get<std::string>()});
  }
  return out;
}

}  // namespace errdex
