// The blob cache (schema 8; docs/catalog.md, "The blob cache"): per git blob and extractor version, the
// facts JSON (docs/catalog.md, "blobs.facts") and the snippet record of its sites, each a zstd frame. A
// blob is stored against a base, the blob of the same path in the revision indexed before it, when that
// base is at most kMaxDeltaDepth deltas away from a self-contained one: a new version of a file then costs
// about what changed. Rows are never rewritten (INSERT OR IGNORE), so a base stays decodable for as long
// as its dependents exist.
//
// Ownership: BlobCache borrows the SqliteDb (which must outlive it) and owns its prepared statements.
// Threading: a BlobCache belongs to the thread of its database; EncodeBlob and the snippet record
// functions are pure and may run on any thread (the index's workers compress in parallel).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/sqlite_db.h"
#include "extract/file_facts.h"

namespace errdex {

// A base deeper than this is not used: the new version is stored self-contained instead, so decoding a
// blob takes at most kMaxDeltaDepth + 1 decompressions.
inline constexpr int kMaxDeltaDepth = 16;

// The decoded payloads of a cached blob, as the base of a newer version.
struct BlobBase {
  std::string oid;
  int depth = 0;  // deltas between it and a self-contained blob (0: it is one)
  std::string facts_json;
  std::string snippets;  // its snippet record
};

// A blob ready to be written: its payloads compressed, against BASE when set.
struct EncodedBlob {
  std::string oid;
  std::string status, reason;
  std::optional<std::string> base;
  int depth = 0;
  std::string facts;     // zstd frame of the facts JSON
  std::string snippets;  // zstd frame of the snippet record
};

// The snippet record of a blob: every site's snippet with its position, as JSON
// [[line, col, start_line, text], ...] in the order of SITES.
std::string SnippetRecord(const std::vector<Site>& sites);

// Compresses FACTS_JSON and SNIPPETS (a snippet record) for blob OID, against BASE when it is given and at
// most kMaxDeltaDepth - 1 deep (else self-contained).
EncodedBlob EncodeBlob(const std::string& oid, const std::string& status, const std::string& reason,
                       const std::string& facts_json, const std::string& snippets, const BlobBase* base);

class BlobCache {
 public:
  explicit BlobCache(SqliteDb& db);
  ~BlobCache();
  BlobCache(const BlobCache&) = delete;
  BlobCache& operator=(const BlobCache&) = delete;

  // The facts JSON of blob OID as extracted by extractor VERSION, and its depth. False when the cache does
  // not hold it, or holds it damaged (a frame that does not decode, a base missing): the caller extracts
  // the file again.
  bool FindFacts(const std::string& oid, int version, std::string* json, int* depth = nullptr);
  // The same in two steps, so that the decompression can run on another thread than the database's: the
  // zstd frames of the facts from OID back to a self-contained blob, newest first (their depth is
  // FRAMES->size() - 1); false when the cache does not hold the blob or a base is missing. DecodeFrames
  // then gives the JSON.
  bool FindFactsFrames(const std::string& oid, int version, std::vector<std::string>* frames);
  // The facts and snippet record of blob OID (extractor VERSION), as the base of a newer version.
  std::optional<BlobBase> FindBase(const std::string& oid, int version);
  // The snippet of the site at LINE:COL of blob OID, from its newest extraction that has one.
  bool FindSnippet(const std::string& oid, int line, int col, int* start_line, std::string* text);
  // Writes BLOB (extractor VERSION) unless the cache holds it already. Inside the caller's transaction.
  void Put(const EncodedBlob& blob, int version);

 private:
  // The frames of OID's payload (column 0: facts, 1: snippets) at VERSION, following its bases, newest first.
  bool ReadFrames(const std::string& oid, int version, int column, std::vector<std::string>* frames);
  // The decoded payload, following its bases.
  bool Decode(const std::string& oid, int version, int column, std::string* out, int* depth);

  SqliteDb& db_;
  std::unique_ptr<Statement> find_;
  std::unique_ptr<Statement> put_;
  std::unique_ptr<Statement> versions_;
};

// The payload of FRAMES (as BlobCache::FindFactsFrames gives them): each decoded against the one before it,
// oldest first. False when a frame does not decode (damage). Pure; thread-safe.
bool DecodeFrames(const std::vector<std::string>& frames, std::string* out);

// Migration 8: moves the blob cache of schema 7 (blobs.facts as JSON text, one snippets row per site) into
// blob_cache, each blob self-contained, inside the migration's transaction.
void ConvertBlobCacheToV8(SqliteDb& db);

}  // namespace errdex
