// How the user's program reached a library, from a traceback's frames (docs/environments.md): the user's
// own frames (not below site-packages, dist-packages or the stdlib) and then the library frames, as
// "your code: app.py:12 → requests.api.get → … → requests.adapters.HTTPAdapter.send (requests/adapters.py:729)".
//
// Threading: pure function.
#pragma once

#include <string>
#include <vector>

#include "match/pasted_error.h"

namespace errdex {

// "" when the frames show no user code followed by installed code. At most the last 3 user frames and
// the first and last 2 library frames are named; the others are "…". Every piece is cut at 120 bytes.
std::string UserCodeRoute(const std::vector<TracebackFrame>& frames);

}  // namespace errdex
