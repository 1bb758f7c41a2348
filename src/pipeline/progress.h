// A one-line progress bar on standard error, drawn only when it is a terminal.
//
// Threading: Update() may be called from any thread; drawing is rate-limited and serialized.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace errdex {

class ProgressBar {
 public:
  ProgressBar(std::string label, uint64_t total, bool enabled);
  ~ProgressBar();

  // Adds DONE items and BYTES bytes; redraws at most ten times a second.
  void Advance(uint64_t done, uint64_t bytes);
  // Clears the line.
  void Finish();

 private:
  void Draw(bool force);

  std::string label_;
  uint64_t total_;
  bool enabled_;
  std::atomic<uint64_t> done_{0};
  std::atomic<uint64_t> bytes_{0};
  std::mutex mutex_;
  std::chrono::steady_clock::time_point last_draw_{};
  bool finished_ = false;
};

// True when file descriptor 2 is a terminal.
bool StderrIsTerminal();

}  // namespace errdex
