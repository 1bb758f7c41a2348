// How directly each site is reached from the public API (docs/analysis.md, "Reach"): the number of calls
// on the shortest call path from a public function to the site's function (0 when that function is public
// itself), and how many public functions reach it (each is the first public function on its way, so a
// public wrapper of a public function does not count again). `explain` ranks twins with it — sites raising
// the same message that nothing in a paste separates: the one reached from more of the API, then by fewer
// calls, is the one users meet (match/twin_order.h).
//
// Paths are those of analysis/call_paths.h (certain calls first; possible calls counted too), within
// kReachMaxDepth calls and kReachMaxEntries entry points. Test sites and module-level code get no reach.
//
// Threading: runs on the calling thread; the model is immutable. Ownership: borrows MODEL for the call.
#pragma once

#include <vector>

#include "analysis/code_model.h"
#include "catalog/catalog.h"

namespace errdex {

inline constexpr int kReachMaxDepth = 6;
inline constexpr size_t kReachMaxEntries = 16;

// Fills SiteRow::reach_calls and reach_entries of every site outside tests that a public function reaches.
void SetSiteReach(const CodeModel& model, std::vector<SiteRow>& sites);

}  // namespace errdex
