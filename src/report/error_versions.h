// The versions of one error (docs/catalog.md "Lineage"), for its page and `show --format json`: in which
// indexed revisions of its repository it exists (as ranges of releases), the line of errors it belongs
// to (its earlier and later wordings, each with where it was raised and in which revisions), and where
// that line starts and ends among the indexed revisions — read from the stored lineage before any git
// archaeology.
//
// Threading: uses the given catalog, which belongs to the calling thread.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "catalog/catalog.h"

namespace errdex {

// Null when the repository has fewer than two indexed git revisions or ID is raised in none of them.
// Otherwise {"ranges": [{"from": LABEL, "to": LABEL}], "newest": LABEL, "in_newest": bool,
// "since": LABEL (first revision of the line, null when it starts at the oldest indexed one),
// "removed_in": LABEL|null, "line": [{"id", "type", "template", "from", "to", "path", "line", "function",
// "changes"}]} — LINE oldest first, ID's own entry included; "changes" says how an entry differs from the
// one before it ("reworded", "moved", ...; "" for the first).
nlohmann::json ErrorVersionsJson(Catalog& catalog, const ErrorRow& error);

// The same as terminal lines ("" when VERSIONS is null): the ranges, then the line oldest first.
std::string ErrorVersionsText(const nlohmann::json& versions);

}  // namespace errdex
