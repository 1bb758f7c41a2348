// The index pipeline: source -> extract (a pool of workers, skipping blobs already in the cache) ->
// resolve types across modules -> one catalog transaction.
//
// Threading: Index() is called from one thread and starts its own workers.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "python/python_extractor.h"
#include "source/source.h"

namespace errdex {

struct FactsMemo;  // pipeline/facts_memo.h

struct IndexOptions {
  std::string source;  // directory, git repository, wheel or sdist
  // When set, indexed instead of opening SOURCE (an installed distribution, an archive): borrowed, must
  // outlive the call, used from this thread and the workers as Source's contract says.
  Source* opened_source = nullptr;
  std::string rev;             // empty: HEAD for a bare repository, the work tree for a directory
  std::string name;            // "owner/name"; empty: from the source
  std::string url;             // web URL for permalinks; empty: from the source
  std::string catalog;         // catalog file
  int jobs = 0;                // workers; 0: one per core
  bool progress = false;       // draw a progress bar on stderr
  bool analysis = true;        // docs/analysis.md: tests, meaning, state, call paths, solutions, related
  bool history = true;         // with analysis, for a git revision: the commit that introduced each message
  double history_seconds = 0;  // time budget of the history walk; 0: a third of the time of the rest of the run
  // Rebuild the matcher in the revision's transaction. A caller indexing many revisions in a row (an
  // environment) turns it off and rebuilds once at the end (ErrorMatcher::Rebuild).
  bool rebuild_matcher = true;
  ExtractOptions extract;
  ArchiveLimits archive_limits;  // when SOURCE is a wheel or sdist (source/archive_reader.h)
  // False for a caller that exits right after (the CLI): the facts of every file, the rows written, the
  // module index and the code model are then left to the process's exit instead of being freed piece by
  // piece, which took ~5% of a run's time (docs/benchmarks.md, "Extraction speed"). Keep true in anything
  // that runs on (tests, servers).
  bool free_memory = true;
  // A run over many revisions (pipeline/release_indexer.cc) hands the facts of one revision to the next
  // (pipeline/facts_memo.h); null: every file comes from the source or the blob cache. Borrowed.
  FactsMemo* memo = nullptr;
};

struct IndexSummary {
  std::string repo;
  std::string commit;      // empty for a directory
  std::string version;     // a distribution's or archive's version; empty for git and directories
  bool unchanged = false;  // this revision was already in the catalog with the same content
  int64_t files = 0;       // Python files in the revision
  int64_t parsed = 0;      // files extracted in this run (the others came from the cache)
  int64_t bytes = 0;       // bytes of the files extracted in this run
  int64_t sites = 0;
  int64_t errors = 0;                      // distinct errors of the revision
  std::map<std::string, int64_t> skipped;  // reason -> files
  std::vector<std::string> notes;          // parts of the analysis that could not run, one line each
  double seconds = 0;
  double analysis_seconds = 0;  // of SECONDS: the analysis (test links, model, solutions, history)
  double history_seconds = 0;   // of ANALYSIS_SECONDS: the git history walk
};

// Returns false and sets *error (one line) when the source or the catalog cannot be used.
bool Index(const IndexOptions& options, IndexSummary* summary, std::string* error);

}  // namespace errdex
