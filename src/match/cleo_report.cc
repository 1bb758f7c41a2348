#include "match/cleo_report.h"

#include <string>
#include <vector>

#include "match/log_prefix.h"
#include "match/pasted_line_cleanup.h"
#include "match/pasted_text.h"

namespace errdex::match_internal {
namespace {

constexpr size_t kMaxMessageLines = 200;  // between the class line and its `at` line

// `EnvCommandError`, `poetry.core.version.exceptions.InvalidVersion`: a dotted name ending in a class.
bool IsClassLine(string_view s) {
  if (s.empty() || s.size() > 256 || !IsIdentStart(s[0])) return false;
  size_t last = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '.') {
      if (i + 1 >= s.size() || !IsIdentStart(s[i + 1])) return false;
      last = i + 1;
    } else if (!IsIdentChar(s[i])) {
      return false;
    }
  }
  return IsUpper(s[last]);
}

// `at PATH:LINE in FUNCTION` into FRAME.
bool ParseAtLine(string_view s, TracebackFrame* frame) {
  if (s.substr(0, 3) != "at ") return false;
  size_t in = s.rfind(" in ");
  if (in == npos || in < 4) return false;
  string_view location = s.substr(3, in - 3);
  size_t colon = location.rfind(':');
  if (colon == npos || colon + 1 >= location.size()) return false;
  int line = 0;
  for (char c : location.substr(colon + 1)) {
    if (!IsDigit(c) || line > 100000000) return false;
    line = line * 10 + (c - '0');
  }
  frame->path = std::string(CutUtf8(location.substr(0, colon), kPastedMaxFieldBytes));
  frame->line = line;
  frame->function = std::string(CutUtf8(Trim(s.substr(in + 4)), kPastedMaxFieldBytes));
  return !frame->function.empty();
}

// `→ 1195│ raise X(...)`: the code of the arrowed source line; "" for another line.
string_view ArrowedCode(string_view s) {
  constexpr string_view kArrow = "\xe2\x86\x92";  // →
  constexpr string_view kBar = "\xe2\x94\x82";    // │
  if (s.substr(0, kArrow.size()) != kArrow) return {};
  size_t bar = s.find(kBar);
  return bar == npos ? string_view{} : Trim(s.substr(bar + kBar.size()));
}

}  // namespace

std::optional<PastedException> ParseCleoReport(std::string_view text) {
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
  std::optional<PastedException> found;
  for (size_t i = 0; i < lines.size(); ++i) {
    string_view head = Trim(lines[i]);
    if (!IsClassLine(head) || (i + 1 < lines.size() && !Trim(lines[i + 1]).empty())) continue;
    PastedException exc;
    exc.type = std::string(head);
    TracebackFrame frame;
    size_t j = i + 1;
    std::vector<string_view> message;
    for (; j < lines.size() && j - i <= kMaxMessageLines; ++j) {
      string_view t = Trim(lines[j]);
      if (ParseAtLine(t, &frame)) break;
      if (IsClassLine(t) && j + 1 < lines.size() && Trim(lines[j + 1]).empty()) break;  // the next report
      message.push_back(t);
    }
    if (frame.function.empty()) continue;  // no `at` line: not a Cleo report
    while (!message.empty() && message.front().empty()) message.erase(message.begin());
    while (!message.empty() && message.back().empty()) message.pop_back();
    for (string_view m : message) {
      if (exc.message.size() >= kPastedMaxMessageBytes) break;
      if (!exc.message.empty()) exc.message += '\n';
      exc.message += CutUtf8(m, kPastedMaxMessageBytes - exc.message.size());
    }
    exc.message_line = static_cast<int>(i + 2);
    for (size_t k = j + 1; k < lines.size() && k <= j + 12; ++k) {
      string_view code = ArrowedCode(Trim(lines[k]));
      if (!code.empty()) {
        frame.code = std::string(CutUtf8(code, kPastedMaxFieldBytes));
        break;
      }
    }
    exc.frames.push_back(std::move(frame));
    found = std::move(exc);
    i = j;
  }
  return found;
}

}  // namespace errdex::match_internal
