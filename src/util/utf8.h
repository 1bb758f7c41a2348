// UTF-8 validation for untrusted input.
#pragma once

#include <string>
#include <string_view>

namespace errdex {

// True when TEXT is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool IsValidUtf8(std::string_view text);

// Appends the UTF-8 encoding of CODE_POINT (invalid or surrogate code points become U+FFFD).
void AppendUtf8(unsigned long code_point, std::string* out);

}  // namespace errdex
