// The Python files git sees as renamed between two commits (rename detection by content similarity),
// for the lineage of errors across releases (docs/catalog.md "Lineage").
//
// Threading: each call opens its own libgit2 repository; calls are independent.
#pragma once

#include <map>
#include <string>

namespace errdex {

// Fills *RENAMES with old path -> new path for the *.py files renamed (50% similar or more) from
// OLD_COMMIT to NEW_COMMIT in the repository at GIT_PATH. At most 20000 files are compared, so that a
// huge reorganisation stays bounded. Returns false and sets *error when a commit cannot be read.
bool PythonRenames(const std::string& git_path, const std::string& old_commit, const std::string& new_commit,
                   std::map<std::string, std::string>* renames, std::string* error);

}  // namespace errdex
