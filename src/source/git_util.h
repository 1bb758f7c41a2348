// Small libgit2 helpers shared by the sources (internal to src/source/).
#pragma once

#include <string>

struct git_repository;

namespace errdex::source_internal {

// Initializes libgit2 once for the whole process; cheap and thread-safe after the first call.
void EnsureLibgit2();

// libgit2's last error message on this thread, on one line ("unknown error" when there is none).
std::string LastGitError();

// TEXT with each control character (newline, tab, ...) replaced by '?', for one-line messages.
std::string OneLine(std::string text);

// The last component of PATH (trailing '/' ignored) without a ".git" suffix: "/x/proj.git/" -> "proj".
std::string FolderName(const std::string& path);

// Fills default_name and web_url from REPO's "origin" remote. Returns false (and leaves them untouched)
// when there is no origin or its URL names no owner/name.
bool NamesFromOrigin(git_repository* repo, std::string* default_name, std::string* web_url);

}  // namespace errdex::source_internal
