#include "source/archive_source.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <system_error>
#include <unordered_set>

#include "source/directory_source.h"
#include "source/git_util.h"
#include "source/python_environment.h"

namespace errdex {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string_view BaseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Members whose content Open() needs: Python files, documentation, core metadata.
bool Wanted(const std::string& path) {
  const std::string_view base = BaseName(path);
  return EndsWith(base, ".py") || IsDocumentName(path) || base == "METADATA" || base == "PKG-INFO";
}

// The directory prefixes ("a", "a/b") of PATH.
std::vector<std::string_view> Directories(std::string_view path) {
  std::vector<std::string_view> dirs;
  for (size_t slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/', slash + 1)) {
    dirs.push_back(path.substr(0, slash));
  }
  return dirs;
}

// True when a member at PATH of an sdist lies in a directory the directory source does not enter (a
// committed build/, .tox/, *.egg-info/, a virtual environment); a wheel's files are all installed, only its
// __pycache__ is left out.
bool OutsideTheTree(std::string_view path, bool sdist, const std::unordered_set<std::string>& venvs) {
  for (std::string_view dir : Directories(path)) {
    const std::string name(BaseName(dir));
    if (name == "__pycache__") return true;
    if (sdist && (IsSkippedDirectoryName(name) || venvs.count(std::string(dir)) > 0)) return true;
  }
  return false;
}

// An sdist's members all live in one "name-version/" folder: strips it. Returns false when they do not.
bool StripSdistFolder(std::vector<ArchiveMember>* members, std::string* error) {
  std::string folder;
  for (const ArchiveMember& m : *members) {
    const std::string top = m.path.substr(0, m.path.find('/'));
    if (folder.empty()) folder = top;
    if (top != folder) {
      *error = "not an sdist: its members are not all in one top-level folder (" + source_internal::OneLine(folder) +
               ", " + source_internal::OneLine(top) + ")";
      return false;
    }
  }
  std::vector<ArchiveMember> inside;
  for (ArchiveMember& m : *members) {
    if (m.path.size() <= folder.size()) continue;  // the folder itself, or a file named like it
    m.path.erase(0, folder.size() + 1);
    inside.push_back(std::move(m));
  }
  *members = std::move(inside);
  return true;
}

// A wheel's members where they are installed; members that are not installed (metadata, scripts) dropped.
// Two members installed at one path (x.py and name.data/purelib/x.py) are refused.
bool PlaceWheelMembers(std::vector<ArchiveMember>* members, std::optional<ArtifactName>* metadata, std::string* error) {
  std::vector<ArchiveMember> installed;
  std::unordered_set<std::string> seen;
  int metadata_files = 0;
  for (ArchiveMember& m : *members) {
    const std::vector<std::string_view> dirs = Directories(m.path);
    if (dirs.size() == 1 && EndsWith(dirs[0], ".dist-info") && BaseName(m.path) == "METADATA" && m.kept) {
      ++metadata_files;
      *metadata = ArtifactNameFromMetadata(m.content);
    }
    std::optional<std::string> place = WheelInstalledPath(m.path);
    if (!place) continue;
    if (!seen.insert(*place).second && !m.directory) {
      *error = "two members are installed at " + source_internal::OneLine(*place);
      return false;
    }
    m.path = std::move(*place);
    installed.push_back(std::move(m));
  }
  if (metadata_files != 1) metadata->reset();  // none, or several .dist-info folders: the file name decides
  *members = std::move(installed);
  return true;
}

// An sdist's PKG-INFO: at the top, else the one *.egg-info/PKG-INFO (or src/*.egg-info/PKG-INFO).
std::optional<ArtifactName> SdistMetadata(const std::vector<ArchiveMember>& members) {
  const ArchiveMember* egg_info = nullptr;
  int egg_infos = 0;
  for (const ArchiveMember& m : members) {
    if (!m.kept) continue;
    if (m.path == "PKG-INFO") return ArtifactNameFromMetadata(m.content);
    const std::vector<std::string_view> dirs = Directories(m.path);
    const bool in_egg_info = !dirs.empty() && EndsWith(dirs.back(), ".egg-info") &&
                             (dirs.size() == 1 || (dirs.size() == 2 && dirs[0] == "src"));
    if (in_egg_info && BaseName(m.path) == "PKG-INFO") {
      egg_info = &m;
      ++egg_infos;
    }
  }
  if (egg_infos == 1) return ArtifactNameFromMetadata(egg_info->content);
  return std::nullopt;
}

std::string AbsolutePath(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

}  // namespace

std::unique_ptr<ArchiveSource> ArchiveSource::Open(const std::string& path, const ArchiveLimits& limits,
                                                   std::string* error) {
  const std::string shown = source_internal::OneLine(std::string(BaseName(path)));
  const std::optional<ArtifactKind> kind = ArtifactKindOf(path);
  if (!kind) {
    *error = "not a wheel or sdist (.whl, .tar.gz, .tgz, .zip): " + source_internal::OneLine(path);
    return nullptr;
  }
  const bool sdist = *kind != ArtifactKind::kWheel;
  std::vector<ArchiveMember> members;
  const ArchiveFormat format = *kind == ArtifactKind::kSdistTarGz ? ArchiveFormat::kTarGz : ArchiveFormat::kZip;
  std::optional<ArtifactName> name;
  if (!ReadArchive(path, format, limits, Wanted, &members, error) ||
      (sdist ? !StripSdistFolder(&members, error) : !PlaceWheelMembers(&members, &name, error))) {
    *error = "refusing " + shown + ": " + *error;
    return nullptr;
  }
  if (sdist) name = SdistMetadata(members);
  if (!name) name = ArtifactNameFromFileName(path, *kind);
  if (!name) {
    *error = "refusing " + shown + ": no valid name and version in its " + (sdist ? "PKG-INFO" : "METADATA") +
             " nor in its file name";
    return nullptr;
  }

  std::unique_ptr<ArchiveSource> source(new ArchiveSource());
  source->kind_ = *kind;
  SourceInfo& info = source->info_;
  info.kind = "archive";
  info.location = AbsolutePath(path);
  info.version = name->version;
  info.default_name = "pypi/" + NormalizeDistributionName(name->name);

  std::unordered_set<std::string> venvs;  // folders holding a pyvenv.cfg: virtual environments
  for (const ArchiveMember& m : members) {
    if (BaseName(m.path) == "pyvenv.cfg" && m.path.size() > 11) venvs.insert(m.path.substr(0, m.path.size() - 11));
  }
  std::vector<std::string> py_paths;
  for (ArchiveMember& m : members) {
    if (!m.kept || m.directory || OutsideTheTree(m.path, sdist, venvs)) continue;
    const bool python = EndsWith(m.path, ".py") && m.path.size() > 3;
    if (!python && !IsDocumentName(m.path)) continue;
    if (!python && m.size > kMaxDocumentBytes) {
      source->doc_skips_.push_back({m.path, "too_large"});
      continue;
    }
    SourceEntry entry{m.path, GitBlobId(m.content), m.size};
    (python ? source->files_ : source->docs_).push_back(entry);
    if (python) py_paths.push_back(m.path);
    source->content_.emplace(m.path, std::move(m.content));
  }
  auto by_path = [](const auto& a, const auto& b) { return a.path < b.path; };
  std::sort(source->files_.begin(), source->files_.end(), by_path);
  std::sort(source->docs_.begin(), source->docs_.end(), by_path);
  std::sort(source->doc_skips_.begin(), source->doc_skips_.end(), by_path);
  std::sort(py_paths.begin(), py_paths.end());
  for (const VendoredPackage& v : FindVendoredPackages(py_paths)) info.vendored.emplace_back(v.path, v.name);
  return source;
}

bool ArchiveSource::List(std::vector<SourceEntry>* files, std::vector<SourceSkip>* skips, std::string* error) {
  (void)error;
  *files = files_;
  *skips = file_skips_;
  return true;
}

bool ArchiveSource::ListDocuments(std::vector<SourceEntry>* docs, std::vector<SourceSkip>* skips, std::string* error) {
  (void)error;
  *docs = docs_;
  *skips = doc_skips_;
  return true;
}

bool ArchiveSource::Read(const SourceEntry& entry, std::string* content, std::string* error) const {
  const auto it = content_.find(entry.path);
  if (it == content_.end() || it->second.size() != entry.size) {
    *error = source_internal::OneLine(entry.path) + ": not in the archive";
    return false;
  }
  *content = it->second;
  return true;
}

}  // namespace errdex
