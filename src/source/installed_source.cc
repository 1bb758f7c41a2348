#include "source/installed_source.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "source/directory_source.h"

namespace errdex {

namespace {

bool EndsWithPy(const std::string& path) { return path.size() > 3 && path.compare(path.size() - 3, 3, ".py") == 0; }

}  // namespace

InstalledSource::InstalledSource(std::string root, std::vector<std::string> files, SourceInfo info)
    : root_(std::move(root)), files_(std::move(files)), info_(std::move(info)) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
  info_.location = root_;
  std::sort(files_.begin(), files_.end());
  files_.erase(std::unique(files_.begin(), files_.end()), files_.end());
}

bool InstalledSource::ListMatching(bool documents, std::vector<SourceEntry>* files, std::vector<SourceSkip>* skips) {
  files->clear();
  skips->clear();
  std::string content;
  for (const std::string& rel : files_) {
    if (documents ? !IsDocumentName(rel) : !EndsWithPy(rel)) continue;
    if (!IsSafeRelativePath(rel)) {
      skips->push_back({rel, "unsafe_path"});
      continue;
    }
    const std::string full = root_ + "/" + rel;
    struct stat st {};
    if (::lstat(full.c_str(), &st) != 0) {
      skips->push_back({rel, "unreadable"});
      continue;
    }
    if (S_ISLNK(st.st_mode)) {
      skips->push_back({rel, "symlink"});
      continue;
    }
    if (documents && static_cast<uint64_t>(st.st_size) > kMaxDocumentBytes) {
      skips->push_back({rel, "too_large"});
      continue;
    }
    if (!S_ISREG(st.st_mode) || ReadRegularFile(full, &content) != 0) {
      skips->push_back({rel, "unreadable"});
      continue;
    }
    files->push_back({rel, GitBlobId(content), content.size()});
  }
  return true;
}

bool InstalledSource::List(std::vector<SourceEntry>* files, std::vector<SourceSkip>* skips, std::string* error) {
  (void)error;
  if (!ListMatching(false, files, skips)) return false;
  skips->insert(skips->end(), extra_skips_.begin(), extra_skips_.end());
  return true;
}

bool InstalledSource::ListDocuments(std::vector<SourceEntry>* docs, std::vector<SourceSkip>* skips,
                                    std::string* error) {
  (void)error;
  return ListMatching(true, docs, skips);
}

bool InstalledSource::Read(const SourceEntry& entry, std::string* content, std::string* error) const {
  if (!IsSafeRelativePath(entry.path)) {
    *error = "invalid path: " + entry.path;
    return false;
  }
  if (const int err = ReadRegularFile(root_ + "/" + entry.path, content); err != 0) {
    *error = entry.path + ": " + (err == EINVAL ? std::string("not a regular file") : std::strerror(err));
    return false;
  }
  if (content->size() != entry.size || GitBlobId(*content) != entry.blob_id) {
    content->clear();
    *error = entry.path + ": changed since it was listed";
    return false;
  }
  return true;
}

InstalledSource DistributionSource(const InstalledDistribution& dist) {
  SourceInfo info;
  info.kind = "distribution";
  info.version = dist.version;
  info.default_name = "pypi/" + dist.normalized;
  for (const VendoredPackage& v : dist.vendored) info.vendored.emplace_back(v.path, v.name);
  InstalledSource source(dist.location, dist.files, std::move(info));
  if (dist.files.empty())
    source.AddSkip({"(no Python source)", dist.other_files > 0 ? "compiled_only" : "files_unknown"});
  return source;
}

InstalledSource StdlibSource(const PythonEnvironment& env) {
  SourceInfo info;
  info.kind = "stdlib";
  info.version = env.version;
  info.default_name = "python/stdlib";
  return InstalledSource(env.stdlib, env.stdlib_files, std::move(info));
}

}  // namespace errdex
