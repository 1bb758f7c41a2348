#include "analysis/introducing_commit.h"

#include <git2.h>
#include <string.h>

#include <chrono>
#include <ctime>
#include <map>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "source/source.h"
#include "util/utf8.h"

namespace errdex {
namespace {

template <typename T, void (*Free)(T*)>
struct GitDeleter {
  void operator()(T* p) const { Free(p); }
};
using CommitPtr = std::unique_ptr<git_commit, GitDeleter<git_commit, git_commit_free>>;
using TreePtr = std::unique_ptr<git_tree, GitDeleter<git_tree, git_tree_free>>;
using BlobPtr = std::unique_ptr<git_blob, GitDeleter<git_blob, git_blob_free>>;
using ObjectPtr = std::unique_ptr<git_object, GitDeleter<git_object, git_object_free>>;
using RepoPtr = std::unique_ptr<git_repository, GitDeleter<git_repository, git_repository_free>>;
using EntryPtr = std::unique_ptr<git_tree_entry, GitDeleter<git_tree_entry, git_tree_entry_free>>;
using DiffPtr = std::unique_ptr<git_diff, GitDeleter<git_diff, git_diff_free>>;

std::string GitError() {
  const git_error* e = git_error_last();
  std::string message = e != nullptr && e->message != nullptr ? e->message : "unknown error";
  git_error_clear();
  for (char& c : message) {
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  while (!message.empty() && message.back() == ' ') message.pop_back();
  return message;
}

std::string OneLine(std::string text) {
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return text;
}

bool IsFileMode(git_filemode_t mode) { return mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE; }

bool Contains(const void* data, size_t size, const std::string& text) {
  return !text.empty() && ::memmem(data, size, text.data(), text.size()) != nullptr;
}

IntroducingCommit DescribeCommit(const git_commit* commit) {
  IntroducingCommit out;
  char hex[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(hex, sizeof hex, git_commit_id(commit));
  out.commit = hex;
  const std::time_t t = static_cast<std::time_t>(git_commit_time(commit));
  std::tm tm{};
  char buffer[32];
  if (gmtime_r(&t, &tm) != nullptr && std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm) > 0) {
    out.committed_at = buffer;
  }
  if (const git_signature* author = git_commit_author(commit); author != nullptr && author->name != nullptr) {
    out.author = author->name;
  }
  if (const char* message = git_commit_message(commit); message != nullptr) {
    std::string_view m = message;
    while (!m.empty() && (m.front() == '\n' || m.front() == '\r' || m.front() == ' ')) m.remove_prefix(1);
    m = m.substr(0, m.find('\n'));
    while (!m.empty() && (m.back() == '\r' || m.back() == ' ' || m.back() == '\t')) m.remove_suffix(1);
    out.summary = CutUtf8(m, 200);
  }
  return out;
}

// Rename detection compares at most this many added and deleted files of one commit.
constexpr int kMaxRenameCandidates = 2000;

// The walk's state: a trie of the needle paths with, per node, how many unresolved files lie below.
class Walk {
 public:
  Walk(git_repository* repo, HistoryStats* stats) : repo_(repo), stats_(stats) { nodes_.emplace_back(); }

  // Adds file PATH, present at the start commit, with its distinct needle TEXTS (all present there).
  void AddFile(const std::string& path, std::vector<std::string> texts, std::vector<std::vector<size_t>> owners) {
    File f;
    f.node = NodeOf(path);
    f.path = path;
    f.texts = std::move(texts);
    f.owners = std::move(owners);
    f.resolved.assign(f.texts.size(), -1);
    f.unresolved = f.texts.size();
    nodes_[f.node].file = static_cast<int>(files_.size());
    for (int n = f.node; n != -1; n = nodes_[n].parent) ++nodes_[n].active;
    files_.push_back(std::move(f));
  }

  // The trie node of PATH, created as needed.
  int NodeOf(const std::string& path) {
    int node = 0;
    size_t start = 0;
    while (true) {
      const size_t slash = path.find('/', start);
      const std::string name = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
      auto it = nodes_[node].children.find(name);
      int child;
      if (it == nodes_[node].children.end()) {
        child = static_cast<int>(nodes_.size());
        nodes_[node].children.emplace(name, child);
        Node n;
        n.parent = node;
        nodes_.push_back(std::move(n));
      } else {
        child = it->second;
      }
      node = child;
      if (slash == std::string::npos) break;
      start = slash + 1;
    }
    return node;
  }

  bool Done() const { return nodes_[0].active == 0; }

  // Compares CURRENT (holding every unresolved text) with its first parent PARENT: the needles whose
  // text is gone in PARENT resolve at CURRENT.
  void Step(const git_commit* current, const git_tree* current_tree, const git_tree* parent_tree) {
    if (git_oid_equal(git_tree_id(current_tree), git_tree_id(parent_tree))) return;
    current_ = current;
    current_info_ = -1;
    absent_.clear();
    Compare(0, current_tree, parent_tree);
    if (!absent_.empty()) FollowRenames(current_tree, parent_tree);
  }

  // Every unresolved needle resolves at COMMIT (BOUNDED: the text is older than it).
  void ResolveAll(const git_commit* commit, bool bounded) {
    current_ = commit;
    current_info_ = -1;
    for (size_t f = 0; f < files_.size(); ++f) {
      if (files_[f].unresolved > 0) ResolveFile(f, bounded);
    }
  }

  // Writes the results of the needles into *OUT.
  void Results(std::vector<std::optional<IntroducingCommit>>* out) const {
    for (const File& f : files_) {
      for (size_t t = 0; t < f.texts.size(); ++t) {
        if (f.resolved[t] < 0) continue;  // cannot happen after ResolveAll
        const auto& [info, bounded] = results_[static_cast<size_t>(f.resolved[t])];
        for (size_t owner : f.owners[t]) {
          (*out)[owner] = infos_[static_cast<size_t>(info)];
          (*out)[owner]->bounded = bounded;
        }
      }
    }
  }

 private:
  struct Node {
    std::map<std::string, int> children;
    int parent = -1;
    int file = -1;   // index in files_ for a leaf
    int active = 0;  // files below (itself included) with an unresolved text
  };
  struct File {
    int node = 0;
    std::string path;  // where the file is at the commit being compared (renames followed)
    std::vector<std::string> texts;
    std::vector<std::vector<size_t>> owners;  // per text: the indices of the needles that asked for it
    std::vector<int> resolved;                // per text: index in results_, -1 while unresolved
    size_t unresolved = 0;
  };

  int CurrentResult(bool bounded) {
    if (current_info_ < 0) {
      current_info_ = static_cast<int>(infos_.size());
      infos_.push_back(DescribeCommit(current_));
      result_plain_ = result_bounded_ = -1;
    }
    int& slot = bounded ? result_bounded_ : result_plain_;
    if (slot < 0) {
      slot = static_cast<int>(results_.size());
      results_.emplace_back(current_info_, bounded);
    }
    return slot;
  }

  void ResolveText(size_t f, size_t t, bool bounded) {
    File& file = files_[f];
    if (file.resolved[t] >= 0) return;
    file.resolved[t] = CurrentResult(bounded);
    if (--file.unresolved == 0) {
      for (int n = file.node; n != -1; n = nodes_[n].parent) --nodes_[n].active;
    }
  }

  void ResolveFile(size_t f, bool bounded) {
    for (size_t t = 0; t < files_[f].texts.size(); ++t) ResolveText(f, t, bounded);
  }

  // Files with unresolved texts below NODE, for the rename check of this step.
  void AbsentBelow(int node) {
    if (nodes_[node].active == 0) return;
    if (nodes_[node].file >= 0) absent_.push_back(static_cast<size_t>(nodes_[node].file));
    for (const auto& [name, child] : nodes_[node].children) AbsentBelow(child);
  }

  // The files absent from the parent were added by this commit, or moved: git's rename detection between
  // the two trees tells which; a moved file whose parent blob still holds some of its texts is followed
  // to its old path, the rest resolve here. Runs only on the few commits that add a needle path.
  void FollowRenames(const git_tree* current_tree, const git_tree* parent_tree) {
    std::unordered_map<std::string, std::string> old_path_of;
    git_diff* raw = nullptr;
    git_diff_options options;
    git_diff_options_init(&options, GIT_DIFF_OPTIONS_VERSION);
    if (git_diff_tree_to_tree(&raw, repo_, const_cast<git_tree*>(parent_tree), const_cast<git_tree*>(current_tree),
                              &options) == 0) {
      const DiffPtr diff(raw);
      git_diff_find_options find;
      git_diff_find_options_init(&find, GIT_DIFF_FIND_OPTIONS_VERSION);
      find.flags = GIT_DIFF_FIND_RENAMES;
      find.rename_limit = kMaxRenameCandidates;
      if (git_diff_find_similar(diff.get(), &find) == 0) {
        for (size_t i = 0; i < git_diff_num_deltas(diff.get()); ++i) {
          const git_diff_delta* d = git_diff_get_delta(diff.get(), i);
          if (d->status == GIT_DELTA_RENAMED && d->old_file.path != nullptr && d->new_file.path != nullptr) {
            old_path_of.emplace(d->new_file.path, d->old_file.path);
          }
        }
      }
    }
    git_error_clear();
    for (size_t f : absent_) {
      File& file = files_[f];
      auto renamed = old_path_of.find(file.path);
      git_tree_entry* entry_raw = nullptr;
      if (renamed == old_path_of.end() ||
          git_tree_entry_bypath(&entry_raw, parent_tree, renamed->second.c_str()) != 0) {
        git_error_clear();
        ResolveFile(f, false);  // added here
        continue;
      }
      const EntryPtr entry(entry_raw);
      git_blob* blob_raw = nullptr;
      if (git_blob_lookup(&blob_raw, repo_, git_tree_entry_id(entry.get())) != 0) {
        git_error_clear();
        ResolveFile(f, true);
        continue;
      }
      const BlobPtr blob(blob_raw);
      if (stats_ != nullptr) ++stats_->blobs_read;
      const void* data = git_blob_rawcontent(blob.get());
      const size_t size = static_cast<size_t>(git_blob_rawsize(blob.get()));
      for (size_t t = 0; t < file.texts.size(); ++t) {
        if (file.resolved[t] < 0 && !Contains(data, size, file.texts[t])) ResolveText(f, t, false);
      }
      if (file.unresolved == 0) continue;
      // Older than the move: the file goes on under its old path.
      const int target = NodeOf(renamed->second);
      if (nodes_[target].file >= 0) {
        ResolveFile(f, false);  // the old path holds another needle file: keep it simple, stop here
        continue;
      }
      for (int n = file.node; n != -1; n = nodes_[n].parent) --nodes_[n].active;
      nodes_[file.node].file = -1;
      file.node = target;
      file.path = renamed->second;
      nodes_[target].file = static_cast<int>(f);
      for (int n = target; n != -1; n = nodes_[n].parent) ++nodes_[n].active;
      if (stats_ != nullptr) ++stats_->renames_followed;
    }
  }

  void ResolveBelow(int node, bool bounded) {
    if (nodes_[node].active == 0) return;
    if (nodes_[node].file >= 0) ResolveFile(static_cast<size_t>(nodes_[node].file), bounded);
    for (const auto& [name, child] : nodes_[node].children) ResolveBelow(child, bounded);
  }

  void Compare(int node, const git_tree* current_tree, const git_tree* parent_tree) {
    for (const auto& [name, child] : nodes_[node].children) {
      if (nodes_[child].active == 0) continue;
      const git_tree_entry* here = git_tree_entry_byname(current_tree, name.c_str());
      const git_tree_entry* there = git_tree_entry_byname(parent_tree, name.c_str());
      if (here == nullptr) {  // cannot happen: every unresolved path holds its text at the current commit
        ResolveBelow(child, true);
        continue;
      }
      const bool is_file = nodes_[child].file >= 0;
      if (there == nullptr ||
          (is_file ? !IsFileMode(git_tree_entry_filemode(there)) : git_tree_entry_type(there) != GIT_OBJECT_TREE)) {
        AbsentBelow(child);  // absent from the parent: added here, or moved (FollowRenames)
        continue;
      }
      if (git_oid_equal(git_tree_entry_id(here), git_tree_entry_id(there))) continue;
      if (is_file) {
        const size_t f = static_cast<size_t>(nodes_[child].file);
        git_blob* raw = nullptr;
        if (git_blob_lookup(&raw, repo_, git_tree_entry_id(there)) != 0) {
          git_error_clear();
          ResolveFile(f, true);  // the parent's blob is missing (partial mirror): older, unknown
          continue;
        }
        const BlobPtr blob(raw);
        if (stats_ != nullptr) ++stats_->blobs_read;
        const void* data = git_blob_rawcontent(blob.get());
        const size_t size = static_cast<size_t>(git_blob_rawsize(blob.get()));
        File& file = files_[f];
        for (size_t t = 0; t < file.texts.size(); ++t) {
          if (file.resolved[t] < 0 && !Contains(data, size, file.texts[t])) ResolveText(f, t, false);
        }
        continue;
      }
      git_tree* here_raw = nullptr;
      git_tree* there_raw = nullptr;
      const bool ok_here = git_tree_lookup(&here_raw, repo_, git_tree_entry_id(here)) == 0;
      const TreePtr here_tree(here_raw);
      const bool ok_there = ok_here && git_tree_lookup(&there_raw, repo_, git_tree_entry_id(there)) == 0;
      const TreePtr there_tree(there_raw);
      if (!ok_there) {
        git_error_clear();
        ResolveBelow(child, true);
        continue;
      }
      Compare(child, here_tree.get(), there_tree.get());
    }
  }

  git_repository* repo_;
  HistoryStats* stats_;
  std::vector<Node> nodes_;
  std::vector<File> files_;
  std::vector<IntroducingCommit> infos_;       // one per commit something resolved at
  std::vector<std::pair<int, bool>> results_;  // (infos_ index, bounded)
  std::vector<size_t> absent_;                 // files absent from the parent in this step
  const git_commit* current_ = nullptr;
  int current_info_ = -1;
  int result_plain_ = -1;
  int result_bounded_ = -1;
};

}  // namespace

std::vector<std::optional<IntroducingCommit>> FindIntroducingCommits(git_repository* repo, const std::string& commit,
                                                                     const std::vector<HistoryNeedle>& needles,
                                                                     const HistoryLimits& limits, std::string* error,
                                                                     HistoryStats* stats) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point started = Clock::now();
  if (stats != nullptr) *stats = HistoryStats{};

  git_object* object_raw = nullptr;
  git_object* peeled_raw = nullptr;
  if (git_revparse_single(&object_raw, repo, commit.c_str()) != 0) {
    git_error_clear();
    *error = "unknown revision '" + OneLine(commit) + "'";
    return {};
  }
  const ObjectPtr object(object_raw);
  if (git_object_peel(&peeled_raw, object.get(), GIT_OBJECT_COMMIT) != 0) {
    git_error_clear();
    *error = "revision '" + OneLine(commit) + "' is not a commit";
    return {};
  }
  CommitPtr current(reinterpret_cast<git_commit*>(peeled_raw));
  git_tree* tree_raw = nullptr;
  if (git_commit_tree(&tree_raw, current.get()) != 0) {
    *error = "cannot read the tree of '" + OneLine(commit) + "': " + GitError();
    return {};
  }
  TreePtr current_tree(tree_raw);

  std::vector<std::optional<IntroducingCommit>> out(needles.size());
  Walk walk(repo, stats);

  // Group the needles by path, then by distinct text; keep those whose text is in the file now.
  std::map<std::string, std::vector<size_t>> by_path;
  for (size_t i = 0; i < needles.size(); ++i) {
    if (!needles[i].text.empty() && IsSafeRelativePath(needles[i].path)) by_path[needles[i].path].push_back(i);
  }
  for (const auto& [path, indices] : by_path) {
    git_tree_entry* entry_raw = nullptr;
    if (git_tree_entry_bypath(&entry_raw, current_tree.get(), path.c_str()) != 0) {
      git_error_clear();
      continue;
    }
    const EntryPtr entry(entry_raw);
    if (!IsFileMode(git_tree_entry_filemode(entry.get()))) continue;
    git_blob* blob_raw = nullptr;
    if (git_blob_lookup(&blob_raw, repo, git_tree_entry_id(entry.get())) != 0) {
      git_error_clear();
      continue;  // unreadable now: nothing can be said
    }
    const BlobPtr blob(blob_raw);
    const void* data = git_blob_rawcontent(blob.get());
    const size_t size = static_cast<size_t>(git_blob_rawsize(blob.get()));
    std::unordered_map<std::string_view, size_t> text_index;
    std::vector<std::string> texts;
    std::vector<std::vector<size_t>> owners;
    for (size_t i : indices) {
      const std::string& text = needles[i].text;
      auto it = text_index.find(text);
      if (it == text_index.end()) {
        if (!Contains(data, size, text)) continue;
        it = text_index.emplace(text, texts.size()).first;
        texts.push_back(text);
        owners.emplace_back();
      }
      owners[it->second].push_back(i);
    }
    if (!texts.empty()) walk.AddFile(path, std::move(texts), std::move(owners));
  }

  int steps = 0;
  while (!walk.Done()) {
    if (git_commit_parentcount(current.get()) == 0) {
      walk.ResolveAll(current.get(), false);  // a root commit introduced whatever it holds (even at the limits)
      break;
    }
    const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
    if (steps >= limits.max_commits || elapsed > limits.max_seconds) {
      walk.ResolveAll(current.get(), true);
      break;
    }
    git_commit* parent_raw = nullptr;
    git_tree* parent_tree_raw = nullptr;
    if (git_commit_parent(&parent_raw, current.get(), 0) != 0) {
      git_error_clear();
      walk.ResolveAll(current.get(), true);  // shallow history: older than what is here
      break;
    }
    CommitPtr parent(parent_raw);
    if (git_commit_tree(&parent_tree_raw, parent.get()) != 0) {
      git_error_clear();
      walk.ResolveAll(current.get(), true);
      break;
    }
    TreePtr parent_tree(parent_tree_raw);
    ++steps;
    walk.Step(current.get(), current_tree.get(), parent_tree.get());
    current = std::move(parent);
    current_tree = std::move(parent_tree);
  }

  walk.Results(&out);
  if (stats != nullptr) {
    stats->commits_walked = steps;
    for (const auto& r : out) {
      if (!r) {
        ++stats->absent;
      } else if (r->bounded) {
        ++stats->bounded;
      } else {
        ++stats->resolved;
      }
    }
  }
  return out;
}

std::vector<std::optional<IntroducingCommit>> FindIntroducingCommits(const std::string& git_path,
                                                                     const std::string& commit,
                                                                     const std::vector<HistoryNeedle>& needles,
                                                                     const HistoryLimits& limits, std::string* error,
                                                                     HistoryStats* stats) {
  git_libgit2_init();  // balanced below: libgit2 counts initializations
  std::vector<std::optional<IntroducingCommit>> out;
  {
    git_repository* raw = nullptr;
    if (git_repository_open_ext(&raw, git_path.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
      *error = "cannot open git repository " + OneLine(git_path) + ": " + GitError();
    } else {
      const RepoPtr repo(raw);
      out = FindIntroducingCommits(repo.get(), commit, needles, limits, error, stats);
    }
  }
  git_libgit2_shutdown();
  return out;
}

}  // namespace errdex
