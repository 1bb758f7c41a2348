// `errdex index SOURCE [--rev REV] [--name OWNER/REPO] [--url URL] [--db FILE] [--jobs N]`
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "pipeline/indexer.h"
#include "pipeline/progress.h"

namespace errdex {

namespace {

void PrintSummary(const IndexOptions& options, const IndexSummary& s) {
  std::string where = s.commit.empty() ? "directory " + options.source : s.commit.substr(0, 12);
  if (s.unchanged) {
    fmt::print("{} at {}: already indexed in {} ({} sites), nothing to do\n", s.repo, where, options.catalog, s.sites);
    return;
  }
  fmt::print("indexed {} at {} into {}\n", s.repo, where, options.catalog);
  fmt::print("  files    {} ({} parsed, {} from cache), {:.1f} MB parsed\n", s.files, s.parsed, s.files - s.parsed,
             static_cast<double>(s.bytes) / 1e6);
  fmt::print("  sites    {} ({} distinct errors)\n", s.sites, s.errors);
  int64_t skipped = 0;
  std::string reasons;
  for (const auto& [reason, count] : s.skipped) {
    skipped += count;
    reasons += fmt::format("{}{} {}", reasons.empty() ? "" : ", ", reason, count);
  }
  fmt::print("  skipped  {}{}{}\n", skipped, skipped ? ": " : "", reasons);
  for (const std::string& note : s.notes) fmt::print("  note     {}\n", note);
  fmt::print("  time     {:.2f} s (analysis {:.2f} s, of which history {:.2f} s)\n", s.seconds, s.analysis_seconds,
             s.history_seconds);
}

}  // namespace

void RegisterIndexCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("index", "Index the Python code of a directory or a git revision");
  auto options = std::make_shared<IndexOptions>();
  auto quiet = std::make_shared<bool>(false);
  auto max_size = std::make_shared<size_t>(options->extract.max_file_size);
  cmd->add_option("SOURCE", options->source, "Directory or git repository (bare or not)")->required();
  cmd->add_option("--rev", options->rev, "Branch, tag or commit of a git repository (default: HEAD)");
  cmd->add_option("--name", options->name, "Repository name OWNER/REPO (default: from the origin remote or folder)");
  cmd->add_option("--url", options->url, "Web URL for permalinks (default: from a known forge's origin remote)");
  cmd->add_option("--db", options->catalog, "Catalog file (default: $ERRDEX_DB, else ./errdex.db)");
  cmd->add_option("--jobs,-j", options->jobs, "Parallel workers (default: one per core)")->check(CLI::Range(0, 256));
  cmd->add_option("--max-file-size", *max_size, "Skip files larger than this many bytes (default 5 MB)");
  cmd->add_flag("--quiet,-q", *quiet, "No progress bar and no summary");
  cmd->add_flag("!--no-analysis", options->analysis,
                "Skip the analysis (tests, state, call paths, solutions, history); conditions are kept");
  cmd->add_flag("!--no-history", options->history, "Do not look for the commit that introduced each message");
  cmd->add_option("--history-seconds", options->history_seconds,
                  "Time budget of the history walk (default: a third of the time of the rest of the run, 0.3-5 s)")
      ->check(CLI::Range(0.0, 3600.0));
  cmd->callback([options, quiet, max_size] {
    if (options->catalog.empty()) options->catalog = DefaultCatalogPath();
    options->extract.max_file_size = *max_size;
    options->progress = !*quiet && StderrIsTerminal();
    options->free_memory = false;  // the process ends after this command
    IndexSummary summary;
    std::string error;
    if (!Index(*options, &summary, &error)) {
      std::cerr << "errdex: " << error << "\n";
      SetCommandExitCode(1);
      return;
    }
    if (!*quiet) PrintSummary(*options, summary);
  });
}

}  // namespace errdex
