#include "python/wrapped_errors.h"

#include <cctype>
#include <nlohmann/json.hpp>

namespace errdex {

namespace {

std::string Trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

bool IsDottedName(const std::string& s) {
  if (s.empty() || s.front() == '.' || s.back() == '.') return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.') return false;
  }
  return !std::isdigit(static_cast<unsigned char>(s.front()));
}

// True when NAME is a whole word inside one of TEMPLATE's placeholders ("{e}", "{e!r}", "{str(e)}").
bool InPlaceholder(const std::string& tmpl, const std::string& name) {
  size_t open = 0;
  while ((open = tmpl.find('{', open)) != std::string::npos) {
    const size_t close = tmpl.find('}', open);
    if (close == std::string::npos) break;
    const std::string inner = tmpl.substr(open + 1, close - open - 1);
    for (size_t at = inner.find(name); at != std::string::npos; at = inner.find(name, at + 1)) {
      auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
      const bool before = at > 0 && (word(inner[at - 1]) || inner[at - 1] == '.');
      const bool after = at + name.size() < inner.size() && word(inner[at + name.size()]);
      if (!before && !after) return true;
    }
    open = close + 1;
  }
  return false;
}

}  // namespace

std::optional<WrappedErrors> ParseExceptHeader(const std::string& code) {
  std::string s = Trim(code);
  if (s.rfind("except", 0) != 0) return std::nullopt;
  s = s.substr(6);
  if (!s.empty() && s.front() == '*') s = s.substr(1);  // except* (exception groups)
  if (!s.empty() && !std::isspace(static_cast<unsigned char>(s.front())) && s.front() != '(' && s.front() != ':') {
    return std::nullopt;  // "exceptional = ..." is not a header
  }
  if (!s.empty() && s.back() == ':') s.pop_back();
  WrappedErrors out;
  std::string types = s;
  if (const size_t as = s.rfind(" as "); as != std::string::npos) {
    types = s.substr(0, as);
    out.name = Trim(s.substr(as + 4));
    if (!IsDottedName(out.name) || out.name.find('.') != std::string::npos) out.name.clear();
  }
  types = Trim(types);
  if (!types.empty() && types.front() == '(' && types.back() == ')') types = types.substr(1, types.size() - 2);
  size_t start = 0;
  while (start <= types.size()) {
    size_t comma = types.find(',', start);
    if (comma == std::string::npos) comma = types.size();
    const std::string t = Trim(types.substr(start, comma - start));
    if (IsDottedName(t)) out.types.push_back(t);
    start = comma + 1;
  }
  return out;
}

std::optional<std::string> WrappedErrorsJson(
    const Site& site, const std::function<std::optional<std::string>(const std::string&)>& resolve) {
  if (site.kind != "raise") return std::nullopt;
  std::optional<WrappedErrors> wrapped;
  for (auto it = site.conditions.rbegin(); it != site.conditions.rend() && !wrapped; ++it) {
    if (it->kind == "except") wrapped = ParseExceptHeader(it->code);
  }
  if (!wrapped || wrapped->types.empty()) return std::nullopt;
  nlohmann::json types = nlohmann::json::array();
  for (const std::string& t : wrapped->types) types.push_back(resolve(t).value_or(t));
  const bool passes = !wrapped->name.empty() && site.template_text && InPlaceholder(*site.template_text, wrapped->name);
  return nlohmann::json({{"types", types}, {"name", wrapped->name}, {"passes", passes}}).dump();
}

}  // namespace errdex
