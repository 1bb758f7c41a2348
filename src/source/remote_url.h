// Derives a repository's "owner/name" and web address from a git remote URL.
#pragma once

#include <string>
#include <string_view>

namespace errdex {

struct RemoteName {
  std::string name;     // "owner/name" (on a known forge, the whole path: "group/subgroup/name")
  std::string web_url;  // "https://github.com/owner/name" on a known forge, else empty
};

// Understands "scheme://[user[:password]@]host[:port]/owner/name[.git]" (https, http, ssh, git, ...) and
// scp-like "[user@]host:owner/name[.git]". Known forges: github.com, gitlab.com, codeberg.org,
// bitbucket.org, gitea.com. Credentials, ports, queries and fragments never reach the result. Returns
// false (and clears *out) for local paths, file:// URLs and URLs whose path has fewer than two parts.
bool ParseRemoteUrl(std::string_view url, RemoteName* out);

}  // namespace errdex
