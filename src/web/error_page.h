// The error page (/errors/ID, errors/ID.html): the sections of the example page
// (../shared/seed/error-page-example.txt), in its order, rendered from the JSON of `errdex show ID
// --format json` (report/error_report.h) — and only from it, so the page and /api/errors/ID never
// disagree. Sections without data are left out. docs/web.md lists them.
//
// The report may carry an `explanation` object (meaning, conditions, state, triggers.call_paths,
// triggers.tests, solutions, history) and a `related` list; their facts are rendered by shape: a fact
// with a `path` (or the site's) and a `line` is a linked path:line with its `function`, text fields and
// highlighted `code`; lists become lists; an object with an error `id` links to that error's page.
//
// Threading: pure function.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace errdex::web {

// The whole HTML document of the error page. ROOT is the page's RootPrefix ("../" for errors/ID.html).
std::string RenderErrorPage(const nlohmann::json& report, std::string_view root);

}  // namespace errdex::web
