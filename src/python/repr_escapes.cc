#include "python/repr_escapes.h"

#include <cstdint>

#include "util/paste_limits.h"
#include "util/text_scan.h"
#include "util/utf8.h"

namespace errdex::python_paste {

using std::string_view;
using text_scan::CutUtf8;
using text_scan::IsDigit;
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

bool IsHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int HexValue(char c) {
  if (IsDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
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

}  // namespace

size_t DecodeEscapeAt(string_view s, size_t i, std::string* out) {
  if (i + 1 >= s.size()) {
    out->push_back('\\');
    return s.size();
  }
  char k = s[i + 1];
  switch (k) {
    case 'n':
      out->push_back('\n');
      return i + 2;
    case 't':
      out->push_back('\t');
      return i + 2;
    case 'r':
      out->push_back('\r');
      return i + 2;
    case 'b':
      out->push_back('\b');
      return i + 2;
    case 'f':
      out->push_back('\f');
      return i + 2;
    case 'v':
      out->push_back('\v');
      return i + 2;
    case 'a':
      out->push_back('\a');
      return i + 2;
    case '\\':
    case '"':
    case '\'':
    case '/':
      out->push_back(k);
      return i + 2;
    default:
      break;
  }
  uint32_t cp = 0;
  if (k == 'x' && ReadHex(s, i + 2, 2, &cp)) {
    AppendUtf8(cp, out);
    return i + 4;
  }
  if (k == 'u' && ReadHex(s, i + 2, 4, &cp)) {
    if (cp >= 0xD800 && cp <= 0xDBFF) {  // a JSON surrogate pair
      uint32_t low = 0;
      if (i + 12 <= s.size() && s[i + 6] == '\\' && s[i + 7] == 'u' && ReadHex(s, i + 8, 4, &low) && low >= 0xDC00 &&
          low <= 0xDFFF) {
        AppendUtf8(0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00), out);
        return i + 12;
      }
    } else if (cp < 0xDC00 || cp > 0xDFFF) {
      AppendUtf8(cp, out);
      return i + 6;
    }
  }
  if (k == 'U' && ReadHex(s, i + 2, 8, &cp) && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF)) {
    AppendUtf8(cp, out);
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

}  // namespace errdex::python_paste
