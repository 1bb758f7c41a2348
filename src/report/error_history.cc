#include "report/error_history.h"

namespace errdex {

nlohmann::json ErrorHistoryJson(const std::string& id, const nlohmann::json& git, const nlohmann::json& versions) {
  const bool has_git = git.is_object() && git.contains("commit") && git["commit"].is_string();
  const nlohmann::json* line =
      versions.is_object() && versions.contains("line") && versions["line"].is_array() ? &versions["line"] : nullptr;
  size_t own = 0;
  bool found = false;
  if (line != nullptr) {
    for (; own < line->size(); ++own) {
      const nlohmann::json& entry = (*line)[own];
      if (entry.is_object() && entry.value("id", "") == id) {
        found = true;
        break;
      }
    }
  }
  if (!found) {
    if (!has_git) return nullptr;
    nlohmann::json out = git;
    out["source"] = "git";
    out["wording_since"] = nullptr;
    out["reaches_oldest"] = false;
    out["earlier"] = nlohmann::json::array();
    return out;
  }
  // The line starts at the oldest indexed revision when VERSIONS has no "since"; this wording does when it is
  // also the line's first.
  const bool line_reaches_oldest = !versions.contains("since") || versions["since"].is_null();
  const bool reaches_oldest = own == 0 && line_reaches_oldest;
  nlohmann::json out = has_git ? git : nlohmann::json::object();
  out["source"] = reaches_oldest && has_git ? "git" : "releases";
  out["wording_since"] = (*line)[own].value("from", "");
  out["reaches_oldest"] = reaches_oldest;
  nlohmann::json earlier = nlohmann::json::array();
  for (size_t i = 0; i < own; ++i) earlier.push_back((*line)[i]);
  out["earlier"] = std::move(earlier);
  return out;
}

}  // namespace errdex
