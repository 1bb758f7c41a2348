// A fixed set of worker threads with a bounded queue of jobs, for `errdex serve`: the front end
// (web/http_front_end.h) hands complete requests here, and when the queue is full it answers 503 at once
// instead of queueing without bound.
//
// Threading: TryPost may be called from any thread. The destructor (or Stop) finishes the jobs already
// queued, then joins the threads; it must not be called from a worker.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace errdex::web {

class WorkerPool {
 public:
  // THREADS >= 1 workers; at most MAX_QUEUED jobs wait for one.
  WorkerPool(size_t threads, size_t max_queued);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Queues JOB; false (JOB dropped, not run) when MAX_QUEUED jobs are waiting or the pool is stopping.
  bool TryPost(std::function<void()> job);
  // Jobs waiting for a worker now.
  size_t queued() const;
  // Runs the queued jobs to the end, then joins the workers. Idempotent.
  void Stop();

 private:
  void Work();

  const size_t max_queued_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace errdex::web
