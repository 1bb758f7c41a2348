// JSON form of FileFacts: how the catalog caches extraction results per blob (docs/catalog.md), and
// what `errdex extract FILE` prints. Snippets are not part of it: the catalog keeps them in a table of
// their own, so that reading cached facts stays cheap.
#pragma once

#include <nlohmann/json.hpp>

#include "extract/file_facts.h"

namespace errdex {

nlohmann::json FileFactsToJson(const FileFacts& facts);

// Returns false when JSON does not have the expected shape (a catalog written by another version).
bool FileFactsFromJson(const nlohmann::json& json, FileFacts* facts);

// A site's conditions as a JSON list of {"kind", "code", "line", "negated"[, "reads"]}: in blobs.facts and in the
// catalog's sites.conditions column. Reading returns false (and leaves CONDITIONS empty) on a bad shape.
nlohmann::json ConditionsToJson(const std::vector<Condition>& conditions);
bool ConditionsFromJson(const nlohmann::json& json, std::vector<Condition>* conditions);

}  // namespace errdex
