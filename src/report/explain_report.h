// The JSON and text forms of an explanation (`errdex explain`, later GET /api/explain): one place, so
// every output says the same thing.
//
// Threading: functions use the given catalog (for source snippets), which belongs to the calling thread.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "catalog/catalog.h"
#include "match/explainer.h"

namespace errdex {

// {"input_kind", "type", "message", "matches": [{"id", "type", "template", "score", "bindings", "site":
// {"repo", "rev", "path", "line", "function", "permalink"}, "why": [...]}]}, plus "closest" (same shape)
// when nothing matched.
nlohmann::json ExplainMatchJson(const ExplainMatch& match);
// The site as explain and scan show it: {"repo", "rev", "path", "line", "function", "permalink"}.
nlohmann::json SiteSummaryJson(const SiteRow& site);
nlohmann::json ExplanationJson(const Explanation& explanation);

// What a person reads: each match with its site, pinned link, bound values and evidence, and the source
// around the best one. Control characters of the paste are shown escaped, never sent to the terminal.
std::string ExplanationText(Catalog& catalog, const Explanation& explanation);

// TEXT with control characters (other than newline and tab) shown as \xNN.
std::string EscapeControls(std::string_view text);

}  // namespace errdex
