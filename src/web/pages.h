// The pages other than the error page (docs/web.md): the home page (search box and repositories), the
// search results, a repository's error index, and short status pages (404, 400). Each renders from the
// JSON its API route returns.
//
// Threading: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace errdex::web {

// "/": the search form (POST to search) and the repositories of REPOS (ReposJson). Loads the small
// script that searches the exported index when no server answers the form (a static host).
std::string RenderHomePage(const nlohmann::json& repos);

// "/search": the form holding PASTE and, when EXPLANATION is not null (ExplanationJson), the ranked
// matches with their evidence, or the closest candidates marked as not matching.
std::string RenderSearchPage(std::string_view paste, const nlohmann::json& explanation);

// "/repos/OWNER/NAME": the errors of REPO_ERRORS (RepoErrorsJson) by module and type, the filter form,
// and links to its other pages. ROOT is the page's RootPrefix. An unfiltered view links its pages as
// the exported files (repos/SLUG/page-N.html); a view filtered by type or text (server only) links them
// with the query string. EXTRA_HTML (already escaped: the links to its diffs, web/diff_page.h) follows the
// summary.
std::string RenderRepoPage(const nlohmann::json& repo_errors, std::string_view root, std::string_view extra_html = {});

// A short page for a status: TITLE as heading, MESSAGE as text.
std::string RenderMessagePage(std::string_view title, std::string_view message, std::string_view root);

}  // namespace errdex::web
