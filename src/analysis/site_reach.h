// How directly each site is reached from the public API (docs/analysis.md, "Reach"): the number of calls
// on the shortest call path from a public function to the site's function (0 when that function is public
// itself), and how many public functions reach it (each is the first public function on its way, so a
// public wrapper of a public function does not count again). `explain` ranks twins with it — sites raising
// the same message that nothing in a paste separates: the one reached from more of the API, then by fewer
// calls, is the one users meet (match/twin_order.h).
//
// With the call graph (an index run with the analysis), paths are those of analysis/graph_triggers.h for
// the site itself: a call whose arguments make the site's path condition decidably false is not followed,
// so of two twins in one function, the one a public call cannot reach gets no reach from it; and the count
// is of every public function that reaches the site within the bounds (GraphTriggers::PublicReachers, at
// most kReachMaxPublicReachers), wrappers of public functions included: a private `_run` behind every
// public `run*` method outranks a public `remove` that raises the same text itself. For twins (an error
// raised at several places of the revision), SiteRow::reach_via names those public functions as a caller
// writes them, so that a paste's own call into the library can pick one (match/twin_order.h). A site whose
// message a caller supplies (`via`) is reached through that caller (analysis/site_paths.h). Without the
// graph, paths are those of analysis/call_paths.h on the code model. Either way certain calls come first
// and possible calls count too, within kReachMaxDepth calls and kReachMaxEntries entry points. Test sites
// and module-level code get no reach.
//
// Threading: runs on the calling thread; the model is immutable, TRIGGERS (may be null) memoizes its
// searches. Ownership: borrows every argument for the call.
#pragma once

#include <vector>

#include "analysis/code_model.h"
#include "analysis/graph_triggers.h"
#include "catalog/catalog.h"

namespace errdex {

inline constexpr int kReachMaxDepth = 6;
inline constexpr size_t kReachMaxEntries = 16;
inline constexpr size_t kReachMaxPublicReachers = 64;

// Fills SiteRow::reach_calls and reach_entries of every site outside tests that a public function reaches.
// FILES are the model's files, whose facts hold each site's path condition (used with TRIGGERS only).
void SetSiteReach(const CodeModel& model, const std::vector<CodeModel::File>& files, GraphTriggers* triggers,
                  std::vector<SiteRow>& sites);

}  // namespace errdex
