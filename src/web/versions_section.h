// The "Versions" section of an error's page (docs/web.md): the indexed releases the error exists in, as
// ranges, and its line across releases (earlier and later wordings, where each was raised), from the
// report's "versions" object (report/error_versions.h). All text is escaped.
//
// Threading: pure; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace errdex::web {

// Appends the section to OUT; nothing when VERSIONS is not an object.
void AppendVersionsSection(const nlohmann::json& versions, std::string& out);

}  // namespace errdex::web
