// Stage of an index run (pipeline/index_run.h), with the analysis: the call graph of the revision
// (docs/callgraph.md) and the triggers read from it (docs/analysis.md, "Triggers").
#include "pipeline/index_run.h"

namespace errdex {

void BuildRevisionCallGraph(IndexRun& run) {
  std::vector<CallGraphFile> files;
  files.reserve(run.work.size());
  for (const FileWork& w : run.work) files.push_back({w.entry->path, &w.facts});
  // One resolution: a rerun that starts with the saturated variables known (CallGraphOptions::max_runs)
  // would double the cost of the analysis (docs/benchmarks.md, issue 14).
  CallGraphOptions options;
  options.max_runs = 1;
  options.free_memory = run.options.free_memory;
  run.call_graph = std::make_unique<CallGraph>(BuildCallGraph(files, options));
  run.triggers = std::make_unique<GraphTriggers>(*run.call_graph, *run.model);
}

}  // namespace errdex
