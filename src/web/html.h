// HTML and URL text for the web pages (src/web): the one escaping function every page uses for repository
// content and user input, URL encodings, and the check that decides whether a URL may become a link.
//
// Threading: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace errdex::web {

// The escaping function: appends TEXT to OUT so that it is inert in HTML text and in double- or
// single-quoted attribute values. & < > " ' become character references; invalid UTF-8 and control
// characters other than tab, newline and carriage return become U+FFFD.
void AppendEscaped(std::string& out, std::string_view text);
// The same, as a new string.
std::string Escape(std::string_view text);

// One byte as %XX (upper-case hex), and the value of one hex digit (-1 when C is not one): the pieces
// every URL encoding here is made of.
void AppendPercentByte(std::string& out, unsigned char byte);
int HexDigitValue(char c);

// Percent-encodes every byte outside RFC 3986's unreserved set (A-Z a-z 0-9 - . _ ~); with KEEP_SLASH,
// '/' is kept too. The result is plain ASCII, safe in a URL path or query value.
std::string PercentEncode(std::string_view text, bool keep_slash = false);
// Decodes %XX sequences (a malformed one is kept as it is); with PLUS_IS_SPACE, '+' becomes a space
// (application/x-www-form-urlencoded).
std::string PercentDecode(std::string_view text, bool plus_is_space = false);
// The name=value pairs of an application/x-www-form-urlencoded body or query string, decoded.
std::vector<std::pair<std::string, std::string>> ParseFormEncoded(std::string_view body);

// URL when it may be used as a link target to the outside: an absolute http or https URL whose host part
// is not empty, without whitespace or control characters. Anything else (javascript:, data:, relative,
// malformed) gives nullopt: the page then shows the text without a link.
std::optional<std::string> SafeExternalUrl(std::string_view url);

// TEXT cut to at most MAX_BYTES on a word (else UTF-8) boundary, with "…" when cut.
std::string ShortenText(std::string_view text, size_t max_bytes);

}  // namespace errdex::web
