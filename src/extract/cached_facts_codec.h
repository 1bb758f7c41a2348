// How the facts of a file are stored in the catalog's blob cache (`blobs.facts`, docs/catalog.md): the JSON
// text of file_facts_json.h compressed as one Zstandard frame. Compression keeps the cache, the largest
// part of a catalog, at about a quarter of its size, and so the bytes the catalog writes (twice: its WAL,
// then the database) and reads back; it runs in the indexer's workers, beside the extraction.
// Catalogs written before hold the plain JSON text; DecodeCachedFacts accepts both (a frame starts with
// Zstandard's magic number, JSON text with '{').
//
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace errdex {

// The stored form of a file's facts JSON text.
std::string EncodeCachedFacts(std::string_view json_text);

// The facts JSON text of a stored value, into *JSON_TEXT. False for a damaged or truncated frame, or one
// whose content would exceed kMaxCachedFactsBytes (a hostile catalog must not make the reader allocate
// without bound).
bool DecodeCachedFacts(std::string_view stored, std::string* json_text);

// True when STORED is a compressed frame (written by EncodeCachedFacts), false for plain JSON text.
bool IsCompressedFacts(std::string_view stored);

inline constexpr size_t kMaxCachedFactsBytes = size_t{1} << 30;

}  // namespace errdex
