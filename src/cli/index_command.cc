// `errdex index SOURCE|FILE.whl|FILE.tar.gz [--rev REV ...] [--releases N [--pre]] [--name OWNER/REPO] [--url URL]
// [--db FILE]
// [--jobs N]`
// `errdex index --python-env [--python PYTHON] [--no-stdlib] [--db FILE] [--jobs N]`
#include <fmt/format.h>

#include <iostream>

#include "analysis/lineage_update.h"
#include "catalog/catalog.h"
#include "cli/commands.h"
#include "pipeline/environment_indexer.h"
#include "pipeline/indexer.h"
#include "pipeline/progress.h"
#include "pipeline/release_indexer.h"

namespace errdex {

namespace {

void PrintSummary(const IndexOptions& options, const IndexSummary& s) {
  std::string where = !s.commit.empty()    ? s.commit.substr(0, 12)
                      : !s.version.empty() ? s.version
                                           : "directory " + options.source;
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

// One line per revision of a run over releases.
void PrintRevisionRun(const RevisionRun& run) {
  const IndexSummary& s = run.summary;
  std::string what = s.unchanged ? fmt::format("already indexed ({} sites)", s.sites)
                                 : fmt::format("{} files ({} parsed), {} sites, {} errors, {:.2f} s", s.files, s.parsed,
                                               s.sites, s.errors, s.seconds);
  fmt::print("[{}/{}] {} {} at {}: {}\n", run.number, run.total, s.repo, run.label, run.commit.substr(0, 12), what);
  if (run.lineage.pairs > 0)
    fmt::print("        lineage  {} links over {} pairs\n", run.lineage.links, run.lineage.pairs);
  for (const std::string& note : s.notes) fmt::print("        note     {}\n", note);
  for (const std::string& note : run.lineage.notes) fmt::print("        note     {}\n", note);
}

// Links the new revision to its neighbours (docs/catalog.md "Lineage"); a failure is a note, not an error.
void LinkNeighbours(const IndexOptions& options, IndexSummary* summary) {
  if (summary->commit.empty()) return;
  try {
    std::unique_ptr<Catalog> catalog = Catalog::Open(options.catalog, /*read_only=*/false);
    LineageUpdate update = UpdateLineage(*catalog, summary->repo);
    for (std::string& note : update.notes) summary->notes.push_back(std::move(note));
  } catch (const SqliteError& e) {
    summary->notes.push_back(std::string("lineage not updated: ") + e.what());
  }
}

// One line per distribution, then the totals.
void PrintEnvironmentSummary(const std::string& catalog, const EnvironmentSummary& env) {
  fmt::print("indexed the Python {} environment of {} into {}\n", env.python_version, env.executable, catalog);
  int64_t files = 0, sites = 0, indexed = 0, unchanged = 0, skipped = 0;
  for (const DistributionOutcome& o : env.outcomes) {
    const IndexSummary& s = o.summary;
    std::string state = !o.skipped.empty() ? "skipped: " + o.skipped
                        : s.unchanged      ? "unchanged"
                                           : fmt::format("indexed in {:.2f} s", s.seconds);
    fmt::print("  {:<32} {:<14} {:>6} files {:>6} sites  {}\n", o.repo, o.version, s.files, s.sites, state);
    for (const VendoredPackage& v : o.vendored) fmt::print("  {:<32} vendors {} at {}\n", "", v.name, v.path);
    files += s.files;
    sites += s.sites;
    if (!o.skipped.empty()) {
      ++skipped;
    } else if (s.unchanged) {
      ++unchanged;
    } else {
      ++indexed;
    }
  }
  fmt::print("  total: {} distributions ({} indexed, {} unchanged, {} skipped), {} files, {} sites, {:.2f} s\n",
             env.outcomes.size(), indexed, unchanged, skipped, files, sites, env.seconds);
}

}  // namespace

void RegisterIndexCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "index", "Index the Python code of a directory, a git revision, a wheel (index FILE.whl) or an sdist");
  auto options = std::make_shared<IndexOptions>();
  auto quiet = std::make_shared<bool>(false);
  auto max_size = std::make_shared<size_t>(options->extract.max_file_size);
  auto env = std::make_shared<EnvironmentIndexOptions>();
  auto python_env = std::make_shared<bool>(false);
  cmd->add_option("SOURCE", options->source,
                  "Directory, git repository (bare or not), wheel (FILE.whl) or sdist (FILE.tar.gz, .tgz, .zip)");
  cmd->add_option("--max-archive-bytes", options->archive_limits.max_total_bytes,
                  "For a wheel or sdist: refuse it when its members inflate to more bytes (default 1 GiB)");
  cmd->add_flag("--python-env", *python_env,
                "Index every distribution installed for a Python interpreter, and its standard library");
  cmd->add_option("--python", env->python, "With --python-env: the interpreter (default: python3 on PATH)");
  cmd->add_flag("!--no-stdlib", env->stdlib, "With --python-env: skip the standard library");
  auto revs = std::make_shared<std::vector<std::string>>();
  auto releases = std::make_shared<int>(0);
  auto pre = std::make_shared<bool>(false);
  auto release_history = std::make_shared<bool>(false);
  auto release_analysis = std::make_shared<bool>(false);
  cmd->add_option("--rev", *revs, "Branch, tag or commit of a git repository (default: HEAD); may be repeated");
  cmd->add_option("--releases", *releases, "Also index the N newest release tags older than each --rev")
      ->check(CLI::Range(0, 1000));
  cmd->add_flag("--pre", *pre, "With --releases: pre-releases (rc, beta, dev) count as releases");
  cmd->add_flag("--release-history", *release_history,
                "With --releases: walk the git history for the releases too (default: only for --rev)");
  cmd->add_flag("--release-analysis", *release_analysis,
                "With --releases: analyse the releases too (default: only the --rev revisions)");
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
  cmd->callback([options, quiet, max_size, revs, releases, pre, release_history, release_analysis, env, python_env] {
    if (options->catalog.empty()) options->catalog = DefaultCatalogPath();
    options->extract.max_file_size = *max_size;
    options->progress = !*quiet && StderrIsTerminal();
    std::string error;
    if (*python_env != options->source.empty()) {
      std::cerr << "errdex: index takes a SOURCE or --python-env, not both or neither\n";
      SetCommandExitCode(2);
      return;
    }
    if (*python_env) {
      env->index = *options;
      env->index.progress = false;
      env->index.free_memory = true;  // one run per distribution: each must give its memory back
      EnvironmentSummary summary;
      if (!IndexPythonEnvironment(*env, &summary, &error)) {
        std::cerr << "errdex: " << error << "\n";
        SetCommandExitCode(1);
        return;
      }
      if (!*quiet) PrintEnvironmentSummary(options->catalog, summary);
      return;
    }
    if (revs->size() > 1 || *releases > 0) {
      ReleaseIndexOptions run{*options, *revs, *releases, *pre, *release_history, *release_analysis};
      ReleaseIndexSummary summary;
      const bool ok =
          IndexReleases(run, *quiet ? std::function<void(const RevisionRun&)>() : PrintRevisionRun, &summary, &error);
      if (!ok) {
        std::cerr << "errdex: " << error << "\n";
        SetCommandExitCode(1);
      } else if (!*quiet) {
        fmt::print("indexed {} revisions into {} in {:.2f} s\n", summary.runs.size(), options->catalog,
                   summary.seconds);
      }
      return;
    }
    if (!revs->empty()) options->rev = revs->front();
    options->free_memory = false;  // the process ends after this one run
    IndexSummary summary;
    if (!Index(*options, &summary, &error)) {
      std::cerr << "errdex: " << error << "\n";
      SetCommandExitCode(1);
      return;
    }
    LinkNeighbours(*options, &summary);
    if (!*quiet) PrintSummary(*options, summary);
  });
}

}  // namespace errdex
