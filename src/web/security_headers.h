// The headers every answer of `errdex serve` carries (docs/web.md, "Security"), whoever writes it: the
// route handlers through httplib (web/server.cc) or the front end itself (web/plain_response.h).
//
// Threading: immutable data.
#pragma once

#include <string_view>
#include <utility>

namespace errdex::web {

inline constexpr std::string_view kContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

inline constexpr std::pair<std::string_view, std::string_view> kSecurityHeaders[] = {
    {"X-Content-Type-Options", "nosniff"},
    {"Content-Security-Policy", kContentSecurityPolicy},
    {"Referrer-Policy", "no-referrer"},
    {"X-Frame-Options", "DENY"},
};

}  // namespace errdex::web
