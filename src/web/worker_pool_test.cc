// Tests of the bounded worker pool of `errdex serve` (src/web/worker_pool.h).
#include "web/worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace errdex::web {
namespace {

TEST(WorkerPoolTest, RunsEveryAcceptedJobAndRefusesBeyondTheQueue) {
  std::mutex m;
  std::condition_variable cv;
  bool release = false;
  std::atomic<int> started{0}, done{0};
  WorkerPool pool(2, 3);
  auto blocking = [&] {
    ++started;
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock, [&] { return release; });
    ++done;
  };
  ASSERT_TRUE(pool.TryPost(blocking));
  ASSERT_TRUE(pool.TryPost(blocking));
  while (started < 2) std::this_thread::yield();  // both workers busy, the queue empty
  EXPECT_TRUE(pool.TryPost([&] { ++done; }));
  EXPECT_TRUE(pool.TryPost([&] { ++done; }));
  EXPECT_TRUE(pool.TryPost([&] { ++done; }));
  EXPECT_FALSE(pool.TryPost([&] { ++done; }));  // three wait already
  {
    std::lock_guard<std::mutex> lock(m);
    release = true;
  }
  cv.notify_all();
  pool.Stop();  // finishes what was queued
  EXPECT_EQ(done, 5);
  EXPECT_FALSE(pool.TryPost([&] { ++done; }));
}

}  // namespace
}  // namespace errdex::web
