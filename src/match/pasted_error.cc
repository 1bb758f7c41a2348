#include "match/pasted_error.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

#include "match/cleo_paste.h"
#include "match/log_prefix.h"
#include "match/pasted_line_cleanup.h"
#include "match/pasted_text.h"
#include "match/traceback_line.h"
#include "python/printed_exception.h"
#include "python/traceback_vocabulary.h"

// The parser works in three steps per input line (docs/input-formats.md):
//  1. normalisation (pasted_line_cleanup.h): ANSI escapes removed; a traceback held in one JSON or repr
//     string with `\n` escapes is decoded, and a traceback flattened onto one line is split, into the
//     logical lines they stand for;
//  2. prefixes (log_prefix.h): log prefixes (timestamps, levels, logger and process names, container and
//     journald prefixes, markdown quotes) are peeled off; what stays is the line's content;
//  3. a state machine over the contents, each classified first (traceback_line.h): idle, inside a
//     traceback (frames), inside a message.
// Every scan moves forward through its input or looks at a bounded window, so each line costs time
// linear in its length.

namespace errdex {

using namespace match_internal;  // NOLINT(google-build-using-namespace): the parser's own internals
using python_paste::ExcParse;
using python_paste::FindInLine;
using python_paste::HasLowercasedTypeSuffix;
using python_paste::HasTypeSuffix;
using python_paste::IsListed;
using python_paste::ParseAtStart;
using python_paste::ParseRaiseCode;
using python_paste::PythonTracebackVocabulary;
using python_paste::TypeRank;

namespace {

// `Type: message` at the start of T with a type Python-like enough to end a message or a code block.
bool StartsLikeException(string_view t) {
  ExcParse e;
  return ParseAtStart(t, TypeRank::kCamel, TypeRank::kStrong, &e);
}

enum class Mode { kIdle, kTraceback, kMessage };

// A line of the paste with its log prefixes peeled off (StripPrefixes), ANSI escapes removed and trailing
// space trimmed; NUMBER is its 1-based line in the paste. Lines a prefix drops are left out.
struct CleanLine {
  int number = 0;
  std::string content;
};

std::vector<CleanLine> CleanLines(string_view text) {
  std::vector<CleanLine> out;
  size_t bytes = 0;
  int line_no = 0;
  for (size_t start = 0; start < text.size() && bytes < kPastedMaxMessageBytes;) {
    size_t nl = text.find('\n', start);
    string_view raw = text.substr(start, nl == npos ? npos : nl - start);
    start = nl == npos ? text.size() : nl + 1;
    ++line_no;
    raw = CutUtf8(raw, kPastedMaxLineBytes);
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    std::string clean;
    StripAnsi(raw, &clean);
    std::vector<std::string> logical;
    ExpandLine(clean, 0, &logical);
    for (const std::string& piece : logical) {
      LineInfo info = StripPrefixes(piece);
      if (info.drop) continue;
      out.push_back({line_no, std::string(TrimRight(info.content))});
      bytes += out.back().content.size() + 1;
    }
  }
  return out;
}

// A section rule of pytest's report (`____ test_x ____`, `==== ERRORS ====`).
bool IsSectionRule(string_view t) {
  t = Trim(t);
  return t.size() >= 3 && (t.substr(0, 3) == "___" || t.substr(0, 3) == "===");
}

// Lines [FIRST, LAST) of a paste as the message of a report that embeds a traceback (cut at the message limit).
PastedException ReportOfLines(const std::vector<CleanLine>& lines, size_t first, size_t last) {
  PastedException report;
  report.message_line = lines[first].number;
  report.embeds_traceback = true;
  for (size_t k = first; k < last && report.message.size() < kPastedMaxMessageBytes; ++k) {
    if (k > first) report.message += '\n';
    report.message += CutUtf8(lines[k].content, kPastedMaxMessageBytes - report.message.size());
  }
  return report;
}

// A report a handler prints right above the short traceback of the exception it caught (pytest's "ImportError
// while loading conftest '...'." then the `path:N: in <module>` lines of the conftest's error;
// docs/input-formats.md): the paragraph above the first location line (lines at the margin), alone, as the
// message of an exception of its own. None when the first location line has no such text right above it.
std::optional<PastedException> ReportAboveTraceback(const std::vector<CleanLine>& lines) {
  for (size_t i = 0; i < lines.size(); ++i) {
    Line l;
    l.content = lines[i].content;
    Classify(&l, false);
    if (l.kind != Kind::kPytestLocation) continue;
    if (l.loc != LocKind::kInFunc) return std::nullopt;
    // The report starts its lines at the margin; an indented line is the source shown under a frame.
    auto is_report = [](string_view t) {
      return !Trim(t).empty() && t.front() != ' ' && t.front() != '\t' && !IsSectionRule(t);
    };
    size_t first = i;
    while (first > 0 && is_report(lines[first - 1].content)) --first;
    if (first == i) return std::nullopt;
    return ReportOfLines(lines, first, i);
  }
  return std::nullopt;
}

// A report that embeds the traceback of the error it wraps (pytest's collection error: "ImportError while
// importing test module '...'.", a hint, then `Traceback:` and the wrapped error's short traceback): its
// text, from the paragraph before the first embedded-traceback header to the end of that traceback (a blank
// line or a section rule), as the message of an exception of its own. None when the paste holds no such
// header or nothing before it; else the report printed above a short traceback (ReportAboveTraceback).
std::optional<PastedException> EmbeddingReport(string_view text) {
  const std::vector<CleanLine> lines = CleanLines(text);
  size_t header = 0;
  while (header < lines.size() &&
         !IsListed(PythonTracebackVocabulary().embedded_headers, Trim(lines[header].content))) {
    ++header;
  }
  if (header >= lines.size()) return ReportAboveTraceback(lines);
  if (header == 0) return std::nullopt;
  auto is_rule = IsSectionRule;
  size_t first = header;
  while (first > 0 && !Trim(lines[first - 1].content).empty() && !is_rule(lines[first - 1].content)) --first;
  if (first == header) return std::nullopt;
  size_t last = header + 1;
  while (last < lines.size() && !Trim(lines[last].content).empty() && !is_rule(lines[last].content)) ++last;
  return ReportOfLines(lines, first, last);
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
// The state machine.

// Blank lines a traceback's message may hold in a row (more end it: what follows is something else).
constexpr int kMaxBlankLinesInMessage = 2;

struct PastedErrorStream::State {
  bool one_paste = false;         // ParsePastedError: the whole text is one error report, not a log stream
  bool location_message = false;  // the open message began at `path:line: Type: message` (pytest warnings)
  // The last line indented deeper than such a message: the warning call's source, unless another deeper line
  // follows (then it was the message's, wrapped by a terminal: Python prints the source last).
  std::string location_source;
  struct Item {
    PastedException exc;
    int tier = 0;         // 3: shown by a traceback; 2: a strong `Type: message`; 1: weak type or untyped error line
    bool pytest = false;  // from `E   ` lines: a later `path:line: Type` completes it
    bool untyped_log = false;  // an ERROR-level log line without a type
    bool from_repr = false;    // `Type('message')`
  };

  int line_no = 0;
  std::string partial;  // FeedText: the line being assembled
  bool partial_any = false;
  bool partial_skip = false;

  Mode mode = Mode::kIdle;
  // The traceback being read.
  std::deque<TracebackFrame> frames;
  int last_code_line = 0;
  bool header_seen = false;
  std::string header_type;
  size_t tb_indent = 0;
  bool tb_record_header = false;  // the traceback's first line had a log prefix
  bool expect_code = false;
  size_t frame_indent = 0;
  FrameStyle style = FrameStyle::kNone;
  std::string marker_code;  // pytest: the last `>` line
  bool group_mode = false;
  bool chain_pending = false;
  // The exception whose message is being read.
  Item current;
  bool e_mode = false;
  size_t e_spaces = 0;
  std::string msg_key;
  size_t msg_indent = 0;
  bool message_full = false;
  bool await_message = false;  // `Type:` with nothing after it yet
  int pending_blanks = 0;      // blank lines inside a traceback's final message, kept if text follows
  bool django_value = false;   // an `Exception Value:` line completes the message
  // A complete exception that the next lines may still amend (Sentry frames, a pytest location, a
  // duplicate), and a message line printed just before a traceback (logger.exception, asyncio).
  std::optional<Item> lingering;
  bool sentry = false;
  std::optional<Item> preamble;
  std::vector<Item> out;
  // For ParsePastedError.
  int log_lines = 0;
  int independent_tracebacks = 0;

  void FeedLine(string_view raw);
  void Process(string_view logical, bool* counted);
  bool OnMessage(const Line& l);
  bool OnTraceback(const Line& l);
  bool OnTracebackText(const Line& l);
  void OnIdle(const Line& l);
  void OnIdleText(const Line& l);
  bool OnPytestLocation(const Line& l);
  void StartTraceback(const Line& l);
  void EnsureTraceback();
  void PushFrame(const Line& l, FrameStyle s);
  std::vector<TracebackFrame> TakeFrames();
  void ClearTraceback();
  void ResolveTraceback();
  void BeginMessage(const Line& l);
  void StartException(Item it);
  void StartPytestException(const Line& l);
  void AppendMessage(string_view text);
  void Finalize();
  void ResolveLingering();
  void FlushPreamble();
  void Emit(Item it);
  void Finish();
};

using Item = PastedErrorStream::State::Item;

void PastedErrorStream::State::FeedLine(string_view raw) {
  raw = CutUtf8(raw, kPastedMaxLineBytes);
  if (!raw.empty() && raw.back() == '\n') raw.remove_suffix(1);
  if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
  if (size_t cr = raw.rfind('\r'); cr != npos) raw = raw.substr(cr + 1);  // what a terminal shows
  ++line_no;
  std::string clean;
  StripAnsi(raw, &clean);
  std::vector<std::string> logical;
  ExpandLine(clean, 0, &logical);
  bool counted = false;
  for (std::string& text : logical) {
    if (text.find('\x1b') != npos) {
      std::string again;
      StripAnsi(text, &again);
      text.swap(again);
    }
    Process(text, &counted);
  }
}

void PastedErrorStream::State::Process(string_view logical, bool* counted) {
  Line l;
  l.number = line_no;
  l.info = StripPrefixes(logical);
  if (l.info.drop) return;
  if (l.info.log_prefix && !*counted) {
    ++log_lines;
    *counted = true;
  }
  l.content = l.info.content;
  bool group_separator = false;
  if (group_mode) {  // inside an exception group: its gutter off the line
    const python_paste::GroupGutter gutter = python_paste::ReadGroupGutter(l.content);
    l.content = gutter.content;
    group_separator = gutter.separator;
    if (gutter.outside) group_mode = false;
  }
  l.boxed = python_paste::ReadBoxBorder(&l.content);
  Classify(&l, group_separator);
  for (int pass = 0; pass < 4; ++pass) {
    bool done = true;
    switch (mode) {
      case Mode::kMessage:
        done = OnMessage(l);
        break;
      case Mode::kTraceback:
        done = OnTraceback(l);
        break;
      case Mode::kIdle:
        OnIdle(l);
        break;
    }
    if (done) break;
  }
}

bool PastedErrorStream::State::OnMessage(const Line& l) {
  switch (l.kind) {
    case Kind::kBlank:
      if (await_message) return true;  // `ImportError: ` then a blank line, then the message
      // Python prints the message of a traceback's exception as it is, blank lines included; so does a
      // paste of a strong `Type: message` alone (one paste, not a log); elsewhere a blank line ends it.
      if ((current.tier == 3 || (one_paste && current.tier == 2)) && !e_mode &&
          pending_blanks < kMaxBlankLinesInMessage) {
        ++pending_blanks;
        return true;
      }
      Finalize();
      return true;
    case Kind::kPytestE:
      if (e_mode) {
        string_view text = l.content.substr(1);
        size_t strip = std::min(e_spaces, IndentOf(text));
        AppendMessage(text.substr(strip));
        return true;
      }
      Finalize();
      return false;
    case Kind::kSentry:
      Finalize();
      sentry = lingering.has_value();
      return true;
    case Kind::kCaret:
    case Kind::kText:
    case Kind::kArrow:
    case Kind::kSkip:
      if (django_value && l.trimmed.starts_with(PythonTracebackVocabulary().django_value)) {  // Django's 500 page
        current.exc.message =
            Capped(Trim(l.trimmed.substr(PythonTracebackVocabulary().django_value.size())), kPastedMaxMessageBytes);
        current.exc.message_line = l.number;
        django_value = false;
        return true;
      }
      if (location_message && l.indent > msg_indent && !current.exc.frames.empty()) {
        if (!location_source.empty()) AppendMessage(location_source);
        location_source = Capped(l.trimmed, kPastedMaxFieldBytes);
        return true;
      }
      if (!location_source.empty()) {  // the entry ended with its source line
        Finalize();
        return false;
      }
      if (e_mode || l.boxed || l.info.record_header || l.info.key != msg_key || l.indent < msg_indent ||
          StartsLikeException(l.trimmed)) {
        Finalize();
        return false;
      }
      for (; pending_blanks > 0; --pending_blanks) AppendMessage("");
      AppendMessage(l.content.substr(std::min(l.indent, msg_indent)));
      return true;
    default:
      Finalize();
      return false;
  }
}

bool PastedErrorStream::State::OnTraceback(const Line& l) {
  switch (l.kind) {
    case Kind::kBlank:
      expect_code = false;
      return true;
    case Kind::kHeader:
    case Kind::kChain:
      ResolveTraceback();
      return false;
    case Kind::kSeparator:
      if (l.test_boundary) {
        ResolveTraceback();
        return false;
      }
      return true;
    case Kind::kSentry:
      sentry = lingering.has_value();
      return true;
    case Kind::kSkip:
    case Kind::kCaret:
      return true;
    case Kind::kFrame:
      PushFrame(l, l.style);
      return true;
    case Kind::kPytestLocation:
      return OnPytestLocation(l);
    case Kind::kPytestE:
      StartPytestException(l);
      return true;
    case Kind::kArrow:
      if (!frames.empty() && frames.back().code.empty()) {
        frames.back().code = Capped(l.arrow_code);
        if (frames.back().line == 0) frames.back().line = l.arrow_line;
        last_code_line = l.number;
      }
      return true;
    case Kind::kText:
      return OnTracebackText(l);
  }
  return true;
}

bool PastedErrorStream::State::OnTracebackText(const Line& l) {
  TracebackFrame* f = frames.empty() ? nullptr : &frames.back();
  if (style == FrameStyle::kPytest || style == FrameStyle::kPytestLong) {
    // pytest's source context: only the `>` line and the code under a short-format location matter.
    if (l.info.pytest_marker) {
      marker_code = Capped(l.trimmed);
    } else if (style == FrameStyle::kPytest && expect_code && f != nullptr && f->code.empty() &&
               l.indent > frame_indent) {
      f->code = Capped(l.trimmed);
      last_code_line = l.number;
    }
    return true;
  }
  if (l.boxed || (style == FrameStyle::kIPython && python_paste::IsNumberedContextLine(l.trimmed))) return true;
  const bool exc_like = StartsLikeException(l.trimmed);
  // A log record starting here ends the traceback, unless every line of it carries a log prefix.
  const bool new_record = l.info.record_header && !tb_record_header;
  if (expect_code && f != nullptr && !new_record && style != FrameStyle::kIPython && !exc_like) {
    if (f->code.empty()) {  // the source line under a frame (also when a paste lost its indentation)
      f->code = Capped(l.trimmed);
      last_code_line = l.number;
      return true;
    }
    if (l.indent > frame_indent) {  // Python 3.11+ shows multi-line expressions
      if (f->code.size() + 1 + l.trimmed.size() <= kPastedMaxFieldBytes) {
        f->code += '\n';
        f->code += l.trimmed;
      }
      return true;
    }
  }
  ExcParse e;
  bool django = false;
  const string_view django_type = PythonTracebackVocabulary().django_type;  // `Exception Type: ValueError at /x`
  if (l.trimmed.starts_with(django_type) && l.trimmed.substr(django_type.size()).starts_with(" ")) {
    string_view rest = l.trimmed.substr(django_type.size() + 1);
    size_t end = ScanDottedName(rest, 0);
    if (end > 0) {
      e.found = django = true;
      e.type = std::string(rest.substr(0, end));
    }
  }
  if (!e.found && !ParseAtStart(l.trimmed, TypeRank::kWord, TypeRank::kWord, &e)) {
    if (new_record || !header_seen || frames.empty() || l.indent < tb_indent) {
      ResolveTraceback();
      return false;
    }
    // Where Python prints the exception line, a line that is not `Type: message`: an untyped message.
    e.message = Capped(l.trimmed, kPastedMaxMessageBytes);
  }
  Item it;
  it.tier = 3;
  it.exc.type = e.type.empty() ? header_type : e.type;
  it.exc.message = std::move(e.message);
  it.exc.message_line = l.number;
  it.exc.frames = TakeFrames();
  ClearTraceback();
  BeginMessage(l);
  await_message = e.colon && it.exc.message.empty();
  StartException(std::move(it));
  django_value = django;
  return true;
}

bool PastedErrorStream::State::OnPytestLocation(const Line& l) {
  switch (l.loc) {
    case LocKind::kInFunc:
      EnsureTraceback();
      PushFrame(l, FrameStyle::kPytest);
      return true;
    case LocKind::kBare:
    case LocKind::kType: {
      TracebackFrame f = l.frame;
      f.code = std::move(marker_code);
      marker_code.clear();
      if (mode == Mode::kIdle && lingering && lingering->pytest) {  // the end of pytest's long report
        if (lingering->exc.frames.size() >= kPastedMaxFrames) {
          lingering->exc.frames.erase(lingering->exc.frames.begin());
        }
        lingering->exc.frames.push_back(std::move(f));
        if (lingering->exc.type.empty() && l.loc == LocKind::kType) lingering->exc.type = std::string(l.loc_type);
        return true;
      }
      EnsureTraceback();
      Line copy = l;
      copy.frame = std::move(f);
      PushFrame(copy, FrameStyle::kPytestLong);
      if (l.loc == LocKind::kType) {  // a report without `E` lines: the location names the type
        Item it;
        it.tier = 3;
        it.exc.type = std::string(l.loc_type);
        it.exc.frames = TakeFrames();
        ClearTraceback();
        BeginMessage(l);
        StartException(std::move(it));
        Finalize();
      }
      return true;
    }
    case LocKind::kTypeMessage: {
      if (mode == Mode::kTraceback) {
        ResolveTraceback();
        return false;
      }
      Item it;
      it.tier = 2;
      it.exc.type = std::string(l.loc_type);
      it.exc.message = Capped(l.loc_message, kPastedMaxMessageBytes);
      it.exc.message_line = l.number;
      it.exc.frames.push_back(l.frame);
      BeginMessage(l);
      StartException(std::move(it));
      // pytest's warnings summary goes on with the message's other lines at the same indentation, then
      // the warning call's source indented deeper: in one paste, read them.
      if (one_paste) {
        location_message = true;
      } else {
        Finalize();
      }
      return true;
    }
  }
  return true;
}

void PastedErrorStream::State::OnIdle(const Line& l) {
  switch (l.kind) {
    case Kind::kBlank:
    case Kind::kCaret:
    case Kind::kSkip:
    case Kind::kArrow:
      return;
    case Kind::kHeader:
      StartTraceback(l);
      return;
    case Kind::kChain:
      ResolveLingering();
      chain_pending = true;
      return;
    case Kind::kSeparator:
      ResolveLingering();
      return;
    case Kind::kSentry:
      sentry = lingering.has_value();
      return;
    case Kind::kFrame:
      EnsureTraceback();
      PushFrame(l, l.style);
      return;
    case Kind::kPytestLocation:
      OnPytestLocation(l);
      return;
    case Kind::kPytestE:
      StartPytestException(l);
      return;
    case Kind::kText:
      OnIdleText(l);
      return;
  }
}

void PastedErrorStream::State::OnIdleText(const Line& l) {
  if (l.info.pytest_marker) {
    marker_code = Capped(l.trimmed);
    return;
  }
  ExcParse e;
  bool found = ParseAtStart(l.trimmed, TypeRank::kCamel, TypeRank::kStrong, &e);
  if (found && e.rank < TypeRank::kStrong) {  // `PyTorch: got ValueError: x`: the strong name wins
    ExcParse strong;
    if (FindInLine(e.message, &strong)) e = std::move(strong);
  }
  found = found || FindInLine(l.content, &e);
  if (found) {
    Item it;
    it.tier = (chain_pending || group_mode) ? 3 : (e.rank == TypeRank::kStrong ? 2 : 1);
    it.from_repr = e.repr;
    it.exc.type = std::move(e.type);
    it.exc.message = std::move(e.message);
    it.exc.message_line = l.number;
    BeginMessage(l);
    await_message = e.colon && it.exc.message.empty();
    StartException(std::move(it));
    if (e.complete) Finalize();
    return;
  }
  if (l.info.error_level && !l.trimmed.empty()) {
    Item it;
    it.tier = 1;
    it.untyped_log = true;
    it.exc.message = Capped(l.trimmed, kPastedMaxMessageBytes);
    it.exc.message_line = l.number;
    BeginMessage(l);
    StartException(std::move(it));
    return;
  }
  ResolveLingering();
}

void PastedErrorStream::State::StartTraceback(const Line& l) {
  if (lingering) {
    if (lingering->exc.frames.empty()) {  // a line printed just before the traceback
      FlushPreamble();
      preamble = std::move(*lingering);
    } else {
      Emit(std::move(*lingering));
    }
    lingering.reset();
    sentry = false;
  }
  if (!chain_pending && !group_mode) ++independent_tracebacks;
  mode = Mode::kTraceback;
  frames.clear();
  header_seen = true;
  header_type = std::string(l.header_type);
  tb_indent = l.indent;
  tb_record_header = l.info.record_header;
  expect_code = false;
  style = FrameStyle::kNone;
  if (l.group_header) group_mode = true;
  chain_pending = false;
}

void PastedErrorStream::State::EnsureTraceback() {
  if (mode == Mode::kTraceback) return;
  if (!chain_pending && !group_mode) ++independent_tracebacks;
  mode = Mode::kTraceback;
  frames.clear();
  header_seen = false;
  header_type.clear();
  tb_indent = 0;
  tb_record_header = false;
  expect_code = false;
  style = FrameStyle::kNone;
}

void PastedErrorStream::State::PushFrame(const Line& l, FrameStyle s) {
  if (frames.size() >= kPastedMaxFrames) frames.pop_front();
  frames.push_back(l.frame);
  style = s;
  expect_code = s == FrameStyle::kPython || s == FrameStyle::kPytest;
  frame_indent = l.indent;
}

std::vector<TracebackFrame> PastedErrorStream::State::TakeFrames() {
  std::vector<TracebackFrame> v(std::make_move_iterator(frames.begin()), std::make_move_iterator(frames.end()));
  frames.clear();
  return v;
}

void PastedErrorStream::State::ClearTraceback() {
  frames.clear();
  header_seen = false;
  header_type.clear();
  expect_code = false;
  style = FrameStyle::kNone;
  mode = Mode::kIdle;
}

// The traceback ends without an exception line (cut paste, Sentry order, a log line after the frames).
void PastedErrorStream::State::ResolveTraceback() {
  if (frames.empty() && header_type.empty()) {
    ClearTraceback();
    FlushPreamble();
    return;
  }
  if (!header_seen && lingering && lingering->exc.frames.empty() && !frames.empty()) {
    // Sentry: the exception line came first, its frames after it.
    lingering->exc.frames = TakeFrames();
    ClearTraceback();
    ResolveLingering();
    return;
  }
  Item it;
  it.tier = 3;
  it.exc.type = header_type;
  int code_line = last_code_line;
  it.exc.frames = TakeFrames();
  if (it.exc.type.empty() && !it.exc.frames.empty()) {  // `raise ValueError("...")` under the last frame
    std::string type, message;
    if (ParseRaiseCode(it.exc.frames.back().code, &type, &message)) {
      it.exc.type = std::move(type);
      it.exc.message = std::move(message);
      if (!it.exc.message.empty()) it.exc.message_line = code_line;
    }
  }
  ClearTraceback();
  ResolveLingering();
  current = std::move(it);
  mode = Mode::kMessage;
  Finalize();
}

void PastedErrorStream::State::BeginMessage(const Line& l) {
  msg_key = l.info.key;
  msg_indent = l.indent;
  e_mode = false;
  message_full = false;
  await_message = false;
  django_value = false;
}

void PastedErrorStream::State::StartException(Item it) {
  chain_pending = false;
  if (lingering) {
    const PastedException& a = lingering->exc;
    string_view a_first = Trim(string_view(a.message).substr(0, a.message.find('\n')));
    bool duplicate = !a.type.empty() && a.type == it.exc.type && a_first == Trim(it.exc.message) &&
                     (a.frames.empty() != it.exc.frames.empty());
    if (duplicate) {  // Sentry shows the exception line before and after the frames
      if (it.exc.frames.empty()) it.exc.frames = std::move(lingering->exc.frames);
      it.exc.message_line = lingering->exc.message_line;
      it.tier = std::max(it.tier, lingering->tier);
      lingering.reset();
    } else {
      if (sentry && lingering->exc.frames.empty() && !it.exc.frames.empty()) {
        lingering->exc.frames = std::move(it.exc.frames);
        it.exc.frames.clear();
      }
      ResolveLingering();
    }
    sentry = false;
  }
  if (it.exc.message.size() >= kPastedMaxMessageBytes) message_full = true;
  current = std::move(it);
  mode = Mode::kMessage;
}

void PastedErrorStream::State::StartPytestException(const Line& l) {
  ExcParse e;
  string_view text = Trim(l.e_text);
  Item it;
  it.tier = 3;
  it.pytest = true;
  if (ParseAtStart(text, TypeRank::kWord, TypeRank::kWord, &e)) {
    it.exc.type = std::move(e.type);
    it.exc.message = std::move(e.message);
  } else {
    it.exc.message = Capped(text, kPastedMaxMessageBytes);
  }
  it.exc.message_line = l.number;
  if (mode == Mode::kTraceback) it.exc.frames = TakeFrames();
  ClearTraceback();
  BeginMessage(l);
  e_mode = true;
  e_spaces = l.e_spaces;
  StartException(std::move(it));
}

void PastedErrorStream::State::AppendMessage(string_view text) {
  if (message_full) return;
  text = TrimRight(text);
  std::string& m = current.exc.message;
  if (await_message) {  // the message starts on this line
    await_message = false;
    text = TrimLeft(text);
    if (text.empty()) return;
    m = Capped(text, kPastedMaxMessageBytes);
    if (current.exc.message_line != 0) current.exc.message_line = line_no;
    return;
  }
  if (m.size() + 1 + text.size() > kPastedMaxMessageBytes) {
    size_t room = kPastedMaxMessageBytes - std::min(kPastedMaxMessageBytes, m.size() + 1);
    m += '\n';
    m += CutUtf8(text, room);
    message_full = true;
    return;
  }
  m += '\n';
  m += text;
}

void PastedErrorStream::State::Finalize() {
  Item it = std::move(current);
  current = Item{};
  if (!location_source.empty() && !it.exc.frames.empty()) it.exc.frames.back().code = std::move(location_source);
  location_source.clear();
  mode = Mode::kIdle;
  e_mode = false;
  pending_blanks = 0;
  location_message = false;
  std::string& m = it.exc.message;
  while (!m.empty() && (IsSpace(m.back()) || m.back() == '\n')) m.pop_back();
  if (preamble) {
    const Item& p = *preamble;
    bool same = p.untyped_log || (p.exc.type == it.exc.type && (p.exc.message == it.exc.message || p.from_repr));
    if (!same) Emit(std::move(*preamble));
    preamble.reset();
  }
  ResolveLingering();
  lingering = std::move(it);
  sentry = false;
}

void PastedErrorStream::State::ResolveLingering() {
  if (lingering) Emit(std::move(*lingering));
  lingering.reset();
  sentry = false;
}

void PastedErrorStream::State::FlushPreamble() {
  if (preamble) Emit(std::move(*preamble));
  preamble.reset();
}

void PastedErrorStream::State::Emit(Item it) {
  if (it.exc.type.empty() && it.exc.message.empty() && it.exc.frames.empty()) return;
  if (!it.exc.frames.empty()) it.tier = std::max(it.tier, 3);
  if (it.exc.frames.size() > kPastedMaxFrames) {
    it.exc.frames.erase(it.exc.frames.begin(),
                        it.exc.frames.begin() + static_cast<std::ptrdiff_t>(it.exc.frames.size() - kPastedMaxFrames));
  }
  out.push_back(std::move(it));
}

void PastedErrorStream::State::Finish() {
  if (partial_any) {
    std::string line = std::move(partial);
    partial.clear();
    partial_any = partial_skip = false;
    FeedLine(line);
  }
  if (mode == Mode::kMessage) {
    Finalize();
  } else if (mode == Mode::kTraceback) {
    ResolveTraceback();
  }
  ResolveLingering();
  FlushPreamble();
  group_mode = false;
  chain_pending = false;
  marker_code.clear();
}

// ---------------------------------------------------------------------------------------------------
// Public API.

PastedErrorStream::PastedErrorStream() : state_(std::make_unique<State>()) {}
PastedErrorStream::~PastedErrorStream() = default;
PastedErrorStream::PastedErrorStream(PastedErrorStream&&) noexcept = default;
PastedErrorStream& PastedErrorStream::operator=(PastedErrorStream&&) noexcept = default;

void PastedErrorStream::Feed(std::string_view line) {
  size_t start = 0;
  while (true) {
    size_t nl = line.find('\n', start);
    if (nl == npos) {
      if (start < line.size() || start == 0) state_->FeedLine(line.substr(start));
      return;
    }
    state_->FeedLine(line.substr(start, nl - start));
    start = nl + 1;
    if (start == line.size()) return;
  }
}

void PastedErrorStream::FeedText(std::string_view chunk) {
  State& s = *state_;
  size_t start = 0;
  while (start < chunk.size()) {
    size_t nl = chunk.find('\n', start);
    string_view piece = chunk.substr(start, nl == npos ? npos : nl - start);
    if (!s.partial_skip) {
      size_t room = kPastedMaxLineBytes + 4 - std::min(kPastedMaxLineBytes + 4, s.partial.size());
      if (piece.size() > room) {
        s.partial.append(piece.substr(0, room));
        s.partial_skip = true;
      } else {
        s.partial.append(piece);
      }
    }
    s.partial_any = true;
    if (nl == npos) return;
    std::string line = std::move(s.partial);
    s.partial.clear();
    s.partial_any = s.partial_skip = false;
    s.FeedLine(line);
    start = nl + 1;
  }
}

void PastedErrorStream::Finish() { state_->Finish(); }

std::vector<PastedException> PastedErrorStream::Take() {
  std::vector<PastedException> v;
  v.reserve(state_->out.size());
  for (Item& it : state_->out) v.push_back(std::move(it.exc));
  state_->out.clear();
  return v;
}

int PastedErrorStream::lines() const { return state_->line_no; }

namespace {

// A paste lower-cased whole (`hfhubhttperror: 500 server error: ...`): an untyped message that starts with a
// name ending like a type, and `: `, is that type's; the matcher restores its capitals from the catalog.
void ReadLowercasedType(PastedException& exc) {
  if (!exc.type.empty()) return;
  const size_t e = ScanDottedName(exc.message, 0);
  if (e == 0 || e + 1 >= exc.message.size() || exc.message[e] != ':' || exc.message[e + 1] != ' ' ||
      !HasLowercasedTypeSuffix(string_view(exc.message).substr(0, e))) {
    return;
  }
  exc.type = exc.message.substr(0, e);
  exc.message = std::string(TrimLeft(string_view(exc.message).substr(e + 2)));
  exc.lowercased = true;
}

}  // namespace

PastedError ParsePastedError(std::string_view text) {
  PastedError result;
  PastedErrorStream stream;
  PastedErrorStream::State& s = *stream.state_;
  s.one_paste = true;
  for (size_t start = 0; start <= text.size();) {
    size_t nl = text.find('\n', start);
    if (nl == npos) {
      if (start < text.size()) s.FeedLine(text.substr(start));
      break;
    }
    s.FeedLine(text.substr(start, nl - start));
    start = nl + 1;
  }
  s.Finish();

  int max_tier = 0;
  for (const Item& it : s.out) max_tier = std::max(max_tier, it.tier);
  std::vector<PastedException> chosen;
  for (Item& it : s.out) {
    if (it.tier == max_tier) chosen.push_back(std::move(it.exc));
  }
  if (chosen.size() > kPastedMaxExceptions) {
    chosen.erase(chosen.begin(), chosen.begin() + static_cast<std::ptrdiff_t>(chosen.size() - kPastedMaxExceptions));
  }
  if (max_tier == 3) {
    result.input_kind = (s.independent_tracebacks > 1 && s.log_lines >= 2) ? "log" : "traceback";
  } else {
    result.input_kind = s.log_lines >= 2 ? "log" : "message";
  }
  if (text.find(PythonTracebackVocabulary().header) == npos) {
    // Poetry's console prints no Python traceback but a report of its own, with the raise's frame.
    if (std::optional<PastedException> cleo = ParseCleoPaste(text)) {
      result.input_kind = "traceback";
      result.exceptions.push_back(std::move(*cleo));
      return result;
    }
  }
  const bool lowercased = std::none_of(text.begin(), text.end(), IsUpper);
  if (!chosen.empty()) {
    if (lowercased) {
      for (PastedException& exc : chosen) ReadLowercasedType(exc);
    }
    result.exceptions = std::move(chosen);
    if (max_tier == 3) {
      // The report around an embedded traceback wraps the error that traceback shows: the outermost link.
      if (std::optional<PastedException> report = EmbeddingReport(text)) {
        // Within the limit: the report is the outermost link, the innermost one gives way.
        if (result.exceptions.size() >= kPastedMaxExceptions) result.exceptions.erase(result.exceptions.begin());
        result.exceptions.push_back(std::move(*report));
      }
    }
    return result;
  }

  // Nothing recognised: the whole text, log prefixes removed, is the message.
  PastedException exc;
  std::string& m = exc.message;
  for (const CleanLine& line : CleanLines(text)) {
    if (m.size() >= kPastedMaxMessageBytes) break;
    if (exc.message_line == 0) {
      if (Trim(line.content).empty()) continue;
      exc.message_line = line.number;
    } else {
      m += '\n';
    }
    m += CutUtf8(line.content, kPastedMaxMessageBytes - std::min(kPastedMaxMessageBytes, m.size()));
  }
  string_view trimmed = Trim(m);
  while (!trimmed.empty() && trimmed.back() == '\n') trimmed = Trim(trimmed.substr(0, trimmed.size() - 1));
  if (trimmed.empty()) return result;
  // `ClientConnectorError Cannot connect to host ...`: a type and its message separated by a space.
  size_t e = ScanDottedName(trimmed, 0);
  if (e > 0 && e + 1 < trimmed.size() && trimmed[e] == ' ' && HasTypeSuffix(trimmed.substr(0, e))) {
    exc.type = std::string(trimmed.substr(0, e));
    trimmed = TrimLeft(trimmed.substr(e + 1));
  }
  exc.message = std::string(trimmed);
  if (lowercased) ReadLowercasedType(exc);
  result.input_kind = s.log_lines >= 2 ? "log" : "message";
  result.exceptions.push_back(std::move(exc));
  return result;
}

}  // namespace errdex
