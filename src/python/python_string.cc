#include "python/python_string.h"

#include "util/utf8.h"

namespace errdex {

StringPrefix ParseStringPrefix(std::string_view token) {
  StringPrefix p;
  size_t i = 0;
  for (; i < token.size() && token[i] != '\'' && token[i] != '"'; ++i) {
    switch (token[i] | 0x20) {
      case 'r':
        p.raw = true;
        break;
      case 'b':
        p.bytes = true;
        break;
      case 'f':
        p.format = true;
        break;
      default:
        break;
    }
  }
  p.quote_len = token.size() - i >= 3 ? 3 : 1;
  return p;
}

namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads exactly N hex digits at body[i..]; returns -1 when they are not all there.
long ReadHex(std::string_view body, size_t i, size_t n) {
  if (i + n > body.size()) return -1;
  long v = 0;
  for (size_t k = 0; k < n; ++k) {
    int h = HexValue(body[i + k]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

}  // namespace

std::string DecodeStringBody(std::string_view body, const StringPrefix& prefix) {
  std::string out;
  out.reserve(body.size());
  auto put_byte = [&](unsigned long v) {
    // A bytes literal's value is bytes; errdex shows them read as Latin-1.
    if (prefix.bytes) {
      AppendUtf8(v & 0xFF, &out);
    } else {
      AppendUtf8(v, &out);
    }
  };
  size_t i = 0;
  while (i < body.size()) {
    char c = body[i];
    if (prefix.format && (c == '{' || c == '}') && i + 1 < body.size() && body[i + 1] == c) {
      out.push_back(c);
      i += 2;
      continue;
    }
    if (c == '\r') {
      // CPython reads \r\n and a lone \r in source as \n, inside string literals too.
      out.push_back('\n');
      i += (i + 1 < body.size() && body[i + 1] == '\n') ? 2 : 1;
      continue;
    }
    if (c != '\\' || prefix.raw || i + 1 >= body.size()) {
      out.push_back(c);
      ++i;
      continue;
    }
    char e = body[i + 1];
    switch (e) {
      case '\n':
        i += 2;
        continue;  // line continuation
      case '\r':
        i += (i + 2 < body.size() && body[i + 2] == '\n') ? 3 : 2;
        continue;
      case '\\':
        out.push_back('\\');
        i += 2;
        continue;
      case '\'':
        out.push_back('\'');
        i += 2;
        continue;
      case '"':
        out.push_back('"');
        i += 2;
        continue;
      case 'a':
        out.push_back('\a');
        i += 2;
        continue;
      case 'b':
        out.push_back('\b');
        i += 2;
        continue;
      case 'f':
        out.push_back('\f');
        i += 2;
        continue;
      case 'n':
        out.push_back('\n');
        i += 2;
        continue;
      case 'r':
        out.push_back('\r');
        i += 2;
        continue;
      case 't':
        out.push_back('\t');
        i += 2;
        continue;
      case 'v':
        out.push_back('\v');
        i += 2;
        continue;
      case 'x': {
        long v = ReadHex(body, i + 2, 2);
        if (v >= 0) {
          put_byte(static_cast<unsigned long>(v));
          i += 4;
          continue;
        }
        break;
      }
      case 'u':
      case 'U': {
        if (prefix.bytes) break;
        size_t n = e == 'u' ? 4 : 8;
        long v = ReadHex(body, i + 2, n);
        if (v >= 0) {
          AppendUtf8(static_cast<unsigned long>(v), &out);
          i += 2 + n;
          continue;
        }
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          unsigned long v = 0;
          size_t k = i + 1;
          for (size_t n = 0; n < 3 && k < body.size() && body[k] >= '0' && body[k] <= '7'; ++n, ++k) {
            v = v * 8 + static_cast<unsigned long>(body[k] - '0');
          }
          put_byte(v);
          i = k;
          continue;
        }
        break;
    }
    // Unknown escape (or \N{...}): kept as written.
    out.push_back('\\');
    ++i;
  }
  return out;
}

}  // namespace errdex
