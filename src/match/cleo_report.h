// The error report of Cleo, the console library of Poetry (docs/input-formats.md, "Cleo reports"):
//
//     EnvCommandError
//
//     Command [...] errored with the following return code 1, and output:
//     ...
//
//     at ~/.../poetry/utils/env.py:1195 in _run
//         1191│                 output = subprocess.check_output(
//       → 1195│             raise EnvCommandError(e, input=input_)
//
// The class name alone on a line, the message indented under it, then `at PATH:LINE in FUNCTION` and
// the source around the raise with an arrow at its line.
//
// Threading: a pure function. Linear in the input; fields are cut to the paste limits.
#pragma once

#include <optional>
#include <string_view>

#include "match/pasted_error.h"

namespace errdex::match_internal {

// The last Cleo report in TEXT (its exception with the one frame Cleo shows), or nothing.
std::optional<PastedException> ParseCleoReport(std::string_view text);

}  // namespace errdex::match_internal
