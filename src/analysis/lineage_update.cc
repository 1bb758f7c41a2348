#include "analysis/lineage_update.h"

#include <map>

#include "analysis/lineage.h"
#include "source/git_renames.h"

namespace errdex {

std::vector<LineageRow> ComputeLineage(Catalog& catalog, const VersionedRevision& from, const VersionedRevision& to,
                                       std::vector<std::string>* notes) {
  const std::vector<LineageSite> old_sites =
      LineageSitesOf(SitesOfRevision(catalog, from.id), ModulesOfRevision(catalog, from.id));
  const std::vector<LineageSite> new_sites =
      LineageSitesOf(SitesOfRevision(catalog, to.id), ModulesOfRevision(catalog, to.id));
  std::map<std::string, std::string> renames;
  std::string error;
  if (!PythonRenames(to.source, from.commit, to.commit, &renames, &error)) {
    notes->push_back("renames between " + from.label + " and " + to.label + " not detected: " + error);
  }
  std::vector<LineageRow> rows;
  for (const LineageLink& link : MatchLineage(old_sites, new_sites, renames)) {
    LineageRow row;
    row.from_revision = from.id;
    row.to_revision = to.id;
    if (link.from) row.from_error = old_sites[*link.from].error_id;
    if (link.to) row.to_error = new_sites[*link.to].error_id;
    row.changes = link.changes;
    row.confidence = static_cast<int>(link.confidence * 100 + 0.5);
    rows.push_back(std::move(row));
  }
  return rows;
}

LineageUpdate UpdateLineage(Catalog& catalog, const std::string& repo) {
  LineageUpdate update;
  const std::vector<VersionedRevision> ordered = OrderedRevisions(catalog, repo);
  std::vector<std::pair<int64_t, int64_t>> neighbours;
  for (size_t k = 1; k < ordered.size(); ++k) neighbours.emplace_back(ordered[k - 1].id, ordered[k].id);
  for (size_t k = 1; k < ordered.size(); ++k) {
    if (HasLineage(catalog, ordered[k - 1].id, ordered[k].id)) continue;
    std::vector<LineageRow> rows = ComputeLineage(catalog, ordered[k - 1], ordered[k], &update.notes);
    WriteLineage(catalog, repo, ordered[k - 1].id, ordered[k].id, rows, neighbours);
    update.pairs += 1;
    update.links += static_cast<int64_t>(rows.size());
  }
  if (update.pairs == 0 && !ordered.empty()) {
    // Nothing new to link; still drop the links of pairs that are no longer neighbours.
    WriteLineage(catalog, repo, ordered.front().id, ordered.front().id, {}, neighbours);
  }
  return update;
}

}  // namespace errdex
