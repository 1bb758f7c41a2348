#include "analysis/site_reach.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "analysis/site_paths.h"

namespace errdex {
namespace {

void SetReachFromPaths(const std::vector<CallPath>& paths, SiteRow& site) {
  if (paths.empty()) return;
  // Certain paths come first, shortest first within each kind: the shortest of all is the answer.
  size_t shortest = paths.front().frames.size();
  for (const CallPath& p : paths) shortest = std::min(shortest, p.frames.size());
  site.reach_calls = static_cast<int>(shortest) - 1;
  site.reach_entries = static_cast<int>(paths.size());
}

// The name a caller writes to call the public function QUALNAME: its last component, or the class's for a
// constructor or `__call__` (`Header` for `Header.__init__`).
std::string_view CalledName(std::string_view qualname) {
  size_t dot = qualname.rfind('.');
  std::string_view last = dot == std::string_view::npos ? qualname : qualname.substr(dot + 1);
  if ((last == "__init__" || last == "__new__" || last == "__call__") && dot != std::string_view::npos) {
    std::string_view owner = qualname.substr(0, dot);
    const size_t owner_dot = owner.rfind('.');
    last = owner_dot == std::string_view::npos ? owner : owner.substr(owner_dot + 1);
  }
  return last;
}

std::string ReachVia(const GraphTriggers& triggers, const std::vector<GraphTriggers::NodeId>& reachers) {
  std::set<std::string_view> names;
  for (GraphTriggers::NodeId f : reachers) names.insert(CalledName(triggers.graph().nodes[f].qualname));
  std::string out;
  for (std::string_view name : names) {
    if (!out.empty()) out += ' ';
    out += name;
  }
  return out;
}

}  // namespace

void SetSiteReach(const CodeModel& model, const std::vector<CodeModel::File>& files, GraphTriggers* triggers,
                  std::vector<SiteRow>& sites) {
  // The facts' sites by (path, line, col): their path conditions decide which calls can reach them.
  std::map<std::tuple<std::string_view, int, int>, const Site*> facts_sites;
  if (triggers != nullptr) facts_sites = SitesByPlace(files);
  // Errors raised at several places of the revision outside tests: their sites are twins.
  std::unordered_map<std::string_view, int> places;
  for (const SiteRow& site : sites) {
    if (!site.is_test) ++places[site.error_id];
  }
  SitePaths paths(model, triggers);  // where each site's search starts; the sites of one function share it
  for (SiteRow& site : sites) {
    site.reach_calls.reset();
    site.reach_entries = 0;
    site.reach_via.reset();
    if (site.is_test) continue;
    if (triggers != nullptr) {
      if (triggers->NodeOf(site.path, site.function, site.line) == GraphTriggers::kNoNode) continue;
      // The extracted site at the row's place: its path conditions decide which calls can reach it.
      auto found = facts_sites.find({site.path, site.line, site.col});
      const Site* facts_site = found == facts_sites.end() ? nullptr : found->second;
      SetReachFromPaths(paths.Paths(site, facts_site, kReachMaxDepth, kReachMaxEntries), site);
      // Every public function that reaches it, not only the first one on each way in.
      if (site.reach_calls) {
        std::vector<GraphTriggers::NodeId> reachers;
        const bool twin = places[site.error_id] > 1;
        site.reach_entries =
            paths.PublicReachers(site, facts_site, kReachMaxDepth, kReachMaxPublicReachers, twin ? &reachers : nullptr);
        if (twin && !reachers.empty()) site.reach_via = ReachVia(*triggers, reachers);
      }
    } else {
      SetReachFromPaths(paths.Paths(site, nullptr, kReachMaxDepth, kReachMaxEntries), site);
    }
  }
}

}  // namespace errdex
