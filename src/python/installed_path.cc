#include "python/installed_path.h"

#include <vector>

#include "python/traceback_vocabulary.h"
#include "util/path_components.h"

namespace errdex {

namespace {

// "python3.11", "python2.7", "python3.13t": the stdlib folder of a POSIX installation.
bool IsPythonLibFolder(std::string_view name) {
  if (name.substr(0, 6) != "python" || name.size() < 9) return false;
  std::string_view rest = name.substr(6);
  size_t dot = rest.find('.');
  if (dot == std::string_view::npos || dot == 0) return false;
  for (size_t i = 0; i < rest.size(); ++i) {
    const char c = rest[i];
    if (i == dot) continue;
    if (!(c >= '0' && c <= '9') && !(i == rest.size() - 1 && c == 't')) return false;
  }
  return true;
}

std::string JoinFrom(const std::vector<std::string_view>& parts, size_t from) {
  std::string out;
  for (size_t i = from; i < parts.size(); ++i) {
    if (!out.empty()) out += '/';
    out.append(parts[i]);
  }
  return out;
}

}  // namespace

std::optional<InstalledPath> InstalledPathOf(std::string_view frame_path) {
  const std::vector<std::string_view> parts = PathComponents(frame_path);
  // The last marker wins: a venv inside a project inside another site-packages is the inner one.
  for (size_t i = parts.size(); i-- > 0;) {
    if (python_paste::IsPackageDirectory(parts[i]) && i + 1 < parts.size()) {
      return InstalledPath{JoinFrom(parts, i + 1), false};
    }
  }
  for (size_t i = parts.size(); i-- > 1;) {
    // POSIX: .../lib/python3.11/json/decoder.py; Windows: ...\Lib\json\decoder.py.
    if (IsPythonLibFolder(parts[i]) && (parts[i - 1] == "lib" || parts[i - 1] == "lib64") && i + 1 < parts.size()) {
      return InstalledPath{JoinFrom(parts, i + 1), true};
    }
  }
  return std::nullopt;
}

bool SameInstalledFile(std::string_view frame_path, std::string_view site_path) {
  std::optional<InstalledPath> installed = InstalledPathOf(frame_path);
  if (!installed) return false;
  // An sdist with a src/ layout keeps "src/pkg/x.py" (source/archive_source.h); installed, it is "pkg/x.py".
  const std::string_view src = "src/";
  if (site_path.substr(0, src.size()) == src) site_path.remove_prefix(src.size());
  return installed->relative == site_path;
}

bool IsVendoredPath(std::string_view path) {
  const std::vector<std::string_view> parts = PathComponents(path);
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    if (python_paste::IsListed(python_paste::PythonTracebackVocabulary().vendor_directories, parts[i])) return true;
  }
  return false;
}

bool IsExampleOrScriptPath(std::string_view path) {
  const std::vector<std::string_view> parts = PathComponents(path);
  return parts.size() > 1 &&
         python_paste::IsListed(python_paste::PythonTracebackVocabulary().example_directories, parts.front());
}

}  // namespace errdex
