#include "source/git_renames.h"

#include <git2.h>

#include <string_view>

#include "source/git_util.h"

namespace errdex {

namespace {

bool IsPython(const char* path) {
  const std::string_view p = path != nullptr ? path : "";
  return p.size() > 3 && p.substr(p.size() - 3) == ".py";
}

// The tree of the commit named by HEX, or null.
git_tree* TreeOf(git_repository* repo, const std::string& hex) {
  git_oid id{};
  git_commit* commit = nullptr;
  git_tree* tree = nullptr;
  if (git_oid_fromstrn(&id, hex.data(), hex.size()) == 0 && git_commit_lookup(&commit, repo, &id) == 0) {
    if (git_commit_tree(&tree, commit) != 0) tree = nullptr;
  }
  git_commit_free(commit);
  return tree;
}

}  // namespace

bool PythonRenames(const std::string& git_path, const std::string& old_commit, const std::string& new_commit,
                   std::map<std::string, std::string>* renames, std::string* error) {
  renames->clear();
  source_internal::EnsureLibgit2();
  git_repository* repo = nullptr;
  if (git_repository_open_ext(&repo, git_path.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    *error =
        "cannot open git repository " + source_internal::OneLine(git_path) + ": " + source_internal::LastGitError();
    return false;
  }
  git_tree* old_tree = TreeOf(repo, old_commit);
  git_tree* new_tree = TreeOf(repo, new_commit);
  git_diff* diff = nullptr;
  bool ok = old_tree != nullptr && new_tree != nullptr;
  if (ok) {
    git_diff_options options = GIT_DIFF_OPTIONS_INIT;
    const char* pattern = "*.py";
    options.pathspec.strings = const_cast<char**>(&pattern);
    options.pathspec.count = 1;
    ok = git_diff_tree_to_tree(&diff, repo, old_tree, new_tree, &options) == 0;
  }
  if (ok) {
    git_diff_find_options find = GIT_DIFF_FIND_OPTIONS_INIT;
    find.flags = GIT_DIFF_FIND_RENAMES;
    find.rename_limit = 20000;
    ok = git_diff_find_similar(diff, &find) == 0;
  }
  if (ok) {
    const size_t count = git_diff_num_deltas(diff);
    for (size_t k = 0; k < count; ++k) {
      const git_diff_delta* delta = git_diff_get_delta(diff, k);
      if (delta->status != GIT_DELTA_RENAMED) continue;
      if (!IsPython(delta->old_file.path) || !IsPython(delta->new_file.path)) continue;
      (*renames)[delta->old_file.path] = delta->new_file.path;
    }
  } else {
    *error = "cannot compare " + old_commit.substr(0, 12) + " with " + new_commit.substr(0, 12) + ": " +
             source_internal::LastGitError();
  }
  git_diff_free(diff);
  git_tree_free(old_tree);
  git_tree_free(new_tree);
  git_repository_free(repo);
  return ok;
}

}  // namespace errdex
