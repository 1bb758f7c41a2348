#include "analysis/site_reach.h"

#include <algorithm>

#include "analysis/call_paths.h"

namespace errdex {

void SetSiteReach(const CodeModel& model, std::vector<SiteRow>& sites) {
  CallPathFinder finder(model);  // the sites of one function share one search
  for (SiteRow& site : sites) {
    site.reach_calls.reset();
    site.reach_entries = 0;
    if (site.is_test) continue;
    const std::vector<CallPath>& paths = finder.Find(site.path, site.function, kReachMaxDepth, kReachMaxEntries);
    if (paths.empty()) continue;
    // Certain paths come first, shortest first within each kind: the shortest of all is the answer.
    size_t shortest = paths.front().frames.size();
    for (const CallPath& p : paths) shortest = std::min(shortest, p.frames.size());
    site.reach_calls = static_cast<int>(shortest) - 1;
    site.reach_entries = static_cast<int>(paths.size());
  }
}

}  // namespace errdex
