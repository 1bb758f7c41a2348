// The index run as a sequence of stages (docs/architecture.md). Each stage is one function in one file of
// src/pipeline/ and passes its results on in the IndexRun (pipeline/index_run.h):
//
//   ListRevision     source, catalog      -> files, skips, digest (stop here when the revision is unchanged)
//   ExtractFiles     files, blob cache    -> facts of every file (cached or parsed by a pool of workers)
//   ResolveRevision  facts                -> modules and types, the revision's rows, the code model
//   LinkHelperSites  rows, code model     -> sites of raising helpers' calls
//   BuildRevisionCallGraph facts, model   -> call graph, triggers                   (with the analysis)
//   LinkTests        rows, facts, graph   -> error_tests rows                       (with the analysis)
//   AnalyzeRevision  rows, model, source  -> error_analysis rows, history           (with the analysis)
//   WriteRevision    rows                 -> one catalog transaction, matcher rebuilt beside the errors
#include "pipeline/indexer.h"

#include <future>
#include <memory>
#include <vector>

#include "pipeline/facts_memo.h"
#include "pipeline/index_run.h"
#include "util/left_to_exit.h"

namespace errdex {
namespace {

// IndexOptions::free_memory false: the facts of every file, the rows, the module index and the code model
// move to the heap and are never freed (util/left_to_exit.h; the process exits next); the source and the
// catalog still close.
void LeaveRunToExit(IndexRun& run) {
  LeaveToExit(std::make_shared<std::vector<FileWork>>(std::move(run.work)));
  LeaveToExit(std::make_shared<RevisionData>(std::move(run.data)));
  LeaveToExit(std::shared_ptr<CodeModel>(std::move(run.model)));
  LeaveToExit(std::shared_ptr<PythonModuleIndex>(std::move(run.modules)));
  LeaveToExit(std::shared_ptr<GraphTriggers>(std::move(run.triggers)));
  LeaveToExit(std::shared_ptr<CallGraph>(std::move(run.call_graph)));
}

bool IndexOrThrow(const IndexOptions& options, IndexSummary* summary, std::string* error) {
  IndexRun run(options, summary);
  if (options.memo == nullptr || !options.memo->extractor) {
    run.extractor = std::async(std::launch::async, [&run] { return PythonExtractor::Create(&run.extractor_error); });
  }
  if (!ListRevision(run, error)) return false;
  if (summary->unchanged) {
    summary->seconds = run.SecondsSince(run.started);
    return true;
  }
  if (!ExtractFiles(run, error)) return false;
  ResolveRevision(run);
  LinkHelperSites(run);
  run.analysis_started = std::chrono::steady_clock::now();
  if (options.analysis) {
    BuildRevisionCallGraph(run);
    LinkTests(run);
    AnalyzeRevision(run);
  }
  summary->analysis_seconds = run.SecondsSince(run.analysis_started);
  WriteRevision(run);
  RememberFacts(run);
  summary->seconds = run.SecondsSince(run.started);
  if (!options.free_memory) LeaveRunToExit(run);
  return true;
}

}  // namespace

bool Index(const IndexOptions& options, IndexSummary* summary, std::string* error) {
  // The catalog reports its failures (unwritable file, locked past the timeout, damaged database) as
  // exceptions; the whole run is one transaction, so failing here leaves the catalog as it was.
  try {
    return IndexOrThrow(options, summary, error);
  } catch (const SqliteError& e) {
    *error = e.what();
  } catch (const std::bad_alloc&) {
    *error = "out of memory";
  }
  return false;
}

}  // namespace errdex
