// A Source over files installed in a directory and named by a list: one distribution of a Python
// environment (its files from RECORD or its top-level packages, relative to site-packages) or the
// interpreter's standard library. Unlike DirectorySource, nothing is discovered by walking: the list is
// what the installer (or the interpreter) says the package owns, so two distributions sharing one
// site-packages never see each other's files.
//
// Threading: as Source. Read() is thread-safe.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "source/python_environment.h"
#include "source/source.h"

namespace errdex {

class InstalledSource final : public Source {
 public:
  // ROOT: the directory the FILES are relative to. INFO is handed out by info() (its location is set to
  // ROOT); FILES are relative '/'-separated paths (unsafe ones are skipped when listed).
  InstalledSource(std::string root, std::vector<std::string> files, SourceInfo info);

  const SourceInfo& info() const override { return info_; }

  // The *.py files of the list that are regular files (read once for their blob ids); a symbolic link is a
  // skip ("symlink"), a missing or unreadable file a skip ("unreadable").
  bool List(std::vector<SourceEntry>* files, std::vector<SourceSkip>* skips, std::string* error) override;

  // A skip List() reports besides the files: a distribution without Python source is recorded so.
  void AddSkip(SourceSkip skip) { extra_skips_.push_back(std::move(skip)); }

  // The documentation files of the list (none for a distribution's RECORD lists only code and metadata).
  bool ListDocuments(std::vector<SourceEntry>* docs, std::vector<SourceSkip>* skips, std::string* error) override;

  // Reads the file again; fails when its content no longer matches entry.blob_id.
  bool Read(const SourceEntry& entry, std::string* content, std::string* error) const override;

 private:
  bool ListMatching(bool documents, std::vector<SourceEntry>* files, std::vector<SourceSkip>* skips);

  std::string root_;
  std::vector<std::string> files_;
  SourceInfo info_;
  std::vector<SourceSkip> extra_skips_;
};

// The source of one installed distribution: repository "pypi/<normalized name>", kind "distribution",
// revision its version, vendored packages said in info().vendored. A distribution without *.py files
// lists one skip, path "(no Python source)", reason "compiled_only" (it has other files) or
// "files_unknown" (no RECORD, no top_level.txt).
InstalledSource DistributionSource(const InstalledDistribution& dist);

// The standard library of ENV: repository "python/stdlib", kind "stdlib", revision the Python version.
InstalledSource StdlibSource(const PythonEnvironment& env);

}  // namespace errdex
