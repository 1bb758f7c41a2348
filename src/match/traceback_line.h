// One content line of a paste as the parser's state machine reads it (internal to src/match/): its
// 1-based number, its log prefixes (log_prefix.h), and what the language's line grammar
// (python/traceback_line.h: a traceback header, a frame, a pytest location, an arrow, ...) made of it,
// with the frame's fields cut to the paste limits. A Line's views point into the caller's text, which must
// outlive it. Pure functions, safe from any thread, linear in the line.
#pragma once

#include <cstddef>
#include <string_view>

#include "match/log_prefix.h"
#include "match/pasted_error.h"
#include "python/traceback_line.h"

namespace errdex::match_internal {

using python_paste::FrameStyle;
using python_paste::kBoxVertical;
using python_paste::Kind;
using python_paste::LocKind;

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

// Fills L's trimmed text, indent, kind and the fields of that kind from L->content. GROUP_SEPARATOR: the
// caller saw a separator between the members of an exception group.
void Classify(Line* l, bool group_separator);

}  // namespace errdex::match_internal
