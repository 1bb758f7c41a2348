// Listings of the catalog for the web pages, the JSON API and the static export (src/web/site_data.h):
// repositories with their counts, the errors of a revision, the sites of every latest revision. Row types
// only; the catalog (catalog/catalog.h) reads them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace errdex {

// A repository as of its latest indexed revision.
struct RepositorySummary {
  std::string name;
  std::optional<std::string> url, rev, committed_at;  // rev: the commit, else the version (docs/catalog.md)
  std::string kind;                                   // "git", "directory", "distribution", "stdlib", "archive"
  std::string indexed_at;
  int64_t revisions = 0, files = 0, errors = 0, sites = 0;
};

// A repository's latest revision (REVISION_ID 0 when it has none).
struct LatestRevision {
  std::optional<std::string> url;
  int64_t revision_id = 0;
  std::optional<std::string> rev, committed_at;
};

// A site of a revision with its error's type and template and its file's module.
struct ListedSite {
  std::string error_id;
  std::optional<std::string> type, type_qualified, template_text;
  std::string kind, path, function, module;
  int line = 0;
  bool is_test = false;
};

// A site of the latest revision of some repository, for the search index.
struct LatestSite {
  std::string error_id, repo;
  std::optional<std::string> type;  // as written, else qualified
  std::optional<std::string> template_text;
  std::string path;
  int64_t line = 0;
};

}  // namespace errdex
