#include "python/source_lines.h"

#include <algorithm>

#include "util/utf8.h"

namespace errdex {

SourceLines::SourceLines(std::string_view source) : source_(source) {
  line_starts_.push_back(0);
  for (uint32_t i = 0; i < source_.size(); ++i) {
    if (source_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

void SourceLines::FillLocation(TSNode node, int context, Site* site) const {
  TSPoint start = ts_node_start_point(node);
  TSPoint end = ts_node_end_point(node);
  site->line = static_cast<int>(start.row) + 1;
  site->col = static_cast<int>(start.column);
  site->end_line = static_cast<int>(end.row) + 1;
  const int lines = static_cast<int>(line_starts_.size());
  const int first = std::max(1, site->line - context);
  const int last = std::min(lines, site->end_line + context);
  site->snippet_start = first;
  uint32_t from = line_starts_[static_cast<size_t>(first - 1)];
  uint32_t to = last < lines ? line_starts_[static_cast<size_t>(last)] : static_cast<uint32_t>(source_.size());
  site->snippet = std::string(source_.substr(from, to - from));
  while (!site->snippet.empty() && (site->snippet.back() == '\n' || site->snippet.back() == '\r')) {
    site->snippet.pop_back();
  }
}

std::string SourceLines::Line(uint32_t row, size_t max_bytes) const {
  if (row >= line_starts_.size()) return "";
  const uint32_t from = line_starts_[row];
  const uint32_t to = row + 1 < line_starts_.size() ? line_starts_[row + 1] : static_cast<uint32_t>(source_.size());
  std::string_view line = source_.substr(from, to - from);
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'; };
  while (!line.empty() && blank(line.front())) line.remove_prefix(1);
  while (!line.empty() && blank(line.back())) line.remove_suffix(1);
  return CutUtf8(line, max_bytes);
}

}  // namespace errdex
