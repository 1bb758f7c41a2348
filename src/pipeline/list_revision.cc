// Stage 1 of an index run (pipeline/index_run.h): the source's files, the catalog, the revision's digest.
#include <xxhash.h>

#include <cstdio>

#include "analysis/error_analysis.h"
#include "pipeline/index_run.h"
#include "python/python_extractor.h"

namespace errdex {
namespace {

// Identifies a revision's content: its files and blobs, and the extractor that read them.
// What a revision's rows depend on besides its files: re-indexing with other options is not a no-op.
std::string Digest(const std::vector<SourceEntry>& files, const IndexOptions& options) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  std::string header = "errdex-" + std::to_string(kExtractorVersion) + "-" +
                       std::to_string(options.extract.max_file_size) + "-analysis" + std::to_string(kAnalysisVersion) +
                       (options.analysis ? "+" : "-") + (options.history ? "history" : "") +
                       "-wraps1";  // sites.wraps (python/wrapped_errors.h): revisions indexed before lack it
  XXH3_64bits_update(state, header.data(), header.size() + 1);
  for (const SourceEntry& f : files) {
    XXH3_64bits_update(state, f.path.data(), f.path.size() + 1);
    XXH3_64bits_update(state, f.blob_id.data(), f.blob_id.size() + 1);
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(XXH3_64bits_digest(state)));
  XXH3_freeState(state);
  return hex;
}

}  // namespace

bool ListRevision(IndexRun& run, std::string* error) {
  if (run.options.opened_source != nullptr) {
    run.source = run.options.opened_source;
  } else {
    run.owned_source = Source::Open(run.options.source, run.options.rev, run.options.archive_limits, error);
    if (!run.owned_source) return false;
    run.source = run.owned_source.get();
  }
  if (!run.source->List(&run.entries, &run.source_skips, error)) return false;
  const SourceInfo& info = run.source->info();
  run.catalog = Catalog::Open(run.options.catalog, /*read_only=*/false);

  IndexSummary* summary = run.summary;
  summary->repo = run.options.name.empty() ? info.default_name : run.options.name;
  summary->commit = info.commit;
  summary->version = info.version;
  summary->files = static_cast<int64_t>(run.entries.size());
  run.digest = Digest(run.entries, run.options);
  const std::optional<std::string> commit =
      info.commit.empty() ? std::nullopt : std::optional<std::string>(info.commit);
  const std::optional<std::string> version =
      info.version.empty() ? std::nullopt : std::optional<std::string>(info.version);
  if (auto existing = run.catalog->FindRevision(summary->repo, commit, version);
      existing && existing->digest == run.digest) {
    summary->unchanged = true;
    summary->sites = existing->sites;
  }
  return true;
}

}  // namespace errdex
