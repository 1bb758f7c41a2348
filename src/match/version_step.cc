#include "match/version_step.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "catalog/version_store.h"
#include "match/frame_evidence.h"
#include "util/version_name.h"

namespace errdex {

namespace {

struct RepositoryVersions {
  std::vector<VersionedRevision> ordered;  // oldest commit first
  std::map<int64_t, size_t> position;      // revision id -> index in ORDERED
  const VersionedRevision& newest() const { return ordered.back(); }
  std::string Label(int64_t id) const {
    auto it = position.find(id);
    return it == position.end() ? std::to_string(id) : ordered[it->second].label;
  }
};

// The site of SITES in revision REVISION_ID most like WAS: same function, then same file name, code
// before tests. Null when the revision has none.
const SiteRow* SiteIn(const std::vector<SiteRow>& sites, int64_t revision_id, const SiteRow& was) {
  const SiteRow* best = nullptr;
  int best_points = -1;
  for (const SiteRow& s : sites) {
    if (s.revision_id != revision_id) continue;
    int points =
        (s.function == was.function ? 4 : 0) + (CommonSuffix(s.path, was.path) > 0 ? 2 : 0) + (s.is_test ? 0 : 1);
    if (points > best_points) {
      best = &s;
      best_points = points;
    }
  }
  return best;
}

// "1.9.x" when every label is a version of that series, else the labels (at most three).
std::string ProbableVersion(const std::vector<std::string>& labels) {
  std::set<std::string> series;
  for (const std::string& label : labels) {
    std::optional<VersionName> version = ParseVersionName(label);
    series.insert(version ? VersionSeries(*version) : label);
  }
  if (series.size() == 1 && labels.size() > 1) return *series.begin();
  if (labels.size() == 1) return labels.front();
  std::string out;
  for (size_t k = 0; k < labels.size() && k < 3; ++k) out += (k ? " or " : "") + labels[k];
  return out;
}

// The revisions whose site of the error the innermost frames pin to the exact line (with the longest
// path suffix), when the newest is not one of them: the version the traceback was probably printed by. Returns the
// label of the newest of them ("" when none).
std::string GuessVersion(const RepositoryVersions& repo, const std::vector<TracebackFrame>& frames,
                         const std::vector<SiteRow>& sites, ExplainMatch* match) {
  if (frames.empty()) return "";
  std::map<size_t, int> fitting;  // position -> path suffix in common with the innermost frame
  int best_suffix = 0;
  for (const SiteRow& s : sites) {
    auto it = repo.position.find(s.revision_id);
    if (it == repo.position.end()) continue;
    const FrameEvidence e = JudgeFrames(frames, s);
    if (!e.pinned || e.line_distance != 0) continue;
    const int suffix = CommonSuffix(frames.back().path, s.path);
    fitting[it->second] = std::max(fitting[it->second], suffix);
    best_suffix = std::max(best_suffix, suffix);
  }
  std::vector<std::string> labels;
  bool newest_fits = false;
  for (const auto& [position, suffix] : fitting) {
    if (suffix < best_suffix) continue;
    labels.push_back(repo.ordered[position].label);
    newest_fits = newest_fits || position + 1 == repo.ordered.size();
  }
  if (labels.empty() || newest_fits) return "";
  match->versions.probable_version = ProbableVersion(labels);
  match->why.push_back(fmt::format("the traceback's paths and line numbers fit {}: your version is probably {}",
                                   labels.size() == 1 ? labels.front() : labels.front() + " to " + labels.back(),
                                   match->versions.probable_version));
  return labels.back();
}

// Follows the lineage of the error of MATCH from its last revision to the newest one.
void FollowLineage(Catalog& catalog, const RepositoryVersions& repo, const std::vector<SiteRow>& sites,
                   ExplainMatch* match) {
  size_t last = 0;
  for (const SiteRow& s : sites) {
    auto it = repo.position.find(s.revision_id);
    if (it != repo.position.end()) last = std::max(last, it->second);
  }
  const VersionedRevision& last_revision = repo.ordered[last];
  std::string error = match->error_id;
  int64_t revision = last_revision.id;
  std::vector<std::string> steps;
  int confidence = 100;
  std::string removed_in;
  for (size_t guard = 0; guard < repo.ordered.size() && revision != repo.newest().id; ++guard) {
    std::optional<LineageRow> row = LineageFrom(catalog, error, revision);
    if (!row) return;  // not linked (revisions indexed without lineage): leave the match as it is
    if (!row->to_error) {
      removed_in = repo.Label(row->to_revision);
      break;
    }
    if (!row->changes.empty()) steps.push_back(fmt::format("{} in {}", row->changes, repo.Label(row->to_revision)));
    confidence = confidence * row->confidence / 100;
    error = *row->to_error;
    revision = row->to_revision;
  }
  ExplainMatch::Versions& v = match->versions;
  v.matched_revision = last_revision.label;
  if (!removed_in.empty()) {
    v.removed_in = removed_in;
    if (const SiteRow* site = SiteIn(sites, last_revision.id, match->site)) match->site = *site;
    match->why.push_back(fmt::format("removed in {}: last raised in {} at {}:{}", removed_in, last_revision.label,
                                     match->site.path, match->site.line));
    return;
  }
  const std::vector<SiteRow> successor_sites = catalog.SitesOfError(error);
  const SiteRow* site = SiteIn(successor_sites, repo.newest().id, match->site);
  if (site == nullptr) return;
  v.matched_template = match->template_text;
  v.matched_error_id = match->error_id;
  v.lineage = steps;
  match->error_id = error;
  match->template_text = site->template_text.value_or("");
  match->site = *site;
  std::string why = fmt::format("worded like this up to {}", last_revision.label);
  for (const std::string& step : steps) why += "; " + step;
  why += fmt::format("; in {} raised at {}:{}", repo.newest().label, site->path, site->line);
  if (confidence < 80) why += fmt::format(" (linked with {}% confidence)", confidence);
  match->why.push_back(why);
}

}  // namespace

void ApplyVersionStep(Catalog& catalog, const std::vector<TracebackFrame>& frames, Explanation* explanation) {
  std::map<std::string, RepositoryVersions> repositories;
  for (ExplainMatch& match : explanation->matches) {
    auto [it, fresh] = repositories.try_emplace(match.site.repo);
    RepositoryVersions& repo = it->second;
    if (fresh) {
      repo.ordered = OrderedRevisions(catalog, match.site.repo);
      for (size_t k = 0; k < repo.ordered.size(); ++k) repo.position[repo.ordered[k].id] = k;
    }
    if (repo.ordered.size() < 2 || repo.position.count(match.site.revision_id) == 0) continue;
    const std::vector<SiteRow> sites = catalog.SitesOfError(match.error_id);
    const std::string guessed = GuessVersion(repo, frames, sites, &match);
    if (match.site.revision_id == repo.newest().id) continue;
    if (const SiteRow* site = SiteIn(sites, repo.newest().id, match.site)) {
      // The same error is in the newest revision: the traceback picked an older one's site.
      match.versions.matched_revision = guessed.empty() ? repo.Label(match.site.revision_id) : guessed;
      match.why.push_back(fmt::format("the traceback fits {}; in {} the same error is raised at {}:{}",
                                      match.versions.matched_revision, repo.newest().label, site->path, site->line));
      match.site = *site;
      continue;
    }
    FollowLineage(catalog, repo, sites, &match);
  }
  // Older wordings of one error lead to the same successor: keep its best-ranked match only. (Twins of one
  // error, listed as results of their own, are other sites: kept.)
  std::set<std::tuple<std::string, int64_t, std::string, int>> seen;
  std::vector<ExplainMatch>& matches = explanation->matches;
  matches.erase(std::remove_if(matches.begin(), matches.end(),
                               [&seen](const ExplainMatch& m) {
                                 return !seen.emplace(m.error_id, m.site.revision_id, m.site.path, m.site.line).second;
                               }),
                matches.end());
}

}  // namespace errdex
