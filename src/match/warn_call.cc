#include "match/warn_call.h"

#include <fmt/format.h>

#include <charconv>

#include "match/type_agreement.h"

namespace errdex {

std::optional<WarnCall> IssuedAtWarnCall(const SiteRow& site) {
  if (!site.via || site.kind != "warn" || LastComponent(site.function) != "warn") return std::nullopt;
  // `via` is "path:line in function".
  const std::string& via = *site.via;
  const size_t in = via.find(" in ");
  const size_t colon = via.rfind(':', in);
  if (in == std::string::npos || colon == std::string::npos || colon == 0) return std::nullopt;
  int line = 0;
  const char* first = via.data() + colon + 1;
  const char* last = via.data() + in;
  if (auto [end, ec] = std::from_chars(first, last, line); ec != std::errc() || end != last || line <= 0) {
    return std::nullopt;
  }
  WarnCall out{site, fmt::format("the warning is issued by this call, through the helper {} ({}:{}), which hands "
                                 "the instance to the warnings machinery",
                                 site.function, site.path, site.line)};
  out.site.path = via.substr(0, colon);
  out.site.line = line;
  out.site.end_line = line;
  out.site.col = 0;
  out.site.function = via.substr(in + 4);
  out.site.via.reset();
  out.site.blob_id.reset();  // the snippet is the helper's file's
  return out;
}

}  // namespace errdex
