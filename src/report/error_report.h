// The JSON and text forms of catalog records: a site as `errdex list` prints it, and an error with its
// sites, source snippet, exception class and revisions as `errdex show` (and later GET /api/errors/ID)
// returns it. One place, so every output says the same thing.
//
// Threading: functions use the given catalog, which belongs to the calling thread.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "catalog/catalog.h"

namespace errdex {

// One `list --format jsonl` object: id, repo, rev, path, line, col, end_line, kind, type,
// type_qualified, template, function, is_test, permalink.
nlohmann::json SiteToJson(const SiteRow& site);

// The error ID as JSON; null when the catalog has no such error.
std::optional<nlohmann::json> ErrorReportJson(Catalog& catalog, const std::string& id);

// The same report as terminal text, from the JSON form.
std::string ErrorReportText(const nlohmann::json& report);

// JSON text that never fails on invalid UTF-8 (replaced by U+FFFD).
std::string DumpJson(const nlohmann::json& json, int indent = -1);

}  // namespace errdex
