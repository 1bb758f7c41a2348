// The JSON text of FileFacts written directly, without building an nlohmann::json document: byte for
// byte what `FileFactsToJson(facts).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)` gives
// (file_facts_json.h; keys in sorted order, no whitespace, strings escaped the way nlohmann escapes them,
// invalid UTF-8 replaced by U+FFFD), at a fraction of the cost. The indexer's workers encode every
// extracted file with it (docs/benchmarks.md, "Extraction speed"). python/file_facts_json_text_test.cc checks
// the equality on every case of the extraction corpus and on hostile strings.
//
// Pure function of its argument; thread-safe.
#pragma once

#include <string>

#include "extract/file_facts.h"

namespace errdex {

std::string FileFactsJsonText(const FileFacts& facts);

}  // namespace errdex
