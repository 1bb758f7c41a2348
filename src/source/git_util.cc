#include "source/git_util.h"

#include <git2.h>

#include <utility>

#include "source/remote_url.h"

namespace errdex::source_internal {

void EnsureLibgit2() {
  // A function-local static is initialized exactly once, even with concurrent first callers. libgit2 is
  // never shut down: other threads may still use it while the process exits.
  static const int init_result = [] {
    const int result = git_libgit2_init();
    // Blobs are read by the ids their trees name, as `git cat-file` reads them: re-hashing every object
    // read (libgit2's default) cost 2% of an index run (docs/benchmarks.md, "Extraction speed"); zlib's
    // checksum of each stored object still catches damaged data.
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
    return result;
  }();
  (void)init_result;
}

std::string LastGitError() {
  const git_error* e = git_error_last();
  if (e == nullptr || e->message == nullptr || e->message[0] == '\0') return "unknown error";
  std::string message = e->message;
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r' || message.back() == ' ')) {
    message.pop_back();
  }
  return OneLine(std::move(message));
}

std::string OneLine(std::string text) {
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return text;
}

std::string FolderName(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  const size_t slash = p.rfind('/');
  std::string name = slash == std::string::npos ? p : p.substr(slash + 1);
  if (name.size() > 4 && name.compare(name.size() - 4, 4, ".git") == 0) name.resize(name.size() - 4);
  return name;
}

bool NamesFromOrigin(git_repository* repo, std::string* default_name, std::string* web_url) {
  git_remote* remote = nullptr;
  if (git_remote_lookup(&remote, repo, "origin") != 0) {
    git_error_clear();
    return false;
  }
  const char* url = git_remote_url(remote);
  RemoteName parsed;
  const bool ok = url != nullptr && ParseRemoteUrl(url, &parsed);
  git_remote_free(remote);
  if (!ok) return false;
  *default_name = parsed.name;
  *web_url = parsed.web_url;
  return true;
}

}  // namespace errdex::source_internal
