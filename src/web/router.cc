#include "web/router.h"

#include <fmt/format.h>

#include <charconv>

#include "catalog/version_store.h"
#include "match/explainer.h"
#include "report/error_report.h"
#include "report/explain_report.h"
#include "report/version_diff.h"
#include "web/assets.h"
#include "web/diff_page.h"
#include "web/error_page.h"
#include "web/html.h"
#include "web/openapi.h"
#include "web/pages.h"
#include "web/site_data.h"
#include "web/site_paths.h"

namespace errdex::web {

namespace {

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }
bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// REST without SUFFIX when it ends with it.
std::string_view StripSuffix(std::string_view rest, std::string_view suffix) {
  return EndsWith(rest, suffix) ? rest.substr(0, rest.size() - suffix.size()) : rest;
}

WebResponse Json(const nlohmann::json& value, int indent = 2) {
  return {200, std::string(kJsonType), DumpJson(value, indent) + "\n"};
}

WebResponse Html(std::string body) { return {200, std::string(kHtmlType), std::move(body)}; }

// A positive page number from text; nullopt when it is not one.
std::optional<int> ParsePage(const std::string& text) {
  int page = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), page);
  if (ec != std::errc() || ptr != text.data() + text.size() || page < 1 || page > 1'000'000) return std::nullopt;
  return page;
}

// The repository names a route's REST (".html" removed) may stand for, with their page: the slug
// readings, then the text itself as a name (a hand-typed URL).
std::vector<std::pair<std::string, int>> RepoCandidates(std::string_view rest) {
  std::vector<std::pair<std::string, int>> out = RepoRouteCandidates(rest);
  std::string literal(rest);
  bool known = false;
  for (const auto& c : out) known = known || (c.first == literal && c.second == 1);
  if (!known && !literal.empty()) out.emplace_back(std::move(literal), 1);
  return out;
}

// /repos/OWNER/NAME/diff and its API twin: ?from=A&to=B (release labels or commit prefixes); by default
// the two newest indexed revisions of the repository.
// /repos/OWNER/NAME/diff/FROM..TO names the revisions in the path instead (the static export's file names,
// web/site_paths.h).
WebResponse DiffRoute(Catalog& catalog, std::string_view rest, const QueryParams& query, std::string_view root,
                      bool api) {
  std::vector<std::pair<std::string, int>> candidates;
  std::optional<DiffRouteParts> in_path = ReadDiffRoute(rest);
  if (in_path) candidates.emplace_back(in_path->name, 1);
  for (auto& [name, page] : candidates.empty() ? RepoCandidates(rest) : candidates) {
    if (page != 1 || !catalog.HasRepository(name)) continue;
    std::optional<std::string> from = QueryValue(query, "from"), to = QueryValue(query, "to");
    if (in_path) {
      from = in_path->from;
      to = in_path->to;
    }
    const std::vector<VersionedRevision> ordered = OrderedRevisions(catalog, name);
    if ((!from || !to) && ordered.size() < 2) {
      return Router::Problem(404, "The repository has fewer than two indexed revisions.", api, root);
    }
    if (!from) from = ordered[ordered.size() - 2].label;
    if (!to) to = ordered.back().label;
    VersionDiff diff;
    std::string error;
    if (!DiffRevisions(catalog, name, *from, *to, &diff, &error)) return Router::Problem(404, error, api, root);
    return api ? Json(VersionDiffJson(diff)) : Html(RenderDiffPage(VersionDiffJson(diff), root));
  }
  return Router::Problem(404, "The catalog has no such repository.", api, root);
}

// The type, text and page filters of a repository route, checked. Returns a problem when they are bad.
std::optional<std::string> ReadRepoFilters(const QueryParams& query, RepoErrorsQuery* out) {
  out->type = QueryValue(query, "type");
  out->q = QueryValue(query, "q");
  if (out->type && out->type->empty()) out->type.reset();
  if (out->q && out->q->empty()) out->q.reset();
  if ((out->type && out->type->size() > kMaxFilterBytes) || (out->q && out->q->size() > kMaxFilterBytes)) {
    return fmt::format("filter longer than {} bytes", kMaxFilterBytes);
  }
  if (std::optional<std::string> page = QueryValue(query, "page")) {
    std::optional<int> n = ParsePage(*page);
    if (!n) return "page must be a whole number from 1";
    out->page = *n;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> QueryValue(const QueryParams& params, std::string_view key) {
  for (const auto& [k, v] : params) {
    if (k == key) return v;
  }
  return std::nullopt;
}

WebResponse Router::Problem(int status, std::string_view message, bool api, std::string_view root) {
  if (api) {
    return {status, std::string(kJsonType), DumpJson({{"error", std::string(message)}, {"status", status}}, 2) + "\n"};
  }
  const char* title = status == 404   ? "Not found"
                      : status == 400 ? "Bad request"
                      : status == 405 ? "Method not allowed"
                      : status == 413 ? "Too large"
                      : status == 503 ? "Unavailable"
                                      : "Error";
  return {status, std::string(kHtmlType), RenderMessagePage(title, message, root)};
}

WebResponse Router::Get(std::string_view target_path, const QueryParams& query) {
  const std::string path = PercentDecode(target_path);
  const std::string root = RootPrefix(target_path);
  const bool api = StartsWith(path, "/api/");
  if (path == "/" || path == "/index.html") return Html(RenderHomePage(ReposJson(catalog_)));
  if (path == "/search") {
    const std::string paste = QueryValue(query, "q").value_or("");
    if (paste.empty()) return Html(RenderSearchPage("", nullptr));
    return Search(paste);
  }
  if (path == "/static/errdex.css") return {200, std::string(kCssType), std::string(StylesheetCss())};
  if (path == "/static/errdex.js") return {200, std::string(kScriptType), std::string(SearchScriptJs())};
  if (path == "/api/openapi.json") return Json(OpenApiJson());
  if (path == "/api/repos" || path == "/api/repos.json") return Json(ReposJson(catalog_));
  if (path == "/api/search-index.json") return Json(SearchIndexJson(catalog_), -1);
  if (StartsWith(path, "/api/errors/")) {
    return ErrorJson(StripSuffix(std::string_view(path).substr(12), ".json"));
  }
  if (StartsWith(path, "/errors/")) {
    return ErrorPage(StripSuffix(std::string_view(path).substr(8), ".html"), root);
  }
  // Repository routes: the decoded path holds the slug (web/site_paths.h).
  if (StartsWith(path, "/api/repos/")) {
    std::string_view rest = StripSuffix(std::string_view(path).substr(11), ".json");
    if (EndsWith(rest, "/errors")) return RepoErrorsApi(rest.substr(0, rest.size() - 7), query);
    if (EndsWith(rest, "/diff")) return DiffRoute(catalog_, rest.substr(0, rest.size() - 5), query, root, true);
    if (ReadDiffRoute(rest)) return DiffRoute(catalog_, rest, query, root, true);
    return Problem(404, "no such API route", true);
  }
  if (StartsWith(path, "/repos/") && EndsWith(StripSuffix(path, ".html"), "/diff")) {
    const std::string_view rest = StripSuffix(std::string_view(path).substr(7), ".html");
    return DiffRoute(catalog_, rest.substr(0, rest.size() - 5), query, root, false);
  }
  if (StartsWith(path, "/repos/") && ReadDiffRoute(StripSuffix(std::string_view(path).substr(7), ".html"))) {
    return DiffRoute(catalog_, StripSuffix(std::string_view(path).substr(7), ".html"), query, root, false);
  }
  if (StartsWith(path, "/repos/")) {
    return RepoPage(StripSuffix(std::string_view(path).substr(7), ".html"), root, query);
  }
  return Problem(404, "There is no page at this address.", api, root);
}

WebResponse Router::ErrorPage(std::string_view id, std::string_view root) {
  if (!IsErrorId(id)) return Problem(404, "An error id is 16 hexadecimal digits.", false, root);
  std::optional<nlohmann::json> report = ErrorReportJson(catalog_, std::string(id));
  if (!report) return Problem(404, "The catalog has no error with this id.", false, root);
  return Html(RenderErrorPage(*report, root));
}

WebResponse Router::ErrorJson(std::string_view id) {
  if (!IsErrorId(id)) return Problem(404, "an error id is 16 hexadecimal digits", true);
  std::optional<nlohmann::json> report = ErrorReportJson(catalog_, std::string(id));
  if (!report) return Problem(404, "no error with this id", true);
  return Json(*report);
}

WebResponse Router::RepoPage(std::string_view rest, std::string_view root, const QueryParams& query) {
  RepoErrorsQuery q;
  if (std::optional<std::string> problem = ReadRepoFilters(query, &q)) return Problem(400, *problem, false, root);
  const bool page_in_query = QueryValue(query, "page").has_value();
  for (auto& [name, page] : RepoCandidates(rest)) {
    if (!catalog_.HasRepository(name)) continue;
    q.repo = name;
    if (!page_in_query) q.page = page;
    std::optional<nlohmann::json> data = RepoErrorsJson(catalog_, q);
    if (!data) break;
    if (q.page > (*data)["pages"].get<int>()) return Problem(404, "There is no such page.", false, root);
    std::vector<std::string> labels;
    for (const VersionedRevision& v : OrderedRevisions(catalog_, name)) labels.push_back(v.label);
    return Html(RenderRepoPage(*data, root, RenderDiffLinks(name, labels, root)));
  }
  return Problem(404, "The catalog has no such repository.", false, root);
}

WebResponse Router::RepoErrorsApi(std::string_view rest, const QueryParams& query) {
  RepoErrorsQuery q;
  if (std::optional<std::string> problem = ReadRepoFilters(query, &q)) return Problem(400, *problem, true);
  for (auto& [name, page] : RepoCandidates(rest)) {
    if (page != 1 || !catalog_.HasRepository(name)) continue;
    q.repo = name;
    std::optional<nlohmann::json> data = RepoErrorsJson(catalog_, q);
    if (!data) break;
    if (q.page > (*data)["pages"].get<int>()) return Problem(404, "no such page", true);
    return Json(*data);
  }
  return Problem(404, "no such repository", true);
}

std::optional<nlohmann::json> Router::Explain(std::string_view paste, int top) {
  if (matcher_ == nullptr) return std::nullopt;
  Explanation explanation = Explainer(catalog_, *matcher_).Explain(paste, top);
  return ExplanationJson(explanation);
}

WebResponse Router::Search(std::string_view paste) {
  if (paste.find_first_not_of(" \t\r\n") == std::string_view::npos) return Html(RenderSearchPage("", nullptr));
  std::optional<nlohmann::json> explanation = Explain(paste, kDefaultTop);
  if (!explanation) return Problem(503, "Search is not available: the catalog has no matcher.", false);
  return Html(RenderSearchPage(paste, *explanation));
}

WebResponse Router::Match(std::string_view paste, const std::optional<std::string>& top_text) {
  int top = kDefaultTop;
  if (top_text) {
    std::optional<int> n = ParsePage(*top_text);
    if (!n || *n > 100) return Problem(400, "top must be a whole number from 1 to 100", true);
    top = *n;
  }
  if (paste.find_first_not_of(" \t\r\n") == std::string_view::npos) return Problem(400, "empty paste", true);
  std::optional<nlohmann::json> explanation = Explain(paste, top);
  if (!explanation) return Problem(503, "the catalog has no matcher", true);
  return Json(*explanation);
}

}  // namespace errdex::web
