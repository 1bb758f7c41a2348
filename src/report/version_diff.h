// `errdex diff REV_A REV_B` and /repos/OWNER/NAME/diff (docs/catalog.md "Lineage"): the errors added,
// removed, reworded, moved, renamed and retyped between two indexed revisions of a repository — the
// error section of a release's notes. Neighbouring revisions use the stored lineage; any other pair is
// linked now, by the same rules (ComputeLineage).
//
// Threading: functions use the given catalog, which belongs to the calling thread.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/version_store.h"

namespace errdex {

// An error of one side at its primary site.
struct DiffSide {
  std::string error_id;
  std::string type;  // as resolved when it did, else as written; "" when none
  std::string template_text;
  std::string path, function;
  int line = 0;
};

struct DiffEntry {
  std::optional<DiffSide> before, after;
  std::vector<std::string> changes;  // "reworded", "moved", "renamed", "retyped"; empty for added/removed
  int confidence = 100;
};

struct VersionDiff {
  std::string repo;
  VersionedRevision from, to;
  std::vector<DiffEntry> added, removed, reworded, moved, renamed, retyped;  // each change in one section:
                                                                             // the first of its changes
  int64_t unchanged = 0;
  std::vector<std::string> notes;
};

// The diff of REPO (empty: the catalog's only repository) from REV_A to REV_B (a release label or a
// commit prefix). Returns false and sets *error when the repository or a revision is not in the catalog.
bool DiffRevisions(Catalog& catalog, const std::string& repo, const std::string& rev_a, const std::string& rev_b,
                   VersionDiff* diff, std::string* error);

// {"repo", "from": {"label", "commit"}, "to": {...}, "added": [...], "removed": [...], "reworded": [...],
// "moved": [...], "renamed": [...], "retyped": [...], "unchanged": N, "notes": [...]}; each entry
// {"before": SIDE|null, "after": SIDE|null, "changes": [...], "confidence": 0-100}, SIDE {"id", "type",
// "template", "path", "line", "function"}.
nlohmann::json VersionDiffJson(const VersionDiff& diff);

// What a person reads, one line per error.
std::string VersionDiffText(const VersionDiff& diff);

}  // namespace errdex
