#include "python/cleo_report.h"

#include <string_view>

#include "util/paste_limits.h"
#include "util/text_scan.h"

namespace errdex::python_paste {

using std::string_view;
using text_scan::CutUtf8;
using text_scan::IsDigit;
using text_scan::IsIdentChar;
using text_scan::IsIdentStart;
using text_scan::IsUpper;
using text_scan::npos;
using text_scan::Trim;

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
bool ParseAtLine(string_view s, CleoReport* frame) {
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

std::optional<CleoReport> ParseCleoReport(const std::vector<std::string>& lines) {
  std::optional<CleoReport> found;
  for (size_t i = 0; i < lines.size(); ++i) {
    string_view head = Trim(lines[i]);
    if (!IsClassLine(head) || (i + 1 < lines.size() && !Trim(lines[i + 1]).empty())) continue;
    CleoReport exc;
    exc.type = std::string(head);
    CleoReport& frame = exc;
    size_t j = i + 1;
    std::vector<string_view> message;
    for (; j < lines.size() && j - i <= kMaxMessageLines; ++j) {
      string_view t = Trim(lines[j]);
      if (ParseAtLine(t, &frame)) break;
      if (IsClassLine(t) && j + 1 < lines.size() && Trim(lines[j + 1]).empty()) break;  // the next report
      message.push_back(t);
    }
    if (exc.function.empty()) continue;  // no `at` line: not a Cleo report
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
    found = std::move(exc);
    i = j;
  }
  return found;
}

}  // namespace errdex::python_paste
