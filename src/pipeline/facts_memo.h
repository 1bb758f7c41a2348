// The facts of the files of the revision just indexed, kept in memory for the next revision of a run over
// many revisions (pipeline/release_indexer.cc): a file unchanged since it is taken from here instead of being
// read and decoded from the blob cache again, and a changed one is compressed against its previous version
// without decoding that from the cache (docs/catalog.md, "The blob cache"). The compiled extractor is kept too
// (compiling its queries costs 15-40 ms a revision).
//
// Facts kept here are exactly what the blob cache would give (sites without snippets), so a revision indexes
// the same whether its files come from here or from the catalog.
//
// Ownership: the caller of Index() owns the memo; Index() takes entries out and puts the revision's in.
// Threading: used by one Index() call at a time, on its calling thread.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "extract/file_facts.h"
#include "python/python_extractor.h"

namespace errdex {

struct RememberedFacts {
  FileFacts facts;                        // as the blob cache decodes them: sites without snippets
  std::string json;                       // the facts JSON stored in the cache
  std::optional<std::string> snippets;    // the blob's snippet record, when known
  int depth = 0;                          // its depth in the cache (catalog/blob_cache.h)
  int cache_version = kExtractorVersion;  // the cache version of the facts (CacheVersion)
};

struct FactsMemo {
  std::unordered_map<std::string, RememberedFacts> by_blob;  // blob id -> facts
  std::unique_ptr<PythonExtractor> extractor;                // null until the first revision compiled one
};

}  // namespace errdex
