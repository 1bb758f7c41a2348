// The version step of `errdex explain` (docs/matching.md "Across versions"): a post-processing pass over
// an explanation, for repositories indexed at several revisions (`errdex index --releases`). A match
// found in an older revision (its wording, path or lines) is answered at the NEWEST revision's successor
// site, following the stored lineage (docs/catalog.md "Lineage"), with the revision it matched, the
// wording it matched and the changes since; an error removed since says so and keeps its last site; a
// traceback whose lines fit some releases only names the probable version.
//
// Threading: uses the given catalog, which belongs to the calling thread.
#pragma once

#include <vector>

#include "catalog/catalog.h"
#include "match/explainer.h"
#include "match/pasted_error.h"

namespace errdex {

// Rewrites the matches of *EXPLANATION (ExplainMatch::versions, site, error_id, template_text, why).
// FRAMES: the traceback of the exception explained (may be empty). Scores and order are unchanged; a
// match whose successor is already an earlier match's error is dropped.
void ApplyVersionStep(Catalog& catalog, const std::vector<TracebackFrame>& frames, Explanation* explanation);

}  // namespace errdex
