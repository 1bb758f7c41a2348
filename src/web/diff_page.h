// The page /repos/OWNER/NAME/diff?from=A&to=B (docs/web.md): the errors added, removed, reworded, moved,
// renamed and retyped between two indexed revisions, from VersionDiffJson (report/version_diff.h). Every
// text is escaped; errors link to their pages.
//
// Threading: pure; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace errdex::web {

std::string RenderDiffPage(const nlohmann::json& diff, std::string_view root);

// The links of a repository's page to the diffs of each pair of consecutive indexed revisions (LABELS, oldest
// first; web/site_paths.h DiffHref), newest first; "" with fewer than two revisions.
std::string RenderDiffLinks(std::string_view repo, const std::vector<std::string>& labels, std::string_view root);

}  // namespace errdex::web
