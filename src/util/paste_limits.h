// How much of a pasted error is read (docs/input-formats.md): longer lines are cut, longer messages
// truncated, and only the innermost frames are kept. Shared by the language-neutral paste reader
// (src/match/pasted_error.h) and the language formats below it (src/python/traceback_line.h,
// src/python/printed_exception.h), so that every layer cuts at the same sizes. Constants only.
#pragma once

#include <cstddef>

namespace errdex {

inline constexpr size_t kPastedMaxLineBytes = size_t{1} << 20;
inline constexpr size_t kPastedMaxMessageBytes = size_t{64} << 10;
inline constexpr size_t kPastedMaxFrames = 200;
inline constexpr size_t kPastedMaxFieldBytes = 4096;  // a frame's path, function and code
inline constexpr size_t kPastedMaxExceptions = 64;    // per ParsePastedError result: the last ones

}  // namespace errdex
