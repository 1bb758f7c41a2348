// Character tests, trimming and small scanners for reading pasted text (the paste reader of src/match/
// and the language formats of src/python/). ASCII only: other bytes, UTF-8 included, are just "other".
// All functions are pure, take and return views into the caller's text (no ownership), and are safe from
// any thread.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

namespace errdex::text_scan {

using std::string_view;
inline constexpr size_t npos = string_view::npos;

inline bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
inline bool IsLower(char c) { return c >= 'a' && c <= 'z'; }
inline bool IsAlpha(char c) { return IsUpper(c) || IsLower(c); }
inline bool IsIdentStart(char c) { return IsAlpha(c) || c == '_'; }
inline bool IsIdentChar(char c) { return IsIdentStart(c) || IsDigit(c); }

inline string_view TrimLeft(string_view s) {
  size_t i = 0;
  while (i < s.size() && IsSpace(s[i])) ++i;
  return s.substr(i);
}
inline string_view TrimRight(string_view s) {
  size_t n = s.size();
  while (n > 0 && IsSpace(s[n - 1])) --n;
  return s.substr(0, n);
}
inline string_view Trim(string_view s) { return TrimRight(TrimLeft(s)); }

inline size_t IndentOf(string_view s) {
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return i;
}
inline bool IsOneOf(string_view word, std::initializer_list<string_view> list) {
  for (string_view w : list) {
    if (word == w) return true;
  }
  return false;
}

// At most MAX bytes of S, not ending inside a UTF-8 sequence (when S is UTF-8 there).
inline string_view CutUtf8(string_view s, size_t max) {
  if (s.size() <= max) return s;
  size_t n = max;
  for (int k = 0; k < 3 && n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80; ++k) --n;
  return s.substr(0, n);
}

// A copy of at most MAX bytes of S (CutUtf8).
inline std::string Capped(string_view s, size_t max) { return std::string(CutUtf8(s, max)); }

// End of the dotted identifier starting at I (`aiohttp.client_exceptions.ClientError`), or I when none.
inline size_t ScanDottedName(string_view s, size_t i) {
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

}  // namespace errdex::text_scan
