// Twins: sites raising the same message that nothing in a paste separates (docs/matching.md, "Twins").
// The one users meet is the one reached most directly from the public API (SiteRow::reach_calls and
// reach_entries, written by the analysis): from the most public functions (the most ways in), then by the
// fewest calls from one; a site with a known reach before one without. (Fewest calls first was measured
// worse: a public function raising the message itself beat the private `_run` that every public `run*`
// method reaches, docs/benchmarks.md.)
//
// Threading: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "match/pasted_error.h"

namespace errdex {

// Whether A is reached more directly than B (a strict order; false when neither is).
bool MoreDirectlyReached(const SiteRow& a, const SiteRow& b);

// Whether the site's file is the module that defines the pasted class (`queue.py` for `_queue.Empty`, a C
// accelerator's class being its module's): among twins, a class is most often raised where it is defined.
// False for a bare type.
bool InModuleOfPastedType(const SiteRow& site, std::string_view pasted_type);

// The names the code lines of FRAMES call, as written before `(` (the last component of a dotted name:
// `Header` for `hmac_header: str = fastapi.Header(`), in order, without repeats. A warning's display shows
// the caller's line (its stacklevel), a traceback the user's calls into a library.
std::vector<std::string> CalledNames(const std::vector<TracebackFrame>& frames);

// The first of CALLED that SITE is reached through (SiteRow::reach_via: the public functions reaching a
// twin), "" when none: the paste's own call of `Header` picks the twin `Header` reaches.
std::string ReachedThrough(const SiteRow& site, const std::vector<std::string>& called);

// "reached from 4 public functions, the nearest 1 call away" (or "raised in a public function"), for `why`;
// "" when the site has no reach.
std::string DescribeReach(const SiteRow& site);

}  // namespace errdex
