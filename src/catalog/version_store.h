// Versions in the catalog (docs/catalog.md "Versions" and "Lineage"): the release label of a revision,
// a repository's git revisions in commit order, and the stored lineage links between neighbouring ones.
// Every statement is here, so that the SQL stays in src/catalog.
//
// Threading and lifetime: as Catalog (one thread at a time; the catalog outlives the calls).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace errdex {

// A git revision of a repository, with the label it is shown as: its release tag, else its short commit.
struct VersionedRevision {
  int64_t id = 0;
  std::string repo;
  std::string commit;
  std::string label;
  bool tagged = false;  // LABEL is a release tag
  std::string committed_at;
  std::string source;  // where it was indexed from (a git directory)
};

// One stored link (LineageLink with the revisions and error ids); a removed error has no to_error, an
// added one no from_error.
struct LineageRow {
  int64_t from_revision = 0, to_revision = 0;
  std::optional<std::string> from_error, to_error;
  std::string changes;
  int confidence = 100;  // percent
};

// Records that revision REVISION_ID is release LABEL (replacing an earlier label).
void SetRevisionLabel(Catalog& catalog, int64_t revision_id, const std::string& label);

// The git revisions of REPO, oldest commit first (ties by id).
std::vector<VersionedRevision> OrderedRevisions(Catalog& catalog, const std::string& repo);

// The revision of REPO whose commit starts with COMMIT_OR_LABEL, or whose label is it.
std::optional<VersionedRevision> FindVersionedRevision(Catalog& catalog, const std::string& repo,
                                                       const std::string& commit_or_label);

// Every site of a revision (tests included), and the module of each of its files.
std::vector<SiteRow> SitesOfRevision(Catalog& catalog, int64_t revision_id);
std::map<std::string, std::string> ModulesOfRevision(Catalog& catalog, int64_t revision_id);

// Replaces the links from FROM_REVISION to TO_REVISION by ROWS, and drops the links of REPO between
// revisions that are no longer neighbours in NEIGHBOURS (pairs of ids), in one transaction.
void WriteLineage(Catalog& catalog, const std::string& repo, int64_t from_revision, int64_t to_revision,
                  const std::vector<LineageRow>& rows, const std::vector<std::pair<int64_t, int64_t>>& neighbours);

// True when links from FROM_REVISION to TO_REVISION are stored.
bool HasLineage(Catalog& catalog, int64_t from_revision, int64_t to_revision);

// The stored links between two revisions, in the order written.
std::vector<LineageRow> LineageBetween(Catalog& catalog, int64_t from_revision, int64_t to_revision);

// The link that leaves error ERROR_ID of revision REVISION_ID towards the next revision, if stored.
std::optional<LineageRow> LineageFrom(Catalog& catalog, const std::string& error_id, int64_t revision_id);
// The link that reaches error ERROR_ID of revision REVISION_ID from the previous revision, if stored.
std::optional<LineageRow> LineageTo(Catalog& catalog, const std::string& error_id, int64_t revision_id);

// The ids of the revisions that raise error ERROR_ID (tests included).
std::vector<int64_t> RevisionIdsOfError(Catalog& catalog, const std::string& error_id);

// Makes REVISION_ID the latest revision of its repository (the highest id, which "latest" means
// throughout the catalog) by giving it a new id, with every row that refers to it. For a newer revision
// indexed before older releases. One transaction.
void MakeLatestRevision(Catalog& catalog, int64_t revision_id);

}  // namespace errdex
