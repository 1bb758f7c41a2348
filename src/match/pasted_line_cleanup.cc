#include "match/pasted_line_cleanup.h"

#include <algorithm>

#include "match/pasted_error.h"
#include "match/pasted_text.h"
#include "python/printed_exception.h"
#include "python/repr_escapes.h"
#include "python/traceback_vocabulary.h"

namespace errdex::match_internal {

using python_paste::DecodeEscapeAt;
using python_paste::PrecededByKeyword;
using python_paste::PythonTracebackVocabulary;
using python_paste::RankTypeName;
using python_paste::TypeRank;

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

// Where, in the code shown after a frame of a flattened traceback, the exception line starts: a strong
// type name followed by ": " outside brackets and quotes (or a lone type name at the very start).
size_t FindTopLevelException(string_view s) {
  const size_t n = s.size();
  int depth = 0;
  char q = 0;
  for (size_t i = 0; i < n;) {
    char c = s[i];
    if (q != 0) {
      if (c == '\\') {
        i += 2;
        continue;
      }
      if (c == q) q = 0;
      ++i;
      continue;
    }
    if (c == '"' || c == '\'') {
      q = c;
      ++i;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
      ++i;
      continue;
    }
    if (c == ')' || c == ']' || c == '}') {
      if (depth > 0) --depth;
      ++i;
      continue;
    }
    if (IsIdentStart(c)) {
      size_t j = ScanDottedName(s, i);
      if (depth == 0 && (i == 0 || IsSpace(s[i - 1])) && RankTypeName(s.substr(i, j - i)) == TypeRank::kStrong &&
          !PrecededByKeyword(s, i)) {
        if (j + 1 < n && s[j] == ':' && s[j + 1] == ' ') return i;
        if (i == 0 && (j == n || (j + 1 == n && s[j] == ':'))) return i;
      }
      i = j;
      continue;
    }
    ++i;
  }
  return npos;
}

// Drops the `^^^^`/`~~~^^` marker tokens of Python 3.11+ from a flattened code line.
std::string RemoveCaretTokens(string_view s) {
  std::string out;
  size_t i = 0;
  while (i < s.size()) {
    size_t ws = i;
    while (i < s.size() && IsSpace(s[i])) ++i;
    size_t ts = i;
    while (i < s.size() && !IsSpace(s[i])) ++i;
    if (ts == i) break;
    string_view tok = s.substr(ts, i - ts);
    if (tok.find_first_not_of("^~") == npos) continue;
    if (!out.empty()) out.append(s.substr(ws, ts - ws));
    out.append(tok);
  }
  return out;
}

// A traceback whose newlines were lost (`Traceback (most recent call last):   File "a.py", line 1, in f
// g()   File ...`): splits it back into header, frame, code and exception lines.
bool ExpandFlattened(string_view line, std::vector<std::string>* out) {
  struct Marker {
    size_t pos, end;
    int kind;  // 0 header, 1 a chain separator, 3 frame (end: the `", line ` position)
  };
  std::vector<Marker> marks;
  auto add_all = [&](string_view phrase, int kind) {
    for (size_t p = line.find(phrase); p != npos; p = line.find(phrase, p + phrase.size())) {
      marks.push_back({p, p + phrase.size(), kind});
    }
  };
  std::vector<size_t> line_marks;
  for (size_t p = line.find("\", line "); p != npos; p = line.find("\", line ", p + 1)) line_marks.push_back(p);
  if (line_marks.empty()) return false;
  size_t li = 0;
  size_t files = 0;
  size_t first_file = npos;
  for (size_t p = line.find("File \""); p != npos; p = line.find("File \"", p + 6)) {
    if (p > 0 && !IsSpace(line[p - 1])) continue;
    while (li < line_marks.size() && line_marks[li] < p + 6) ++li;
    if (li == line_marks.size()) break;
    size_t q = line_marks[li];
    if (q - (p + 6) > kPastedMaxFieldBytes || q + 8 >= line.size() || !IsDigit(line[q + 8])) continue;
    marks.push_back({p, q, 3});
    if (files++ == 0) first_file = p;
  }
  if (files == 0) return false;
  const std::string& header = PythonTracebackVocabulary().header_line;
  size_t tb = line.find(header);
  if (files < 2 && !(tb != npos && tb < first_file)) return false;
  add_all(header, 0);
  for (string_view chain : PythonTracebackVocabulary().chain_lines) add_all(chain, 1);
  std::sort(marks.begin(), marks.end(), [](const Marker& a, const Marker& b) { return a.pos < b.pos; });

  string_view pre = Trim(line.substr(0, marks[0].pos));
  if (!pre.empty()) out->emplace_back(pre);
  for (size_t k = 0; k < marks.size(); ++k) {
    const Marker& m = marks[k];
    size_t seg_end = k + 1 < marks.size() ? marks[k + 1].pos : line.size();
    if (m.end > seg_end) {  // overlapping markers (a phrase inside a path): keep the text as it is
      out->emplace_back(Trim(line.substr(m.pos, seg_end - m.pos)));
      continue;
    }
    if (m.kind != 3) {
      out->emplace_back(line.substr(m.pos, m.end - m.pos));
      string_view tail = Trim(line.substr(m.end, seg_end - m.end));
      if (!tail.empty()) out->emplace_back(tail);
      continue;
    }
    size_t e = m.end + 8;
    while (e < seg_end && IsDigit(line[e])) ++e;
    size_t r = e;
    if (line.substr(r, 5) == ", in ") {
      size_t g = r + 5;
      if (g < seg_end && line[g] == '<') {  // `<module>`, `<lambda>`: look at most 256 bytes ahead
        size_t close = line.substr(0, std::min(seg_end, g + 256)).find('>', g);
        g = close != npos ? close + 1 : g;
      } else {
        while (g < seg_end && (IsIdentChar(line[g]) || line[g] == '.')) ++g;
      }
      r = g;
    }
    out->push_back("  " + std::string(line.substr(m.pos, r - m.pos)));
    string_view rest = Trim(line.substr(r, seg_end - r));
    string_view exc;
    if (k + 1 == marks.size() || marks[k + 1].kind != 3) {
      size_t x = FindTopLevelException(rest);
      if (x != npos) {
        exc = Trim(rest.substr(x));
        rest = TrimRight(rest.substr(0, x));
      }
    }
    std::string code = RemoveCaretTokens(rest);
    if (!code.empty()) out->push_back("    " + code);
    if (!exc.empty()) out->emplace_back(exc);
  }
  return true;
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
  if (ExpandFlattened(line, out)) return;
  out->emplace_back(line);
}

}  // namespace errdex::match_internal
