// A Source over a plain directory tree, read with POSIX calls. Symbolic links are never followed; the
// directories of the skip list in docs/extraction.md ("Which files") are not entered.
#pragma once

#include <string>
#include <vector>

#include "source/source.h"

namespace errdex {

class DirectorySource final : public Source {
 public:
  // ROOT: the absolute, normalized path of an existing directory (no trailing '/'). default_name is
  // "owner/name" from the origin remote when ROOT is a git work tree, else ROOT's folder name.
  explicit DirectorySource(std::string root);

  const SourceInfo& info() const override { return info_; }

  // Replaces the content of *FILES and *SKIPS. Each *.py file is read once to compute its blob id. An
  // unreadable root is fatal; an unreadable subdirectory or file is a skip ("unreadable"), as is a *.py
  // entry that is not a regular file (a FIFO, a device). A symbolic link named *.py is a skip
  // ("symlink", or "symlink_outside_tree" when its target resolves outside the root); a link to a
  // directory is a skip only when the directory lies outside the root.
  bool List(std::vector<SourceEntry>* files, std::vector<SourceSkip>* skips, std::string* error) override;

  // The documentation files (Source::ListDocuments), each read once for its blob id unless too large;
  // the same skips as List() for the documentation names.
  bool ListDocuments(std::vector<SourceEntry>* docs, std::vector<SourceSkip>* skips, std::string* error) override;

  // Reads the file again; fails when it is gone or its content no longer matches entry.blob_id, so that
  // the content handed out always belongs to the listed blob id. Thread-safe.
  bool Read(const SourceEntry& entry, std::string* content, std::string* error) const override;

 private:
  // List() (DOCUMENTS false) and ListDocuments() (true).
  bool ListFiles(bool documents, std::vector<SourceEntry>* files, std::vector<SourceSkip>* skips, std::string* error);

  SourceInfo info_;
  std::string real_root_;  // ROOT with symbolic links resolved, for the outside-the-tree test
};

// True when a directory named NAME is never entered (docs/extraction.md: "Which files"). Directories
// that hold a "pyvenv.cfg" are skipped too, which needs a look inside; see DirectorySource::List.
bool IsSkippedDirectoryName(const std::string& name);

// Reads the regular file at PATH (not following a final symbolic link, not blocking on a FIFO) into
// *CONTENT. Returns 0, or an errno value (EINVAL when it is not a regular file).
int ReadRegularFile(const std::string& path, std::string* content);

}  // namespace errdex
