// The site's two static files, compiled in: the stylesheet (static/errdex.css: light and dark colour
// schemes, one column on a phone) and the client-side search script of the static export
// (static/errdex.js). Pages load them as files, so the Content-Security-Policy needs no inline code.
#pragma once

#include <string_view>

namespace errdex::web {

std::string_view StylesheetCss();
std::string_view SearchScriptJs();

}  // namespace errdex::web
