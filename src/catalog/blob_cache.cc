#include "catalog/blob_cache.h"

#include <nlohmann/json.hpp>

#include "catalog/zstd_codec.h"

namespace errdex {

namespace {

// zstd's level 3 (its default): ~4.5x on a self-contained facts JSON and ~20x on a new version against
// the old one, at a few hundred MB/s; level 19 saved another third of the bytes at ten times the time
// (docs/benchmarks.md, "Catalog size").
constexpr int kLevel = 1;
// No payload of a sane catalog comes near this; a damaged frame claiming more is refused before allocating.
constexpr size_t kMaxPayload = size_t{1} << 30;
// More bases than kMaxDeltaDepth can only come from a damaged catalog (or a cycle): stop there.
constexpr int kMaxChain = 4 * kMaxDeltaDepth;

}  // namespace

std::string SnippetRecord(const std::vector<Site>& sites) {
  nlohmann::json record = nlohmann::json::array();
  for (const Site& s : sites) record.push_back({s.line, s.col, s.snippet_start, s.snippet});
  return record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

EncodedBlob EncodeBlob(const std::string& oid, const std::string& status, const std::string& reason,
                       const std::string& facts_json, const std::string& snippets, const BlobBase* base) {
  EncodedBlob out;
  out.oid = oid;
  out.status = status;
  out.reason = reason;
  const bool delta = base != nullptr && base->oid != oid && base->depth + 1 <= kMaxDeltaDepth;
  out.facts = ZstdCompress(facts_json, delta ? base->facts_json : std::string_view(), kLevel);
  out.snippets = ZstdCompress(snippets, delta ? base->snippets : std::string_view(), kLevel);
  if (delta) {
    out.base = base->oid;
    out.depth = base->depth + 1;
  }
  return out;
}

BlobCache::BlobCache(SqliteDb& db) : db_(db) {}
BlobCache::~BlobCache() = default;

bool BlobCache::ReadFrames(const std::string& oid, int version, int column, std::vector<std::string>* frames) {
  if (!find_)
    find_ = std::make_unique<Statement>(db_,
                                        "SELECT base, facts, snippets FROM blob_cache "
                                        "WHERE oid = ?1 AND extractor_version = ?2");
  // The frames from OID back to a self-contained blob.
  frames->clear();
  std::string next = oid;
  for (;;) {
    if (static_cast<int>(frames->size()) > kMaxChain) return false;
    find_->Bind(1, next).Bind(2, int64_t{version});
    if (!find_->Step()) {
      find_->Reset();
      return false;
    }
    std::optional<std::string> base = find_->OptionalText(0);
    frames->push_back(find_->Blob(1 + column));
    find_->Reset();
    if (!base) break;
    next = std::move(*base);
  }
  return true;
}

bool DecodeFrames(const std::vector<std::string>& frames, std::string* out) {
  std::string prefix, text;
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    if (!ZstdDecompress(*it, prefix, kMaxPayload, &text)) return false;
    prefix.swap(text);
  }
  *out = std::move(prefix);
  return true;
}

bool BlobCache::Decode(const std::string& oid, int version, int column, std::string* out, int* depth) {
  std::vector<std::string> frames;
  if (!ReadFrames(oid, version, column, &frames) || !DecodeFrames(frames, out)) return false;
  if (depth != nullptr) *depth = static_cast<int>(frames.size()) - 1;
  return true;
}

bool BlobCache::FindFactsFrames(const std::string& oid, int version, std::vector<std::string>* frames) {
  return ReadFrames(oid, version, 0, frames);
}

bool BlobCache::FindFacts(const std::string& oid, int version, std::string* json, int* depth) {
  return Decode(oid, version, 0, json, depth);
}

std::optional<BlobBase> BlobCache::FindBase(const std::string& oid, int version) {
  BlobBase base;
  base.oid = oid;
  if (!Decode(oid, version, 0, &base.facts_json, &base.depth)) return std::nullopt;
  if (!Decode(oid, version, 1, &base.snippets, nullptr)) return std::nullopt;
  return base;
}

bool BlobCache::FindSnippet(const std::string& oid, int line, int col, int* start_line, std::string* text) {
  if (!versions_) {
    versions_ = std::make_unique<Statement>(
        db_, "SELECT extractor_version FROM blob_cache WHERE oid = ?1 ORDER BY extractor_version DESC");
  }
  std::vector<int> versions;
  versions_->Bind(1, oid);
  while (versions_->Step()) versions.push_back(static_cast<int>(versions_->Int(0)));
  versions_->Reset();
  for (int version : versions) {
    std::string record_text;
    if (!Decode(oid, version, 1, &record_text, nullptr)) continue;
    const nlohmann::json record = nlohmann::json::parse(record_text, nullptr, /*allow_exceptions=*/false);
    if (!record.is_array()) continue;
    for (const nlohmann::json& s : record) {
      if (!s.is_array() || s.size() != 4 || !s[0].is_number_integer() || !s[1].is_number_integer() ||
          !s[2].is_number_integer() || !s[3].is_string()) {
        continue;
      }
      if (s[0].get<int64_t>() == line && s[1].get<int64_t>() == col) {
        *start_line = s[2].get<int>();
        *text = s[3].get<std::string>();
        return true;
      }
    }
  }
  return false;
}

void BlobCache::Put(const EncodedBlob& blob, int version) {
  if (!put_) {
    put_ = std::make_unique<Statement>(db_,
                                       "INSERT OR IGNORE INTO blob_cache(oid, extractor_version, status, reason, base, "
                                       "depth, facts, snippets) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
  }
  put_->Bind(1, blob.oid).Bind(2, int64_t{version}).Bind(3, blob.status).Bind(4, blob.reason).Bind(5, blob.base);
  put_->Bind(6, int64_t{blob.depth}).BindBlob(7, blob.facts).BindBlob(8, blob.snippets);
  put_->Run();
}

namespace {

// blobs.facts of schema 7: the JSON text, or (from the round that first compressed it) one zstd frame of it
// with no prefix. A frame starts with zstd's magic number 28 B5 2F FD, JSON text with '{'.
bool DecodeSchema7Facts(const std::string& stored, std::string* json) {
  const bool frame = stored.size() >= 4 && static_cast<unsigned char>(stored[0]) == 0x28 &&
                     static_cast<unsigned char>(stored[1]) == 0xB5 && static_cast<unsigned char>(stored[2]) == 0x2F &&
                     static_cast<unsigned char>(stored[3]) == 0xFD;
  if (!frame) {
    *json = stored;
    return true;
  }
  return ZstdDecompress(stored, "", kMaxPayload, json);
}

}  // namespace

void ConvertBlobCacheToV8(SqliteDb& db) {
  BlobCache cache(db);
  Statement blobs(db, "SELECT oid, extractor_version, status, reason, facts FROM blobs");
  Statement snippets(db, "SELECT line, col, start_line, text FROM snippets WHERE oid = ?1 ORDER BY line, col");
  while (blobs.Step()) {
    const std::string oid = blobs.Text(0);
    // Schema 7 stored the JSON text, or (from the round that compressed it) one zstd frame of it.
    std::string json;
    if (!DecodeSchema7Facts(blobs.Blob(4), &json)) continue;  // damaged: the file is extracted again
    std::vector<Site> sites;
    snippets.Bind(1, oid);
    while (snippets.Step()) {
      Site s;
      s.line = static_cast<int>(snippets.Int(0));
      s.col = static_cast<int>(snippets.Int(1));
      s.snippet_start = static_cast<int>(snippets.Int(2));
      s.snippet = snippets.Text(3);
      sites.push_back(std::move(s));
    }
    snippets.Reset();
    cache.Put(EncodeBlob(oid, blobs.Text(2), blobs.Text(3), json, SnippetRecord(sites), nullptr),
              static_cast<int>(blobs.Int(1)));
  }
}

}  // namespace errdex
