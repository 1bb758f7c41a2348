#include "python/traceback_line.h"

#include <vector>

#include "python/printed_exception.h"
#include "python/traceback_vocabulary.h"
#include "util/paste_limits.h"
#include "util/text_scan.h"

namespace errdex::python_paste {

using std::string_view;
using text_scan::IndentOf;
using text_scan::IsDigit;
using text_scan::npos;
using text_scan::ScanDottedName;
using text_scan::Trim;
using text_scan::TrimLeft;
using text_scan::TrimRight;

namespace {

// "12" -> 12; at most nine digits are read.
int ParseLineNumber(string_view digits) {
  long v = 0;
  for (char c : digits.substr(0, 9)) v = v * 10 + (c - '0');
  return static_cast<int>(v);
}

// IPython's `f(a, b)` -> `f`.
string_view StripCallArgs(string_view f) {
  f = Trim(f);
  if (!f.empty() && f.back() == ')') {
    size_t open = f.find('(');
    if (open != npos && open > 0) return TrimRight(f.substr(0, open));
  }
  return f;
}

bool IsFunctionToken(string_view f) {
  f = StripCallArgs(f);
  if (f.empty()) return false;
  if (f.front() == '<') return f.back() == '>' && f.find(' ') == npos;
  return ScanDottedName(f, 0) == f.size();
}

bool StartsWithAny(string_view t, const std::vector<string_view>& prefixes) {
  for (string_view p : prefixes) {
    if (t.starts_with(p)) return true;
  }
  return false;
}

// A file an old IPython frame names: `x.py`, `x.pyc`, `x.pyx`, `<ipython-input-3-abc>`.
bool IsSourcePath(string_view path) {
  const TracebackVocabulary& words = PythonTracebackVocabulary();
  for (string_view extension : words.source_extensions) {
    if (path.ends_with(extension)) return true;
  }
  return StartsWithAny(path, words.notebook_inputs);
}

bool ParseFrameLine(string_view t, FrameFields* f, FrameStyle* style) {
  if (t.starts_with("File \"")) {  // CPython
    size_t q = t.find("\", line ", 6);
    if (q == npos) return false;
    size_t d = q + 8, e = d;
    while (e < t.size() && IsDigit(t[e])) ++e;
    if (e == d) return false;
    f->path = t.substr(6, q - 6);
    f->line = ParseLineNumber(t.substr(d, e - d));
    string_view rest = t.substr(e);
    f->function = rest.starts_with(", in ") ? Trim(rest.substr(5)) : string_view();
    *style = FrameStyle::kPython;
    return true;
  }
  if (t.starts_with("File ") && t.size() > 5 && t[5] != '"') {  // IPython 8: `File ~/x.py:12, in f(a)`
    string_view rest = t.substr(5);
    for (size_t c = rest.find(':'); c != npos; c = rest.find(':', c + 1)) {
      size_t d = c + 1;
      while (d < rest.size() && IsDigit(rest[d])) ++d;
      if (d == c + 1) continue;
      if (d == rest.size() || rest.substr(d).starts_with(", in ")) {
        f->path = rest.substr(0, c);
        f->line = ParseLineNumber(rest.substr(c + 1, d - c - 1));
        f->function = d == rest.size() ? string_view() : StripCallArgs(rest.substr(d + 5));
        *style = FrameStyle::kIPython;
        return true;
      }
    }
    return false;
  }
  if (t.starts_with("Cell In[") || t.starts_with("Input In [")) {  // IPython: `Cell In[3], line 5, in f()`
    size_t close = t.find(']');
    if (close == npos) return false;
    f->path = t.substr(0, close + 1);
    string_view rest = t.substr(close + 1);
    f->line = 0;
    if (rest.starts_with(", line ")) {
      size_t d = 7, e = 7;
      while (e < rest.size() && IsDigit(rest[e])) ++e;
      f->line = ParseLineNumber(rest.substr(d, e - d));
      rest = rest.substr(e);
    }
    f->function = rest.starts_with(", in ") ? StripCallArgs(rest.substr(5)) : string_view();
    *style = FrameStyle::kIPython;
    return true;
  }
  if (t.starts_with("line ") && t.size() > 5 && IsDigit(t[5])) {  // the tail of a frame line cut by the paste
    size_t e = 5;
    while (e < t.size() && IsDigit(t[e])) ++e;
    if (!t.substr(e).starts_with(", in ")) return false;
    f->path = string_view();
    f->line = ParseLineNumber(t.substr(5, e - 5));
    f->function = Trim(t.substr(e + 5));
    *style = FrameStyle::kPython;
    return true;
  }
  // Old IPython: `<ipython-input-3-abc> in <module>()`, `~/x.py in f(a)`.
  size_t sp = t.find(' ');
  if (sp != npos && t.substr(sp).starts_with(" in ")) {
    string_view path = t.substr(0, sp);
    if (IsSourcePath(path) && IsFunctionToken(t.substr(sp + 4))) {
      f->path = path;
      f->line = 0;
      f->function = StripCallArgs(t.substr(sp + 4));
      *style = FrameStyle::kIPython;
      return true;
    }
  }
  // rich: `/home/u/proj/cli.py:12 in main`.
  size_t in = t.find(" in ");
  if (in != npos && in < kPastedMaxFieldBytes) {
    string_view head = t.substr(0, in);
    size_t c = head.rfind(':');
    if (c != npos && c > 0 && c + 1 < head.size() && head.find_first_not_of("0123456789", c + 1) == npos &&
        head.substr(0, c).find_first_of("/\\") != npos && IsFunctionToken(t.substr(in + 4))) {
      f->path = head.substr(0, c);
      f->line = ParseLineNumber(head.substr(c + 1));
      f->function = StripCallArgs(t.substr(in + 4));
      *style = FrameStyle::kIPython;
      return true;
    }
  }
  return false;
}

// pytest: `path:12: in func`, `path:12: `, `path:12: ValueError`; Python warnings: `path:12: UserWarning: msg`.
bool ParsePytestLocation(string_view t, TraceLine* l) {
  size_t ws = t.find_first_of(" \t");
  for (size_t c = t.find(':'); c != npos && c < ws; c = t.find(':', c + 1)) {
    size_t d = c + 1;
    while (d < t.size() && IsDigit(t[d])) ++d;
    if (d == c + 1 || d >= t.size() || t[d] != ':' || (d + 1 < t.size() && t[d + 1] != ' ')) continue;
    string_view path = t.substr(0, c);
    if (path.empty() || path.find_first_of("./\\") == npos) return false;
    string_view rest = Trim(t.substr(d + 1));
    l->frame.path = path;
    l->frame.line = ParseLineNumber(t.substr(c + 1, d - c - 1));
    l->frame.function = string_view();
    if (rest.empty()) {
      l->loc = LocKind::kBare;
      return true;
    }
    if (rest.starts_with("in ")) {
      l->loc = LocKind::kInFunc;
      l->frame.function = Trim(rest.substr(3));
      return true;
    }
    size_t e = ScanDottedName(rest, 0);
    if (e == 0) return false;
    TypeRank rank = RankTypeName(rest.substr(0, e));
    if (e == rest.size() && rank >= TypeRank::kWord) {
      l->loc = LocKind::kType;
      l->loc_type = rest;
      return true;
    }
    if (rank == TypeRank::kStrong && rest.substr(e).starts_with(": ")) {
      l->loc = LocKind::kTypeMessage;
      l->loc_type = rest.substr(0, e);
      l->loc_message = Trim(rest.substr(e + 2));
      return true;
    }
    return false;
  }
  return false;
}

constexpr string_view kRichArrow = "\u2771";  // ❱

bool ParseArrow(string_view t, TraceLine* l) {  // IPython: `----> 5 f(x)`; rich: `❱  12 │   f(x)`
  if (t.starts_with(kRichArrow)) {
    size_t i = kRichArrow.size();
    while (i < t.size() && t[i] == ' ') ++i;
    size_t d = i;
    while (i < t.size() && IsDigit(t[i])) ++i;
    if (i == d) return false;
    l->arrow_line = ParseLineNumber(t.substr(d, i - d));
    string_view rest = TrimLeft(t.substr(i));
    if (rest.starts_with(kBoxVertical)) rest.remove_prefix(kBoxVertical.size());
    l->arrow_code = Trim(rest);
    return true;
  }
  size_t i = 0;
  while (i < t.size() && t[i] == '-') ++i;
  if (i == 0 || i >= t.size() || t[i] != '>') return false;
  ++i;
  while (i < t.size() && t[i] == ' ') ++i;
  size_t d = i;
  while (i < t.size() && IsDigit(t[i])) ++i;
  if (i == d || (i < t.size() && t[i] != ' ')) return false;
  l->arrow_line = ParseLineNumber(t.substr(d, i - d));
  l->arrow_code = Trim(t.substr(i));
  return true;
}

bool IsCaretLine(string_view t) { return t.find_first_not_of("^~ \t") == npos && t.find_first_of("^~") != npos; }

bool IsSeparatorLine(string_view t, bool* test_boundary) {
  *test_boundary = false;
  if (t.size() < 3) return false;
  if (t.starts_with("___") || t.starts_with("===")) {
    *test_boundary = true;
    return true;
  }
  if (t == "[end of output]") return true;  // pip's frame around a build's output
  return t.starts_with("_ _") || t.starts_with("---") || t.starts_with("+-") || t.starts_with("+=") ||
         t.starts_with("\u2570") || t.starts_with("\u256d");  // box drawing of rich tracebacks
}

void ClassifyInto(string_view content, bool group_separator, TraceLine* l) {
  const TracebackVocabulary& words = PythonTracebackVocabulary();
  l->trimmed = Trim(content);
  l->indent = IndentOf(content);
  string_view t = l->trimmed;
  if (group_separator) {
    l->kind = Kind::kSeparator;
    return;
  }
  if (t.empty() || t.starts_with("```") || t.starts_with("~~~")) {
    l->kind = Kind::kBlank;
    return;
  }
  if (size_t h = t.find(words.header); h != npos) {
    string_view before = TrimRight(t.substr(0, h));
    l->group_header = before.ends_with(words.group_header);
    if (RankTypeName(before) >= TypeRank::kWord) l->header_type = before;
    l->kind = Kind::kHeader;
    return;
  }
  if (StartsWithAny(t, words.chain_prefixes)) {
    l->kind = Kind::kChain;
    return;
  }
  if (t.front() == '(' && t.back() == ')' && t.find("additional frame") != npos) {
    l->kind = Kind::kSentry;
    return;
  }
  // `...`, Python's repeated-frames note, IPython's elided context lines `(...)`.
  if (t == "..." || t == "(...)" || StartsWithAny(t, words.repeated_frames)) {
    l->kind = Kind::kSkip;
    return;
  }
  if (ParseFrameLine(t, &l->frame, &l->style)) {
    l->kind = Kind::kFrame;
    return;
  }
  string_view c = content;
  if (!c.empty() && c[0] == 'E' && (c.size() == 1 || (c.size() >= 3 && c[1] == ' ' && c[2] == ' '))) {
    size_t sp = 1;
    while (sp < c.size() && c[sp] == ' ') ++sp;
    l->e_spaces = sp - 1;
    l->e_text = c.substr(1);
    l->kind = Kind::kPytestE;
    return;
  }
  if (ParsePytestLocation(t, l)) {
    l->kind = Kind::kPytestLocation;
    return;
  }
  if (ParseArrow(t, l)) {
    l->kind = Kind::kArrow;
    return;
  }
  if (IsCaretLine(t)) {
    l->kind = Kind::kCaret;
    return;
  }
  if (IsSeparatorLine(t, &l->test_boundary)) {
    l->kind = Kind::kSeparator;
    return;
  }
  l->kind = Kind::kText;
}

}  // namespace

GroupGutter ReadGroupGutter(string_view content) {
  GroupGutter g;
  g.content = content;
  string_view t = TrimLeft(content);
  if (t.starts_with("|")) {
    t.remove_prefix(1);
    if (t.starts_with(" ")) t.remove_prefix(1);
    g.content = t;
  } else if (t.starts_with("+-") || t.starts_with("+=")) {
    g.separator = true;
  } else if (t.starts_with("+ ")) {
    g.content = t.substr(2);
  } else if (!t.empty()) {
    g.outside = true;
  }
  return g;
}

bool ReadBoxBorder(string_view* content) {
  string_view t = TrimLeft(*content);
  if (t.size() < 3 || static_cast<unsigned char>(t[0]) != 0xE2 ||
      (static_cast<unsigned char>(t[1]) != 0x94 && static_cast<unsigned char>(t[1]) != 0x95)) {
    return false;  // box drawing characters are U+2500-U+257F: E2 94 xx, E2 95 xx
  }
  if (t.starts_with(kBoxVertical)) {
    t.remove_prefix(kBoxVertical.size());
    t = TrimRight(t);
    if (t.ends_with(kBoxVertical)) t.remove_suffix(kBoxVertical.size());
    *content = t;
  }
  return true;
}

bool IsNumberedContextLine(string_view t) {
  size_t i = 0;
  while (i < t.size() && IsDigit(t[i])) ++i;
  return i > 0 && (i == t.size() || t[i] == ' ');
}

TraceLine ClassifyTraceLine(string_view content, bool group_separator) {
  TraceLine line;
  ClassifyInto(content, group_separator, &line);
  return line;
}

}  // namespace errdex::python_paste
