// Links to a line of a file at a pinned commit on the repository's forge.
#pragma once

#include <optional>
#include <string>

namespace errdex {

// "https://github.com/o/n/blob/SHA/path#L12" (GitHub, Gitea, Codeberg and unknown forges),
// "/-/blob/" for GitLab, "/src/SHA/path#lines-12" for Bitbucket. Null without a URL or a commit.
std::optional<std::string> Permalink(const std::optional<std::string>& web_url,
                                     const std::optional<std::string>& commit, const std::string& path, int line);

}  // namespace errdex
