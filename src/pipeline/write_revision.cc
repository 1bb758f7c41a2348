// Stage 7 of an index run (pipeline/index_run.h): the summary's counts, then one catalog transaction.
#include "match/error_matcher.h"
#include "pipeline/index_run.h"

namespace errdex {

void WriteRevision(IndexRun& run) {
  IndexSummary* summary = run.summary;
  RevisionData& data = run.data;
  for (const SourceSkip& skip : run.source_skips) {
    data.files.push_back({skip.path, std::nullopt, 0, "", IsTestPath(skip.path), "skipped", skip.reason});
    summary->skipped[skip.reason] += 1;
  }
  RevisionRow& rev = data.revision;
  rev.files = static_cast<int64_t>(run.entries.size());
  rev.sites = static_cast<int64_t>(data.sites.size());
  for (const auto& [reason, count] : summary->skipped) rev.skipped += count;
  summary->sites = rev.sites;
  summary->errors = static_cast<int64_t>(run.seen_errors.size());
  // The matcher is rebuilt in the same transaction, so it always describes the errors it sits beside.
  // A caller indexing many revisions in a row defers it (IndexOptions::rebuild_matcher).
  if (run.options.rebuild_matcher) {
    run.catalog->WriteRevision(data, [](MatcherTables& tables) { ErrorMatcher::Rebuild(tables); });
  } else {
    run.catalog->WriteRevision(data);
  }
}

}  // namespace errdex
