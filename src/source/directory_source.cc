#include "source/directory_source.h"

#include <dirent.h>
#include <fcntl.h>
#include <git2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <filesystem>
#include <string_view>
#include <system_error>
#include <utility>

#include "source/git_util.h"

namespace errdex {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool IsPyName(std::string_view name) { return EndsWith(name, ".py"); }

std::string Errno(int err) { return std::error_code(err, std::generic_category()).message(); }

bool Exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// Entry names of the directory at PATH, sorted, without "." and "..". Returns an errno value or 0. A
// symbolic link at PATH is followed only when FOLLOW (for the root the user named).
int ReadDirectory(const std::string& path, bool follow, std::vector<std::string>* names) {
  names->clear();
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
  if (fd < 0) return errno;
  DIR* dir = ::fdopendir(fd);
  if (dir == nullptr) {
    const int err = errno;
    ::close(fd);
    return err;
  }
  int err = 0;
  for (;;) {
    errno = 0;
    const dirent* d = ::readdir(dir);
    if (d == nullptr) {
      err = errno;
      break;
    }
    const std::string_view name = d->d_name;
    if (name == "." || name == "..") continue;
    names->emplace_back(name);
  }
  ::closedir(dir);
  std::sort(names->begin(), names->end());
  return err;
}

std::string Join(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  if (dir.back() == '/') return dir + name;
  return dir + "/" + name;
}

}  // namespace

int ReadRegularFile(const std::string& path, std::string* content) {
  content->clear();
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return errno;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return err;
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return EINVAL;
  }
  if (st.st_size > 0) content->reserve(static_cast<size_t>(st.st_size));
  std::array<char, 65536> buffer{};
  for (;;) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      content->clear();
      return err;
    }
    if (n == 0) break;
    content->append(buffer.data(), static_cast<size_t>(n));
  }
  ::close(fd);
  return 0;
}

bool IsSkippedDirectoryName(const std::string& name) {
  static constexpr std::array<std::string_view, 15> kNames = {
      ".git", ".hg",   ".svn", "node_modules", "__pycache__", ".tox",          ".nox",         ".venv",
      "venv", "build", "dist", ".eggs",        ".mypy_cache", ".pytest_cache", "site-packages"};
  for (std::string_view n : kNames) {
    if (name == n) return true;
  }
  return EndsWith(name, ".egg-info");
}

DirectorySource::DirectorySource(std::string root) {
  info_.is_git = false;
  info_.kind = "directory";
  info_.location = std::move(root);
  std::error_code ec;
  const std::filesystem::path real = std::filesystem::canonical(info_.location, ec);
  real_root_ = ec ? info_.location : real.string();

  info_.default_name = source_internal::FolderName(info_.location);
  if (Exists(Join(info_.location, ".git"))) {
    source_internal::EnsureLibgit2();
    git_repository* repo = nullptr;
    if (git_repository_open_ext(&repo, info_.location.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) == 0) {
      source_internal::NamesFromOrigin(repo, &info_.default_name, &info_.web_url);
      git_repository_free(repo);
    } else {
      git_error_clear();
    }
  }
}

bool DirectorySource::List(std::vector<SourceEntry>* files, std::vector<SourceSkip>* skips, std::string* error) {
  return ListFiles(false, files, skips, error);
}

bool DirectorySource::ListDocuments(std::vector<SourceEntry>* docs, std::vector<SourceSkip>* skips,
                                    std::string* error) {
  return ListFiles(true, docs, skips, error);
}

bool DirectorySource::ListFiles(bool documents, std::vector<SourceEntry>* files, std::vector<SourceSkip>* skips,
                                std::string* error) {
  const auto wanted = [documents](const std::string& name) {
    return documents ? IsDocumentName(name) : IsPyName(name);
  };
  files->clear();
  skips->clear();

  // True when the target of the symbolic link at FULL lies outside the root. The target need not exist.
  auto outside_tree = [this](const std::string& full) {
    std::error_code ec;
    const std::filesystem::path link(full);
    const std::filesystem::path target = std::filesystem::read_symlink(link, ec);
    if (ec) return true;
    const std::filesystem::path resolved =
        std::filesystem::weakly_canonical(target.is_absolute() ? target : link.parent_path() / target, ec);
    if (ec) return true;
    const std::string r = resolved.string();
    if (real_root_ == "/") return false;
    return !(r == real_root_ || (r.size() > real_root_.size() && r.compare(0, real_root_.size(), real_root_) == 0 &&
                                 r[real_root_.size()] == '/'));
  };

  std::vector<std::string> pending = {""};  // relative paths of the directories still to read
  std::vector<std::string> names;
  std::string content;
  while (!pending.empty()) {
    const std::string rel_dir = std::move(pending.back());
    pending.pop_back();
    const std::string full_dir = rel_dir.empty() ? info_.location : Join(info_.location, rel_dir);
    if (const int err = ReadDirectory(full_dir, rel_dir.empty(), &names); err != 0) {
      if (rel_dir.empty()) {
        *error = "cannot read directory " + source_internal::OneLine(info_.location) + ": " + Errno(err);
        return false;
      }
      skips->push_back({rel_dir, "unreadable"});
      continue;
    }
    for (const std::string& name : names) {
      const std::string rel = Join(rel_dir, name);
      const std::string full = Join(full_dir, name);
      struct stat st {};
      if (::lstat(full.c_str(), &st) != 0) {  // removed meanwhile
        if (wanted(name)) skips->push_back({rel, "unreadable"});
        continue;
      }
      if (S_ISDIR(st.st_mode)) {
        if (IsSkippedDirectoryName(name) || Exists(Join(full, "pyvenv.cfg"))) continue;
        pending.push_back(rel);
      } else if (S_ISLNK(st.st_mode)) {
        struct stat target {};
        const bool to_dir = ::stat(full.c_str(), &target) == 0 && S_ISDIR(target.st_mode);
        if (!to_dir && !wanted(name)) continue;
        const bool outside = outside_tree(full);
        if (to_dir && !outside) continue;  // its files are listed under their real path
        skips->push_back({rel, outside ? "symlink_outside_tree" : "symlink"});
      } else if (wanted(name)) {
        if (documents && S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > kMaxDocumentBytes) {
          skips->push_back({rel, "too_large"});
          continue;
        }
        if (!S_ISREG(st.st_mode) || ReadRegularFile(full, &content) != 0) {
          skips->push_back({rel, "unreadable"});
          continue;
        }
        files->push_back({rel, GitBlobId(content), content.size()});
      }
    }
  }
  auto by_path = [](const auto& a, const auto& b) { return a.path < b.path; };
  std::sort(files->begin(), files->end(), by_path);
  std::sort(skips->begin(), skips->end(), by_path);
  return true;
}

bool DirectorySource::Read(const SourceEntry& entry, std::string* content, std::string* error) const {
  if (!IsSafeRelativePath(entry.path)) {
    *error = "invalid path: " + source_internal::OneLine(entry.path);
    return false;
  }
  if (const int err = ReadRegularFile(Join(info_.location, entry.path), content); err != 0) {
    *error =
        source_internal::OneLine(entry.path) + ": " + (err == EINVAL ? std::string("not a regular file") : Errno(err));
    return false;
  }
  if (content->size() != entry.size || GitBlobId(*content) != entry.blob_id) {
    content->clear();
    *error = source_internal::OneLine(entry.path) + ": changed since it was listed";
    return false;
  }
  return true;
}

}  // namespace errdex
