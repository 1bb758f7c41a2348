#include "source/git_source.h"

#include <git2.h>

#include <algorithm>
#include <ctime>
#include <new>
#include <string_view>

#include "source/directory_source.h"
#include "source/git_util.h"

namespace errdex {
namespace {

using source_internal::LastGitError;
using source_internal::OneLine;

std::string OidHex(const git_oid* oid) {
  char buffer[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(buffer, sizeof buffer, oid);
  return buffer;
}

bool IsPyName(std::string_view name) { return name.size() >= 3 && name.substr(name.size() - 3) == ".py"; }

struct WalkState {
  bool documents = false;  // ListDocuments(), else List()
  git_odb* odb = nullptr;
  std::vector<SourceEntry>* files = nullptr;
  std::vector<SourceSkip>* skips = nullptr;
};

int WalkCallback(const char* root, const git_tree_entry* entry, void* payload) {
  auto* state = static_cast<WalkState*>(payload);
  try {
    const std::string_view name = git_tree_entry_name(entry);
    const bool wanted = state->documents ? IsDocumentName(std::string(name)) : IsPyName(name);
    switch (git_tree_entry_filemode(entry)) {
      case GIT_FILEMODE_TREE:
        // A positive value skips the subtree (GIT_TREEWALK_PRE).
        return state->documents && IsSkippedDirectoryName(std::string(name)) ? 1 : 0;
      case GIT_FILEMODE_COMMIT:
        if (!state->documents) state->skips->push_back({std::string(root) + std::string(name), "submodule"});
        return 0;
      case GIT_FILEMODE_LINK:
        if (wanted) state->skips->push_back({std::string(root) + std::string(name), "symlink"});
        return 0;
      case GIT_FILEMODE_BLOB:
      case GIT_FILEMODE_BLOB_EXECUTABLE: {
        if (!wanted) return 0;
        std::string path = std::string(root) + std::string(name);
        const git_oid* id = git_tree_entry_id(entry);
        size_t size = 0;
        git_object_t type = GIT_OBJECT_INVALID;
        if (git_odb_read_header(&size, &type, state->odb, id) != 0 || type != GIT_OBJECT_BLOB) {
          git_error_clear();
          state->skips->push_back({std::move(path), "missing_blob"});
          return 0;
        }
        if (state->documents && size > kMaxDocumentBytes) {
          state->skips->push_back({std::move(path), "too_large"});
          return 0;
        }
        state->files->push_back({std::move(path), OidHex(id), static_cast<uint64_t>(size)});
        return 0;
      }
      default:
        return 0;
    }
  } catch (const std::bad_alloc&) {
    return -1;  // never let an exception cross libgit2's C frames
  }
}

}  // namespace

std::unique_ptr<GitSource> GitSource::Open(const std::string& location, const std::string& display,
                                           const std::string& rev, std::string* error) {
  source_internal::EnsureLibgit2();
  std::unique_ptr<GitSource> source(new GitSource());
  if (git_repository_open_ext(&source->repo_, location.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    *error = "cannot open git repository " + OneLine(display) + ": " + LastGitError();
    return nullptr;
  }
  if (git_repository_odb(&source->odb_, source->repo_) != 0) {
    *error = "cannot open the object store of " + OneLine(display) + ": " + LastGitError();
    return nullptr;
  }
  const std::string spec = rev.empty() ? "HEAD" : rev;
  git_object* object = nullptr;
  git_object* commit = nullptr;
  const bool resolved = git_revparse_single(&object, source->repo_, spec.c_str()) == 0 &&
                        git_object_peel(&commit, object, GIT_OBJECT_COMMIT) == 0;
  git_object_free(object);
  if (!resolved) {
    git_error_clear();
    *error = "unknown revision '" + OneLine(spec) + "' in " + OneLine(display);
    return nullptr;
  }
  SourceInfo& info = source->info_;
  info.is_git = true;
  info.kind = "git";
  info.location = location;
  info.commit = OidHex(git_object_id(commit));
  {
    // Committer time as ISO 8601 UTC, for the pages' "analysed at" footer.
    const git_time_t when = git_commit_time(reinterpret_cast<const git_commit*>(commit));
    std::time_t t = static_cast<std::time_t>(when);
    std::tm tm{};
    char buffer[32];
    if (gmtime_r(&t, &tm) != nullptr && std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm) > 0) {
      info.committed_at = buffer;
    }
  }
  git_object_free(commit);

  const char* workdir = git_repository_workdir(source->repo_);
  info.default_name = source_internal::FolderName(workdir != nullptr ? workdir : git_repository_path(source->repo_));
  source_internal::NamesFromOrigin(source->repo_, &info.default_name, &info.web_url);
  return source;
}

GitSource::~GitSource() {
  git_odb_free(odb_);
  git_repository_free(repo_);
}

bool GitSource::List(std::vector<SourceEntry>* files, std::vector<SourceSkip>* skips, std::string* error) {
  return ListFiles(false, files, skips, error);
}

bool GitSource::ListDocuments(std::vector<SourceEntry>* docs, std::vector<SourceSkip>* skips, std::string* error) {
  return ListFiles(true, docs, skips, error);
}

bool GitSource::ListFiles(bool documents, std::vector<SourceEntry>* files, std::vector<SourceSkip>* skips,
                          std::string* error) {
  files->clear();
  skips->clear();
  std::lock_guard<std::mutex> lock(mutex_);
  git_oid commit_id;
  git_commit* commit = nullptr;
  git_tree* tree = nullptr;
  if (git_oid_fromstr(&commit_id, info_.commit.c_str()) != 0 || git_commit_lookup(&commit, repo_, &commit_id) != 0 ||
      git_commit_tree(&tree, commit) != 0) {
    *error = "cannot read commit " + info_.commit + ": " + LastGitError();
    git_commit_free(commit);
    return false;
  }
  WalkState state{documents, odb_, files, skips};
  const int rc = git_tree_walk(tree, GIT_TREEWALK_PRE, WalkCallback, &state);
  git_tree_free(tree);
  git_commit_free(commit);
  if (rc != 0) {
    *error = "cannot read the tree of commit " + info_.commit + ": " + LastGitError();
    files->clear();
    skips->clear();
    return false;
  }
  auto by_path = [](const auto& a, const auto& b) { return a.path < b.path; };
  std::sort(files->begin(), files->end(), by_path);
  std::sort(skips->begin(), skips->end(), by_path);
  return true;
}

bool GitSource::Read(const SourceEntry& entry, std::string* content, std::string* error) const {
  content->clear();
  git_oid id;
  if (entry.blob_id.size() != GIT_OID_HEXSZ || git_oid_fromstr(&id, entry.blob_id.c_str()) != 0) {
    git_error_clear();
    *error = OneLine(entry.path) + ": invalid blob id '" + OneLine(entry.blob_id) + "'";
    return false;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  git_odb_object* object = nullptr;
  if (git_odb_read(&object, odb_, &id) != 0) {
    *error = OneLine(entry.path) + ": blob " + entry.blob_id + " cannot be read: " + LastGitError();
    git_error_clear();
    return false;
  }
  const std::unique_ptr<git_odb_object, void (*)(git_odb_object*)> owned(object, git_odb_object_free);
  if (git_odb_object_type(object) != GIT_OBJECT_BLOB) {
    *error = OneLine(entry.path) + ": object " + entry.blob_id + " is not a blob";
    return false;
  }
  content->assign(static_cast<const char*>(git_odb_object_data(object)), git_odb_object_size(object));
  return true;
}

}  // namespace errdex
