// Line classification, the input of the parser's state machine (internal to src/match/): what one
// content line of a paste is (a traceback header, a frame in one of the printed styles, a pytest location,
// an IPython or rich arrow, caret markers, a separator, ...) and the fields it shows. A Line's views point
// into the caller's text, which must outlive it. Pure functions, safe from any thread, linear in the line.
#pragma once

#include <cstddef>
#include <string_view>

#include "match/log_prefix.h"
#include "match/pasted_error.h"

namespace errdex::match_internal {

enum class Kind {
  kBlank,
  kHeader,
  kChain,
  kSeparator,
  kSentry,
  kSkip,
  kFrame,
  kPytestLocation,
  kPytestE,
  kCaret,
  kArrow,
  kText
};
enum class FrameStyle { kNone, kPython, kIPython, kPytest, kPytestLong };
enum class LocKind { kInFunc, kBare, kType, kTypeMessage };

// One content line of the input: its 1-based number, its prefixes, and what Classify made of it.
struct Line {
  int number = 0;
  LineInfo info;
  std::string_view content;
  std::string_view trimmed;
  size_t indent = 0;
  Kind kind = Kind::kText;
  std::string_view header_type;  // kHeader: IPython's `ValueError    Traceback (most recent call last)`
  bool group_header = false;
  bool test_boundary = false;  // kSeparator between pytest tests
  TracebackFrame frame;        // kFrame, kPytestLocation
  FrameStyle style = FrameStyle::kNone;
  LocKind loc = LocKind::kBare;
  std::string_view loc_type, loc_message;
  bool boxed = false;   // inside a box of a rich traceback, or a loguru annotation (`│`, `└`)
  size_t e_spaces = 0;  // kPytestE
  std::string_view e_text;
  int arrow_line = 0;  // kArrow
  std::string_view arrow_code;
};

// The vertical border of rich's boxes (also stripped by the state machine).
inline constexpr std::string_view kBoxVertical = "\u2502";  // │

// Fills L's trimmed text, indent, kind and the fields of that kind from L->content. GROUP_SEPARATOR: the
// caller saw a separator between the members of an exception group.
void Classify(Line* l, bool group_separator);

}  // namespace errdex::match_internal
