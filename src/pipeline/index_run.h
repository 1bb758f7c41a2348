// The state of one index run (pipeline/indexer.h's Index), handed from stage to stage. Each stage is one
// function in one file of src/pipeline/; pipeline/indexer.cc calls them in order. The fields say which
// stage fills them; a stage reads only what earlier stages filled.
//
// Ownership: the run owns the source, the catalog, the facts of every file and the rows to write.
// Threading: stages run one after another on the caller's thread; ExtractFiles starts and joins its own
// workers.
#pragma once

#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "analysis/call_graph.h"
#include "analysis/code_model.h"
#include "analysis/graph_triggers.h"
#include "catalog/catalog.h"
#include "pipeline/indexer.h"
#include "python/python_extractor.h"
#include "python/python_module_index.h"
#include "source/source.h"

namespace errdex {

// What happened to one file of the revision.
struct FileWork {
  const SourceEntry* entry = nullptr;
  FileFacts facts;
  std::vector<std::string> cached_frames;  // facts from the catalog, compressed (decoded by a worker)
  // The facts JSON: encoded by the worker for facts extracted in this run; kept for the next revision
  // (IndexOptions::memo) when the facts came from the cache or the memo.
  std::string facts_json;
  std::optional<std::string> snippets;  // the blob's snippet record, when known
  int depth = 0;                        // the blob's depth in the cache (catalog/blob_cache.h), when known
  bool cached = false;                  // facts came from the catalog
  bool remembered = false;              // facts came from the previous revision of the run (IndexOptions::memo)
  bool extract = false;                 // facts must be extracted in this run
  // The blob cache version of the facts (python/python_extractor.h's CacheVersion): kExtractorVersion, or
  // kExtractorVersionWithoutFlow for facts without the flow facts (a run without the analysis).
  int cache_version = kExtractorVersion;
  // For a file extracted in this run: the blob of its path in the revision before, to compress against;
  // then the blob as the worker compressed it.
  std::shared_ptr<const BlobBase> base;
  EncodedBlob encoded;
};

struct IndexRun {
  IndexRun(const IndexOptions& o, IndexSummary* s) : options(o), summary(s) {}

  const IndexOptions& options;
  IndexSummary* summary;
  const std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();

  // Index, before ListRevision: the extractor, compiled on another thread while the source is listed
  // (compiling the queries takes 15-40 ms); ExtractFiles waits for it. EXTRACTOR_ERROR is set when the
  // queries do not compile. (The error is declared first so that it outlives the future, whose destructor
  // waits for the compiling thread when a run stops early.)
  std::string extractor_error;
  std::future<std::unique_ptr<PythonExtractor>> extractor;

  // ListRevision: the source, its files and skips, the catalog, the revision's digest.
  std::unique_ptr<Source> owned_source;  // opened here unless IndexOptions::opened_source is set
  Source* source = nullptr;              // owned_source, or the caller's
  std::vector<SourceEntry> entries;
  std::vector<SourceSkip> source_skips;
  std::unique_ptr<Catalog> catalog;
  std::string digest;

  // ExtractFiles: the facts of every entry (same order as ENTRIES).
  std::vector<FileWork> work;

  // ResolveRevision: modules and types across the revision, the code model, and the rows of the revision.
  std::unique_ptr<PythonModuleIndex> modules;
  std::vector<CodeModel::File> model_files;
  std::unique_ptr<CodeModel> model;
  RevisionData data;
  std::unordered_set<std::string> seen_errors;

  // BuildRevisionCallGraph (with the analysis): the call graph of the revision and what it triggers.
  std::unique_ptr<CallGraph> call_graph;
  std::unique_ptr<GraphTriggers> triggers;

  // AnalyzeRevision: when the analysis started (the history's budget is a share of the time before it).
  std::chrono::steady_clock::time_point analysis_started;

  double SecondsSince(std::chrono::steady_clock::time_point t) const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  }
};

// The stages, in the order pipeline/indexer.cc runs them. Each returns false and sets *ERROR (one line)
// when the run cannot go on; catalog failures throw SqliteError (Index turns them into an error).

// pipeline/list_revision.cc: opens the source and the catalog, lists the files, computes the digest.
// Sets SUMMARY->unchanged (and returns true) when the catalog already holds this very revision.
bool ListRevision(IndexRun& run, std::string* error);

// pipeline/extract_files.cc: facts for every file, from the blob cache or extracted by a pool of workers.
bool ExtractFiles(IndexRun& run, std::string* error);

// pipeline/resolve_revision.cc: module names, types through imports, the revision's rows (files, classes,
// errors and sites), and the code model.
void ResolveRevision(IndexRun& run);

// pipeline/link_helper_sites.cc: calls of raising helpers become sites of their own (the helper's raise
// with the caller's message), when the code model says the call reaches the helper.
void LinkHelperSites(IndexRun& run);

// pipeline/build_call_graph.cc: the call graph of the revision (docs/callgraph.md) from the files' flow
// facts, and the triggers read from it (call paths, what tests reach).
void BuildRevisionCallGraph(IndexRun& run);

// pipeline/link_tests.cc: the raises-tests of test files, linked to the errors they provoke.
void LinkTests(IndexRun& run);

// pipeline/analyze_revision.cc: meaning, state, call paths, solutions (documentation, history), related.
void AnalyzeRevision(IndexRun& run);

// pipeline/write_revision.cc: the summary's counts, then one catalog transaction that writes the revision
// and rebuilds the matcher beside it.
void WriteRevision(IndexRun& run);

// pipeline/extract_files.cc: after the run, the facts of its files go to IndexOptions::memo (when set) for
// the next revision.
void RememberFacts(IndexRun& run);

}  // namespace errdex
