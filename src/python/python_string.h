// Decoding of Python string literals: prefixes, quotes and escape sequences, as CPython reads them.
#pragma once

#include <string>
#include <string_view>

namespace errdex {

struct StringPrefix {
  bool raw = false;
  bool bytes = false;
  bool format = false;   // f-string
  size_t quote_len = 1;  // 1 or 3
};

// Parses the opening token of a literal (`rb'`, `f"""`, `"`). Unknown letters are ignored.
StringPrefix ParseStringPrefix(std::string_view start_token);

// Decodes a piece of a literal's body to its UTF-8 value: escape sequences (unless raw), `\N{...}` kept
// as written, bytes above 0x7f of a bytes literal read as Latin-1, and in f-strings `{{`/`}}` as single
// braces. Source newlines (`\r\n`, a lone `\r`) read as `\n`, as CPython reads them. Never fails: an
// invalid escape is kept as written.
std::string DecodeStringBody(std::string_view body, const StringPrefix& prefix);

}  // namespace errdex
