#include "match/log_prefix.h"

#include <algorithm>

#include "match/pasted_text.h"
#include "python/printed_exception.h"

namespace errdex::match_internal {

using python_paste::RankTypeName;
using python_paste::TypeRank;

namespace {

bool IsUpperLevel(string_view w, bool* error) {
  if (IsOneOf(w, {"ERROR", "CRITICAL", "FATAL", "SEVERE", "ALERT", "EMERG", "EXCEPTION", "CRIT", "ERR"})) {
    *error = true;
    return true;
  }
  return IsOneOf(w, {"DEBUG", "INFO", "WARNING", "WARN", "NOTICE", "TRACE"});
}

bool IsMixedLevel(string_view w, bool* error) {
  if (IsOneOf(w, {"Error", "error", "Fatal", "fatal", "Critical", "critical"})) {
    *error = true;
    return true;
  }
  return IsOneOf(w, {"Warning", "warning", "Warn", "warn", "Info", "info", "Debug", "debug"});
}

bool IsMonth(string_view m) {
  return IsOneOf(m, {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"});
}

bool Digits(string_view s, size_t i, size_t count) {
  if (i + count > s.size()) return false;
  for (size_t k = 0; k < count; ++k) {
    if (!IsDigit(s[i + k])) return false;
  }
  return true;
}

// HH:MM:SS[.fraction] at I; returns its end or npos.
size_t MatchTime(string_view s, size_t i) {
  if (!Digits(s, i, 2) || i + 8 > s.size() || s[i + 2] != ':' || !Digits(s, i + 3, 2) || s[i + 5] != ':' ||
      !Digits(s, i + 6, 2)) {
    return npos;
  }
  size_t p = i + 8;
  if (p + 1 < s.size() && (s[p] == '.' || s[p] == ',') && IsDigit(s[p + 1])) {
    ++p;
    size_t d = p;
    while (p < s.size() && p - d < 12 && IsDigit(s[p])) ++p;
  }
  return p;
}

size_t MatchZone(string_view s, size_t p) {
  if (p < s.size() && s[p] == 'Z') return p + 1;
  if (p < s.size() && (s[p] == '+' || s[p] == '-') && Digits(s, p + 1, 2)) {
    size_t q = p + 3;
    if (q < s.size() && s[q] == ':' && Digits(s, q + 1, 2)) return q + 3;
    if (Digits(s, q, 2)) return q + 2;
    return q;
  }
  if (p + 1 < s.size() && s[p] == ' ') {
    if ((s[p + 1] == '+' || s[p + 1] == '-') && Digits(s, p + 2, 4)) return p + 6;
    size_t q = p + 1;
    while (q < s.size() && q - p <= 5 && IsUpper(s[q])) ++q;
    bool error = false;
    if (q - p - 1 >= 2 && q - p - 1 <= 5 && (q == s.size() || s[q] == ' ' || s[q] == ']') &&
        !IsUpperLevel(s.substr(p + 1, q - p - 1), &error)) {
      return q;
    }
  }
  return p;
}

// A timestamp at the start of S: ISO 8601 (`2024-01-02 03:04:05,123`, `2024-01-02T03:04:05.123Z`), a time
// of day, or syslog's `Jan 02 03:04:05`. Returns its length (0: none).
size_t MatchTimestamp(string_view s, bool* syslog) {
  *syslog = false;
  if (Digits(s, 0, 4) && s.size() >= 19 && (s[4] == '-' || s[4] == '/') && Digits(s, 5, 2) && s[7] == s[4] &&
      Digits(s, 8, 2) && (s[10] == 'T' || s[10] == ' ')) {
    size_t p = MatchTime(s, 11);
    if (p != npos) return MatchZone(s, p);
  }
  if (size_t p = MatchTime(s, 0); p != npos) return MatchZone(s, p);
  if (s.size() >= 15 && IsMonth(s.substr(0, 3)) && s[3] == ' ' && (s[4] == ' ' || IsDigit(s[4])) && IsDigit(s[5]) &&
      s[6] == ' ') {
    size_t p = MatchTime(s, 7);
    if (p != npos) {
      *syslog = true;
      return p;
    }
  }
  return 0;
}

bool IsHeaderSeparator(char c) {
  return c == ' ' || c == '\t' || c == '|' || c == '=' || c == ',' || c == ':' || c == '[' || c == ']' || c == '(' ||
         c == ')' || c == '/';
}

// After a timestamp: a level among the next few tokens (`- app - ERROR - `, ` = ERROR = `, ` [ERROR] `).
// Returns the position after the level and its separators, or 0.
size_t LevelLookahead(string_view s, bool* error) {
  size_t p = 0;
  int tokens = 0;
  while (p < s.size() && p < 128 && tokens < 5) {
    while (p < s.size() && (IsHeaderSeparator(s[p]) || s[p] == '-')) ++p;
    size_t q = p;
    while (p < s.size() && !IsHeaderSeparator(s[p])) ++p;
    if (p == q) break;
    string_view tok = s.substr(q, p - q);
    if (IsUpperLevel(tok, error)) {
      while (p < s.size()) {
        char c = s[p];
        if (c == ' ' || c == '\t' || c == ':' || c == ']' || c == '|' || c == '=') {
          ++p;
        } else if (c == '-' && (p + 1 >= s.size() || s[p + 1] == ' ')) {
          ++p;
        } else {
          break;
        }
      }
      return p;
    }
    if (RankTypeName(tok) == TypeRank::kStrong) break;  // the message has started
    ++tokens;
  }
  *error = false;
  return 0;
}

// `[...]` that is part of a log header: a pid, a timestamp, a level, a process or thread name.
bool BracketIsHeader(string_view inner, bool* error) {
  string_view t = Trim(inner);
  if (t.empty()) return false;
  if (t.find_first_not_of("0123456789") == npos) return true;
  if (t.starts_with("pid") && (t.size() == 3 || !IsAlpha(t[3]))) return true;
  bool syslog = false;
  bool header = MatchTimestamp(t, &syslog) > 0;
  if (t.size() == 1 && IsOneOf(t, {"E", "F", "C"})) {
    *error = true;
    return true;
  }
  if (t.size() == 1 && IsOneOf(t, {"W", "I", "D"})) return true;
  size_t i = 0;
  while (i < t.size()) {
    while (i < t.size() && !IsAlpha(t[i])) ++i;
    size_t w = i;
    while (i < t.size() && IsAlpha(t[i])) ++i;
    if (i > w && IsUpperLevel(t.substr(w, i - w), error)) header = true;
  }
  if (t.ends_with("Process") || t.ends_with("Thread") || t.starts_with("Thread-")) header = true;
  return header;
}

}  // namespace

namespace {

// Each prefix reader below strips one prefix of its kind from the front of S, notes it in INFO and says
// whether it did.

bool StripComposePrefix(string_view& s, LineInfo& info) {  // docker-compose: `web_1  | `
  size_t i = 0;
  while (i < s.size() && i < 64 && (IsIdentChar(s[i]) || s[i] == '-' || s[i] == '.')) ++i;
  size_t j = i;
  while (j < s.size() && j - i < 32 && s[j] == ' ') ++j;
  if (i == 0 || j == i || j >= s.size() || s[j] != '|' || (j + 1 != s.size() && s[j + 1] != ' ')) return false;
  info.key += "compose:" + std::string(s.substr(0, i)) + "|";
  info.log_prefix = true;
  s.remove_prefix(std::min(s.size(), j + 2));
  return true;
}

// Tilt: `  api │ ` (the resource's name, a box-drawing bar), and on the lines of an image build its step
// arrow, `       → `, once, right after the bar (a Cleo report's own `→ 481│` stays).
bool StripTiltPrefix(string_view& s, LineInfo& info) {
  constexpr string_view kBar = "\u2502";    // │
  constexpr string_view kArrow = "\u2192";  // →
  size_t n = 0;
  while (n < s.size() && n < 16 && s[n] == ' ') ++n;
  size_t i = n;
  while (i < s.size() && i - n < 64 && (IsIdentChar(s[i]) || s[i] == '-' || s[i] == '.')) ++i;
  size_t j = i;
  while (j < s.size() && j - i < 32 && s[j] == ' ') ++j;
  if (i == n || j == i || !s.substr(j).starts_with(kBar)) return false;
  size_t k = j + kBar.size();
  if (k != s.size() && s[k] != ' ') return false;
  info.key += "tilt:" + std::string(s.substr(n, i - n)) + "|";
  info.log_prefix = true;
  s.remove_prefix(std::min(s.size(), k + 1));
  size_t a = 0;
  while (a < s.size() && a < 16 && s[a] == ' ') ++a;
  if (s.substr(a).starts_with(kArrow) && (a + kArrow.size() == s.size() || s[a + kArrow.size()] == ' ')) {
    info.key += "step|";
    s.remove_prefix(std::min(s.size(), a + kArrow.size() + 1));
  }
  return true;
}

bool StripQuoteMarker(string_view& s, LineInfo& info) {
  if (s[0] != '>') return false;
  // A markdown quote; `>` and three or more spaces is pytest's marker of the failing line (`flow_marker + "   "`
  // in _pytest/_code/code.py); `>  ` with two is a quote of an indented line.
  size_t sp = 1;
  while (sp < s.size() && s[sp] == ' ') ++sp;
  if (sp - 1 >= 3) {
    info.pytest_marker = true;
    s.remove_prefix(2);
  } else {
    s.remove_prefix(sp);
  }
  return true;
}

// After a syslog timestamp, journald's `host proc[pid]: `.
bool StripJournaldSource(string_view rest, string_view& s, LineInfo& info) {
  if (rest.size() <= 1 || rest[0] != ' ') return false;
  size_t h = 1;
  while (h < rest.size() && h < 256 && rest[h] != ' ') ++h;
  size_t p = h + 1;
  while (p < rest.size() && p - h < 128 && rest[p] != ' ' && rest[p] != ':') ++p;
  if (h > 1 && h < rest.size() && p > h + 1 && p < rest.size() && rest[p] == ':' &&
      (p + 1 == rest.size() || rest[p + 1] == ' ')) {
    info.key += "journald:" + std::string(rest.substr(1, p - 1)) + "|";
    s = rest.substr(std::min(rest.size(), p + 2));
    return true;
  }
  return false;
}

// After a timestamp, Heroku's `app[web.1]: `.
bool StripHerokuSource(string_view rest, string_view& s, LineInfo& info) {
  if (rest.size() <= 1 || rest[0] != ' ' || !IsLower(rest[1])) return false;
  size_t p = 1;
  while (p < rest.size() && p < 40 && (IsLower(rest[p]) || IsDigit(rest[p]) || rest[p] == '_' || rest[p] == '-')) {
    ++p;
  }
  if (p >= rest.size() || rest[p] != '[') return false;
  size_t close = rest.substr(0, p + 64).find(']', p);
  if (close != npos && close + 1 < rest.size() && rest[close + 1] == ':' &&
      (close + 2 == rest.size() || rest[close + 2] == ' ')) {
    info.key += "heroku:" + std::string(rest.substr(1, close)) + "|";
    s = rest.substr(std::min(rest.size(), close + 3));
    return true;
  }
  return false;
}

enum class Stripped { kNo, kYes, kDropLine };

// A timestamp, and what follows it on log lines: a journald or Heroku source, a level.
Stripped StripTimestampPrefix(string_view& s, LineInfo& info) {
  bool syslog = false;
  const size_t n = MatchTimestamp(s, &syslog);
  if (n == 0) return Stripped::kNo;
  string_view rest = s.substr(n);
  if (Trim(rest).empty()) return Stripped::kDropLine;
  info.log_prefix = true;
  if (syslog && StripJournaldSource(rest, s, info)) return Stripped::kYes;
  if (StripHerokuSource(rest, s, info)) return Stripped::kYes;
  bool error = false;
  if (size_t p = LevelLookahead(rest, &error)) {
    info.record_header = true;
    info.error_level = info.error_level || error;
    s = rest.substr(p);
    return Stripped::kYes;
  }
  info.key += "ts|";  // a timestamp on every line (kubectl --timestamps)
  s = rest.substr(rest[0] == ' ' ? 1 : 0);
  return Stripped::kYes;
}

bool StripBracketHeader(string_view& s, LineInfo& info) {
  if (s[0] != '[') return false;
  size_t close = s.substr(0, 160).find(']');
  bool error = false;
  if (close == npos || !BracketIsHeader(s.substr(1, close - 1), &error)) return false;
  info.record_header = true;
  info.log_prefix = true;
  info.error_level = info.error_level || error;
  s = TrimLeft(s.substr(close + 1));
  if (s.starts_with("- ") || s.starts_with(": ")) s = TrimLeft(s.substr(2));
  return true;
}

// glog: `E0102 03:04:05.123456  1234 file.cc:12] `; or a one-letter level before a timestamp.
bool StripOneLetterLevel(string_view& s, LineInfo& info) {
  if (s.size() <= 2 || !IsOneOf(s.substr(0, 1), {"E", "W", "I", "F", "D", "C"})) return false;
  const bool one_letter_error = s[0] == 'E' || s[0] == 'F' || s[0] == 'C';
  if (Digits(s, 1, 4) && s.size() > 6 && s[5] == ' ') {
    size_t p = MatchTime(s, 6);
    if (p != npos) {
      size_t close = s.substr(0, p + 300).find("] ", p);
      if (close != npos) {
        info.record_header = info.log_prefix = true;
        info.error_level = info.error_level || one_letter_error;
        s = s.substr(close + 2);
        return true;
      }
    }
  }
  bool syslog = false;
  if (s[1] == ' ' && MatchTimestamp(s.substr(2), &syslog) > 0) {
    info.record_header = info.log_prefix = true;
    info.error_level = info.error_level || one_letter_error;
    s = s.substr(2);
    return true;
  }
  return false;
}

// After an upper-case level word and its colon: logging.basicConfig's `LEVEL:logger:`, `- `, Flask's
// `in app: `. Returns where the message starts.
size_t SkipAfterUpperLevel(string_view s, size_t w) {
  size_t p = w;
  if (s[p] == ':') {
    ++p;
    if (p < s.size() && !IsSpace(s[p])) {  // logging.basicConfig: LEVEL:logger:message
      size_t e = p;
      while (e < s.size() && e - p < 128 && (IsIdentChar(s[e]) || s[e] == '.' || s[e] == '-')) ++e;
      if (e > p && e < s.size() && s[e] == ':') p = e + 1;
    }
  }
  while (p < s.size() && IsSpace(s[p])) ++p;
  if (s.substr(p).starts_with("- ")) p += 2;
  if (s.substr(p).starts_with("in ")) {  // Flask: `ERROR in app: `
    size_t e = ScanDottedName(s, p + 3);
    if (e > p + 3 && e < s.size() && s[e] == ':') p = e + 1;
  }
  return p;
}

// A level word: `ERROR:    `, `ERROR:root:`, `ERROR `, `ERROR in app: `, `Error: `, `error: `.
bool StripLevelWord(string_view& s, LineInfo& info) {
  size_t w = 0;
  while (w < s.size() && w < 10 && IsAlpha(s[w])) ++w;
  if (w == 0 || w >= s.size()) return false;
  string_view word = s.substr(0, w);
  bool error = false;
  if (IsUpperLevel(word, &error) && (s[w] == ':' || s[w] == ' ' || s[w] == '\t')) {
    info.record_header = info.log_prefix = true;
    info.error_level = info.error_level || error;
    s = TrimLeft(s.substr(SkipAfterUpperLevel(s, w)));
    return true;
  }
  if (IsMixedLevel(word, &error) && s[w] == ':' && (w + 1 == s.size() || IsSpace(s[w + 1]))) {
    info.record_header = true;
    info.error_level = info.error_level || error;
    s = TrimLeft(s.substr(w + 1));
    return true;
  }
  return false;
}

}  // namespace

LineInfo StripPrefixes(string_view s) {
  LineInfo info;
  for (int round = 0; round < 10 && !s.empty(); ++round) {
    if (s.starts_with("^C")) {  // a Ctrl-C echoed by the terminal
      s.remove_prefix(2);
      continue;
    }
    if (round == 0 && (StripComposePrefix(s, info) || StripTiltPrefix(s, info))) continue;
    if (StripQuoteMarker(s, info)) continue;
    const Stripped timestamp = StripTimestampPrefix(s, info);
    if (timestamp == Stripped::kDropLine) {
      info.drop = true;
      return info;
    }
    if (timestamp == Stripped::kYes) continue;
    if (StripBracketHeader(s, info) || StripOneLetterLevel(s, info) || StripLevelWord(s, info)) continue;
    break;
  }
  info.content = s;
  return info;
}

}  // namespace errdex::match_internal
