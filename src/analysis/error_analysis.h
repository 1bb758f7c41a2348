// The analysis of every error of a revision (docs/analysis.md), run by the indexer after extraction and
// type resolution: for each error, from its first site outside tests (by path and line), the meaning
// (the raising function's docstring and a summary composed from the facts), where the state its
// conditions read comes from, call paths from the public API, solutions (advice in the message,
// documentation passages) and the commit that introduced the message. The result is one JSON document
// per error, stored in the catalog (ErrorAnalysisRow), plus the public entry points that reach it. An error
// with at least one certain call path keeps only its certain paths; uncertain ones are kept (certain = false)
// only when it has none. Entry points come from certain paths only.
//
// Ownership: AnalyzeErrors borrows everything in its input for the duration of the call.
// Threading: runs on the calling thread; the model and index it reads are immutable.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/code_model.h"
#include "analysis/graph_triggers.h"
#include "catalog/catalog.h"
#include "extract/file_facts.h"
#include "python/python_module_index.h"

namespace errdex {

class DocMentionFinder;

// Bumped whenever the analysis output changes, so that re-indexing a revision recomputes it.
inline constexpr int kAnalysisVersion = 4;  // 2: an error with a certain call path keeps only those;
                                            // 3: (seventh round) a method of a call's result does not hide a
                                            // parameter call, `for` over a known empty value, the receiver's
                                            // state (receiver_state.h) and arguments of a known class
                                            // (argument_classes.h) in the feasibility check, possible edges by
                                            // the classes a call returns and by arity;
                                            // 4: `*args`/`**kwargs` sizes, keyword-only defaults under a
                                            // positional splat, decorators typed to keep the signature

struct AnalysisInput {
  const CodeModel* model = nullptr;
  const PythonModuleIndex* modules = nullptr;
  std::vector<CodeModel::File> files;  // the revision's Python files, as the model was built from
  const std::vector<SiteRow>* sites = nullptr;
  const std::vector<ClassRow>* classes = nullptr;
  const std::vector<ErrorTestRow>* error_tests = nullptr;
  // Call paths from the revision's call graph; null: from the code model's callers (call_paths.h).
  GraphTriggers* triggers = nullptr;
  const DocMentionFinder* docs = nullptr;  // documentation of the revision; null: no documentation passages
  // The introducing commit of each message, by error id (from git history, docs/analysis.md "History");
  // empty when history is off or the source is no git revision. JSON objects as stored under "history".
  std::unordered_map<std::string, nlohmann::json> history;
};

// The site each error is analysed and shown at: its first site outside tests by path and line. One per
// error that has such a site, in the order of SITES.
std::vector<const SiteRow*> PrimarySites(const std::vector<SiteRow>& sites);

// One row per error that has a site outside tests, in the order of PrimarySites.
std::vector<ErrorAnalysisRow> AnalyzeErrors(const AnalysisInput& input);

}  // namespace errdex
