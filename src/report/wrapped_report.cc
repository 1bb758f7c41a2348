#include "report/wrapped_report.h"

#include <set>
#include <string>

namespace errdex {

namespace {

constexpr size_t kMaxWrappedTypes = 8;
constexpr size_t kMaxRaiseSites = 5;

bool SameClassAcrossPackages(const std::string& wanted, const std::string& found) {
  if (wanted == found) return true;
  const std::string top = wanted.substr(0, wanted.find('.') + 1);
  const std::string name = wanted.substr(wanted.rfind('.'));
  return found.rfind(top, 0) == 0 && found.size() > name.size() &&
         found.compare(found.size() - name.size(), name.size(), name) == 0;
}

// Appends to *RAISED the non-test raise sites of type FILTER_TYPE (as written or qualified) outside
// WRAPPING_REPO whose qualified type is WANTED, or WANTED's name within its top-level package.
void FindRaiseSites(Catalog& catalog, const std::string& wrapping_repo, const std::string& filter_type,
                    const std::string& wanted, nlohmann::json* raised) {
  SiteFilter filter;
  filter.type = filter_type;
  filter.limit = 500;
  catalog.ListSites(filter, [&](const SiteRow& r) {
    if (r.is_test || r.repo == wrapping_repo || r.kind != "raise" || raised->size() >= kMaxRaiseSites) return;
    if (!r.type_qualified || !SameClassAcrossPackages(wanted, *r.type_qualified)) return;
    nlohmann::json rev = r.commit    ? nlohmann::json(*r.commit)
                         : r.version ? nlohmann::json(*r.version)
                                     : nlohmann::json();
    raised->push_back({{"id", r.error_id},
                       {"repo", r.repo},
                       {"rev", std::move(rev)},
                       {"path", r.path},
                       {"line", r.line},
                       {"function", r.function}});
  });
}

}  // namespace

nlohmann::json WrappedErrorsOf(Catalog& catalog, const std::vector<SiteRow>& sites) {
  nlohmann::json out = nlohmann::json::array();
  std::set<std::string> seen;
  for (const SiteRow& s : sites) {
    if (s.is_test || !s.wraps) continue;
    nlohmann::json wraps = nlohmann::json::parse(*s.wraps, nullptr, /*allow_exceptions=*/false);
    if (!wraps.is_object() || !wraps.contains("types") || !wraps["types"].is_array()) continue;
    const bool passes = wraps.value("passes", false);
    for (const nlohmann::json& t : wraps["types"]) {
      if (!t.is_string() || out.size() >= kMaxWrappedTypes || !seen.insert(t.get<std::string>()).second) continue;
      const std::string type = t.get<std::string>();
      nlohmann::json raised = nlohmann::json::array();
      // Only a qualified type names one class across repositories; `OSError` as written does too little.
      if (type.find('.') != std::string::npos) {
        FindRaiseSites(catalog, s.repo, type, type, &raised);
        // A re-export (`from lownet import MaxRetryError`, defined in lownet.exceptions): the same name in
        // the same top-level package, as the defining distribution resolved it.
        if (raised.empty()) FindRaiseSites(catalog, s.repo, type.substr(type.rfind('.') + 1), type, &raised);
      }
      out.push_back({{"type", type},
                     {"passes", passes},
                     {"at", s.path + ":" + std::to_string(s.line)},
                     {"raised_at", std::move(raised)}});
    }
  }
  return out;
}

}  // namespace errdex
