#include "source/source.h"

#include <git2.h>
#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "source/archive_source.h"
#include "source/directory_source.h"
#include "source/git_source.h"
#include "source/git_util.h"

namespace errdex {
namespace {

using source_internal::OneLine;

// LOCATION made absolute and lexically normal, without a trailing '/' (except for "/" itself).
std::string AbsolutePath(const std::string& location) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(location, ec);
  if (ec) p = location;
  std::string s = p.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

std::string RealPath(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::canonical(path, ec);
  if (ec) return path;
  std::string s = p.string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

bool Exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

}  // namespace

std::unique_ptr<Source> Source::Open(const std::string& location, const std::string& rev, std::string* error) {
  return Open(location, rev, ArchiveLimits(), error);
}

std::unique_ptr<Source> Source::Open(const std::string& location, const std::string& rev, const ArchiveLimits& limits,
                                     std::string* error) {
  struct stat st {};
  if (location.empty() || ::stat(location.c_str(), &st) != 0) {
    const int err = location.empty() ? ENOENT : errno;
    if (err == ENOENT || err == ENOTDIR) {
      *error = "no such file or directory: " + OneLine(location);
    } else {
      *error = "cannot access " + OneLine(location) + ": " + std::error_code(err, std::generic_category()).message();
    }
    return nullptr;
  }
  if (S_ISREG(st.st_mode) && ArtifactKindOf(location)) {
    if (!rev.empty()) {
      *error = "a wheel or sdist has no revisions to choose (--rev): " + OneLine(location);
      return nullptr;
    }
    return ArchiveSource::Open(location, limits, error);
  }
  if (!S_ISDIR(st.st_mode)) {
    *error = "not a directory, wheel or sdist: " + OneLine(location);
    return nullptr;
  }
  const std::string absolute = AbsolutePath(location);

  // Is LOCATION itself a git dir (a bare repository, or the ".git" of a work tree)? Opening with
  // NO_SEARCH also accepts a work tree holding ".git", so compare the git dir found with LOCATION.
  source_internal::EnsureLibgit2();
  bool is_git_dir = false;
  git_repository* probe = nullptr;
  const int rc = git_repository_open_ext(&probe, absolute.c_str(),
                                         GIT_REPOSITORY_OPEN_BARE | GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr);
  if (rc == 0) {
    is_git_dir = RealPath(git_repository_path(probe)) == RealPath(absolute);
    git_repository_free(probe);
  } else if (rc == GIT_EOWNER && (!rev.empty() || (Exists(absolute + "/HEAD") && Exists(absolute + "/objects")))) {
    // A repository that libgit2 refuses to open (safe.directory): say so rather than reading it as files.
    *error = "cannot open git repository " + OneLine(location) + ": " + source_internal::LastGitError();
    git_error_clear();
    return nullptr;
  } else {
    git_error_clear();
  }

  if (is_git_dir || (!rev.empty() && Exists(absolute + "/.git"))) {
    std::unique_ptr<GitSource> git = GitSource::Open(absolute, location, rev, error);
    if (git == nullptr) return nullptr;
    return git;
  }
  if (!rev.empty()) {
    *error = "not a git repository: " + OneLine(location);
    return nullptr;
  }
  return std::make_unique<DirectorySource>(absolute);
}

bool IsDocumentName(const std::string& name) {
  const size_t slash = name.rfind('/');
  const std::string_view base = std::string_view(name).substr(slash == std::string::npos ? 0 : slash + 1);
  const size_t dot = base.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return false;
  std::string ext(base.substr(dot + 1));
  for (char& c : ext) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return ext == "md" || ext == "rst" || ext == "txt";
}

bool IsSafeRelativePath(std::string_view path) {
  if (path.empty()) return false;
  while (true) {
    const size_t slash = path.find('/');
    const std::string_view part = path.substr(0, slash);
    if (part.empty() || part == "." || part == "..") return false;
    if (slash == std::string_view::npos) return true;
    path.remove_prefix(slash + 1);
  }
}

bool IsTestPath(const std::string& path) {
  std::string_view rest = path;
  for (;;) {
    const size_t slash = rest.find('/');
    const std::string_view part = rest.substr(0, slash);
    if (slash == std::string_view::npos) {
      auto ends_with = [&](std::string_view s) {
        return part.size() >= s.size() && part.substr(part.size() - s.size()) == s;
      };
      return (part.substr(0, 5) == "test_" && ends_with(".py")) || ends_with("_test.py") || part == "tests.py" ||
             part == "conftest.py";
    }
    if (part == "test" || part == "tests" || part == "testing") return true;
    rest.remove_prefix(slash + 1);
  }
}

std::string GitBlobId(const std::string& content) {
  source_internal::EnsureLibgit2();
  git_oid oid;
  if (git_odb_hash(&oid, content.data(), content.size(), GIT_OBJECT_BLOB) != 0) return "";
  char buffer[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(buffer, sizeof buffer, &oid);
  return buffer;
}

}  // namespace errdex
