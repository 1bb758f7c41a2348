// Keeps the stored lineage of a repository up to date (docs/catalog.md "Lineage"): after a revision is
// written, links every pair of neighbouring git revisions (in commit order) that has none stored yet,
// and drops the links of pairs that are no longer neighbours.
//
// Threading and lifetime: as Catalog; reads the git repositories the revisions were indexed from.
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/version_store.h"

namespace errdex {

// The links from revision FROM to revision TO (any two git revisions of one repository), computed now:
// git rename detection between their commits when the repository they were indexed from can be read
// (else a note in *NOTES), then MatchLineage.
std::vector<LineageRow> ComputeLineage(Catalog& catalog, const VersionedRevision& from, const VersionedRevision& to,
                                       std::vector<std::string>* notes);

struct LineageUpdate {
  int pairs = 0;      // neighbour pairs linked in this call
  int64_t links = 0;  // rows written
  std::vector<std::string> notes;
};

// Links the neighbouring revisions of REPO that have no stored links. Each pair is one transaction.
LineageUpdate UpdateLineage(Catalog& catalog, const std::string& repo);

}  // namespace errdex
