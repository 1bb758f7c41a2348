#include "pipeline/release_indexer.h"

#include <algorithm>
#include <chrono>
#include <set>

#include "catalog/catalog.h"
#include "catalog/version_store.h"
#include "match/error_matcher.h"
#include "pipeline/facts_memo.h"
#include "source/release_tags.h"

namespace errdex {

namespace {

struct PlannedRevision {
  ReleaseTag tag;      // name: the label (a release tag) or the revision as asked for
  bool asked = false;  // given with --rev
  bool labelled = false;
};

// The revisions of the run, oldest commit first, each commit once.
bool Plan(const ReleaseIndexOptions& options, std::vector<PlannedRevision>* plan, std::string* error) {
  std::vector<std::string> revs = options.revs;
  if (revs.empty()) revs.emplace_back("HEAD");
  std::set<std::string> commits;
  for (const std::string& rev : revs) {
    std::vector<ReleaseTag> tags;
    ReleaseTag asked;
    if (!SelectReleaseTags(options.index.source, rev, options.releases, options.pre, &tags, &asked, error)) {
      if (options.releases > 0) *error = "--releases needs a git repository: " + *error;
      return false;
    }
    if (commits.insert(asked.commit).second) {
      const bool labelled = !asked.version.numbers.empty();
      plan->push_back({std::move(asked), true, labelled});
    } else {
      for (PlannedRevision& p : *plan) p.asked = p.asked || p.tag.commit == asked.commit;
    }
    for (ReleaseTag& tag : tags) {
      if (commits.insert(tag.commit).second) plan->push_back({std::move(tag), false, true});
    }
  }
  std::stable_sort(plan->begin(), plan->end(), [](const PlannedRevision& a, const PlannedRevision& b) {
    if (a.tag.time != b.tag.time) return a.tag.time < b.tag.time;
    return VersionLess(a.tag.version, b.tag.version);
  });
  return true;
}

}  // namespace

bool IndexReleases(const ReleaseIndexOptions& options, const std::function<void(const RevisionRun&)>& after_each,
                   ReleaseIndexSummary* summary, std::string* error) {
  const auto started = std::chrono::steady_clock::now();
  std::vector<PlannedRevision> plan;
  if (!Plan(options, &plan, error)) return false;
  std::string newest_repo;
  std::string newest_commit;
  int64_t newest_time = -1;
  bool any_indexed = false;
  FactsMemo memo;  // each revision hands its files' facts to the next (pipeline/facts_memo.h)
  for (size_t k = 0; k < plan.size(); ++k) {
    const PlannedRevision& p = plan[k];
    RevisionRun run;
    run.number = static_cast<int>(k) + 1;
    run.total = static_cast<int>(plan.size());
    run.label = p.tag.name;
    run.commit = p.tag.commit;
    IndexOptions index = options.index;
    index.rev = p.tag.commit;
    index.rebuild_matcher = false;  // once, after the last revision (below)
    index.memo = &memo;
    index.analysis = options.index.analysis && (p.asked || options.analysis_for_releases);
    index.history = options.index.history && (p.asked || options.history_for_releases);
    if (!Index(index, &run.summary, error)) {
      *error = p.tag.name + ": " + *error;
      return false;
    }
    try {
      std::unique_ptr<Catalog> catalog = Catalog::Open(options.index.catalog, /*read_only=*/false);
      if (p.labelled) {
        if (auto revision = catalog->FindRevision(run.summary.repo, p.tag.commit)) {
          SetRevisionLabel(*catalog, revision->id, p.tag.name);
        }
      }
      run.lineage = UpdateLineage(*catalog, run.summary.repo);
    } catch (const SqliteError& e) {
      *error = p.tag.name + ": " + e.what();
      return false;
    }
    if (p.asked && p.tag.time > newest_time) {
      newest_time = p.tag.time;
      newest_repo = run.summary.repo;
      newest_commit = p.tag.commit;
    }
    any_indexed = any_indexed || !run.summary.unchanged;
    if (after_each) after_each(run);
    summary->runs.push_back(std::move(run));
  }
  // The newest revision asked for is the repository's latest (the highest id), even when it was indexed
  // before the older releases of this run.
  try {
    std::unique_ptr<Catalog> catalog = Catalog::Open(options.index.catalog, /*read_only=*/false);
    const std::vector<VersionedRevision> ordered = OrderedRevisions(*catalog, newest_repo);
    auto newest = std::find_if(ordered.begin(), ordered.end(),
                               [&](const VersionedRevision& v) { return v.commit == newest_commit; });
    const bool is_latest = std::all_of(ordered.begin(), ordered.end(), [&](const VersionedRevision& v) {
      return newest == ordered.end() || v.id <= newest->id;
    });
    if (newest != ordered.end() && !is_latest) MakeLatestRevision(*catalog, newest->id);
    // The matcher is built once, over every revision's errors, in its own transaction.
    if (any_indexed || catalog->MatcherIsStale()) catalog->RebuildMatcher(ErrorMatcher::Rebuild);
  } catch (const SqliteError& e) {
    *error = e.what();
    return false;
  }
  summary->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return true;
}

}  // namespace errdex
