// Site rows of an index run (pipeline/index_run.h): a site found by extraction, or a call of a raising
// helper, becomes a SiteRow of the revision, with its type resolved and its error id; its error is added
// once. Used by ResolveRevision and LinkHelperSites.
#pragma once

#include <optional>
#include <string>

#include "extract/file_facts.h"
#include "pipeline/index_run.h"

namespace errdex {

// Adds the site S of PATH with TEMPLATE_TEXT to RUN's rows; VIA names the helper call ("path:line in f").
// TYPE_OVERRIDE (resolved in TYPE_PATH) replaces S's type: the class of an instance the call hands over.
void AddSiteRow(IndexRun& run, const std::string& path, const Site& s, const std::optional<std::string>& template_text,
                bool is_test, std::optional<std::string> via, const std::string& type_override = "",
                const std::string& type_path = "");

}  // namespace errdex
