// UTF-8 validation for untrusted input.
#pragma once

#include <string>
#include <string_view>

namespace errdex {

// True when TEXT is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool IsValidUtf8(std::string_view text);

// Length of the well-formed UTF-8 sequence starting at S[I] (1 for ASCII), 0 when there is none:
// overlong forms, surrogates, code points above U+10FFFF and truncated sequences are not well formed.
size_t Utf8SequenceLength(std::string_view s, size_t i);

// Appends the UTF-8 encoding of CODE_POINT (invalid or surrogate code points become U+FFFD).
void AppendUtf8(unsigned long code_point, std::string* out);

// TEXT when it has at most MAX_BYTES bytes; else its longest prefix that ends on a UTF-8 boundary and
// leaves room for a final "…", followed by "…" (so the result never exceeds MAX_BYTES, MAX_BYTES >= 3).
std::string CutUtf8(std::string_view text, size_t max_bytes);

}  // namespace errdex
