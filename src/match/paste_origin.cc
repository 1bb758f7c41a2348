#include "match/paste_origin.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>

#include "match/frame_evidence.h"
#include "match/type_agreement.h"
#include "python/traceback_vocabulary.h"

namespace errdex {
namespace {

constexpr int64_t kSitesPerFileName = 2000;

// The top-level package of an installed file: `.../site-packages/urllib3/util/retry.py` → "urllib3".
std::string InstalledPackageOf(std::string_view path) {
  std::vector<std::string_view> parts = PathComponents(path);
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    if (!python_paste::IsPackageDirectory(parts[i])) continue;
    std::string_view top = parts[i + 1];
    if (top.size() > 3 && top.substr(top.size() - 3) == ".py") top.remove_suffix(3);
    return std::string(top);
  }
  return "";
}

// A qualified name whose top-level package no repository provides (`http.client_exceptions.X`, the user's
// `aiohttp` cut off): the one repository defining a class of that name whose qualified name ends with the
// pasted one after its first component (`aiohttp.client_exceptions.X`). nullopt when none or several do.
std::optional<std::string> OnlyRepositoryDefining(Catalog& catalog, std::string_view type) {
  const size_t dot = type.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const std::string_view tail = type.substr(dot);  // ".client_exceptions.X"
  std::optional<std::string> found;
  for (const auto& [repo, cls] : catalog.ClassesNamed(std::string(LastComponent(type)), 8)) {
    if (found && *found != repo) return std::nullopt;  // the name is not one repository's
    if (std::string_view(cls.qualified_name).ends_with(tail)) found = repo;
  }
  return found;
}

}  // namespace

PasteOrigin OriginOfPaste(Catalog& catalog, const PastedException& exception) {
  PasteOrigin origin;
  // Only the innermost frame: an installed library's frame further out may be calling the stdlib.
  const TracebackFrame* installed = nullptr;
  if (!exception.frames.empty() && !InstalledPackageOf(exception.frames.back().path).empty()) {
    installed = &exception.frames.back();
  }
  if (installed) {
    origin.module = InstalledPackageOf(installed->path);
  } else if (size_t dot = exception.type.find('.'); dot != std::string::npos && dot > 0) {
    origin.module = exception.type.substr(0, dot);
    if (origin.module == "builtins") origin.module.clear();
  }
  // The innermost frame's file in the catalog, wherever it is installed (the standard library too).
  if (!exception.frames.empty()) {
    const TracebackFrame& f = exception.frames.back();
    std::vector<std::string_view> parts = PathComponents(f.path);
    if (!parts.empty() && !f.function.empty()) {
      for (const SiteRow& s : catalog.SitesInFilesNamed(std::string(parts.back()), kSitesPerFileName)) {
        if (CommonSuffix(f.path, s.path) > 0 && SameFunction(f.function, s.function)) {
          origin.repository = s.repo;
          if (origin.module.empty())
            origin.module = std::string(parts.size() > 1 ? parts[parts.size() - 2] : parts.back());
          return origin;
        }
      }
    }
  }
  if (origin.module.empty()) return origin;
  for (const RevisionRow& r : catalog.Revisions()) {
    if (RepositoryNamesModule(r.repo, origin.module)) {
      origin.repository = r.repo;
      return origin;
    }
  }
  if (installed) {
    std::vector<std::string_view> parts = PathComponents(installed->path);
    if (!parts.empty()) {
      for (const SiteRow& s : catalog.SitesInFilesNamed(std::string(parts.back()), kSitesPerFileName)) {
        if (CommonSuffix(installed->path, s.path) >= 2) {
          origin.repository = s.repo;
          return origin;
        }
      }
    }
  }
  if (!exception.type.empty()) {
    for (const auto& [repo, cls] : catalog.ClassesNamed(std::string(LastComponent(exception.type)), 8)) {
      // `_queue.Empty` pasted, `queue.Empty` indexed: a C accelerator's class is its Python module's.
      const std::string_view top = std::string_view(cls.qualified_name).substr(0, cls.qualified_name.find('.'));
      if (cls.qualified_name.rfind(origin.module + ".", 0) == 0 ||
          (top.size() < cls.qualified_name.size() && SameModuleFamily(top, origin.module))) {
        origin.repository = repo;
        return origin;
      }
    }
    if (std::optional<std::string> repo = OnlyRepositoryDefining(catalog, exception.type)) origin.repository = *repo;
  }
  return origin;
}

}  // namespace errdex
