// Backslash escapes of JSON strings and Python reprs, and quoted string literals, as pastes show them
// (the printed exceptions of python/printed_exception.h; the paste reader decodes tracebacks held in JSON
// strings with them).
// Decoding appends to a caller-owned std::string; invalid escapes are kept as written. Pure functions,
// safe from any thread; time linear in the text read.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace errdex::python_paste {

// S[I] is a backslash: appends what the escape stands for (or the escape as written when it is not one)
// and returns the index after it.
size_t DecodeEscapeAt(std::string_view s, size_t i, std::string* out);

// True when every backslash of S starts a well-formed escape: the text was escaped (JSON, repr) rather
// than holding raw Windows paths.
bool LooksEscaped(std::string_view s);

// A quoted string starting at S[I] (a quote, possibly tripled). With NEED_BOUNDARY the closing quote must
// be followed by something that cannot continue a word (a message quoted in a log line may hold
// apostrophes). Appends the body to OUT (escapes decoded when DECODE) and returns the index after the
// closing quote, or S.size() when it is missing.
size_t ReadQuoted(std::string_view s, size_t i, bool decode, bool need_boundary, std::string* out);

}  // namespace errdex::python_paste
