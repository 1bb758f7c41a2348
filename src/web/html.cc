#include "web/html.h"

#include <cstdint>

#include "util/utf8.h"

namespace errdex::web {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

void AppendEscaped(std::string& out, std::string_view text) {
  out.reserve(out.size() + text.size() + text.size() / 8);
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      const size_t len = Utf8SequenceLength(text, i);
      if (len == 0) {
        out += kReplacement;
        ++i;
      } else {
        out.append(text.substr(i, len));
        i += len;
      }
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      case '\t':
      case '\n':
      case '\r':
        out.push_back(c);
        break;
      default:
        if (u < 0x20 || u == 0x7F) {
          out += kReplacement;
        } else {
          out.push_back(c);
        }
    }
    ++i;
  }
}

std::string Escape(std::string_view text) {
  std::string out;
  AppendEscaped(out, text);
  return out;
}

void AppendPercentByte(std::string& out, unsigned char byte) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  out.push_back('%');
  out.push_back(kHex[byte >> 4]);
  out.push_back(kHex[byte & 15]);
}

int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string PercentEncode(std::string_view text, bool keep_slash) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
        c == '_' || c == '~' || (keep_slash && c == '/')) {
      out.push_back(c);
    } else {
      AppendPercentByte(out, u);
    }
  }
  return out;
}

std::string PercentDecode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%' && i + 2 < text.size()) {
      const int hi = HexDigitValue(text[i + 1]), lo = HexDigitValue(text[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(plus_is_space && c == '+' ? ' ' : c);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> ParseFormEncoded(std::string_view body) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t start = 0;
  while (start <= body.size()) {
    size_t end = body.find('&', start);
    if (end == std::string_view::npos) end = body.size();
    std::string_view pair = body.substr(start, end - start);
    if (!pair.empty()) {
      const size_t eq = pair.find('=');
      std::string_view key = pair.substr(0, eq);
      std::string_view value = eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
      out.emplace_back(PercentDecode(key, true), PercentDecode(value, true));
    }
    start = end + 1;
  }
  return out;
}

std::optional<std::string> SafeExternalUrl(std::string_view url) {
  size_t scheme_end;
  if (url.size() > 8 && (url.substr(0, 8) == "https://" || url.substr(0, 8) == "HTTPS://")) {
    scheme_end = 8;
  } else if (url.size() > 7 && (url.substr(0, 7) == "http://" || url.substr(0, 7) == "HTTP://")) {
    scheme_end = 7;
  } else {
    return std::nullopt;
  }
  if (url.size() > 4096) return std::nullopt;
  for (char c : url) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7F || c == '"' || c == '\'' || c == '<' || c == '>' || c == '\\' || c == '`') {
      return std::nullopt;
    }
  }
  if (!IsValidUtf8(url)) return std::nullopt;
  const char first = url[scheme_end];
  if (first == '/' || first == '?' || first == '#' || first == '@' || first == ':') return std::nullopt;
  return std::string(url);
}

std::string ShortenText(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::string cut = CutUtf8(text, max_bytes);  // ends with "…"
  std::string_view body = std::string_view(cut).substr(0, cut.size() - 3);
  const size_t space = body.rfind(' ');
  if (space != std::string_view::npos && space >= body.size() / 2) body = body.substr(0, space);
  while (!body.empty() && (body.back() == ' ' || body.back() == ',' || body.back() == ':')) body.remove_suffix(1);
  return std::string(body) + "…";
}

}  // namespace errdex::web
