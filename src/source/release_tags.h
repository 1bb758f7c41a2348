// The release tags of a git repository (`errdex index --releases N`, docs/catalog.md "Versions"): tags
// whose name reads as a version ("v1.2.3", "1.2", "2.0.0rc1"), ordered by that version.
//
// Threading: each call opens its own libgit2 repository; calls are independent.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/version_name.h"

namespace errdex {

struct ReleaseTag {
  std::string name;    // the tag as written: "v1.2.3"
  std::string commit;  // hex id of the commit it points at (annotated tags peeled)
  int64_t time = 0;    // committer time of that commit, seconds since the epoch
  VersionName version;
};

// The COUNT newest release tags of the repository at GIT_PATH older than REV (its commit's ancestors,
// or commits made before it), newest first; REV's own commit is never one of them. Pre-releases only
// when INCLUDE_PRE. Tags naming the same commit count once (the highest version; of equal ones, the
// first name in byte order). Fills *REV_TAG with
// REV as written, its commit and time (its version when REV reads as one). Returns false and sets *error when the
// repository or REV cannot be read.
bool SelectReleaseTags(const std::string& git_path, const std::string& rev, int count, bool include_pre,
                       std::vector<ReleaseTag>* tags, ReleaseTag* rev_tag, std::string* error);

}  // namespace errdex
