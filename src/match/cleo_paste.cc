#include "match/cleo_paste.h"

#include <string>
#include <utility>
#include <vector>

#include "match/log_prefix.h"
#include "match/pasted_line_cleanup.h"
#include "match/pasted_text.h"
#include "python/cleo_report.h"

namespace errdex::match_internal {

std::optional<PastedException> ParseCleoPaste(std::string_view text) {
  std::vector<std::string> lines;
  for (size_t start = 0; start <= text.size();) {
    size_t nl = text.find('\n', start);
    string_view raw = CutUtf8(text.substr(start, nl == npos ? npos : nl - start), kPastedMaxLineBytes);
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    std::string clean;
    StripAnsi(raw, &clean);
    lines.push_back(std::string(StripPrefixes(clean).content));
    if (nl == npos) break;
    start = nl + 1;
  }
  std::optional<python_paste::CleoReport> report = python_paste::ParseCleoReport(lines);
  if (!report) return std::nullopt;
  PastedException exc;
  exc.type = std::move(report->type);
  exc.message = std::move(report->message);
  exc.message_line = report->message_line;
  exc.frames.push_back(
      TracebackFrame{std::move(report->path), report->line, std::move(report->function), std::move(report->code)});
  return exc;
}

}  // namespace errdex::match_internal
