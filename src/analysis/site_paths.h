// Where the searches for one site of a revision start (docs/analysis.md, "Messages supplied by a caller"): the
// one place that turns a SiteRow into call paths, public reachers and what a test must reach, for every
// consumer of a site's reach (the call paths and entry points of the analysis, the reach that ranks twins,
// the test links).
//
// A site of its own is searched from its raising function. A site whose message one caller supplies (`via`:
// a raising or warning helper's raise, with the text of one call of it, docs/extraction.md "Raising helpers")
// is searched from the supplying function: its paths run entry → … → supplying function (citing the supplying
// call) → [derived helper →] helper → raise, never through the helper's other callers; a public supplying
// function is an entry itself. With the call graph the chain below the supplying call is the graph's
// (GraphTriggers::SuppliedBy); without it (the code model's search, call_paths.h) the supplying call is cited
// as calling the raising function.
//
// Threading: one thread; memoizes per row (rows must outlive the object). Ownership: borrows the model and
// the triggers (may be null), which must outlive it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/call_paths.h"
#include "analysis/code_model.h"
#include "analysis/graph_triggers.h"
#include "catalog/catalog.h"
#include "extract/file_facts.h"

namespace errdex {

// The supplying call a SiteRow::via names ("path:line in function").
struct ViaCall {
  std::string path;
  int line = 0;
  std::string function;
};
// Nothing when VIA is not of that form.
std::optional<ViaCall> ParseVia(const std::string& via);

class SitePaths {
 public:
  SitePaths(const CodeModel& model, GraphTriggers* triggers) : model_(model), triggers_(triggers), finder_(model) {}

  // Call paths from the public API to ROW's raise, in the shape of PublicCallPaths (the last frame is the
  // raising function with line 0). FACTS_SITE: the extracted site at ROW's place (its path conditions), may be
  // null (a call that makes its conditions false is then not checked).
  // The answer is valid until the next call of Paths (it is most often a memo of the triggers).
  const std::vector<CallPath>& Paths(const SiteRow& row, const Site* facts_site, int max_depth, size_t max_paths);

  // With the call graph: the public functions that reach ROW's raise (GraphTriggers::PublicReachers). 0 without.
  int PublicReachers(const SiteRow& row, const Site* facts_site, int max_depth, size_t max_count,
                     std::vector<GraphTriggers::NodeId>* reachers = nullptr);

  // With the call graph: what a test's block must reach to provoke ROW's raise, and the calls from there to
  // the raise (0 for a site of its own; the supplying function and its chain's calls for a `via` site).
  struct Target {
    GraphTriggers::NodeId node = GraphTriggers::kNoNode;
    int calls = 0;
  };
  Target TestTarget(const SiteRow& row);

 private:
  // The chain of a `via` ROW (memoized by the row's address); nothing for a site of its own.
  const GraphTriggers::Supplied* SuppliedOf(const SiteRow& row, const Site* facts_site);
  int RaisedOf(const SiteRow& row) const;

  const CodeModel& model_;
  GraphTriggers* triggers_;
  CallPathFinder finder_;
  std::map<const SiteRow*, std::optional<GraphTriggers::Supplied>> supplied_;
  std::vector<CallPath> via_paths_;  // the last answer of Paths for a `via` row without the call graph
};

}  // namespace errdex
