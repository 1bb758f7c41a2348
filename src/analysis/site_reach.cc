#include "analysis/site_reach.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>

#include "analysis/call_paths.h"

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

}  // namespace

void SetSiteReach(const CodeModel& model, const std::vector<CodeModel::File>& files, GraphTriggers* triggers,
                  std::vector<SiteRow>& sites) {
  // The facts' sites by (path, line, col): their path conditions decide which calls can reach them.
  std::map<std::tuple<std::string_view, int, int>, const Site*> facts_sites;
  if (triggers != nullptr) {
    for (const CodeModel::File& f : files) {
      if (f.facts == nullptr) continue;
      for (const Site& s : f.facts->sites) facts_sites[{f.path, s.line, s.col}] = &s;
    }
  }
  CallPathFinder finder(model);  // the sites of one function share one search
  for (SiteRow& site : sites) {
    site.reach_calls.reset();
    site.reach_entries = 0;
    if (site.is_test) continue;
    if (triggers != nullptr) {
      const GraphTriggers::NodeId node = triggers->NodeOf(site.path, site.function, site.line);
      if (node == GraphTriggers::kNoNode) continue;
      // A site the facts do not hold as such (a helper's call) has no condition of its own to check.
      auto found = facts_sites.find({site.path, site.line, site.col});
      const Site* facts_site = found == facts_sites.end() ? nullptr : found->second;
      SetReachFromPaths(facts_site == nullptr ? triggers->PathsTo(node, kReachMaxDepth, kReachMaxEntries)
                                              : triggers->PathsTo(node, *facts_site, kReachMaxDepth, kReachMaxEntries),
                        site);
      // Every public function that reaches it, not only the first one on each way in.
      if (site.reach_calls) {
        site.reach_entries = triggers->PublicReachers(node, facts_site, kReachMaxDepth, kReachMaxPublicReachers);
      }
    } else {
      SetReachFromPaths(finder.Find(site.path, site.function, kReachMaxDepth, kReachMaxEntries), site);
    }
  }
}

}  // namespace errdex
