// Tests of the response cache of `errdex serve` (src/web/response_cache.h).
#include "web/response_cache.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <thread>

namespace errdex::web {
namespace {

std::shared_ptr<const WebResponse> Body(const std::string& body) {
  return std::make_shared<const WebResponse>(WebResponse{200, "text/html; charset=utf-8", body});
}

TEST(ResponseCacheTest, FindsWhatWasStoredInTheSameEpoch) {
  ResponseCache cache(1 << 20);
  const uint64_t epoch = cache.epoch();
  EXPECT_EQ(cache.Find("/a", epoch), nullptr);
  cache.Store("/a", epoch, Body("page a"));
  ASSERT_NE(cache.Find("/a", epoch), nullptr);
  EXPECT_EQ(cache.Find("/a", epoch)->body, "page a");
  EXPECT_EQ(cache.Find("/b", epoch), nullptr);
  EXPECT_EQ(cache.entries(), 1u);
}

TEST(ResponseCacheTest, InvalidateDropsEverythingAndRefusesLateStores) {
  ResponseCache cache(1 << 20);
  const uint64_t old_epoch = cache.epoch();
  cache.Store("/a", old_epoch, Body("old"));
  cache.Invalidate();
  EXPECT_NE(cache.epoch(), old_epoch);
  EXPECT_EQ(cache.Find("/a", cache.epoch()), nullptr);
  EXPECT_EQ(cache.entries(), 0u);
  // A response rendered before the change (its request started in the old epoch) is not kept.
  cache.Store("/a", old_epoch, Body("rendered from the old catalog"));
  EXPECT_EQ(cache.Find("/a", cache.epoch()), nullptr);
  cache.Store("/a", cache.epoch(), Body("new"));
  EXPECT_EQ(cache.Find("/a", cache.epoch())->body, "new");
  EXPECT_EQ(cache.Find("/a", old_epoch), nullptr);  // asked with a stale epoch: dropped
}

TEST(ResponseCacheTest, StaysWithinItsBoundLeastRecentlyUsedFirst) {
  ResponseCache cache(16 * 4096);  // 4 KiB a shard
  const uint64_t epoch = cache.epoch();
  const std::string body(500, 'x');
  for (int i = 0; i < 1000; ++i) cache.Store(fmt::format("/p{}", i), epoch, Body(body));
  EXPECT_LE(cache.bytes(), 16u * 4096u);
  EXPECT_GT(cache.entries(), 16u);
  EXPECT_NE(cache.Find("/p999", epoch), nullptr);
  EXPECT_EQ(cache.Find("/p0", epoch), nullptr);
  // Too big for a shard: not kept.
  cache.Store("/big", epoch, Body(std::string(8192, 'y')));
  EXPECT_EQ(cache.Find("/big", epoch), nullptr);
}

TEST(ResponseCacheTest, ZeroBytesDisablesIt) {
  ResponseCache cache(0);
  cache.Store("/a", cache.epoch(), Body("a"));
  EXPECT_EQ(cache.Find("/a", cache.epoch()), nullptr);
}

TEST(ResponseCacheTest, ManyThreads) {
  ResponseCache cache(1 << 16);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&cache, t] {
      for (int i = 0; i < 2000; ++i) {
        const std::string key = fmt::format("/k{}", (i * 7 + t) % 300);
        const uint64_t epoch = cache.epoch();
        if (auto hit = cache.Find(key, epoch)) {
          EXPECT_EQ(hit->body, key);
        } else {
          cache.Store(key, epoch, Body(key));
        }
        if (i % 500 == 499 && t == 0) cache.Invalidate();
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_LE(cache.bytes(), size_t{1} << 16);
}

}  // namespace
}  // namespace errdex::web
