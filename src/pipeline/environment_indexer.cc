#include "pipeline/environment_indexer.h"

#include <chrono>

#include "catalog/catalog.h"
#include "match/error_matcher.h"
#include "source/installed_source.h"

namespace errdex {

std::string DistributionSkipReason(const InstalledDistribution& dist) {
  if (!dist.files.empty()) return "";
  if (dist.other_files > 0) {
    return "compiled only: " + std::to_string(dist.other_files) + " files, no Python source";
  }
  if (dist.files_from.empty()) return "no RECORD and no top_level.txt: its files are unknown";
  return "no Python files in its " + dist.files_from;
}

namespace {

bool IndexOne(const EnvironmentIndexOptions& options, InstalledSource source, DistributionOutcome* outcome,
              std::string* error) {
  IndexOptions index = options.index;
  index.rebuild_matcher = false;
  index.opened_source = &source;
  index.name = source.info().default_name;
  index.url.clear();
  index.history = false;  // no git history for installed files
  outcome->repo = index.name;
  if (!Index(index, &outcome->summary, error)) {
    *error = outcome->repo + " " + outcome->version + ": " + *error;
    return false;
  }
  return true;
}

bool IndexEnvironmentOrThrow(const EnvironmentIndexOptions& options, EnvironmentSummary* summary, std::string* error) {
  const auto started = std::chrono::steady_clock::now();
  PythonEnvironment env;
  if (!ProbePythonEnvironment(options.python, &env, error)) return false;
  summary->executable = env.executable;
  summary->python_version = env.version;
  bool any_indexed = false;
  if (options.stdlib && !env.stdlib.empty()) {
    DistributionOutcome outcome;
    outcome.name = "Python standard library";
    outcome.version = env.version;
    if (!IndexOne(options, StdlibSource(env), &outcome, error)) return false;
    any_indexed = any_indexed || !outcome.summary.unchanged;
    summary->outcomes.push_back(std::move(outcome));
  }
  for (const InstalledDistribution& dist : env.distributions) {
    DistributionOutcome outcome;
    outcome.name = dist.name;
    outcome.version = dist.version;
    outcome.vendored = dist.vendored;
    outcome.skipped = DistributionSkipReason(dist);
    // A skipped distribution is still recorded (a revision without files), so that the catalog says
    // what is installed and why it has no errors.
    if (!IndexOne(options, DistributionSource(dist), &outcome, error)) return false;
    summary->outcomes.push_back(std::move(outcome));
  }
  // The matcher is built once, over every distribution's errors, in its own transaction.
  std::unique_ptr<Catalog> catalog = Catalog::Open(options.index.catalog, /*read_only=*/false);
  if (any_indexed || catalog->MatcherIsStale()) catalog->RebuildMatcher(ErrorMatcher::Rebuild);
  summary->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return true;
}

}  // namespace

bool IndexPythonEnvironment(const EnvironmentIndexOptions& options, EnvironmentSummary* summary, std::string* error) {
  try {
    return IndexEnvironmentOrThrow(options, summary, error);
  } catch (const SqliteError& e) {
    *error = e.what();
  } catch (const std::exception& e) {
    *error = e.what();
  }
  return false;
}

}  // namespace errdex
