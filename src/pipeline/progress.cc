#include "pipeline/progress.h"

#include <unistd.h>

#include <cstdio>

namespace errdex {

bool StderrIsTerminal() { return isatty(2) == 1; }

ProgressBar::ProgressBar(std::string label, uint64_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled) {}

ProgressBar::~ProgressBar() { Finish(); }

void ProgressBar::Advance(uint64_t done, uint64_t bytes) {
  done_ += done;
  bytes_ += bytes;
  if (enabled_) Draw(false);
}

void ProgressBar::Draw(bool force) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return;
  auto now = std::chrono::steady_clock::now();
  if (!force && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  const uint64_t done = done_.load();
  constexpr int kWidth = 30;
  int filled = total_ ? static_cast<int>(kWidth * done / total_) : kWidth;
  std::string bar(static_cast<size_t>(filled), '=');
  bar.resize(kWidth, ' ');
  std::fprintf(stderr, "\r%s [%s] %llu/%llu files, %.1f MB", label_.c_str(), bar.c_str(),
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_),
               static_cast<double>(bytes_.load()) / 1e6);
  std::fflush(stderr);
}

void ProgressBar::Finish() {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return;
  finished_ = true;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace errdex
