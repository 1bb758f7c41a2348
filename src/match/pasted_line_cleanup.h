// Line clean-up, the first step of reading a pasted error (internal to src/match/): removes ANSI escape
// sequences, and turns one physical line into the logical lines it stands for when it holds a traceback
// escaped inside a JSON or repr string (`\n` escapes) or flattened onto one line (split by
// python/flattened_traceback.h). Output goes to caller-owned strings; pure functions, safe from any
// thread, time linear in the line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace errdex::match_internal {

// ANSI escape sequences: CSI, OSC/DCS strings, two- and three-byte escapes; also SGR colour codes whose ESC
// byte was lost on the way into an issue (`[0;31mValueError[0m`). Replaces OUT
// with S without them.
void StripAnsi(std::string_view s, std::string* out);

// Appends to OUT the logical lines LINE stands for: an escaped traceback decoded and split (only when
// DEPTH < 2: callers pass 0, escaped tracebacks nested inside escaped ones are decoded once more), a
// flattened traceback split into header, frame, code and exception lines, else LINE itself.
void ExpandLine(std::string_view line, int depth, std::vector<std::string>* out);

}  // namespace errdex::match_internal
