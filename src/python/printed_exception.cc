#include "python/printed_exception.h"

#include "python/python_builtins.h"
#include "python/repr_escapes.h"
#include "python/traceback_vocabulary.h"
#include "util/paste_limits.h"
#include "util/text_scan.h"

namespace errdex::python_paste {

using std::string_view;
using text_scan::Capped;
using text_scan::CutUtf8;
using text_scan::IsAlpha;
using text_scan::IsIdentChar;
using text_scan::IsIdentStart;
using text_scan::IsLower;
using text_scan::IsSpace;
using text_scan::IsUpper;
using text_scan::npos;
using text_scan::ScanDottedName;
using text_scan::Trim;
using text_scan::TrimLeft;
using text_scan::TrimRight;

namespace {

bool HasLower(string_view s) {
  for (char c : s) {
    if (IsLower(c)) return true;
  }
  return false;
}

// LAST, the last component of a name, is capitalised (or starts with '_') and ends with
// Error/Exception/Warning/Exit/Interrupt (the type_suffix rows of data/traceback_format.tsv).
bool EndsWithTypeSuffix(string_view last) {
  if (last.empty() || !(IsUpper(last[0]) || last[0] == '_')) return false;
  for (string_view suffix : PythonTracebackVocabulary().type_suffixes) {
    if (last.size() > suffix.size() && last.ends_with(suffix)) return true;
  }
  return false;
}

// Characters after which a type name may start inside a line of prose.
bool IsNameBoundary(char c) {
  return !IsIdentChar(c) && c != '.' && c != '/' && c != '\\' && c != '-' && c != '$' && c != '@';
}

// The message of `Type: message` found after an opening bracket, quote or backtick.
void FinishInlineMessage(string_view s, size_t msg_begin, char opener, ExcParse* out) {
  string_view rest = s.substr(msg_begin);
  if (opener == '"' || opener == '\'') {
    // Find the closing quote first (undecoded), then decode when the text was escaped (JSON, repr).
    std::string raw;
    std::string buffer(1, opener);  // built by append: GCC 12 warns falsely (-Wrestrict) on operator+ here
    buffer.append(CutUtf8(rest, kPastedMaxMessageBytes * 2));
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
    case '(':
      closer = ')';
      break;
    case '[':
      closer = ']';
      break;
    case '{':
      closer = '}';
      break;
    case '`':
      closer = '`';
      break;
    default:
      break;
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

}  // namespace

TypeRank RankTypeName(string_view name) {
  if (name.empty() || name.size() > 256) return TypeRank::kNone;
  size_t dot = name.rfind('.');
  const bool dotted = dot != npos;
  string_view last = dotted ? name.substr(dot + 1) : name;
  if (last.empty()) return TypeRank::kNone;
  // A builtin exception class (python/data/builtins.tsv), but for the bare "Warning": in a log it is a level.
  if (BuiltinExceptionBase(last) != nullptr && last != "Warning") {
    return TypeRank::kStrong;
  }
  if (EndsWithTypeSuffix(last)) return TypeRank::kStrong;
  if (dotted) {
    if (IsListed(PythonTracebackVocabulary().lowercase_types, last)) return TypeRank::kStrong;
    if (IsUpper(last[0]) && HasLower(last)) return TypeRank::kStrong;
  }
  if (!IsUpper(last[0]) || !HasLower(last)) return TypeRank::kNone;
  for (size_t k = 1; k < last.size(); ++k) {
    if (IsUpper(last[k])) return TypeRank::kCamel;
  }
  if (IsListed(PythonTracebackVocabulary().not_types, last)) return TypeRank::kNone;
  return TypeRank::kWord;
}

bool HasTypeSuffix(string_view name) {
  size_t dot = name.rfind('.');
  return EndsWithTypeSuffix(dot == npos ? name : name.substr(dot + 1));
}

bool HasLowercasedTypeSuffix(string_view name) {
  const size_t dot = name.rfind('.');
  const string_view last = dot == npos ? name : name.substr(dot + 1);
  if (last.empty() || !IsIdentChar(last[0]) || (last[0] >= '0' && last[0] <= '9')) return false;
  for (char c : last) {
    if (IsUpper(c)) return false;
  }
  for (string_view suffix : PythonTracebackVocabulary().type_suffixes) {
    if (last.size() <= suffix.size()) continue;
    const string_view tail = last.substr(last.size() - suffix.size());
    bool same = true;
    for (size_t k = 0; k < suffix.size() && same; ++k) {
      same = tail[k] == (IsUpper(suffix[k]) ? static_cast<char>(suffix[k] - 'A' + 'a') : suffix[k]);
    }
    if (same) return true;
  }
  return false;
}

bool PrecededByKeyword(string_view s, size_t i) {
  size_t j = i;
  while (j > 0 && (s[j - 1] == ' ' || s[j - 1] == '\t')) --j;
  size_t end = j;
  while (j > 0 && end - j < 12 && IsIdentChar(s[j - 1])) --j;
  if (j > 0 && IsIdentChar(s[j - 1])) return false;
  return IsListed(PythonTracebackVocabulary().code_keywords, s.substr(j, end - j));
}

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

}  // namespace errdex::python_paste
