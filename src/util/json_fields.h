// Reading the catalog's JSON records (show, explain, the stored analysis) in renderers and summaries,
// whatever shape a field turns out to have: a missing, null or mistyped field reads as absent, never as an
// exception.
//
// Threading: pure functions. Ownership: Get's result points into J.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace errdex {

// The field KEY of object J; null when J is not an object or the field is missing or null.
inline const nlohmann::json* Get(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return nullptr;
  return &*it;
}

// The string field KEY, or "" / nullopt when it is not a string.
inline std::string Str(const nlohmann::json& j, const char* key) {
  const nlohmann::json* v = Get(j, key);
  return v != nullptr && v->is_string() ? v->get<std::string>() : std::string();
}
inline std::optional<std::string> OptStr(const nlohmann::json& j, const char* key) {
  const nlohmann::json* v = Get(j, key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return v->get<std::string>();
}

// The integer field KEY, or 0 when it is not an integer.
inline int64_t Int(const nlohmann::json& j, const char* key) {
  const nlohmann::json* v = Get(j, key);
  return v != nullptr && v->is_number_integer() ? v->get<int64_t>() : 0;
}

}  // namespace errdex
