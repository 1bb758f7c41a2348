// Log prefixes, the second step of reading a pasted error (internal to src/match/): peels timestamps,
// levels, logger and process names, container (docker-compose, kubectl, Heroku) and journald prefixes,
// glog headers and markdown quotes off one logical line, and says what they showed. The returned
// LineInfo's content is a view into the caller's line. Pure function, safe from any thread, linear in
// the line.
#pragma once

#include <string>
#include <string_view>

namespace errdex::match_internal {

struct LineInfo {
  std::string_view content;    // the line without its prefixes
  std::string key;             // container signature: lines of one message share it
  bool drop = false;           // a line holding only a timestamp (Cloud Logging exports)
  bool record_header = false;  // a log record starts here (level, pid, timestamp with level)
  bool error_level = false;    // ERROR, CRITICAL, `Error:` ...
  bool log_prefix = false;     // counts toward input_kind "log"
  bool pytest_marker = false;  // `>   code` (pytest's failing line)
};

// The prefixes of S, peeled off one after the other (at most ten rounds).
LineInfo StripPrefixes(std::string_view s);

}  // namespace errdex::match_internal
