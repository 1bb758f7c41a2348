// The page /repos/OWNER/NAME/diff?from=A&to=B (docs/web.md): the errors added, removed, reworded, moved,
// renamed and retyped between two indexed revisions, from VersionDiffJson (report/version_diff.h). Every
// text is escaped; errors link to their pages.
//
// Threading: pure; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace errdex::web {

std::string RenderDiffPage(const nlohmann::json& diff, std::string_view root);

}  // namespace errdex::web
