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
// The paste reader of src/match/ hands over the paste's lines with ANSI escapes and log prefixes removed
// (match/cleo_paste.h).
//
// Threading: a pure function. Linear in the input; fields are cut to the paste limits
// (util/paste_limits.h). The result is a plain value owned by the caller.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace errdex::python_paste {

struct CleoReport {
  std::string type;
  std::string message;   // the lines under the class name, joined with '\n'
  int message_line = 0;  // 1-based line of the first of them
  std::string path;      // of the `at` line: the frame of the raise
  int line = 0;
  std::string function;
  std::string code;  // the arrowed source line; "" when none
};

// The last Cleo report in LINES (the lines of a paste, cleaned), or nothing.
std::optional<CleoReport> ParseCleoReport(const std::vector<std::string>& lines);

}  // namespace errdex::python_paste
