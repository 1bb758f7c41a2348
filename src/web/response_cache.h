// A bounded cache of rendered GET responses for `errdex serve` (docs/web.md). A page is a function of the
// catalog, so a response stays valid until the catalog changes: each entry carries the cache's epoch
// when its request started, and the server bumps the epoch when it sees the catalog change (an index run
// committed). Least recently used entries go first when the total size passes the bound.
//
// Threading: every method may be called from any thread (sharded, one mutex per shard).
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "web/router.h"

namespace errdex::web {

class ResponseCache {
 public:
  // MAX_BYTES: bound of the bodies and keys held; 0 disables the cache.
  explicit ResponseCache(size_t max_bytes);

  uint64_t epoch() const { return epoch_.load(std::memory_order_acquire); }
  // Everything cached so far is stale.
  void Invalidate();

  // The response stored for KEY in EPOCH, or null.
  std::shared_ptr<const WebResponse> Find(const std::string& key, uint64_t epoch);
  // Stores RESPONSE for KEY, rendered in EPOCH (ignored when EPOCH is no longer current or it is too big).
  void Store(const std::string& key, uint64_t epoch, std::shared_ptr<const WebResponse> response);

  size_t bytes() const;
  size_t entries() const;

 private:
  struct Entry {
    std::string key;
    uint64_t epoch;
    std::shared_ptr<const WebResponse> response;
    size_t size;
  };
  struct Shard {
    mutable std::mutex mutex;
    std::list<Entry> lru;  // most recent first
    std::unordered_map<std::string, std::list<Entry>::iterator> index;
    size_t bytes = 0;
  };
  static constexpr size_t kShards = 16;
  Shard& ShardOf(const std::string& key);
  static void Drop(Shard& shard, std::list<Entry>::iterator it);

  size_t max_shard_bytes_;
  std::atomic<uint64_t> epoch_{1};
  std::vector<Shard> shards_;
};

}  // namespace errdex::web
