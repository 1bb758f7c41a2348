#include "python/flattened_traceback.h"

#include <algorithm>

#include "python/printed_exception.h"
#include "python/traceback_vocabulary.h"
#include "util/paste_limits.h"
#include "util/text_scan.h"

namespace errdex::python_paste {

using std::string_view;
using text_scan::IsDigit;
using text_scan::IsIdentChar;
using text_scan::IsIdentStart;
using text_scan::IsSpace;
using text_scan::npos;
using text_scan::ScanDottedName;
using text_scan::Trim;
using text_scan::TrimRight;

namespace {

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

}  // namespace

bool SplitFlattenedTraceback(string_view line, std::vector<std::string>* out) {
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

}  // namespace errdex::python_paste
