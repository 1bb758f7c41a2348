// The answers `errdex serve` gives without a handler (web/http_front_end.h: a head too large, a request
// too slow, no room for another connection or request): a complete HTTP/1.1 response with a short
// text/plain body, the security headers of every answer (web/security_headers.h) and `Connection: close`.
//
// Threading: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace errdex::web {

// The reason phrase of STATUS ("Service Unavailable"), "Error" for one not known here.
const char* ReasonPhrase(int status);

// STATUS with MESSAGE (plain text, one line) as body; RETRY_AFTER_SECONDS > 0 adds `Retry-After`.
std::string PlainResponse(int status, std::string_view message, int retry_after_seconds = 0);

}  // namespace errdex::web
