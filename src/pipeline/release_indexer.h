// `errdex index SOURCE --rev REV [--rev REV2 ...] --releases N [--pre]` (docs/catalog.md "Versions"):
// indexes the given revisions and the N newest release tags older than each, oldest commit first, each
// revision in its own transaction (Index()), so that an interruption keeps the revisions finished.
// Revisions already in the catalog are skipped by Index() itself; blobs already extracted are never
// parsed again. After each revision, the lineage of its neighbours is computed (UpdateLineage).
//
// Threading: called from one thread; Index() starts its own workers.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analysis/lineage_update.h"
#include "pipeline/indexer.h"

namespace errdex {

struct ReleaseIndexOptions {
  IndexOptions index;             // source, name, url, catalog, jobs, analysis...; index.rev is ignored
  std::vector<std::string> revs;  // the revisions asked for; empty: HEAD
  int releases = 0;               // release tags older than each revision to add
  bool pre = false;               // pre-releases count as releases
  // The git history walk (the introducing commit of each message) for the releases as well; by default
  // only the revisions asked for, whose history is the one shown.
  bool history_for_releases = false;
  // The rest of the analysis (tests, meaning, state, call paths, solutions) for the releases as well; by
  // default only the revisions asked for: an old release's errors are answered at their successors.
  bool analysis_for_releases = false;
};

// One revision of the run, reported as soon as it is done.
struct RevisionRun {
  int number = 0, total = 0;  // 1-based position in the run, and its length
  std::string label;          // the release tag, or the revision as asked for
  std::string commit;
  IndexSummary summary;
  LineageUpdate lineage;
};

struct ReleaseIndexSummary {
  std::vector<RevisionRun> runs;
  double seconds = 0;
};

// Returns false and sets *error (one line) when the source is not a git repository, a revision cannot be
// read or a revision fails to index (the revisions indexed before it stay in the catalog).
bool IndexReleases(const ReleaseIndexOptions& options, const std::function<void(const RevisionRun&)>& after_each,
                   ReleaseIndexSummary* summary, std::string* error);

}  // namespace errdex
