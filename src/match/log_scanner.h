// `errdex scan`: attributes the error lines of a log of any size to the catalog's errors. The log is read
// in blocks of whole lines; Hyperscan finds the anchors of all errors in a block at once, and only the
// lines holding an anchor are aligned with the templates behind it. A line is reported when a template
// aligns completely with it and the line reads as an error (an exception type before the message, an
// error level, or the end of a traceback), with the best such error if several align.
//
// Memory is bounded: one block (kScanBlockBytes) plus one line of at most kScanMaxLineBytes (longer lines
// are cut), plus the templates of the catalog, prepared once each when first needed.
//
// Threading: a LogScanner belongs to one thread. Ownership: borrows the catalog and the matcher (loaded
// with its anchor table), which must outlive it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "match/error_matcher.h"

namespace errdex {

inline constexpr size_t kScanBlockBytes = size_t{4} << 20;
inline constexpr size_t kScanMaxLineBytes = size_t{1} << 20;

struct ScanFinding {
  int64_t line = 0;  // 1-based line of the log holding the error text
  std::string error_id;
  double score = 0;  // 0..1
};

class LogScanner {
 public:
  LogScanner(Catalog& catalog, const ErrorMatcher& matcher, std::function<void(const ScanFinding&)> on_finding);
  ~LogScanner();

  // Any piece of the log; lines may span calls.
  void Feed(std::string_view chunk);
  // End of the log: the last line, even without a newline.
  void Finish();

  int64_t lines() const { return lines_done_; }

 private:
  void ProcessBlock(std::string_view block);  // whole lines, each ending with '\n'
  void ProcessLine(std::string_view line, int64_t number, const std::vector<uint32_t>& patterns);

  struct Templates;
  const ErrorMatcher& matcher_;
  std::function<void(const ScanFinding&)> on_finding_;
  std::unique_ptr<LiteralMatcher::Scratch> scratch_;
  std::unique_ptr<Templates> templates_;
  std::string pending_;         // bytes of lines not yet processed
  bool skipping_rest_ = false;  // inside a line longer than kScanMaxLineBytes: drop until its newline
  int64_t lines_done_ = 0;
};

}  // namespace errdex
