// The history of an error, for its page and JSON (docs/analysis.md, "History"): first what the indexed
// revisions say (since which release its wording exists, and its earlier wordings with where each was
// raised, read from the stored lineage), then the commit the git walk found, which dates the message more
// finely (or, when the wording reaches back to the oldest indexed revision, is the only date there is).
//
// Threading: a pure function.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace errdex {

// GIT: the stored history of the analysis ({"commit", "committed_at", "author", "summary", "bounded",
// "path"} or null). VERSIONS: ErrorVersionsJson of error ID (null with fewer than two indexed revisions).
// Null when neither says anything. Otherwise GIT's fields (when there are) and:
//   "source": "releases" when the indexed revisions date the wording (it appears after the oldest indexed
//             revision), else "git" (else "releases", when there is no walk to fall back on);
//   "wording_since": the first indexed revision with this wording (null without VERSIONS);
//   "reaches_oldest": true when that is the oldest indexed revision (the line may be older still);
//   "earlier": the wordings before this one, oldest first, as VERSIONS' "line" has them
//              ({"id", "type", "template", "from", "to", "path", "line", "function", "changes"}).
nlohmann::json ErrorHistoryJson(const std::string& id, const nlohmann::json& git, const nlohmann::json& versions);

}  // namespace errdex
