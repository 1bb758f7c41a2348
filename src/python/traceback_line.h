// The lines of Python's printed tracebacks, as pastes show them (docs/input-formats.md): what one content
// line is (a traceback header, a frame in one of its printed styles — CPython, IPython old and new, rich,
// Cython, a frame line cut by the paste —, a pytest location or `E   ` line, a warnings line
// `path:N: SomeWarning: msg`, an IPython or rich arrow, caret markers, a separator, a chain separator, ...)
// and the fields it shows. This is the grammar; the words it looks for are python/traceback_vocabulary.h.
// The paste reader of src/match/ (log prefixes already peeled off) turns a sequence of these into
// exceptions; another language would give the same TraceLine kinds from its own folder.
//
// Ownership: a TraceLine's views point into the content it was read from, which must outlive it. Pure
// functions, safe from any thread, linear in the line.
#pragma once

#include <cstddef>
#include <string_view>

namespace errdex::python_paste {

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

// A frame as one line shows it: views, not yet cut to the paste limits.
struct FrameFields {
  std::string_view path;      // may be empty (a frame line cut by the paste)
  int line = 0;               // 0 when the line shows none
  std::string_view function;  // IPython's "(args)" removed; may be empty
};

struct TraceLine {
  std::string_view trimmed;  // the content without surrounding blanks
  size_t indent = 0;
  Kind kind = Kind::kText;
  std::string_view header_type;  // kHeader: IPython's `ValueError    Traceback (most recent call last)`
  bool group_header = false;
  bool test_boundary = false;  // kSeparator between pytest tests
  FrameFields frame;           // kFrame, kPytestLocation
  FrameStyle style = FrameStyle::kNone;
  LocKind loc = LocKind::kBare;
  std::string_view loc_type, loc_message;
  size_t e_spaces = 0;  // kPytestE
  std::string_view e_text;
  int arrow_line = 0;  // kArrow
  std::string_view arrow_code;
};

// The vertical border of rich's boxes (also stripped by the paste reader).
inline constexpr std::string_view kBoxVertical = "\u2502";  // │

// Exception groups print `  | ` before every line of a member and `  +-+---- 1 ----` between members.
struct GroupGutter {
  std::string_view content;  // the line without its gutter (the line itself when it has none)
  bool separator = false;    // a line between members
  bool outside = false;      // a line that is not part of the group: the group has ended
};
// CONTENT, read as a line inside an exception group.
GroupGutter ReadGroupGutter(std::string_view content);

// A line inside a box of a rich traceback (`│ ... │`) or under a loguru variable annotation (`│   └ 42`):
// true, and *CONTENT without the box's borders when it has them.
bool ReadBoxBorder(std::string_view* content);

// IPython's numbered source context line under a frame (`     12 code`).
bool IsNumberedContextLine(std::string_view trimmed);

// What CONTENT (one line, log prefixes removed) is. GROUP_SEPARATOR: the caller saw a separator between
// the members of an exception group (the line is then a kSeparator).
TraceLine ClassifyTraceLine(std::string_view content, bool group_separator);

}  // namespace errdex::python_paste
