#include "source/python_artifact.h"

#include <vector>

namespace errdex {
namespace {

bool IsAsciiAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool EndsWithNoCase(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (size_t i = 0; i < suffix.size(); ++i) {
    if (Lower(s[s.size() - suffix.size() + i]) != suffix[i]) return false;
  }
  return true;
}

std::string_view BaseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  while (true) {
    const size_t at = s.find(sep);
    parts.push_back(s.substr(0, at));
    if (at == std::string_view::npos) return parts;
    s.remove_prefix(at + 1);
  }
}

std::optional<ArtifactName> Valid(std::string_view name, std::string_view version) {
  if (!IsValidDistributionName(name) || !IsValidVersionText(version)) return std::nullopt;
  return ArtifactName{std::string(name), std::string(version)};
}

}  // namespace

std::optional<ArtifactKind> ArtifactKindOf(std::string_view file_name) {
  const std::string_view base = BaseName(file_name);
  const auto longer_than = [&](std::string_view suffix) { return base.size() > suffix.size(); };
  if (EndsWithNoCase(base, ".whl") && longer_than(".whl")) return ArtifactKind::kWheel;
  if (EndsWithNoCase(base, ".tar.gz") && longer_than(".tar.gz")) return ArtifactKind::kSdistTarGz;
  if (EndsWithNoCase(base, ".tgz") && longer_than(".tgz")) return ArtifactKind::kSdistTarGz;
  if (EndsWithNoCase(base, ".zip") && longer_than(".zip")) return ArtifactKind::kSdistZip;
  return std::nullopt;
}

std::optional<ArtifactName> ArtifactNameFromMetadata(std::string_view text) {
  std::string_view name, version;
  bool have_name = false, have_version = false;
  size_t lines = 0;
  while (!text.empty() && ++lines <= 10000) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (Trim(line).empty()) break;                              // the headers end; the description follows
    if (line.front() == ' ' || line.front() == '\t') continue;  // a continuation line
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = Trim(line.substr(0, colon));
    const std::string_view value = Trim(line.substr(colon + 1));
    const auto is = [&](std::string_view want) {
      if (key.size() != want.size()) return false;
      for (size_t i = 0; i < key.size(); ++i) {
        if (Lower(key[i]) != want[i]) return false;
      }
      return true;
    };
    // The first of each field counts, as for email.parser.
    if (!have_name && is("name")) {
      name = value;
      have_name = true;
    } else if (!have_version && is("version")) {
      version = value;
      have_version = true;
    }
  }
  if (!have_name || !have_version) return std::nullopt;
  return Valid(name, version);
}

std::optional<ArtifactName> ArtifactNameFromFileName(std::string_view file_name, ArtifactKind kind) {
  std::string_view base = BaseName(file_name);
  if (kind == ArtifactKind::kWheel) {
    if (!EndsWithNoCase(base, ".whl")) return std::nullopt;
    base.remove_suffix(4);
    const std::vector<std::string_view> parts = Split(base, '-');
    if (parts.size() != 5 && parts.size() != 6) return std::nullopt;
    return Valid(parts[0], parts[1]);
  }
  for (std::string_view ext : {".tar.gz", ".tgz", ".zip"}) {
    if (EndsWithNoCase(base, ext)) {
      base.remove_suffix(ext.size());
      break;
    }
  }
  const size_t dash = base.rfind('-');
  if (dash == std::string_view::npos) return std::nullopt;
  return Valid(base.substr(0, dash), base.substr(dash + 1));
}

bool IsValidDistributionName(std::string_view name) {
  if (name.empty() || name.size() > 200 || !IsAsciiAlnum(name.front()) || !IsAsciiAlnum(name.back())) return false;
  for (const char c : name) {
    if (!IsAsciiAlnum(c) && c != '.' && c != '-' && c != '_') return false;
  }
  return true;
}

bool IsValidVersionText(std::string_view version) {
  if (version.empty() || version.size() > 64 || !IsAsciiAlnum(version.front())) return false;
  for (const char c : version) {
    if (!IsAsciiAlnum(c) && c != '.' && c != '+' && c != '!' && c != '_' && c != '-') return false;
  }
  return true;
}

std::optional<std::string> WheelInstalledPath(std::string_view path) {
  const size_t slash = path.find('/');
  if (slash == std::string_view::npos) return std::string(path);
  const std::string_view top = path.substr(0, slash);
  if (EndsWithNoCase(top, ".dist-info")) return std::nullopt;
  if (!EndsWithNoCase(top, ".data")) return std::string(path);
  std::string_view rest = path.substr(slash + 1);
  for (std::string_view scheme : {"purelib/", "platlib/"}) {
    if (rest.substr(0, scheme.size()) == scheme && rest.size() > scheme.size()) {
      return std::string(rest.substr(scheme.size()));
    }
  }
  return std::nullopt;
}

}  // namespace errdex
