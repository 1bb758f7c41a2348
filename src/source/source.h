// A Source is where Python files come from: a plain directory, or a git repository (bare or not) read at
// one revision straight from its object store. It lists the candidate files with their git blob ids
// (computed from the content for a directory, so that the catalog's per-blob cache works for both) and
// reads their content.
//
// Threading: Open() and List() are called from one thread. Read() may be called concurrently from
// several threads once List() has returned.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "source/archive_reader.h"

namespace errdex {

struct SourceInfo {
  bool is_git = false;
  std::string location;      // the path the user gave, made absolute
  std::string commit;        // 40 lowercase hex for git, empty for a directory
  std::string committed_at;  // committer time, ISO 8601 UTC ("2026-08-28T10:00:00Z"); empty for a directory
  std::string default_name;  // "owner/name" from the origin remote, else the folder name
  std::string web_url;       // "https://github.com/owner/name" when origin is a known forge, else empty
  // What the revision is (docs/catalog.md, "Revisions"): "git", "directory", or for installed and released
  // Python code "distribution", "stdlib", "archive"; the last three are identified by VERSION.
  std::string kind;
  std::string version;  // a distribution's version ("2.31.0"); empty for git and directories
  // Vendored packages shipped inside this source: (path, import name), e.g. ("pip/_vendor/urllib3", "urllib3").
  std::vector<std::pair<std::string, std::string>> vendored;
};

struct SourceEntry {
  std::string path;     // relative to the root, '/'-separated, no leading "./"
  std::string blob_id;  // 40 lowercase hex: git's blob id of the content
  uint64_t size = 0;    // bytes
};

// A file that List() or ListDocuments() saw but will not hand out, with a short machine-readable reason
// ("symlink", "symlink_outside_tree", "unreadable", "missing_blob", "submodule", "too_large").
struct SourceSkip {
  std::string path;
  std::string reason;
};

class Source {
 public:
  virtual ~Source() = default;

  // Opens LOCATION: a directory, a wheel or sdist file (with the default ArchiveLimits), or a git repository when
  // LOCATION is a git dir or a work tree with
  // ".git" and REV is not empty (REV: branch, tag, sha or any rev-parse expression; a repository with
  // an empty REV is read at HEAD). Returns null and sets *error to a one-line message on failure
  // (missing path, not a repository, unknown revision).
  static std::unique_ptr<Source> Open(const std::string& location, const std::string& rev, std::string* error);

  // The same, and a regular file named like a released Python artifact (.whl, .tar.gz, .tgz, .zip) is read
  // as one (source/archive_source.h) within LIMITS; REV must then be empty.
  static std::unique_ptr<Source> Open(const std::string& location, const std::string& rev, const ArchiveLimits& limits,
                                      std::string* error);

  virtual const SourceInfo& info() const = 0;

  // Lists every *.py file, sorted by path. Directories in the skip list of docs/extraction.md are not
  // entered; symbolic links are never followed. Returns false and sets *error on a fatal failure.
  virtual bool List(std::vector<SourceEntry>* files, std::vector<SourceSkip>* skips, std::string* error) = 0;

  // Lists every documentation file: *.md, *.rst and *.txt (the extension compared case-insensitively,
  // "README.MD" too), sorted by path, with the same rules as List() (symbolic links named so are skips,
  // never followed) and these differences: the directories of the skip list are never entered, for a
  // git source too (a committed node_modules/ or .venv/ holds other projects' READMEs), and a file
  // larger than kMaxDocumentBytes is a skip ("too_large") and is not read. Submodules are not reported
  // (List() reports them). Returns false and sets *error on a fatal failure.
  virtual bool ListDocuments(std::vector<SourceEntry>* docs, std::vector<SourceSkip>* skips, std::string* error) = 0;

  // Reads the content of an entry returned by List() or ListDocuments(). Returns false and sets *error (one line) when
  // the content cannot be had (a blob missing from a partial mirror, a file removed meanwhile).
  virtual bool Read(const SourceEntry& entry, std::string* content, std::string* error) const = 0;
};

// Documentation files larger than this are not listed by ListDocuments() ("too_large").
inline constexpr uint64_t kMaxDocumentBytes = 1024 * 1024;

// True when the file name NAME (or a path ending in it) is a documentation file: *.md, *.rst or *.txt,
// the extension compared case-insensitively, the name not just the extension.
bool IsDocumentName(const std::string& name);

// A relative path that stays below the root: '/'-separated, no empty, "." or ".." component, no leading
// '/'.
bool IsSafeRelativePath(std::string_view path);

// True for the paths that docs/extraction.md calls test files.
bool IsTestPath(const std::string& path);

// Computes git's blob id ("blob <size>\0<content>" hashed with SHA-1) of CONTENT, as 40 lowercase hex.
std::string GitBlobId(const std::string& content);

}  // namespace errdex
