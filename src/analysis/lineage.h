// The lineage of errors across two revisions of a repository (docs/catalog.md "Lineage"): which error
// of the newer revision each error of the older one became. The same error id is the same error; an
// error whose template changed, whose file moved (git rename, or the same module under a moved package:
// `pytorch_lightning/trainer/x.py` -> `src/lightning/pytorch/trainer/x.py`) or whose function was
// renamed is linked by site identity: module, function, exception type, position among the function's
// raises and template similarity, with a confidence. What is left of the older revision was removed;
// what is left of the newer one was added.
//
// Pure functions over the given sites; thread-compatible.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace errdex {

// One error of a revision, at its primary site (the first outside tests by path and line).
struct LineageSite {
  std::string error_id;
  std::string path;
  std::string module;      // dotted module name of the path ("" when unknown)
  std::string function;    // qualified name in its module ("Class.method"), "<module>" at top level
  std::string type;        // the exception type's last component ("ValueError"); "" when none
  std::string normalized;  // NormalizeTemplate of the template; "" when the site has no message
  int line = 0;
  int ordinal = 0;  // position of this raise among the raises of its function, by line (0-based)
};

// A link from OLD[from] to NEW[to]; a removed error has no `to`, an added one no `from`.
struct LineageLink {
  std::optional<size_t> from, to;
  // What changed, comma-separated: "reworded" (template), "moved" (path), "renamed" (function),
  // "retyped" (exception type); "" when nothing did. "removed" or "added" for the unlinked.
  std::string changes;
  double confidence = 1;  // 1 for the same error id; lower for a link by site identity
};

// The errors of SITES (one revision's rows, tests excluded) at their primary sites, with ordinals.
// MODULE_OF maps a path to its module name.
std::vector<LineageSite> LineageSitesOf(const std::vector<SiteRow>& sites,
                                        const std::map<std::string, std::string>& module_of);

// Word-level similarity of two normalized templates in [0, 1] (Dice coefficient of their words).
double TemplateSimilarity(const std::string& a, const std::string& b);

// Links every error of OLD_SITES and NEW_SITES (each error once). RENAMES: old path -> new path from git.
// Linear in the sizes for unchanged errors; the others are compared within buckets of the same type or
// function name.
std::vector<LineageLink> MatchLineage(const std::vector<LineageSite>& old_sites,
                                      const std::vector<LineageSite>& new_sites,
                                      const std::map<std::string, std::string>& renames);

}  // namespace errdex
