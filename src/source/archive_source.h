// A Source over a released Python artifact, read from the archive without unpacking it to disk: a wheel
// (.whl) or an sdist (.tar.gz, .tgz, .zip). Repository "pypi/<normalized name>", kind "archive", revision
// the version, both from the artifact's core metadata (else its file name). Paths are relative to the
// package root: a wheel's top level (its .data/purelib and .data/platlib members where they install), an
// sdist's members without their "name-version/" folder ("src/pkg/x.py" stays so; the module index reads it
// as "pkg.x", as for a directory). docs/environments.md, "Wheels and source archives".
//
// Open() reads and checks the whole archive (source/archive_reader.h) and keeps the *.py and documentation
// files in memory; a hostile or broken archive is refused there, before anything is indexed.
//
// Threading: as Source. Read() is thread-safe (the content is immutable after Open()).
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "source/archive_reader.h"
#include "source/python_artifact.h"
#include "source/source.h"

namespace errdex {

class ArchiveSource final : public Source {
 public:
  // Opens the artifact at PATH (its kind from its extension, ArtifactKindOf). Returns null and sets
  // *ERROR to one line ("refusing dist-1.0.whl: member '../x.py' has a '..' component") when PATH is not
  // such an artifact, breaks LIMITS or the format rules, or says no valid name and version.
  static std::unique_ptr<ArchiveSource> Open(const std::string& path, const ArchiveLimits& limits, std::string* error);

  const SourceInfo& info() const override { return info_; }
  ArtifactKind artifact_kind() const { return kind_; }

  // The *.py files: a wheel's every one (what is installed is what runs), an sdist's outside the
  // directories the directory source skips (docs/extraction.md, "Which files"). Never fails.
  bool List(std::vector<SourceEntry>* files, std::vector<SourceSkip>* skips, std::string* error) override;

  // The documentation files under the same rules; one larger than kMaxDocumentBytes is a skip ("too_large").
  bool ListDocuments(std::vector<SourceEntry>* docs, std::vector<SourceSkip>* skips, std::string* error) override;

  // The listed content, from memory.
  bool Read(const SourceEntry& entry, std::string* content, std::string* error) const override;

 private:
  ArchiveSource() = default;

  SourceInfo info_;
  ArtifactKind kind_ = ArtifactKind::kWheel;
  std::vector<SourceEntry> files_, docs_;
  std::vector<SourceSkip> file_skips_, doc_skips_;
  std::unordered_map<std::string, std::string> content_;  // path -> content of every listed entry
};

}  // namespace errdex
