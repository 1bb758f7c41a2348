// UTF-8 validation for untrusted input.
#pragma once

#include <string_view>

namespace errdex {

// True when TEXT is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool IsValidUtf8(std::string_view text);

}  // namespace errdex
