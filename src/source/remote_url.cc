#include "source/remote_url.h"

#include <array>
#include <vector>

namespace errdex {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool IsSchemeChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
}

// AUTHORITY without credentials and port, lowercased; empty when there is no host.
std::string HostOf(std::string_view authority) {
  const size_t at = authority.rfind('@');
  if (at != std::string_view::npos) authority.remove_prefix(at + 1);
  std::string_view host = authority;
  if (!host.empty() && host.front() == '[') {  // [ipv6]:port
    const size_t close = host.find(']');
    if (close == std::string_view::npos) return "";
    host = host.substr(0, close + 1);
  } else {
    const size_t colon = host.find(':');
    if (colon != std::string_view::npos) host = host.substr(0, colon);
  }
  std::string out = Lower(host);
  while (!out.empty() && out.back() == '.') out.pop_back();
  return out;
}

}  // namespace

bool ParseRemoteUrl(std::string_view url, RemoteName* out) {
  *out = RemoteName{};
  while (!url.empty() && (url.front() == ' ' || url.front() == '\t')) url.remove_prefix(1);
  while (!url.empty() && (url.back() == ' ' || url.back() == '\t' || url.back() == '\n' || url.back() == '\r')) {
    url.remove_suffix(1);
  }

  std::string host;
  std::string_view path;
  const size_t sep = url.find("://");
  size_t scheme_len = 0;
  while (scheme_len < url.size() && IsSchemeChar(url[scheme_len])) ++scheme_len;
  if (sep != std::string_view::npos && sep > 0 && scheme_len == sep) {
    if (Lower(url.substr(0, sep)) == "file") return false;
    std::string_view rest = url.substr(sep + 3);
    const size_t query = rest.find_first_of("?#");
    if (query != std::string_view::npos) rest = rest.substr(0, query);
    // The authority ends at the first '/' after the credentials: a password may itself hold a '/', and
    // cutting there would leak the rest of it into the path.
    const size_t at = rest.rfind('@');
    const size_t slash = rest.find('/', at == std::string_view::npos ? 0 : at + 1);
    const std::string_view authority = rest.substr(0, slash);
    host = HostOf(authority);
    path = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  } else {
    // scp-like: [user@]host:path, the ':' coming before any '/'; anything else is a local path.
    std::string_view rest = url;
    const size_t first_slash = rest.find('/');
    const size_t at = rest.substr(0, first_slash).rfind('@');
    if (at != std::string_view::npos) rest.remove_prefix(at + 1);
    const size_t colon = rest.find(':');
    const size_t slash = rest.find('/');
    if (colon == std::string_view::npos || colon == 0 || (slash != std::string_view::npos && slash < colon)) {
      return false;
    }
    host = HostOf(rest.substr(0, colon));
    path = rest.substr(colon + 1);
    const size_t query = path.find_first_of("?#");
    if (query != std::string_view::npos) path = path.substr(0, query);
  }
  if (host.empty()) return false;

  std::vector<std::string_view> parts;
  while (!path.empty()) {
    const size_t slash = path.find('/');
    const std::string_view part = path.substr(0, slash);
    if (part == "..") return false;
    if (!part.empty() && part != ".") parts.push_back(part);
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  if (!parts.empty() && parts.back().size() > 4 && parts.back().substr(parts.back().size() - 4) == ".git") {
    parts.back().remove_suffix(4);
  }
  if (parts.size() < 2) return false;

  std::string forge = host;
  if (forge.rfind("www.", 0) == 0) forge.erase(0, 4);
  static constexpr std::array<std::string_view, 5> kForges = {"github.com", "gitlab.com", "codeberg.org",
                                                              "bitbucket.org", "gitea.com"};
  bool known = false;
  for (std::string_view f : kForges) known = known || forge == f;

  auto join = [&](size_t from) {
    std::string s;
    for (size_t i = from; i < parts.size(); ++i) {
      if (!s.empty()) s += '/';
      s += parts[i];
    }
    return s;
  };
  if (known) {
    out->name = join(0);
    out->web_url = "https://" + forge + "/" + out->name;
  } else {
    out->name = join(parts.size() - 2);
  }
  return true;
}

}  // namespace errdex
