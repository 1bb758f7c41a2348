#include "source/release_tags.h"

#include <git2.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "source/git_util.h"

namespace errdex {

namespace {

struct RepositoryHandle {
  git_repository* repo = nullptr;
  ~RepositoryHandle() { git_repository_free(repo); }
};

std::string OidHex(const git_oid* oid) {
  char buffer[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buffer, sizeof buffer, oid);
  return buffer;
}

// Peels NAME ("refs/tags/x") to a commit: its id and committer time.
bool PeelToCommit(git_repository* repo, const std::string& spec, git_oid* id, int64_t* time) {
  git_object* object = nullptr;
  git_object* commit = nullptr;
  const bool ok =
      git_revparse_single(&object, repo, spec.c_str()) == 0 && git_object_peel(&commit, object, GIT_OBJECT_COMMIT) == 0;
  if (ok) {
    git_oid_cpy(id, git_object_id(commit));
    *time = git_commit_time(reinterpret_cast<const git_commit*>(commit));
  }
  git_object_free(commit);
  git_object_free(object);
  if (!ok) git_error_clear();
  return ok;
}

}  // namespace

bool SelectReleaseTags(const std::string& git_path, const std::string& rev, int count, bool include_pre,
                       std::vector<ReleaseTag>* tags, ReleaseTag* rev_tag, std::string* error) {
  tags->clear();
  source_internal::EnsureLibgit2();
  RepositoryHandle handle;
  if (git_repository_open_ext(&handle.repo, git_path.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    *error =
        "cannot open git repository " + source_internal::OneLine(git_path) + ": " + source_internal::LastGitError();
    return false;
  }
  const std::string spec = rev.empty() ? "HEAD" : rev;
  git_oid head{};
  int64_t head_time = 0;
  if (!PeelToCommit(handle.repo, spec, &head, &head_time)) {
    *error = "unknown revision '" + source_internal::OneLine(spec) + "' in " + source_internal::OneLine(git_path);
    return false;
  }
  rev_tag->name = spec;
  rev_tag->commit = OidHex(&head);
  rev_tag->time = head_time;
  if (std::optional<VersionName> version = ParseVersionName(spec)) rev_tag->version = std::move(*version);
  if (count <= 0) return true;
  git_strarray names{};
  if (git_tag_list(&names, handle.repo) != 0) {
    *error = "cannot list the tags of " + source_internal::OneLine(git_path) + ": " + source_internal::LastGitError();
    return false;
  }
  // The highest version of each commit.
  std::map<std::string, ReleaseTag> by_commit;
  for (size_t k = 0; k < names.count && k < 100000; ++k) {
    const std::string name = names.strings[k];
    std::optional<VersionName> version = ParseVersionName(name);
    if (!version || (version->pre && !include_pre)) continue;
    git_oid id{};
    int64_t time = 0;
    if (!PeelToCommit(handle.repo, "refs/tags/" + name, &id, &time) || git_oid_equal(&id, &head)) continue;
    const bool older = time <= head_time || git_graph_descendant_of(handle.repo, &head, &id) == 1;
    if (!older) continue;
    ReleaseTag tag{name, OidHex(&id), time, std::move(*version)};
    auto [it, inserted] = by_commit.try_emplace(tag.commit, tag);
    if (!inserted && VersionLess(it->second.version, tag.version)) it->second = std::move(tag);
  }
  git_strarray_dispose(&names);
  for (auto& [commit, tag] : by_commit) tags->push_back(std::move(tag));
  std::sort(tags->begin(), tags->end(), [](const ReleaseTag& a, const ReleaseTag& b) {
    if (VersionLess(b.version, a.version)) return true;
    if (VersionLess(a.version, b.version)) return false;
    return a.name < b.name;
  });
  if (tags->size() > static_cast<size_t>(count)) tags->resize(static_cast<size_t>(count));
  return true;
}

}  // namespace errdex
