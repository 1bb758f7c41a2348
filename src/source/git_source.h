// A Source over one commit of a git repository (bare or not), read straight from its object store with
// libgit2: no checkout, no work tree needed.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "source/source.h"

struct git_repository;
struct git_odb;

namespace errdex {

class GitSource final : public Source {
 public:
  // Opens the repository whose git dir is GIT_PATH, or the work tree GIT_PATH holding ".git" (no search
  // in parent directories), and resolves REV ("HEAD" when empty) to a commit, peeling tags. LOCATION is
  // the absolute path reported in info(); DISPLAY is the path as the user wrote it, for messages.
  // Returns null and sets *error on failure ("unknown revision 'REV' in DISPLAY", or libgit2's reason
  // for not opening the repository).
  static std::unique_ptr<GitSource> Open(const std::string& location, const std::string& display,
                                         const std::string& rev, std::string* error);

  ~GitSource() override;
  GitSource(const GitSource&) = delete;
  GitSource& operator=(const GitSource&) = delete;

  const SourceInfo& info() const override { return info_; }

  // Replaces the content of *FILES and *SKIPS: the *.py blobs of the commit's tree (sizes from the
  // object headers, content not loaded), symbolic links named *.py ("symlink"), submodules of any name
  // ("submodule"), and *.py blobs absent from the object store ("missing_blob"). The directory skip list
  // does not apply: it is for plain directories only (docs/extraction.md). Fails when a tree is missing.
  bool List(std::vector<SourceEntry>* files, std::vector<SourceSkip>* skips, std::string* error) override;

  // The documentation files of the commit's tree (Source::ListDocuments): sizes from the object headers;
  // blobs larger than kMaxDocumentBytes are skips ("too_large"), absent ones "missing_blob", symbolic
  // links "symlink"; the directories of the skip list are not entered.
  bool ListDocuments(std::vector<SourceEntry>* docs, std::vector<SourceSkip>* skips, std::string* error) override;

  // Loads the blob entry.blob_id. Thread-safe (the repository is used under a mutex).
  bool Read(const SourceEntry& entry, std::string* content, std::string* error) const override;

 private:
  GitSource() = default;
  // List() (DOCUMENTS false) and ListDocuments() (true).
  bool ListFiles(bool documents, std::vector<SourceEntry>* files, std::vector<SourceSkip>* skips, std::string* error);

  git_repository* repo_ = nullptr;
  git_odb* odb_ = nullptr;
  SourceInfo info_;
  mutable std::mutex mutex_;
};

}  // namespace errdex
