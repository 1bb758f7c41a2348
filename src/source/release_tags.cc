#include "source/release_tags.h"

#include <git2.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "source/git_util.h"

namespace errdex {

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The pre-release words PEP 440 and semver tags use ("1.2rc1", "1.2.0-beta.2", "1.2.dev0").
bool IsPreReleaseSuffix(std::string_view suffix) {
  size_t i = 0;
  while (i < suffix.size() && (suffix[i] == '-' || suffix[i] == '.' || suffix[i] == '_')) ++i;
  if (i > 1) return false;
  std::string word;
  while (i < suffix.size() && std::isalpha(static_cast<unsigned char>(suffix[i]))) {
    word += static_cast<char>(std::tolower(static_cast<unsigned char>(suffix[i++])));
  }
  static const std::set<std::string> kWords = {"a", "b", "c", "rc", "alpha", "beta", "dev", "pre", "preview"};
  if (!kWords.contains(word)) return false;
  if (i < suffix.size() && (suffix[i] == '.' || suffix[i] == '-')) ++i;
  while (i < suffix.size() && IsDigit(suffix[i])) ++i;
  return i == suffix.size() && suffix.size() <= 16;
}

bool IsPostReleaseSuffix(std::string_view suffix) {
  if (suffix.size() < 5 || suffix.size() > 12) return false;
  if (suffix.substr(0, 5) != ".post" && suffix.substr(0, 5) != "-post") return false;
  return std::all_of(suffix.begin() + 5, suffix.end(), IsDigit);
}

// Orders pre-release words: dev < a/alpha < b/beta < c/rc/pre, then by their number.
std::pair<int, int64_t> PreRank(const std::string& tag) {
  std::string word;
  int64_t number = 0;
  for (char c : tag) {
    if (std::isalpha(static_cast<unsigned char>(c))) word += c;
    if (IsDigit(c) && number < 1000000) number = number * 10 + (c - '0');
  }
  int rank = 3;
  if (word == "dev") rank = 0;
  if (word == "a" || word == "alpha") rank = 1;
  if (word == "b" || word == "beta") rank = 2;
  return {rank, number};
}

}  // namespace

std::optional<VersionName> ParseVersionName(std::string_view name) {
  if (name.size() > 64) return std::nullopt;
  size_t i = 0;
  if (i < name.size() && (name[i] == 'v' || name[i] == 'V')) ++i;
  VersionName v;
  while (true) {
    if (i >= name.size() || !IsDigit(name[i])) return std::nullopt;
    int64_t n = 0;
    size_t digits = 0;
    while (i < name.size() && IsDigit(name[i])) {
      if (++digits > 9) return std::nullopt;
      n = n * 10 + (name[i++] - '0');
    }
    v.numbers.push_back(n);
    if (i + 1 < name.size() && name[i] == '.' && IsDigit(name[i + 1]) && v.numbers.size() < 5) {
      ++i;
      continue;
    }
    break;
  }
  if (v.numbers.size() < 2) return std::nullopt;
  const std::string_view suffix = name.substr(i);
  if (suffix.empty() || IsPostReleaseSuffix(suffix)) return v;
  if (!IsPreReleaseSuffix(suffix)) return std::nullopt;
  v.pre = true;
  for (char c : suffix) v.pre_tag += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return v;
}

bool VersionLess(const VersionName& a, const VersionName& b) {
  const size_t n = std::max(a.numbers.size(), b.numbers.size());
  for (size_t k = 0; k < n; ++k) {
    const int64_t x = k < a.numbers.size() ? a.numbers[k] : 0;
    const int64_t y = k < b.numbers.size() ? b.numbers[k] : 0;
    if (x != y) return x < y;
  }
  if (a.pre != b.pre) return a.pre;  // 1.2rc1 < 1.2
  if (a.pre) return PreRank(a.pre_tag) < PreRank(b.pre_tag);
  return false;
}

std::string VersionSeries(const VersionName& version) {
  std::string out;
  for (size_t k = 0; k + 1 < version.numbers.size(); ++k) out += std::to_string(version.numbers[k]) + ".";
  return out + "x";
}

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
