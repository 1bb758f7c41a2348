#include "match/pasted_line_cleanup.h"

#include "match/pasted_error.h"
#include "match/pasted_text.h"
#include "python/flattened_traceback.h"
#include "python/repr_escapes.h"
#include "python/traceback_vocabulary.h"

namespace errdex::match_internal {

using python_paste::DecodeEscapeAt;
using python_paste::PythonTracebackVocabulary;

namespace {

size_t EscLessSgrLength(string_view s, size_t i) {  // s[i] == '['
  size_t j = i + 1;
  int groups = 0;
  while (true) {
    size_t d = j;
    while (j < s.size() && j - d < 3 && IsDigit(s[j])) ++j;
    if (j == d) return 0;
    ++groups;
    if (j < s.size() && s[j] == ';' && groups < 5) {
      ++j;
      continue;
    }
    break;
  }
  if (j >= s.size() || s[j] != 'm') return 0;
  if (j + 1 < s.size() && s[j + 1] == ']') return 0;  // "[5m]" is text
  return j + 1 - i;
}

// LINE holds `Traceback (most recent call last):\n ...` with literal escapes, inside a JSON string or a
// repr (or bare): decodes that string and expands its lines.
void ExpandEscaped(string_view line, size_t tb, int depth, std::vector<std::string>* out) {
  char q = 0;
  size_t open = npos;
  for (size_t i = 0; i < tb; ++i) {
    char c = line[i];
    if (q != 0) {
      if (c == '\\') {
        ++i;
      } else if (c == q) {
        q = 0;
      }
      continue;
    }
    if (c == '"' || (c == '\'' && (i == 0 || !IsIdentChar(line[i - 1])))) {
      q = c;
      open = i;
    }
  }
  size_t start = q != 0 ? open + 1 : tb;
  std::string decoded;
  for (size_t i = start; i < line.size();) {
    char c = line[i];
    if (c == '\\') {
      i = DecodeEscapeAt(line, i, &decoded);
      continue;
    }
    if (q != 0 && c == q) break;  // the end of the string: the rest is other fields of the record
    decoded.push_back(c);
    ++i;
  }
  string_view head = Trim(line.substr(0, q != 0 ? open : tb));
  if (!head.empty()) out->emplace_back(head);
  string_view d = decoded;
  size_t s = 0;
  while (true) {
    size_t nl = d.find('\n', s);
    string_view piece = d.substr(s, nl == npos ? npos : nl - s);
    if (!piece.empty() && piece.back() == '\r') piece.remove_suffix(1);
    ExpandLine(piece, depth + 1, out);
    if (nl == npos) break;
    s = nl + 1;
  }
}

}  // namespace

void StripAnsi(string_view s, std::string* out) {
  out->clear();
  out->reserve(s.size());
  size_t i = 0;
  const size_t n = s.size();
  while (i < n) {
    char c = s[i];
    if (c == '\x1b') {
      if (i + 1 >= n) break;
      char k = s[i + 1];
      size_t j = i + 2;
      if (k == '[') {
        while (j < n && s[j] >= 0x30 && s[j] <= 0x3F) ++j;
        while (j < n && s[j] >= 0x20 && s[j] <= 0x2F) ++j;
        if (j < n && s[j] >= 0x40 && s[j] <= 0x7E) ++j;
      } else if (k == ']' || k == 'P' || k == '_' || k == '^' || k == 'X') {
        while (j < n) {
          if (s[j] == '\x07') {
            ++j;
            break;
          }
          if (s[j] == '\x1b' && j + 1 < n && s[j + 1] == '\\') {
            j += 2;
            break;
          }
          ++j;
        }
      } else if (k >= 0x20 && k <= 0x2F) {
        while (j < n && s[j] >= 0x20 && s[j] <= 0x2F) ++j;
        if (j < n) ++j;
      }
      i = j;
      continue;
    }
    if (c == '[') {
      if (size_t len = EscLessSgrLength(s, i)) {
        i += len;
        continue;
      }
    }
    out->push_back(c);
    ++i;
  }
}

void ExpandLine(string_view line, int depth, std::vector<std::string>* out) {
  if (depth < 2) {
    const std::string& header = PythonTracebackVocabulary().header_line;
    for (size_t tb = line.find(header); tb != npos; tb = line.find(header, tb + 1)) {
      size_t after = tb + header.size();
      if (after + 1 < line.size() && line[after] == '\\' && (line[after + 1] == 'n' || line[after + 1] == 'r')) {
        ExpandEscaped(line, tb, depth, out);
        return;
      }
    }
  }
  if (python_paste::SplitFlattenedTraceback(line, out)) return;
  out->emplace_back(line);
}

}  // namespace errdex::match_internal
