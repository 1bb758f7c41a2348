// The lines of one Python source text: where each starts, a site's location and snippet (docs/extraction.md,
// "Snippets"), and one line's code as the program facts store it.
//
// Lifetime: borrows the source text, which must outlive it. Not thread-safe (one per Extract() call).
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "extract/file_facts.h"

namespace errdex {

class SourceLines {
 public:
  explicit SourceLines(std::string_view source);

  // Sets SITE's line, column, end line and snippet: the lines of NODE with CONTEXT lines before and after.
  void FillLocation(TSNode node, int context, Site* site) const;
  // Line ROW (0-based) without leading and trailing blanks, cut to MAX_BYTES (CutUtf8); "" past the end.
  std::string Line(uint32_t row, size_t max_bytes) const;

 private:
  std::string_view source_;
  std::vector<uint32_t> line_starts_;  // byte offset of each line
};

}  // namespace errdex
