#include "web/response_cache.h"

#include <functional>

namespace errdex::web {

ResponseCache::ResponseCache(size_t max_bytes) : max_shard_bytes_(max_bytes / kShards), shards_(kShards) {}

ResponseCache::Shard& ResponseCache::ShardOf(const std::string& key) {
  return shards_[std::hash<std::string>()(key) % kShards];
}

void ResponseCache::Drop(Shard& shard, std::list<Entry>::iterator it) {
  shard.bytes -= it->size;
  shard.index.erase(it->key);
  shard.lru.erase(it);
}

void ResponseCache::Invalidate() {
  epoch_.fetch_add(1, std::memory_order_acq_rel);
  for (Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mutex);
    shard.lru.clear();
    shard.index.clear();
    shard.bytes = 0;
  }
}

std::shared_ptr<const WebResponse> ResponseCache::Find(const std::string& key, uint64_t epoch) {
  if (max_shard_bytes_ == 0) return nullptr;
  Shard& shard = ShardOf(key);
  std::lock_guard<std::mutex> lock(shard.mutex);
  auto it = shard.index.find(key);
  if (it == shard.index.end()) return nullptr;
  if (it->second->epoch != epoch) {
    Drop(shard, it->second);
    return nullptr;
  }
  shard.lru.splice(shard.lru.begin(), shard.lru, it->second);
  return it->second->response;
}

void ResponseCache::Store(const std::string& key, uint64_t epoch, std::shared_ptr<const WebResponse> response) {
  const size_t size = key.size() + response->body.size() + response->content_type.size() + 128;
  if (max_shard_bytes_ == 0 || size > max_shard_bytes_ / 4 || epoch != this->epoch()) return;
  Shard& shard = ShardOf(key);
  std::lock_guard<std::mutex> lock(shard.mutex);
  if (auto it = shard.index.find(key); it != shard.index.end()) Drop(shard, it->second);
  shard.lru.push_front(Entry{key, epoch, std::move(response), size});
  shard.index.emplace(key, shard.lru.begin());
  shard.bytes += size;
  while (shard.bytes > max_shard_bytes_ && !shard.lru.empty()) Drop(shard, std::prev(shard.lru.end()));
}

size_t ResponseCache::bytes() const {
  size_t total = 0;
  for (const Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mutex);
    total += shard.bytes;
  }
  return total;
}

size_t ResponseCache::entries() const {
  size_t total = 0;
  for (const Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mutex);
    total += shard.lru.size();
  }
  return total;
}

}  // namespace errdex::web
