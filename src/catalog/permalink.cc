#include "catalog/permalink.h"

namespace errdex {

namespace {

// Percent-encodes what cannot stand in a URL path (spaces, '#', '?', non-ASCII bytes...).
std::string EncodePath(const std::string& path) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' || c == '-' ||
                c == '_' || c == '.' || c == '~';
    if (keep) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

}  // namespace

std::optional<std::string> Permalink(const std::optional<std::string>& web_url,
                                     const std::optional<std::string>& commit, const std::string& path, int line) {
  if (!web_url || web_url->empty() || !commit || commit->empty()) return std::nullopt;
  // Only web URLs make links: a hostile `--url javascript:...` or `file:` gives none.
  if (web_url->rfind("https://", 0) != 0 && web_url->rfind("http://", 0) != 0) return std::nullopt;
  for (char c : *web_url) {
    if (static_cast<unsigned char>(c) <= ' ' || c == '"' || c == '<' || c == '>' || c == '\\') return std::nullopt;
  }
  std::string base = *web_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  const std::string l = std::to_string(line);
  if (base.find("://gitlab.") != std::string::npos) {
    return base + "/-/blob/" + *commit + "/" + EncodePath(path) + "#L" + l;
  }
  if (base.find("://bitbucket.org") != std::string::npos) {
    return base + "/src/" + *commit + "/" + EncodePath(path) + "#lines-" + l;
  }
  return base + "/blob/" + *commit + "/" + EncodePath(path) + "#L" + l;
}

}  // namespace errdex
