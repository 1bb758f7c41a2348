// What an error's sites wrap, with the raise sites of the wrapped exceptions in other repositories
// (docs/environments.md, "Wrapping sites"): `except MaxRetryError as e: raise ConnectionError(e, ...)` in
// requests links urllib3's `raise MaxRetryError(...)` sites.
//
// Threading: as Catalog (one thread per Catalog).
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "catalog/catalog.h"

namespace errdex {

// Per wrapped type of SITES' non-test sites (deduplicated, at most 8): {"type", "passes" (the raised call
// gets the caught exception), "at" ("path:line" of the first wrapping site), "raised_at": [{"id", "repo",
// "rev", "path", "line", "function"}]} — at most 5 non-test raise sites of the type, latest revisions, in
// other repositories than the wrapping site's. An empty array when no site wraps anything.
nlohmann::json WrappedErrorsOf(Catalog& catalog, const std::vector<SiteRow>& sites);

}  // namespace errdex
