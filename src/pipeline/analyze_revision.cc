// Stage 6 of an index run (pipeline/index_run.h): the rest of the analysis (docs/analysis.md): meaning,
// state, call paths, solutions (documentation, the commit that introduced each message), related errors;
// how directly each site is reached from the public API.
#include <algorithm>

#include "analysis/doc_mentions.h"
#include "analysis/error_analysis.h"
#include "analysis/message_history.h"
#include "analysis/site_reach.h"
#include "pipeline/index_run.h"
#include "util/utf8.h"

namespace errdex {
namespace {

// The revision's .md/.rst/.txt files and the docstrings of its code.
std::vector<Document> RevisionDocuments(IndexRun& run) {
  std::vector<Document> documents;
  std::vector<SourceEntry> doc_entries;
  std::vector<SourceSkip> doc_skips;
  std::string doc_error;
  if (run.source->ListDocuments(&doc_entries, &doc_skips, &doc_error)) {
    for (const SourceEntry& e : doc_entries) {
      std::string text;
      if (run.source->Read(e, &text, &doc_error) && IsValidUtf8(text))
        documents.push_back({e.path, 1, std::move(text)});
    }
  }
  for (const CodeModel::File& f : run.model_files) {
    if (f.is_test || f.facts == nullptr) continue;
    for (const FunctionDef& fn : f.facts->functions) {
      if (!fn.docstring.empty()) documents.push_back({f.path, fn.line, fn.docstring});
    }
  }
  return documents;
}

// The commit that introduced each message, for a git revision. Bounded so that the analysis stays within
// the cost of the rest of the run (docs/analysis.md, "History"): a third of the time spent before the
// analysis, between 0.3 s and 5 s, unless set.
std::unordered_map<std::string, nlohmann::json> RevisionHistory(IndexRun& run) {
  const SourceInfo& info = run.source->info();
  std::vector<MessageOfError> messages;
  for (const SiteRow* row : PrimarySites(run.data.sites)) {
    if (row->template_text) messages.push_back({row->error_id, row->path, *row->template_text});
  }
  std::string history_error;
  const auto history_started = std::chrono::steady_clock::now();
  HistoryLimits limits;
  const double before = std::chrono::duration<double>(run.analysis_started - run.started).count();
  limits.max_seconds = run.options.history_seconds > 0 ? run.options.history_seconds : std::clamp(before / 3, 0.3, 5.0);
  auto history = MessageHistory(info.location, info.commit, messages, limits, &history_error);
  run.summary->history_seconds = run.SecondsSince(history_started);
  if (!history_error.empty()) run.summary->notes.push_back("history skipped: " + history_error);
  return history;
}

}  // namespace

void AnalyzeRevision(IndexRun& run) {
  AnalysisInput input;
  input.modules = run.modules.get();
  input.files = run.model_files;
  input.model = run.model.get();
  input.sites = &run.data.sites;
  input.classes = &run.data.classes;
  input.error_tests = &run.data.error_tests;
  input.triggers = run.triggers.get();
  DocMentionFinder docs(RevisionDocuments(run));
  input.docs = &docs;
  if (run.options.history && run.source->info().is_git) input.history = RevisionHistory(run);
  run.data.analyses = AnalyzeErrors(input);
  SetSiteReach(*run.model, run.model_files, run.triggers.get(), run.data.sites);
}

}  // namespace errdex
