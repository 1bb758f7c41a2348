#include "match/pasted_error.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

// The parser works in three steps per input line (docs/input-formats.md):
//  1. normalisation: ANSI escapes removed; a traceback held in one JSON or repr string with `\n` escapes
//     is decoded, and a traceback flattened onto one line is split, into the logical lines they stand for;
//  2. prefixes: log prefixes (timestamps, levels, logger and process names, container and journald
//     prefixes, markdown quotes) are peeled off; what stays is the line's content;
//  3. a state machine over the contents: idle, inside a traceback (frames), inside a message.
// Every scan below moves forward through its input or looks at a bounded window, so each line costs time
// linear in its length.

namespace errdex {
namespace {

using std::string_view;
constexpr size_t npos = string_view::npos;

// ---------------------------------------------------------------------------------------------------
// Characters and small text helpers (ASCII only: other bytes are just "other").

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsLower(char c) { return c >= 'a' && c <= 'z'; }
bool IsAlpha(char c) { return IsUpper(c) || IsLower(c); }
bool IsIdentStart(char c) { return IsAlpha(c) || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || IsDigit(c); }
bool IsHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int HexValue(char c) {
  if (IsDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

string_view TrimLeft(string_view s) {
  size_t i = 0;
  while (i < s.size() && IsSpace(s[i])) ++i;
  return s.substr(i);
}
string_view TrimRight(string_view s) {
  size_t n = s.size();
  while (n > 0 && IsSpace(s[n - 1])) --n;
  return s.substr(0, n);
}
string_view Trim(string_view s) { return TrimRight(TrimLeft(s)); }

size_t IndentOf(string_view s) {
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return i;
}

bool HasLower(string_view s) {
  for (char c : s) {
    if (IsLower(c)) return true;
  }
  return false;
}

bool IsOneOf(string_view word, std::initializer_list<string_view> list) {
  for (string_view w : list) {
    if (word == w) return true;
  }
  return false;
}

// At most MAX bytes of S, not ending inside a UTF-8 sequence (when S is UTF-8 there).
string_view CutUtf8(string_view s, size_t max) {
  if (s.size() <= max) return s;
  size_t n = max;
  for (int k = 0; k < 3 && n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80; ++k) --n;
  return s.substr(0, n);
}

std::string Capped(string_view s, size_t max = kPastedMaxFieldBytes) { return std::string(CutUtf8(s, max)); }

// "12" -> 12; at most nine digits are read.
int ParseLineNumber(string_view digits) {
  long v = 0;
  for (char c : digits.substr(0, 9)) v = v * 10 + (c - '0');
  return static_cast<int>(v);
}

// End of the dotted identifier starting at I (`aiohttp.client_exceptions.ClientError`), or I when none.
size_t ScanDottedName(string_view s, size_t i) {
  if (i >= s.size() || !IsIdentStart(s[i])) return i;
  size_t j = i;
  while (true) {
    while (j < s.size() && IsIdentChar(s[j])) ++j;
    if (j + 1 < s.size() && s[j] == '.' && IsIdentStart(s[j + 1])) {
      ++j;
      continue;
    }
    return j;
  }
}

// ---------------------------------------------------------------------------------------------------
// ANSI escape sequences: CSI, OSC/DCS strings, two- and three-byte escapes; also SGR colour codes whose ESC
// byte was lost on the way into an issue (`[0;31mValueError[0m`).

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

// ---------------------------------------------------------------------------------------------------
// Escapes of JSON strings and Python reprs.

void AppendCodePoint(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

bool ReadHex(string_view s, size_t i, size_t count, uint32_t* value) {
  if (i + count > s.size()) return false;
  uint32_t v = 0;
  for (size_t k = 0; k < count; ++k) {
    if (!IsHex(s[i + k])) return false;
    v = v * 16 + static_cast<uint32_t>(HexValue(s[i + k]));
  }
  *value = v;
  return true;
}

// S[I] is a backslash: appends what the escape stands for (or the escape as written when it is not one)
// and returns the index after it.
size_t DecodeEscapeAt(string_view s, size_t i, std::string* out) {
  if (i + 1 >= s.size()) {
    out->push_back('\\');
    return s.size();
  }
  char k = s[i + 1];
  switch (k) {
    case 'n': out->push_back('\n'); return i + 2;
    case 't': out->push_back('\t'); return i + 2;
    case 'r': out->push_back('\r'); return i + 2;
    case 'b': out->push_back('\b'); return i + 2;
    case 'f': out->push_back('\f'); return i + 2;
    case 'v': out->push_back('\v'); return i + 2;
    case 'a': out->push_back('\a'); return i + 2;
    case '\\': case '"': case '\'': case '/': out->push_back(k); return i + 2;
    default: break;
  }
  uint32_t cp = 0;
  if (k == 'x' && ReadHex(s, i + 2, 2, &cp)) {
    AppendCodePoint(cp, out);
    return i + 4;
  }
  if (k == 'u' && ReadHex(s, i + 2, 4, &cp)) {
    if (cp >= 0xD800 && cp <= 0xDBFF) {  // a JSON surrogate pair
      uint32_t low = 0;
      if (i + 12 <= s.size() && s[i + 6] == '\\' && s[i + 7] == 'u' && ReadHex(s, i + 8, 4, &low) &&
          low >= 0xDC00 && low <= 0xDFFF) {
        AppendCodePoint(0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00), out);
        return i + 12;
      }
    } else if (cp < 0xDC00 || cp > 0xDFFF) {
      AppendCodePoint(cp, out);
      return i + 6;
    }
  }
  if (k == 'U' && ReadHex(s, i + 2, 8, &cp) && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF)) {
    AppendCodePoint(cp, out);
    return i + 10;
  }
  if (k == '0' && (i + 2 >= s.size() || !IsDigit(s[i + 2]))) {
    out->push_back('\0');
    return i + 2;
  }
  out->push_back('\\');
  out->push_back(k);
  return i + 2;
}

// True when every backslash of S starts a well-formed escape: the text was escaped (JSON, repr) rather
// than holding raw Windows paths.
bool LooksEscaped(string_view s) {
  bool any = false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') continue;
    if (i + 1 >= s.size()) return false;
    char k = s[i + 1];
    uint32_t v = 0;
    bool ok = k == 'n' || k == 't' || k == 'r' || k == '"' || k == '\'' || k == '\\' || k == '/' ||
              (k == 'x' && ReadHex(s, i + 2, 2, &v)) || (k == 'u' && ReadHex(s, i + 2, 4, &v)) ||
              (k == 'U' && ReadHex(s, i + 2, 8, &v));
    if (!ok) return false;
    any = true;
    ++i;
  }
  return any;
}

// A quoted string starting at S[I] (a quote, possibly tripled). With NEED_BOUNDARY the closing quote must
// be followed by something that cannot continue a word (a message quoted in a log line may hold
// apostrophes). Appends the body to OUT (escapes decoded when DECODE) and returns the index after the
// closing quote, or S.size() when it is missing.
size_t ReadQuoted(string_view s, size_t i, bool decode, bool need_boundary, std::string* out) {
  const char q = s[i];
  const size_t qlen = (i + 2 < s.size() && s[i + 1] == q && s[i + 2] == q) ? 3 : 1;
  size_t j = i + qlen;
  while (j < s.size()) {
    char c = s[j];
    if (c == '\\') {
      if (decode) {
        j = DecodeEscapeAt(s, j, out);
      } else {
        out->push_back(c);
        if (j + 1 < s.size()) out->push_back(s[j + 1]);
        j += 2;
      }
      continue;
    }
    if (c == q && (qlen == 1 || (j + 2 < s.size() && s[j + 1] == q && s[j + 2] == q))) {
      size_t after = j + qlen;
      if (!need_boundary || after >= s.size() || !IsIdentChar(s[after])) return after;
    }
    out->push_back(c);
    ++j;
    if (out->size() > kPastedMaxMessageBytes) {  // keep scanning bounded in output, not in input
      while (j < s.size() && s[j] != q) ++j;
    }
  }
  return s.size();
}

// ---------------------------------------------------------------------------------------------------
// Exception type names.

enum class TypeRank { kNone, kWord, kCamel, kStrong };

// kStrong: `ValueError`, `SystemExit`, `pkg.mod.Anything`, builtins such as `StopIteration`;
// kCamel: `NoSuchOption`; kWord: a capitalised word (`Failed`), only trusted where Python prints a type.
TypeRank RankTypeName(string_view name) {
  if (name.empty() || name.size() > 256) return TypeRank::kNone;
  size_t dot = name.rfind('.');
  const bool dotted = dot != npos;
  string_view last = dotted ? name.substr(dot + 1) : name;
  if (last.empty()) return TypeRank::kNone;
  if (IsOneOf(last, {"Exception", "BaseException", "StopIteration", "StopAsyncIteration", "ExceptionGroup",
                     "BaseExceptionGroup", "KeyboardInterrupt", "SystemExit", "GeneratorExit"})) {
    return TypeRank::kStrong;
  }
  if (IsUpper(last[0]) || last[0] == '_') {
    for (string_view suffix : {"Error", "Exception", "Warning", "Exit", "Interrupt"}) {
      if (last.size() > suffix.size() && last.ends_with(suffix)) return TypeRank::kStrong;
    }
  }
  if (dotted) {
    if (IsOneOf(last, {"error", "gaierror", "herror", "timeout"})) return TypeRank::kStrong;
    if (IsUpper(last[0]) && HasLower(last)) return TypeRank::kStrong;
  }
  if (!IsUpper(last[0]) || !HasLower(last)) return TypeRank::kNone;
  for (size_t k = 1; k < last.size(); ++k) {
    if (IsUpper(last[k])) return TypeRank::kCamel;
  }
  if (IsOneOf(last, {"Error", "Warning", "Exit", "Interrupt", "Note", "Notes", "Usage", "Hint", "Traceback",
                     "During", "The", "Try", "See", "Caused", "Reason", "Details", "Message", "Info", "Debug",
                     "Expected", "Actual", "Output", "Input", "Result", "Status", "Version", "Question"})) {
    return TypeRank::kNone;
  }
  return TypeRank::kWord;
}

// The name ends with Error/Exception/Warning/Exit/Interrupt (trusted even without ": ").
bool HasTypeSuffix(string_view name) {
  size_t dot = name.rfind('.');
  string_view last = dot == npos ? name : name.substr(dot + 1);
  if (last.empty() || !(IsUpper(last[0]) || last[0] == '_')) return false;
  for (string_view suffix : {"Error", "Exception", "Warning", "Exit", "Interrupt"}) {
    if (last.size() > suffix.size() && last.ends_with(suffix)) return true;
  }
  return false;
}

// Characters after which a type name may start inside a line of prose.
bool IsNameBoundary(char c) {
  return !IsIdentChar(c) && c != '.' && c != '/' && c != '\\' && c != '-' && c != '$' && c != '@';
}

// The word before S[I] is a Python keyword that makes S[I...] code rather than a printed exception.
bool PrecededByKeyword(string_view s, size_t i) {
  size_t j = i;
  while (j > 0 && (s[j - 1] == ' ' || s[j - 1] == '\t')) --j;
  size_t end = j;
  while (j > 0 && end - j < 12 && IsIdentChar(s[j - 1])) --j;
  if (j > 0 && IsIdentChar(s[j - 1])) return false;
  return IsOneOf(s.substr(j, end - j), {"raise", "except", "from", "import", "class", "def", "return", "isinstance"});
}

struct ExcParse {
  bool found = false;
  std::string type;
  std::string message;  // first line, or the whole message when complete
  TypeRank rank = TypeRank::kNone;
  bool complete = false;  // nothing on later lines continues it
  bool repr = false;      // from `Type('message')`
  bool colon = false;     // `Type:` (a message may follow on later lines)
};

// `Type: message`, `Type:` or (when its rank reaches BARE_MIN) a lone `Type` at the start of T.
bool ParseAtStart(string_view t, TypeRank min_rank, TypeRank bare_min, ExcParse* out) {
  size_t e = ScanDottedName(t, 0);
  if (e == 0) return false;
  string_view name = t.substr(0, e);
  string_view rest = t.substr(e);
  TypeRank rank = RankTypeName(name);
  if (TrimRight(rest).empty()) {
    if (rank < bare_min || rank < min_rank) return false;
  } else if (rest[0] != ':' || (rest.size() > 1 && !IsSpace(rest[1]))) {
    return false;
  } else if (rank < min_rank) {
    return false;
  }
  out->found = true;
  out->type = std::string(name);
  out->rank = rank;
  out->colon = !rest.empty();
  out->message = rest.empty() ? std::string() : Capped(Trim(rest.substr(1)), kPastedMaxMessageBytes);
  return true;
}

// The message of `Type: message` found after an opening bracket, quote or backtick.
void FinishInlineMessage(string_view s, size_t msg_begin, char opener, ExcParse* out) {
  string_view rest = s.substr(msg_begin);
  if (opener == '"' || opener == '\'') {
    // Find the closing quote first (undecoded), then decode when the text was escaped (JSON, repr).
    std::string raw;
    std::string buffer = std::string(1, opener) + std::string(CutUtf8(rest, kPastedMaxMessageBytes * 2));
    ReadQuoted(buffer, 0, false, true, &raw);
    if (LooksEscaped(raw)) {
      std::string decoded;
      for (size_t i = 0; i < raw.size();) {
        if (raw[i] == '\\') {
          i = DecodeEscapeAt(raw, i, &decoded);
        } else {
          decoded.push_back(raw[i++]);
        }
      }
      raw.swap(decoded);
    }
    out->message = Capped(Trim(raw), kPastedMaxMessageBytes);
    out->complete = true;
    return;
  }
  string_view msg = TrimRight(rest);
  char closer = 0;
  switch (opener) {
    case '(': closer = ')'; break;
    case '[': closer = ']'; break;
    case '{': closer = '}'; break;
    case '`': closer = '`'; break;
    default: break;
  }
  if (closer != 0) {  // the message ends at the bracket or backtick that closes the one before the type
    int depth = 0;
    for (size_t i = 0; i < msg.size(); ++i) {
      if (msg[i] == closer && depth == 0) {
        msg = TrimRight(msg.substr(0, i));
        out->complete = true;
        break;
      }
      if (closer != '`' && msg[i] == opener) ++depth;
      if (closer != '`' && msg[i] == closer) --depth;
    }
  }
  out->message = Capped(TrimLeft(msg), kPastedMaxMessageBytes);
}

// The first `Type: message` or `Type('message')` inside a line of prose or log text; only strong names.
bool FindInLine(string_view s, ExcParse* out) {
  const size_t n = s.size();
  for (size_t i = 0; i < n;) {
    if (!IsIdentStart(s[i])) {
      ++i;
      continue;
    }
    size_t j = ScanDottedName(s, i);
    if ((i == 0 || IsNameBoundary(s[i - 1])) && RankTypeName(s.substr(i, j - i)) == TypeRank::kStrong &&
        !PrecededByKeyword(s, i)) {
      std::string_view name = s.substr(i, j - i);
      if (j + 1 < n && s[j] == ':' && IsSpace(s[j + 1]) && !Trim(s.substr(j + 2)).empty()) {
        out->found = true;
        out->type = std::string(name);
        out->rank = TypeRank::kStrong;
        FinishInlineMessage(s, j + 2, i > 0 ? s[i - 1] : '\0', out);
        return true;
      }
      if (j + 1 < n && s[j] == '(' && (s[j + 1] == '"' || s[j + 1] == '\'' || s[j + 1] == ')')) {
        out->found = true;
        out->type = std::string(name);
        out->rank = TypeRank::kStrong;
        out->repr = true;
        out->complete = true;
        if (s[j + 1] != ')') {
          std::string msg;
          ReadQuoted(s, j + 1, true, false, &msg);
          out->message = Capped(Trim(msg), kPastedMaxMessageBytes);
        }
        return true;
      }
    }
    i = j;
  }
  return false;
}

// `raise Name(...)` in a frame's code: the type, and the message when it is a plain string literal.
bool ParseRaiseCode(string_view code, std::string* type, std::string* message) {
  string_view t = Trim(code.substr(0, code.find('\n')));
  if (!t.starts_with("raise ")) return false;
  t = TrimLeft(t.substr(6));
  size_t e = ScanDottedName(t, 0);
  if (e == 0 || RankTypeName(t.substr(0, e)) < TypeRank::kWord) return false;
  *type = std::string(t.substr(0, e));
  message->clear();
  if (e < t.size() && t[e] == '(') {
    string_view r = TrimLeft(t.substr(e + 1));
    size_t k = 0;
    while (k < r.size() && k < 2 && IsAlpha(r[k])) ++k;
    string_view prefix = r.substr(0, k);
    if (k < r.size() && (r[k] == '"' || r[k] == '\'') && prefix.find_first_of("fF") == npos) {
      bool raw = prefix.find_first_of("rR") != npos;
      std::string msg;
      ReadQuoted(r, k, !raw, false, &msg);
      *message = Capped(msg, kPastedMaxMessageBytes);
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------
// Line normalisation: escaped and flattened tracebacks.

constexpr string_view kTracebackPhrase = "Traceback (most recent call last)";
constexpr string_view kTracebackHeader = "Traceback (most recent call last):";
constexpr string_view kDuringPhrase = "During handling of the above exception, another exception occurred:";
constexpr string_view kCausePhrase = "The above exception was the direct cause of the following exception:";

void ExpandLine(string_view line, int depth, std::vector<std::string>* out);

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
    int kind;  // 0 header, 1 "During handling", 2 "direct cause", 3 frame (end: the `", line ` position)
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
  size_t tb = line.find(kTracebackHeader);
  if (files < 2 && !(tb != npos && tb < first_file)) return false;
  add_all(kTracebackHeader, 0);
  add_all(kDuringPhrase, 1);
  add_all(kCausePhrase, 2);
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

void ExpandLine(string_view line, int depth, std::vector<std::string>* out) {
  if (depth < 2) {
    for (size_t tb = line.find(kTracebackHeader); tb != npos; tb = line.find(kTracebackHeader, tb + 1)) {
      size_t after = tb + kTracebackHeader.size();
      if (after + 1 < line.size() && line[after] == '\\' && (line[after + 1] == 'n' || line[after + 1] == 'r')) {
        ExpandEscaped(line, tb, depth, out);
        return;
      }
    }
  }
  if (ExpandFlattened(line, out)) return;
  out->emplace_back(line);
}

// ---------------------------------------------------------------------------------------------------
// Log prefixes.

struct LineInfo {
  string_view content;
  std::string key;             // container signature: lines of one message share it
  bool drop = false;           // a line holding only a timestamp (Cloud Logging exports)
  bool record_header = false;  // a log record starts here (level, pid, timestamp with level)
  bool error_level = false;    // ERROR, CRITICAL, `Error:` ...
  bool log_prefix = false;     // counts toward input_kind "log"
  bool pytest_marker = false;  // `>   code` (pytest's failing line)
};

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
  return c == ' ' || c == '\t' || c == '|' || c == '=' || c == ',' || c == ':' || c == '[' || c == ']' ||
         c == '(' || c == ')' || c == '/';
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

LineInfo StripPrefixes(string_view s) {
  LineInfo info;
  for (int round = 0; round < 10 && !s.empty(); ++round) {
    const size_t before = s.size();
    if (s.starts_with("^C")) {  // a Ctrl-C echoed by the terminal
      s.remove_prefix(2);
      continue;
    }
    if (round == 0) {  // docker-compose: `web_1  | `
      size_t i = 0;
      while (i < s.size() && i < 64 && (IsIdentChar(s[i]) || s[i] == '-' || s[i] == '.')) ++i;
      size_t j = i;
      while (j < s.size() && j - i < 32 && s[j] == ' ') ++j;
      if (i > 0 && j > i && j < s.size() && s[j] == '|' && (j + 1 == s.size() || s[j + 1] == ' ')) {
        info.key += "compose:" + std::string(s.substr(0, i)) + "|";
        info.log_prefix = true;
        s.remove_prefix(std::min(s.size(), j + 2));
        continue;
      }
    }
    if (s[0] == '>') {  // markdown quote; `>` and two or more spaces is pytest's marker of the failing line
      size_t sp = 1;
      while (sp < s.size() && s[sp] == ' ') ++sp;
      if (sp - 1 >= 2) {
        info.pytest_marker = true;
        s.remove_prefix(2);
      } else {
        s.remove_prefix(sp);
      }
      continue;
    }
    bool syslog = false;
    if (size_t n = MatchTimestamp(s, &syslog)) {
      string_view rest = s.substr(n);
      if (Trim(rest).empty()) {
        info.drop = true;
        return info;
      }
      info.log_prefix = true;
      if (syslog && rest.size() > 1 && rest[0] == ' ') {  // journald: `host proc[pid]: `
        size_t h = 1;
        while (h < rest.size() && h < 256 && rest[h] != ' ') ++h;
        size_t p = h + 1;
        while (p < rest.size() && p - h < 128 && rest[p] != ' ' && rest[p] != ':') ++p;
        if (h > 1 && h < rest.size() && p > h + 1 && p < rest.size() && rest[p] == ':' &&
            (p + 1 == rest.size() || rest[p + 1] == ' ')) {
          info.key += "journald:" + std::string(rest.substr(1, p - 1)) + "|";
          s = rest.substr(std::min(rest.size(), p + 2));
          continue;
        }
      }
      if (rest.size() > 1 && rest[0] == ' ' && IsLower(rest[1])) {  // Heroku: `app[web.1]: `
        size_t p = 1;
        while (p < rest.size() && p < 40 && (IsLower(rest[p]) || IsDigit(rest[p]) || rest[p] == '_' || rest[p] == '-')) {
          ++p;
        }
        if (p < rest.size() && rest[p] == '[') {
          size_t close = rest.substr(0, p + 64).find(']', p);
          if (close != npos && close + 1 < rest.size() && rest[close + 1] == ':' &&
              (close + 2 == rest.size() || rest[close + 2] == ' ')) {
            info.key += "heroku:" + std::string(rest.substr(1, close)) + "|";
            s = rest.substr(std::min(rest.size(), close + 3));
            continue;
          }
        }
      }
      bool error = false;
      if (size_t p = LevelLookahead(rest, &error)) {
        info.record_header = true;
        info.error_level = info.error_level || error;
        s = rest.substr(p);
        continue;
      }
      info.key += "ts|";  // a timestamp on every line (kubectl --timestamps)
      s = rest.substr(rest[0] == ' ' ? 1 : 0);
      continue;
    }
    if (s[0] == '[') {
      size_t close = s.substr(0, 160).find(']');
      bool error = false;
      if (close != npos && BracketIsHeader(s.substr(1, close - 1), &error)) {
        info.record_header = true;
        info.log_prefix = true;
        info.error_level = info.error_level || error;
        s = TrimLeft(s.substr(close + 1));
        if (s.starts_with("- ") || s.starts_with(": ")) s = TrimLeft(s.substr(2));
        continue;
      }
    }
    // glog: `E0102 03:04:05.123456  1234 file.cc:12] `; or a one-letter level before a timestamp.
    if (s.size() > 2 && IsOneOf(s.substr(0, 1), {"E", "W", "I", "F", "D", "C"})) {
      bool one_letter_error = s[0] == 'E' || s[0] == 'F' || s[0] == 'C';
      if (Digits(s, 1, 4) && s.size() > 6 && s[5] == ' ') {
        size_t p = MatchTime(s, 6);
        if (p != npos) {
          size_t close = s.substr(0, p + 300).find("] ", p);
          if (close != npos) {
            info.record_header = info.log_prefix = true;
            info.error_level = info.error_level || one_letter_error;
            s = s.substr(close + 2);
            continue;
          }
        }
      }
      bool syslog2 = false;
      if (s[1] == ' ' && MatchTimestamp(s.substr(2), &syslog2) > 0) {
        info.record_header = info.log_prefix = true;
        info.error_level = info.error_level || one_letter_error;
        s = s.substr(2);
        continue;
      }
    }
    // A level word: `ERROR:    `, `ERROR:root:`, `ERROR `, `ERROR in app: `, `Error: `, `error: `.
    size_t w = 0;
    while (w < s.size() && w < 10 && IsAlpha(s[w])) ++w;
    if (w > 0 && w < s.size()) {
      string_view word = s.substr(0, w);
      bool error = false;
      if (IsUpperLevel(word, &error) && (s[w] == ':' || s[w] == ' ' || s[w] == '\t')) {
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
        info.record_header = info.log_prefix = true;
        info.error_level = info.error_level || error;
        s = TrimLeft(s.substr(p));
        continue;
      }
      if (IsMixedLevel(word, &error) && s[w] == ':' && (w + 1 == s.size() || IsSpace(s[w + 1]))) {
        info.record_header = true;
        info.error_level = info.error_level || error;
        s = TrimLeft(s.substr(w + 1));
        continue;
      }
    }
    if (s.size() == before) break;
  }
  info.content = s;
  return info;
}

// ---------------------------------------------------------------------------------------------------
// Line classification.

enum class Kind {
  kBlank, kHeader, kChain, kSeparator, kSentry, kSkip, kFrame, kPytestLocation, kPytestE, kCaret, kArrow, kText
};
enum class FrameStyle { kNone, kPython, kIPython, kPytest, kPytestLong };
enum class LocKind { kInFunc, kBare, kType, kTypeMessage };

struct Line {
  int number = 0;
  LineInfo info;
  string_view content;
  string_view trimmed;
  size_t indent = 0;
  Kind kind = Kind::kText;
  string_view header_type;  // kHeader: IPython's `ValueError    Traceback (most recent call last)`
  bool group_header = false;
  bool test_boundary = false;  // kSeparator between pytest tests
  TracebackFrame frame;        // kFrame, kPytestLocation
  FrameStyle style = FrameStyle::kNone;
  LocKind loc = LocKind::kBare;
  string_view loc_type, loc_message;
  bool boxed = false;  // inside a box of a rich traceback, or a loguru annotation (`│`, `└`)
  size_t e_spaces = 0;  // kPytestE
  string_view e_text;
  int arrow_line = 0;  // kArrow
  string_view arrow_code;
};

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

bool ParseFrameLine(string_view t, TracebackFrame* f, FrameStyle* style) {
  if (t.starts_with("File \"")) {  // CPython
    size_t q = t.find("\", line ", 6);
    if (q == npos) return false;
    size_t d = q + 8, e = d;
    while (e < t.size() && IsDigit(t[e])) ++e;
    if (e == d) return false;
    f->path = Capped(t.substr(6, q - 6));
    f->line = ParseLineNumber(t.substr(d, e - d));
    string_view rest = t.substr(e);
    f->function = rest.starts_with(", in ") ? Capped(Trim(rest.substr(5))) : std::string();
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
        f->path = Capped(rest.substr(0, c));
        f->line = ParseLineNumber(rest.substr(c + 1, d - c - 1));
        f->function = d == rest.size() ? std::string() : Capped(StripCallArgs(rest.substr(d + 5)));
        *style = FrameStyle::kIPython;
        return true;
      }
    }
    return false;
  }
  if (t.starts_with("Cell In[") || t.starts_with("Input In [")) {  // IPython: `Cell In[3], line 5, in f()`
    size_t close = t.find(']');
    if (close == npos) return false;
    f->path = Capped(t.substr(0, close + 1));
    string_view rest = t.substr(close + 1);
    f->line = 0;
    if (rest.starts_with(", line ")) {
      size_t d = 7, e = 7;
      while (e < rest.size() && IsDigit(rest[e])) ++e;
      f->line = ParseLineNumber(rest.substr(d, e - d));
      rest = rest.substr(e);
    }
    f->function = rest.starts_with(", in ") ? Capped(StripCallArgs(rest.substr(5))) : std::string();
    *style = FrameStyle::kIPython;
    return true;
  }
  if (t.starts_with("line ") && t.size() > 5 && IsDigit(t[5])) {  // the tail of a frame line cut by the paste
    size_t e = 5;
    while (e < t.size() && IsDigit(t[e])) ++e;
    if (!t.substr(e).starts_with(", in ")) return false;
    f->path.clear();
    f->line = ParseLineNumber(t.substr(5, e - 5));
    f->function = Capped(Trim(t.substr(e + 5)));
    *style = FrameStyle::kPython;
    return true;
  }
  // Old IPython: `<ipython-input-3-abc> in <module>()`, `~/x.py in f(a)`.
  size_t sp = t.find(' ');
  if (sp != npos && t.substr(sp).starts_with(" in ")) {
    string_view path = t.substr(0, sp);
    if ((path.ends_with(".py") || path.ends_with(".pyc") || path.ends_with(".pyx") ||
         path.starts_with("<ipython-input-")) &&
        IsFunctionToken(t.substr(sp + 4))) {
      f->path = Capped(path);
      f->line = 0;
      f->function = Capped(StripCallArgs(t.substr(sp + 4)));
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
      f->path = Capped(head.substr(0, c));
      f->line = ParseLineNumber(head.substr(c + 1));
      f->function = Capped(StripCallArgs(t.substr(in + 4)));
      *style = FrameStyle::kIPython;
      return true;
    }
  }
  return false;
}

// pytest: `path:12: in func`, `path:12: `, `path:12: ValueError`; Python warnings: `path:12: UserWarning: msg`.
bool ParsePytestLocation(string_view t, Line* l) {
  size_t ws = t.find_first_of(" \t");
  for (size_t c = t.find(':'); c != npos && c < ws; c = t.find(':', c + 1)) {
    size_t d = c + 1;
    while (d < t.size() && IsDigit(t[d])) ++d;
    if (d == c + 1 || d >= t.size() || t[d] != ':' || (d + 1 < t.size() && t[d + 1] != ' ')) continue;
    string_view path = t.substr(0, c);
    if (path.empty() || path.find_first_of("./\\") == npos) return false;
    string_view rest = Trim(t.substr(d + 1));
    l->frame.path = Capped(path);
    l->frame.line = ParseLineNumber(t.substr(c + 1, d - c - 1));
    l->frame.function.clear();
    if (rest.empty()) {
      l->loc = LocKind::kBare;
      return true;
    }
    if (rest.starts_with("in ")) {
      l->loc = LocKind::kInFunc;
      l->frame.function = Capped(Trim(rest.substr(3)));
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
constexpr string_view kBoxVertical = "\u2502";  // │

bool ParseArrow(string_view t, Line* l) {  // IPython: `----> 5 f(x)`; rich: `❱  12 │   f(x)`
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
  return t.starts_with("_ _") || t.starts_with("---") || t.starts_with("+-") || t.starts_with("+=") ||
         t.starts_with("\u2570") || t.starts_with("\u256d");  // box drawing of rich tracebacks
}

void Classify(Line* l, bool group_separator) {
  l->trimmed = Trim(l->content);
  l->indent = IndentOf(l->content);
  string_view t = l->trimmed;
  if (group_separator) {
    l->kind = Kind::kSeparator;
    return;
  }
  if (t.empty() || t.starts_with("```") || t.starts_with("~~~")) {
    l->kind = Kind::kBlank;
    return;
  }
  if (size_t h = t.find(kTracebackPhrase); h != npos) {
    string_view before = TrimRight(t.substr(0, h));
    l->group_header = before.ends_with("Exception Group");
    if (RankTypeName(before) >= TypeRank::kWord) l->header_type = before;
    l->kind = Kind::kHeader;
    return;
  }
  if (t.starts_with("During handling of the above exception") ||
      t.starts_with("The above exception was the direct cause")) {
    l->kind = Kind::kChain;
    return;
  }
  if (t.front() == '(' && t.back() == ')' && t.find("additional frame") != npos) {
    l->kind = Kind::kSentry;
    return;
  }
  if (t == "..." || t.starts_with("[Previous line repeated")) {
    l->kind = Kind::kSkip;
    return;
  }
  if (ParseFrameLine(t, &l->frame, &l->style)) {
    l->kind = Kind::kFrame;
    return;
  }
  string_view c = l->content;
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

// `Type: message` at the start of T with a type Python-like enough to end a message or a code block.
bool StartsLikeException(string_view t) {
  ExcParse e;
  return ParseAtStart(t, TypeRank::kCamel, TypeRank::kStrong, &e);
}

bool IsIPythonContextLine(string_view t) {  // `     12 code`
  size_t i = 0;
  while (i < t.size() && IsDigit(t[i])) ++i;
  return i > 0 && (i == t.size() || t[i] == ' ');
}

enum class Mode { kIdle, kTraceback, kMessage };

}  // namespace

// ---------------------------------------------------------------------------------------------------
// The state machine.

struct PastedErrorStream::State {
  struct Item {
    PastedException exc;
    int tier = 0;  // 3: shown by a traceback; 2: a strong `Type: message`; 1: weak type or untyped error line
    bool pytest = false;       // from `E   ` lines: a later `path:line: Type` completes it
    bool untyped_log = false;  // an ERROR-level log line without a type
    bool from_repr = false;    // `Type('message')`
  };

  int line_no = 0;
  std::string partial;  // FeedText: the line being assembled
  bool partial_any = false;
  bool partial_skip = false;

  Mode mode = Mode::kIdle;
  // The traceback being read.
  std::deque<TracebackFrame> frames;
  int last_code_line = 0;
  bool header_seen = false;
  std::string header_type;
  size_t tb_indent = 0;
  bool tb_record_header = false;  // the traceback's first line had a log prefix
  bool expect_code = false;
  size_t frame_indent = 0;
  FrameStyle style = FrameStyle::kNone;
  std::string marker_code;  // pytest: the last `>` line
  bool group_mode = false;
  bool chain_pending = false;
  // The exception whose message is being read.
  Item current;
  bool e_mode = false;
  size_t e_spaces = 0;
  std::string msg_key;
  size_t msg_indent = 0;
  bool message_full = false;
  bool await_message = false;  // `Type:` with nothing after it yet
  bool django_value = false;  // an `Exception Value:` line completes the message
  // A complete exception that the next lines may still amend (Sentry frames, a pytest location, a
  // duplicate), and a message line printed just before a traceback (logger.exception, asyncio).
  std::optional<Item> lingering;
  bool sentry = false;
  std::optional<Item> preamble;
  std::vector<Item> out;
  // For ParsePastedError.
  int log_lines = 0;
  int independent_tracebacks = 0;

  void FeedLine(string_view raw);
  void Process(string_view logical, bool* counted);
  bool OnMessage(const Line& l);
  bool OnTraceback(const Line& l);
  bool OnTracebackText(const Line& l);
  void OnIdle(const Line& l);
  void OnIdleText(const Line& l);
  bool OnPytestLocation(const Line& l);
  void StartTraceback(const Line& l);
  void EnsureTraceback();
  void PushFrame(const Line& l, FrameStyle s);
  std::vector<TracebackFrame> TakeFrames();
  void ClearTraceback();
  void ResolveTraceback();
  void BeginMessage(const Line& l);
  void StartException(Item it);
  void StartPytestException(const Line& l);
  void AppendMessage(string_view text);
  void Finalize();
  void ResolveLingering();
  void FlushPreamble();
  void Emit(Item it);
  void Finish();
};

using Item = PastedErrorStream::State::Item;

void PastedErrorStream::State::FeedLine(string_view raw) {
  raw = CutUtf8(raw, kPastedMaxLineBytes);
  if (!raw.empty() && raw.back() == '\n') raw.remove_suffix(1);
  if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
  if (size_t cr = raw.rfind('\r'); cr != npos) raw = raw.substr(cr + 1);  // what a terminal shows
  ++line_no;
  std::string clean;
  StripAnsi(raw, &clean);
  std::vector<std::string> logical;
  ExpandLine(clean, 0, &logical);
  bool counted = false;
  for (std::string& text : logical) {
    if (text.find('\x1b') != npos) {
      std::string again;
      StripAnsi(text, &again);
      text.swap(again);
    }
    Process(text, &counted);
  }
}

void PastedErrorStream::State::Process(string_view logical, bool* counted) {
  Line l;
  l.number = line_no;
  l.info = StripPrefixes(logical);
  if (l.info.drop) return;
  if (l.info.log_prefix && !*counted) {
    ++log_lines;
    *counted = true;
  }
  l.content = l.info.content;
  bool group_separator = false;
  if (group_mode) {  // exception groups: `  | ` before every line, `  +-+---- 1 ----` between members
    string_view t = TrimLeft(l.content);
    if (t.starts_with("|")) {
      t.remove_prefix(1);
      if (t.starts_with(" ")) t.remove_prefix(1);
      l.content = t;
    } else if (t.starts_with("+-") || t.starts_with("+=")) {
      group_separator = true;
    } else if (t.starts_with("+ ")) {
      l.content = t.substr(2);
    } else if (!t.empty()) {
      group_mode = false;
    }
  }
  {  // rich boxes (`│ ... │`) and loguru's variable annotations (`│   └ 42`)
    string_view t = TrimLeft(l.content);
    if (t.size() >= 3 && static_cast<unsigned char>(t[0]) == 0xE2 &&
        (static_cast<unsigned char>(t[1]) == 0x94 || static_cast<unsigned char>(t[1]) == 0x95)) {
      l.boxed = true;
      if (t.starts_with(kBoxVertical)) {
        t.remove_prefix(kBoxVertical.size());
        t = TrimRight(t);
        if (t.ends_with(kBoxVertical)) t.remove_suffix(kBoxVertical.size());
        l.content = t;
      }
    }
  }
  Classify(&l, group_separator);
  for (int pass = 0; pass < 4; ++pass) {
    bool done = true;
    switch (mode) {
      case Mode::kMessage: done = OnMessage(l); break;
      case Mode::kTraceback: done = OnTraceback(l); break;
      case Mode::kIdle: OnIdle(l); break;
    }
    if (done) break;
  }
}

bool PastedErrorStream::State::OnMessage(const Line& l) {
  switch (l.kind) {
    case Kind::kBlank:
      if (await_message) return true;  // `ImportError: ` then a blank line, then the message
      Finalize();
      return true;
    case Kind::kPytestE:
      if (e_mode) {
        string_view text = l.content.substr(1);
        size_t strip = std::min(e_spaces, IndentOf(text));
        AppendMessage(text.substr(strip));
        return true;
      }
      Finalize();
      return false;
    case Kind::kSentry:
      Finalize();
      sentry = lingering.has_value();
      return true;
    case Kind::kCaret:
    case Kind::kText:
    case Kind::kArrow:
    case Kind::kSkip:
      if (django_value && l.trimmed.starts_with("Exception Value:")) {  // Django's technical 500 page
        current.exc.message = Capped(Trim(l.trimmed.substr(16)), kPastedMaxMessageBytes);
        current.exc.message_line = l.number;
        django_value = false;
        return true;
      }
      if (e_mode || l.boxed || l.info.record_header || l.info.key != msg_key || l.indent < msg_indent ||
          StartsLikeException(l.trimmed)) {
        Finalize();
        return false;
      }
      AppendMessage(l.content.substr(std::min(l.indent, msg_indent)));
      return true;
    default:
      Finalize();
      return false;
  }
}

bool PastedErrorStream::State::OnTraceback(const Line& l) {
  switch (l.kind) {
    case Kind::kBlank:
      expect_code = false;
      return true;
    case Kind::kHeader:
    case Kind::kChain:
      ResolveTraceback();
      return false;
    case Kind::kSeparator:
      if (l.test_boundary) {
        ResolveTraceback();
        return false;
      }
      return true;
    case Kind::kSentry:
      sentry = lingering.has_value();
      return true;
    case Kind::kSkip:
    case Kind::kCaret:
      return true;
    case Kind::kFrame:
      PushFrame(l, l.style);
      return true;
    case Kind::kPytestLocation:
      return OnPytestLocation(l);
    case Kind::kPytestE:
      StartPytestException(l);
      return true;
    case Kind::kArrow:
      if (!frames.empty() && frames.back().code.empty()) {
        frames.back().code = Capped(l.arrow_code);
        if (frames.back().line == 0) frames.back().line = l.arrow_line;
        last_code_line = l.number;
      }
      return true;
    case Kind::kText:
      return OnTracebackText(l);
  }
  return true;
}

bool PastedErrorStream::State::OnTracebackText(const Line& l) {
  TracebackFrame* f = frames.empty() ? nullptr : &frames.back();
  if (style == FrameStyle::kPytest || style == FrameStyle::kPytestLong) {
    // pytest's source context: only the `>` line and the code under a short-format location matter.
    if (l.info.pytest_marker) {
      marker_code = Capped(l.trimmed);
    } else if (style == FrameStyle::kPytest && expect_code && f != nullptr && f->code.empty() &&
               l.indent > frame_indent) {
      f->code = Capped(l.trimmed);
      last_code_line = l.number;
    }
    return true;
  }
  if (l.boxed || (style == FrameStyle::kIPython && IsIPythonContextLine(l.trimmed))) return true;
  const bool exc_like = StartsLikeException(l.trimmed);
  // A log record starting here ends the traceback, unless every line of it carries a log prefix.
  const bool new_record = l.info.record_header && !tb_record_header;
  if (expect_code && f != nullptr && !new_record && style != FrameStyle::kIPython && !exc_like) {
    if (f->code.empty()) {  // the source line under a frame (also when a paste lost its indentation)
      f->code = Capped(l.trimmed);
      last_code_line = l.number;
      return true;
    }
    if (l.indent > frame_indent) {  // Python 3.11+ shows multi-line expressions
      if (f->code.size() + 1 + l.trimmed.size() <= kPastedMaxFieldBytes) {
        f->code += '\n';
        f->code += l.trimmed;
      }
      return true;
    }
  }
  ExcParse e;
  bool django = false;
  if (l.trimmed.starts_with("Exception Type: ")) {  // Django: `Exception Type: ValueError at /path`
    string_view rest = l.trimmed.substr(16);
    size_t end = ScanDottedName(rest, 0);
    if (end > 0) {
      e.found = django = true;
      e.type = std::string(rest.substr(0, end));
    }
  }
  if (!e.found && !ParseAtStart(l.trimmed, TypeRank::kWord, TypeRank::kWord, &e)) {
    if (new_record || !header_seen || frames.empty() || l.indent < tb_indent) {
      ResolveTraceback();
      return false;
    }
    // Where Python prints the exception line, a line that is not `Type: message`: an untyped message.
    e.message = Capped(l.trimmed, kPastedMaxMessageBytes);
  }
  Item it;
  it.tier = 3;
  it.exc.type = e.type.empty() ? header_type : e.type;
  it.exc.message = std::move(e.message);
  it.exc.message_line = l.number;
  it.exc.frames = TakeFrames();
  ClearTraceback();
  BeginMessage(l);
  await_message = e.colon && it.exc.message.empty();
  StartException(std::move(it));
  django_value = django;
  return true;
}

bool PastedErrorStream::State::OnPytestLocation(const Line& l) {
  switch (l.loc) {
    case LocKind::kInFunc:
      EnsureTraceback();
      PushFrame(l, FrameStyle::kPytest);
      return true;
    case LocKind::kBare:
    case LocKind::kType: {
      TracebackFrame f = l.frame;
      f.code = std::move(marker_code);
      marker_code.clear();
      if (mode == Mode::kIdle && lingering && lingering->pytest) {  // the end of pytest's long report
        if (lingering->exc.frames.size() >= kPastedMaxFrames) {
          lingering->exc.frames.erase(lingering->exc.frames.begin());
        }
        lingering->exc.frames.push_back(std::move(f));
        if (lingering->exc.type.empty() && l.loc == LocKind::kType) lingering->exc.type = std::string(l.loc_type);
        return true;
      }
      EnsureTraceback();
      Line copy = l;
      copy.frame = std::move(f);
      PushFrame(copy, FrameStyle::kPytestLong);
      if (l.loc == LocKind::kType) {  // a report without `E` lines: the location names the type
        Item it;
        it.tier = 3;
        it.exc.type = std::string(l.loc_type);
        it.exc.frames = TakeFrames();
        ClearTraceback();
        BeginMessage(l);
        StartException(std::move(it));
        Finalize();
      }
      return true;
    }
    case LocKind::kTypeMessage: {
      if (mode == Mode::kTraceback) {
        ResolveTraceback();
        return false;
      }
      Item it;
      it.tier = 2;
      it.exc.type = std::string(l.loc_type);
      it.exc.message = Capped(l.loc_message, kPastedMaxMessageBytes);
      it.exc.message_line = l.number;
      it.exc.frames.push_back(l.frame);
      BeginMessage(l);
      StartException(std::move(it));
      Finalize();
      return true;
    }
  }
  return true;
}

void PastedErrorStream::State::OnIdle(const Line& l) {
  switch (l.kind) {
    case Kind::kBlank:
    case Kind::kCaret:
    case Kind::kSkip:
    case Kind::kArrow:
      return;
    case Kind::kHeader:
      StartTraceback(l);
      return;
    case Kind::kChain:
      ResolveLingering();
      chain_pending = true;
      return;
    case Kind::kSeparator:
      ResolveLingering();
      return;
    case Kind::kSentry:
      sentry = lingering.has_value();
      return;
    case Kind::kFrame:
      EnsureTraceback();
      PushFrame(l, l.style);
      return;
    case Kind::kPytestLocation:
      OnPytestLocation(l);
      return;
    case Kind::kPytestE:
      StartPytestException(l);
      return;
    case Kind::kText:
      OnIdleText(l);
      return;
  }
}

void PastedErrorStream::State::OnIdleText(const Line& l) {
  if (l.info.pytest_marker) {
    marker_code = Capped(l.trimmed);
    return;
  }
  ExcParse e;
  bool found = ParseAtStart(l.trimmed, TypeRank::kCamel, TypeRank::kStrong, &e);
  if (found && e.rank < TypeRank::kStrong) {  // `PyTorch: got ValueError: x`: the strong name wins
    ExcParse strong;
    if (FindInLine(e.message, &strong)) e = std::move(strong);
  }
  found = found || FindInLine(l.content, &e);
  if (found) {
    Item it;
    it.tier = (chain_pending || group_mode) ? 3 : (e.rank == TypeRank::kStrong ? 2 : 1);
    it.from_repr = e.repr;
    it.exc.type = std::move(e.type);
    it.exc.message = std::move(e.message);
    it.exc.message_line = l.number;
    BeginMessage(l);
    await_message = e.colon && it.exc.message.empty();
    StartException(std::move(it));
    if (e.complete) Finalize();
    return;
  }
  if (l.info.error_level && !l.trimmed.empty()) {
    Item it;
    it.tier = 1;
    it.untyped_log = true;
    it.exc.message = Capped(l.trimmed, kPastedMaxMessageBytes);
    it.exc.message_line = l.number;
    BeginMessage(l);
    StartException(std::move(it));
    return;
  }
  ResolveLingering();
}

void PastedErrorStream::State::StartTraceback(const Line& l) {
  if (lingering) {
    if (lingering->exc.frames.empty()) {  // a line printed just before the traceback
      FlushPreamble();
      preamble = std::move(*lingering);
    } else {
      Emit(std::move(*lingering));
    }
    lingering.reset();
    sentry = false;
  }
  if (!chain_pending && !group_mode) ++independent_tracebacks;
  mode = Mode::kTraceback;
  frames.clear();
  header_seen = true;
  header_type = std::string(l.header_type);
  tb_indent = l.indent;
  tb_record_header = l.info.record_header;
  expect_code = false;
  style = FrameStyle::kNone;
  if (l.group_header) group_mode = true;
  chain_pending = false;
}

void PastedErrorStream::State::EnsureTraceback() {
  if (mode == Mode::kTraceback) return;
  if (!chain_pending && !group_mode) ++independent_tracebacks;
  mode = Mode::kTraceback;
  frames.clear();
  header_seen = false;
  header_type.clear();
  tb_indent = 0;
  tb_record_header = false;
  expect_code = false;
  style = FrameStyle::kNone;
}

void PastedErrorStream::State::PushFrame(const Line& l, FrameStyle s) {
  if (frames.size() >= kPastedMaxFrames) frames.pop_front();
  frames.push_back(l.frame);
  style = s;
  expect_code = s == FrameStyle::kPython || s == FrameStyle::kPytest;
  frame_indent = l.indent;
}

std::vector<TracebackFrame> PastedErrorStream::State::TakeFrames() {
  std::vector<TracebackFrame> v(std::make_move_iterator(frames.begin()), std::make_move_iterator(frames.end()));
  frames.clear();
  return v;
}

void PastedErrorStream::State::ClearTraceback() {
  frames.clear();
  header_seen = false;
  header_type.clear();
  expect_code = false;
  style = FrameStyle::kNone;
  mode = Mode::kIdle;
}

// The traceback ends without an exception line (cut paste, Sentry order, a log line after the frames).
void PastedErrorStream::State::ResolveTraceback() {
  if (frames.empty() && header_type.empty()) {
    ClearTraceback();
    FlushPreamble();
    return;
  }
  if (!header_seen && lingering && lingering->exc.frames.empty() && !frames.empty()) {
    // Sentry: the exception line came first, its frames after it.
    lingering->exc.frames = TakeFrames();
    ClearTraceback();
    ResolveLingering();
    return;
  }
  Item it;
  it.tier = 3;
  it.exc.type = header_type;
  int code_line = last_code_line;
  it.exc.frames = TakeFrames();
  if (it.exc.type.empty() && !it.exc.frames.empty()) {  // `raise ValueError("...")` under the last frame
    std::string type, message;
    if (ParseRaiseCode(it.exc.frames.back().code, &type, &message)) {
      it.exc.type = std::move(type);
      it.exc.message = std::move(message);
      if (!it.exc.message.empty()) it.exc.message_line = code_line;
    }
  }
  ClearTraceback();
  ResolveLingering();
  current = std::move(it);
  mode = Mode::kMessage;
  Finalize();
}

void PastedErrorStream::State::BeginMessage(const Line& l) {
  msg_key = l.info.key;
  msg_indent = l.indent;
  e_mode = false;
  message_full = false;
  await_message = false;
  django_value = false;
}

void PastedErrorStream::State::StartException(Item it) {
  chain_pending = false;
  if (lingering) {
    const PastedException& a = lingering->exc;
    string_view a_first = Trim(string_view(a.message).substr(0, a.message.find('\n')));
    bool duplicate = !a.type.empty() && a.type == it.exc.type && a_first == Trim(it.exc.message) &&
                     (a.frames.empty() != it.exc.frames.empty());
    if (duplicate) {  // Sentry shows the exception line before and after the frames
      if (it.exc.frames.empty()) it.exc.frames = std::move(lingering->exc.frames);
      it.exc.message_line = lingering->exc.message_line;
      it.tier = std::max(it.tier, lingering->tier);
      lingering.reset();
    } else {
      if (sentry && lingering->exc.frames.empty() && !it.exc.frames.empty()) {
        lingering->exc.frames = std::move(it.exc.frames);
        it.exc.frames.clear();
      }
      ResolveLingering();
    }
    sentry = false;
  }
  if (it.exc.message.size() >= kPastedMaxMessageBytes) message_full = true;
  current = std::move(it);
  mode = Mode::kMessage;
}

void PastedErrorStream::State::StartPytestException(const Line& l) {
  ExcParse e;
  string_view text = Trim(l.e_text);
  Item it;
  it.tier = 3;
  it.pytest = true;
  if (ParseAtStart(text, TypeRank::kWord, TypeRank::kWord, &e)) {
    it.exc.type = std::move(e.type);
    it.exc.message = std::move(e.message);
  } else {
    it.exc.message = Capped(text, kPastedMaxMessageBytes);
  }
  it.exc.message_line = l.number;
  if (mode == Mode::kTraceback) it.exc.frames = TakeFrames();
  ClearTraceback();
  BeginMessage(l);
  e_mode = true;
  e_spaces = l.e_spaces;
  StartException(std::move(it));
}

void PastedErrorStream::State::AppendMessage(string_view text) {
  if (message_full) return;
  text = TrimRight(text);
  std::string& m = current.exc.message;
  if (await_message) {  // the message starts on this line
    await_message = false;
    text = TrimLeft(text);
    if (text.empty()) return;
    m = Capped(text, kPastedMaxMessageBytes);
    if (current.exc.message_line != 0) current.exc.message_line = line_no;
    return;
  }
  if (m.size() + 1 + text.size() > kPastedMaxMessageBytes) {
    size_t room = kPastedMaxMessageBytes - std::min(kPastedMaxMessageBytes, m.size() + 1);
    m += '\n';
    m += CutUtf8(text, room);
    message_full = true;
    return;
  }
  m += '\n';
  m += text;
}

void PastedErrorStream::State::Finalize() {
  Item it = std::move(current);
  current = Item{};
  mode = Mode::kIdle;
  e_mode = false;
  std::string& m = it.exc.message;
  while (!m.empty() && (IsSpace(m.back()) || m.back() == '\n')) m.pop_back();
  if (preamble) {
    const Item& p = *preamble;
    bool same = p.untyped_log ||
                (p.exc.type == it.exc.type && (p.exc.message == it.exc.message || p.from_repr));
    if (!same) Emit(std::move(*preamble));
    preamble.reset();
  }
  ResolveLingering();
  lingering = std::move(it);
  sentry = false;
}

void PastedErrorStream::State::ResolveLingering() {
  if (lingering) Emit(std::move(*lingering));
  lingering.reset();
  sentry = false;
}

void PastedErrorStream::State::FlushPreamble() {
  if (preamble) Emit(std::move(*preamble));
  preamble.reset();
}

void PastedErrorStream::State::Emit(Item it) {
  if (it.exc.type.empty() && it.exc.message.empty() && it.exc.frames.empty()) return;
  if (!it.exc.frames.empty()) it.tier = std::max(it.tier, 3);
  if (it.exc.frames.size() > kPastedMaxFrames) {
    it.exc.frames.erase(it.exc.frames.begin(),
                        it.exc.frames.begin() + static_cast<std::ptrdiff_t>(it.exc.frames.size() - kPastedMaxFrames));
  }
  out.push_back(std::move(it));
}

void PastedErrorStream::State::Finish() {
  if (partial_any) {
    std::string line = std::move(partial);
    partial.clear();
    partial_any = partial_skip = false;
    FeedLine(line);
  }
  if (mode == Mode::kMessage) {
    Finalize();
  } else if (mode == Mode::kTraceback) {
    ResolveTraceback();
  }
  ResolveLingering();
  FlushPreamble();
  group_mode = false;
  chain_pending = false;
  marker_code.clear();
}

// ---------------------------------------------------------------------------------------------------
// Public API.

PastedErrorStream::PastedErrorStream() : state_(std::make_unique<State>()) {}
PastedErrorStream::~PastedErrorStream() = default;
PastedErrorStream::PastedErrorStream(PastedErrorStream&&) noexcept = default;
PastedErrorStream& PastedErrorStream::operator=(PastedErrorStream&&) noexcept = default;

void PastedErrorStream::Feed(std::string_view line) {
  size_t start = 0;
  while (true) {
    size_t nl = line.find('\n', start);
    if (nl == npos) {
      if (start < line.size() || start == 0) state_->FeedLine(line.substr(start));
      return;
    }
    state_->FeedLine(line.substr(start, nl - start));
    start = nl + 1;
    if (start == line.size()) return;
  }
}

void PastedErrorStream::FeedText(std::string_view chunk) {
  State& s = *state_;
  size_t start = 0;
  while (start < chunk.size()) {
    size_t nl = chunk.find('\n', start);
    string_view piece = chunk.substr(start, nl == npos ? npos : nl - start);
    if (!s.partial_skip) {
      size_t room = kPastedMaxLineBytes + 4 - std::min(kPastedMaxLineBytes + 4, s.partial.size());
      if (piece.size() > room) {
        s.partial.append(piece.substr(0, room));
        s.partial_skip = true;
      } else {
        s.partial.append(piece);
      }
    }
    s.partial_any = true;
    if (nl == npos) return;
    std::string line = std::move(s.partial);
    s.partial.clear();
    s.partial_any = s.partial_skip = false;
    s.FeedLine(line);
    start = nl + 1;
  }
}

void PastedErrorStream::Finish() { state_->Finish(); }

std::vector<PastedException> PastedErrorStream::Take() {
  std::vector<PastedException> v;
  v.reserve(state_->out.size());
  for (Item& it : state_->out) v.push_back(std::move(it.exc));
  state_->out.clear();
  return v;
}

int PastedErrorStream::lines() const { return state_->line_no; }

PastedError ParsePastedError(std::string_view text) {
  PastedError result;
  PastedErrorStream stream;
  PastedErrorStream::State& s = *stream.state_;
  for (size_t start = 0; start <= text.size();) {
    size_t nl = text.find('\n', start);
    if (nl == npos) {
      if (start < text.size()) s.FeedLine(text.substr(start));
      break;
    }
    s.FeedLine(text.substr(start, nl - start));
    start = nl + 1;
  }
  s.Finish();

  int max_tier = 0;
  for (const Item& it : s.out) max_tier = std::max(max_tier, it.tier);
  std::vector<PastedException> chosen;
  for (Item& it : s.out) {
    if (it.tier == max_tier) chosen.push_back(std::move(it.exc));
  }
  if (chosen.size() > kPastedMaxExceptions) {
    chosen.erase(chosen.begin(), chosen.begin() + static_cast<std::ptrdiff_t>(chosen.size() - kPastedMaxExceptions));
  }
  if (max_tier == 3) {
    result.input_kind = (s.independent_tracebacks > 1 && s.log_lines >= 2) ? "log" : "traceback";
  } else {
    result.input_kind = s.log_lines >= 2 ? "log" : "message";
  }
  if (!chosen.empty()) {
    result.exceptions = std::move(chosen);
    return result;
  }

  // Nothing recognised: the whole text, log prefixes removed, is the message.
  PastedException exc;
  std::string& m = exc.message;
  int line_no = 0;
  for (size_t start = 0; start < text.size() && m.size() < kPastedMaxMessageBytes;) {
    size_t nl = text.find('\n', start);
    string_view raw = text.substr(start, nl == npos ? npos : nl - start);
    start = nl == npos ? text.size() : nl + 1;
    ++line_no;
    raw = CutUtf8(raw, kPastedMaxLineBytes);
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    std::string clean;
    StripAnsi(raw, &clean);
    std::vector<std::string> logical;
    ExpandLine(clean, 0, &logical);
    for (const std::string& piece : logical) {
      LineInfo info = StripPrefixes(piece);
      if (info.drop) continue;
      string_view content = TrimRight(info.content);
      if (exc.message_line == 0) {
        if (Trim(content).empty()) continue;
        exc.message_line = line_no;
      } else {
        m += '\n';
      }
      m += CutUtf8(content, kPastedMaxMessageBytes - std::min(kPastedMaxMessageBytes, m.size()));
    }
  }
  string_view trimmed = Trim(m);
  while (!trimmed.empty() && trimmed.back() == '\n') trimmed = Trim(trimmed.substr(0, trimmed.size() - 1));
  if (trimmed.empty()) return result;
  // `ClientConnectorError Cannot connect to host ...`: a type and its message separated by a space.
  size_t e = ScanDottedName(trimmed, 0);
  if (e > 0 && e + 1 < trimmed.size() && trimmed[e] == ' ' && HasTypeSuffix(trimmed.substr(0, e))) {
    exc.type = std::string(trimmed.substr(0, e));
    trimmed = TrimLeft(trimmed.substr(e + 1));
  }
  exc.message = std::string(trimmed);
  result.input_kind = s.log_lines >= 2 ? "log" : "message";
  result.exceptions.push_back(std::move(exc));
  return result;
}

}  // namespace errdex
