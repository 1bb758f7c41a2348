// Input understanding for `errdex explain` (one paste) and `errdex scan` (a log read as a stream): turns
// pasted text — an error message, a Python traceback, pytest or notebook output, a whole log — into
// exception types, messages and frames (docs/input-formats.md). No matching happens here.
//
// Everything is hand-written scanning, no regular expressions: the input is untrusted and of any size.
// Every call is linear in its input and bounded in memory (the limits below), keeps bytes that are not
// UTF-8 as they are (NUL included), and never throws on malformed text.
//
// Threading: ParsePastedError is a pure function, safe from any thread. A PastedErrorStream belongs to
// one thread at a time. Ownership: results are plain values owned by the caller.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "util/paste_limits.h"

namespace errdex {

struct TracebackFrame {
  std::string path;  // as printed: "/usr/lib/python3.12/json/decoder.py", "C:\\x\\mod.py", "Cell In[3]"; may be empty
  int line = 0;      // 0 when the frame shows none
  std::string function;  // as printed: "ClientSession._request", "<module>"; IPython's "(args)" removed
  std::string code;      // the source line(s) shown under the frame, indentation removed; "" when none
};

struct PastedException {
  std::string type;     // as printed: "ValueError", "aiohttp.client_exceptions.ClientConnectorError"; "" when none
  std::string message;  // the message text; lines of a multi-line message joined with '\n'; prefixes removed
  std::vector<TracebackFrame> frames;  // innermost last, as Python prints them
  int message_line = 0;  // 1-based line of the input where the message starts; 0 when there is no message line
  // The paste was lower-cased whole (`hfhubhttperror: 500 server error: ...`): type and message lost their
  // capitals (docs/input-formats.md); the matcher compares them ignoring case.
  bool lowercased = false;
  // A library's report printed around the traceback of the error it wraps (pytest's "ImportError while
  // importing test module ... Traceback:"): the message is the whole report, the wrapped error is the link
  // before it. explain takes it for the answer only on a complete match of a site's text.
  bool embeds_traceback = false;
};

struct PastedError {
  std::string input_kind;                   // "message", "traceback" or "log"
  std::vector<PastedException> exceptions;  // chained ones in printed order; the last is the one raised
};

// Limits (kPastedMaxLineBytes, kPastedMaxMessageBytes, kPastedMaxFrames, kPastedMaxFieldBytes,
// kPastedMaxExceptions): util/paste_limits.h. Longer lines are cut, longer messages truncated, and only the
// innermost frames are kept.

// One paste, for `explain`. When the paste holds tracebacks, only the exceptions shown by tracebacks are
// returned (text around them, such as log lines, is context); else typed `Type: message` lines; else
// untyped error lines (`Error: ...`, ERROR-level log lines); else the whole text, prefixes removed and
// trimmed, as one message. The result has at least one exception unless the text is blank.
PastedError ParsePastedError(std::string_view text);

// The same parser fed line by line, for `scan`: each complete error is returned once by Take(), in input
// order, with message_line the 1-based number of the line (Feed call, or line of FeedText) where its
// message is. Unlike ParsePastedError it returns every error it recognises, untyped ERROR-level log lines
// included, and never falls back to "the whole text". An error is complete when a later line shows it
// cannot continue (a Sentry paste lists frames after its exception line), so the last one comes out at
// Finish(). Memory is bounded by the limits above plus the errors not yet taken.
class PastedErrorStream {
 public:
  PastedErrorStream();
  ~PastedErrorStream();
  PastedErrorStream(PastedErrorStream&&) noexcept;
  PastedErrorStream& operator=(PastedErrorStream&&) noexcept;
  PastedErrorStream(const PastedErrorStream&) = delete;
  PastedErrorStream& operator=(const PastedErrorStream&) = delete;

  // One line, with or without its terminator ("\n", "\r\n"). Only its first kPastedMaxLineBytes are read.
  // Text holding several '\n' counts as that many lines.
  void Feed(std::string_view line);
  // Any piece of a text (a block read from a file): lines are split at '\n' across calls; of a line
  // longer than kPastedMaxLineBytes the rest is skipped, never buffered.
  void FeedText(std::string_view chunk);
  // End of input: completes what is still open (an unterminated last line of FeedText counts as a line).
  // Feeding may go on afterwards; line numbers continue.
  void Finish();
  // The errors completed so far, each handed over once.
  std::vector<PastedException> Take();
  // Lines read so far.
  int lines() const;

  struct State;  // internal

 private:
  std::unique_ptr<State> state_;
  friend PastedError ParsePastedError(std::string_view text);
};

}  // namespace errdex
