// The web site as a function: a request (method, path as sent, query, body) in, a response (status,
// content type, body) out, from the catalog only. `errdex serve` answers HTTP requests with it and
// `errdex export` writes its answers to files, so a served page and its exported file are the same
// bytes (docs/web.md). No request path ever reaches the file system.
//
// Threading: a Router borrows one catalog (one thread's) and the shared, immutable matcher; create one per
// request or per thread.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "match/error_matcher.h"

namespace errdex::web {

inline constexpr std::string_view kHtmlType = "text/html; charset=utf-8";
inline constexpr std::string_view kJsonType = "application/json; charset=utf-8";
inline constexpr std::string_view kCssType = "text/css; charset=utf-8";
inline constexpr std::string_view kScriptType = "text/javascript; charset=utf-8";

// How many matches /api/match and /search return unless told (`explain`'s default).
inline constexpr int kDefaultTop = 5;

struct WebResponse {
  int status = 200;
  std::string content_type;
  std::string body;
};

using QueryParams = std::vector<std::pair<std::string, std::string>>;

// The first value of KEY in PARAMS.
std::optional<std::string> QueryValue(const QueryParams& params, std::string_view key);

class Router {
 public:
  // MATCHER may be null: search and match then answer 503.
  Router(Catalog& catalog, const ErrorMatcher* matcher) : catalog_(catalog), matcher_(matcher) {}

  // GET (and HEAD) of TARGET_PATH: the path as sent, still percent-encoded, without the query string.
  WebResponse Get(std::string_view target_path, const QueryParams& query);
  // POST /search: the results page for PASTE.
  WebResponse Search(std::string_view paste);
  // POST /api/match: `explain --format json` for PASTE. TOP: the "top" query value, if any.
  WebResponse Match(std::string_view paste, const std::optional<std::string>& top);

  // A JSON problem ({"error", "status"}) or an HTML status page, for a route under /api/ or not.
  static WebResponse Problem(int status, std::string_view message, bool api, std::string_view root = "./");

 private:
  WebResponse ErrorPage(std::string_view id, std::string_view root);
  WebResponse ErrorJson(std::string_view id);
  WebResponse RepoPage(std::string_view rest, std::string_view root, const QueryParams& query);
  WebResponse RepoErrorsApi(std::string_view rest, const QueryParams& query);
  std::optional<nlohmann::json> Explain(std::string_view paste, int top);

  Catalog& catalog_;
  const ErrorMatcher* matcher_;
};

}  // namespace errdex::web
