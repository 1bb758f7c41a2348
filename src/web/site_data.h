// The catalog data behind the web pages and the JSON API (docs/web.md): the repositories, a
// repository's errors (filtered, paged), and the search index of the static export. Pages render from
// these JSON values, so a page never says something its API does not.
//
// Threading: functions use the given catalog, which belongs to the calling thread.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace errdex::web {

inline constexpr int kRepoPageSize = 100;
inline constexpr size_t kMaxFilterBytes = 200;

// GET /api/repos: {"repositories": [{"name", "url", "rev", "committed_at", "indexed_at", "revisions",
// "files", "errors", "sites"}]}, by name; each as of its latest indexed revision.
nlohmann::json ReposJson(Catalog& catalog);

struct RepoErrorsQuery {
  std::string repo;
  std::optional<std::string> type;  // the error's type as written or qualified, exactly
  std::optional<std::string> q;     // a substring (ASCII case-insensitive) of template, type, path, function, module
  int page = 1;
};

// GET /api/repos/OWNER/NAME/errors: the errors of the repository's latest revision, one entry per error
// (its first site), sorted by module, type and message: {"repo", "url", "rev", "committed_at", "type",
// "q", "page", "pages", "page_size", "total", "types": [{"type", "count"}], "errors": [{"id", "type",
// "type_qualified", "template", "kind", "module", "path", "line", "function", "is_test", "sites",
// "permalink"}]}. Nullopt when there is no such repository.
std::optional<nlohmann::json> RepoErrorsJson(Catalog& catalog, const RepoErrorsQuery& query);

// The search index of the static site: {"fields": ["id", "repo", "type", "template", "path", "line"],
// "errors": [[...], ...]}: every error of the latest revision of every repository.
nlohmann::json SearchIndexJson(Catalog& catalog);

}  // namespace errdex::web
