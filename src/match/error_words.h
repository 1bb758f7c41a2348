// Approximate matching: an SQLite FTS5 index of every error's literal words and type name, ranked by
// BM25. It finds errors whose message wording drifted (a word added, removed or changed) where the exact
// matcher finds nothing; results are candidates for alignment and ranking, never answers by themselves.
//
// Threading: functions use the given database, which belongs to the calling thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "catalog/matcher_tables.h"

namespace errdex {

// Text indexed for an error: the literal words of its template and the last component of its type.
std::string ErrorWordsText(std::string_view rendered_template, std::string_view type);

// Up to LIMIT error ids whose words best match the words of TEXT (any of them), best first. Empty when
// the catalog has no word index or TEXT has no word.
std::vector<std::string> SimilarErrors(MatcherTables& tables, std::string_view text, int limit);

}  // namespace errdex
