// A paste read as a report of Cleo, Poetry's console library (docs/input-formats.md, "Cleo reports"): the
// paste's lines with ANSI escapes and log prefixes removed (internal to src/match/), handed to the
// report's grammar in python/cleo_report.h, and its result as a PastedException with the one frame Cleo
// shows.
//
// Threading: a pure function. Linear in the input; fields are cut to the paste limits.
#pragma once

#include <optional>
#include <string_view>

#include "match/pasted_error.h"

namespace errdex::match_internal {

// The last Cleo report in TEXT, or nothing.
std::optional<PastedException> ParseCleoPaste(std::string_view text);

}  // namespace errdex::match_internal
