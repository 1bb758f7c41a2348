// JSON form of FileFacts: how the catalog caches extraction results per blob (docs/catalog.md), and
// what `errdex extract FILE` prints.
#pragma once

#include <nlohmann/json.hpp>

#include "extract/file_facts.h"

namespace errdex {

nlohmann::json FileFactsToJson(const FileFacts& facts);

// Returns false when JSON does not have the expected shape (a catalog written by another version).
bool FileFactsFromJson(const nlohmann::json& json, FileFacts* facts);

}  // namespace errdex
