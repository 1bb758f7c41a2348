// Tests of the paste parser that are not "this paste gives that parse": the stream's API (line by line,
// Take before Finish, chunks split anywhere), the limits, time bounds on hostile input, and the real pastes
// of the dev set. Cases that are an input and its expected parse live in tests/corpus/pastes/ (runner:
// paste_corpus_test.cc).
#include "match/pasted_error.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testing/cpu_time.h"

namespace errdex {
namespace {

// ---------------------------------------------------------------------------------------------------
// Helpers.

const PastedException& Last(const PastedError& e) { return e.exceptions.back(); }

// Runs F and fails when it takes longer than LIMIT_MS.
template <typename F>
auto Timed(F f, int limit_ms = 1000) {
  const double start = testing::ProcessCpuSeconds();
  auto result = f();
  const long ms = testing::CpuMillisecondsSince(start);
  EXPECT_LT(ms, limit_ms) << "took " << ms << " ms";
  return result;
}

// JSON string escapes of S decoded (for inputs that hold a message inside a JSON string or a repr).
std::string Unescaped(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      char k = s[++i];
      out += k == 'n' ? '\n' : k == 't' ? '\t' : k;
    } else {
      out += s[i];
    }
  }
  return out;
}

// Every line of MESSAGE occurs in INPUT, as written or with escapes decoded.
bool MessageComesFromInput(const std::string& message, const std::string& input) {
  if (input.find(message) != std::string::npos) return true;
  std::string decoded = Unescaped(input);
  size_t start = 0;
  while (start <= message.size()) {
    size_t nl = message.find('\n', start);
    std::string line = message.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    if (input.find(line) == std::string::npos && decoded.find(line) == std::string::npos) return false;
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------
// The stream.

TEST(PastedErrorStreamTest, LineNumbersAndOrder) {
  PastedErrorStream s;
  const char* lines[] = {"starting",
                         "ValueError: first",
                         "Traceback (most recent call last):",
                         "  File \"/a.py\", line 1, in <module>",
                         "    f()",
                         "KeyError: 'k'",
                         "some output",
                         "Error: third"};
  for (const char* l : lines) s.Feed(l);
  std::vector<PastedException> early = s.Take();
  s.Finish();
  std::vector<PastedException> rest = s.Take();
  early.insert(early.end(), rest.begin(), rest.end());
  ASSERT_EQ(early.size(), 3u);
  EXPECT_EQ(early[0].type, "ValueError");
  EXPECT_EQ(early[0].message_line, 2);
  EXPECT_EQ(early[1].type, "KeyError");
  EXPECT_EQ(early[1].message_line, 6);
  EXPECT_EQ(early[1].frames.size(), 1u);
  EXPECT_EQ(early[2].message, "third");
  EXPECT_EQ(early[2].message_line, 8);
  EXPECT_EQ(s.lines(), 8);
  EXPECT_TRUE(s.Take().empty());
}

TEST(PastedErrorStreamTest, CompleteErrorsComeOutBeforeFinish) {
  PastedErrorStream s;
  s.Feed("ValueError: one\n");
  s.Feed("INFO next record\n");
  std::vector<PastedException> v = s.Take();
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].message, "one");
}

TEST(PastedErrorStreamTest, FeedTextSplitsChunksAtAnyByte) {
  std::string text =
      "Traceback (most recent call last):\r\n  File \"/a.py\", line 7, in f\r\n    g()\r\nTypeError: bad "
      "operand\r\nnext";
  for (size_t chunk = 1; chunk <= 7; ++chunk) {
    PastedErrorStream s;
    for (size_t i = 0; i < text.size(); i += chunk) s.FeedText(std::string_view(text).substr(i, chunk));
    s.Finish();
    std::vector<PastedException> v = s.Take();
    ASSERT_EQ(v.size(), 1u) << chunk;
    EXPECT_EQ(v[0].type, "TypeError");
    EXPECT_EQ(v[0].message, "bad operand\nnext");
    EXPECT_EQ(v[0].message_line, 4);
    ASSERT_EQ(v[0].frames.size(), 1u);
    EXPECT_EQ(v[0].frames[0].code, "g()");
    EXPECT_EQ(s.lines(), 5);
  }
}

TEST(PastedErrorStreamTest, Limits) {
  // Frames: only the innermost kPastedMaxFrames.
  PastedErrorStream s;
  s.Feed("Traceback (most recent call last):");
  for (int i = 1; i <= 1000; ++i) {
    s.Feed("  File \"/r.py\", line " + std::to_string(i) + ", in f");
    s.Feed("    return f()");
  }
  s.Feed("RecursionError: maximum recursion depth exceeded");
  s.Finish();
  std::vector<PastedException> v = s.Take();
  ASSERT_EQ(v.size(), 1u);
  ASSERT_EQ(v[0].frames.size(), kPastedMaxFrames);
  EXPECT_EQ(v[0].frames.back().line, 1000);
  EXPECT_EQ(v[0].frames.front().line, 801);

  // Messages: at most kPastedMaxMessageBytes.
  s.Feed("ValueError: start");
  for (int i = 0; i < 10000; ++i) s.Feed(std::string(100, 'x'));
  s.Finish();
  v = s.Take();
  ASSERT_EQ(v.size(), 1u);
  EXPECT_LE(v[0].message.size(), kPastedMaxMessageBytes);
  EXPECT_GT(v[0].message.size(), kPastedMaxMessageBytes - 200);

  // Lines: cut at kPastedMaxLineBytes, also through FeedText.
  std::string big = "ValueError: " + std::string(3 * kPastedMaxLineBytes, 'y');
  s.FeedText(big);
  s.FeedText("\nKeyError: after\n");
  s.Finish();
  v = s.Take();
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].message.size(), kPastedMaxMessageBytes);
  EXPECT_EQ(v[1].type, "KeyError");
}

// ---------------------------------------------------------------------------------------------------
// Hostile input.

TEST(PastedErrorHostileTest, OneMegabyteLine) {
  std::string line(1 << 20, 'a');
  PastedError e = Timed([&] { return ParsePastedError(line); });
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).message.size(), kPastedMaxMessageBytes);
  std::string typed = "RuntimeError: " + line;
  e = Timed([&] { return ParsePastedError(typed); });
  EXPECT_EQ(Last(e).type, "RuntimeError");
}

TEST(PastedErrorHostileTest, BinaryGarbageKeepsBytes) {
  std::string garbage;
  for (int i = 0; i < 200000; ++i) garbage.push_back(static_cast<char>((i * 7919) % 256));
  PastedError e = Timed([&] { return ParsePastedError(garbage); });
  ASSERT_FALSE(e.exceptions.empty());
  std::string nul_message = std::string("ValueError: a\0b\xff\xfe c", 19);
  e = ParsePastedError(nul_message);
  EXPECT_EQ(Last(e).type, "ValueError");
  EXPECT_EQ(Last(e).message, std::string("a\0b\xff\xfe c", 7));
}

TEST(PastedErrorHostileTest, HundredThousandTracebackHeaders) {
  std::string text;
  for (int i = 0; i < 100000; ++i) text += "Traceback (most recent call last):\n";
  PastedError e = Timed([&] { return ParsePastedError(text); });
  ASSERT_EQ(e.exceptions.size(), 1u);  // nothing but headers: the fallback
  text += "  File \"/a.py\", line 1, in f\nValueError: x\n";
  e = Timed([&] { return ParsePastedError(text); });
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "ValueError");
  // All on one line.
  std::string one;
  for (int i = 0; i < 30000; ++i) one += "Traceback (most recent call last):   File \"/a.py\", line 1, in f ";
  e = Timed([&] { return ParsePastedError(one); });
  EXPECT_FALSE(e.exceptions.empty());
}

TEST(PastedErrorHostileTest, DeeplyNestedParentheses) {
  std::string text = "ValueError: " + std::string(300000, '(') + std::string(300000, ')');
  PastedError e = Timed([&] { return ParsePastedError(text); });
  EXPECT_EQ(Last(e).type, "ValueError");
  std::string flat = "Traceback (most recent call last): File \"/a.py\", line 1, in f " + std::string(300000, '(') +
                     " File \"/b.py\", line 2, in g " + std::string(300000, '[');
  e = Timed([&] { return ParsePastedError(flat); });
  EXPECT_EQ(Last(e).frames.size(), 2u);
}

TEST(PastedErrorHostileTest, InputsCraftedAgainstBacktracking) {
  std::vector<std::string> inputs;
  std::string s;
  for (int i = 0; i < 50000; ++i) s += "a.";
  inputs.push_back(s + "!");                         // dotted names that never end in a type
  inputs.push_back(std::string(200000, 'A') + ":");  // a huge identifier
  s.clear();
  for (int i = 0; i < 50000; ++i) s += "ValueError: ";
  inputs.push_back(s);
  s.clear();
  for (int i = 0; i < 50000; ++i) s += "File \"";
  inputs.push_back(s);  // frame openers without `", line `
  s.clear();
  for (int i = 0; i < 50000; ++i) s += "\", line ";
  inputs.push_back("File \"" + s);
  s.clear();
  for (int i = 0; i < 100000; ++i) s += "[0;";
  inputs.push_back(s);  // colour codes that never end
  s.clear();
  for (int i = 0; i < 100000; ++i) s += "\\u";
  inputs.push_back("Traceback (most recent call last):\\n" + s);  // escapes that never complete
  s.clear();
  for (int i = 0; i < 50000; ++i) s += "x.py:1:";
  inputs.push_back(s);  // pytest locations that never complete
  s.clear();
  for (int i = 0; i < 50000; ++i) s += "2024-01-02 03:04:05 ";
  inputs.push_back(s);  // timestamps
  s.clear();
  for (int i = 0; i < 20000; ++i) s += "[ERROR] > web_1 | ";
  inputs.push_back(s);  // prefixes
  s.clear();
  for (int i = 0; i < 50000; ++i) s += "TypeError('";
  inputs.push_back(s);  // reprs that never close
  s.clear();
  for (int i = 0; i < 50000; ++i) s += "File \"a\", line 1, in <";
  inputs.push_back(s);  // flattened frames whose function name never closes
  s.clear();
  for (int i = 0; i < 50000; ++i) s += "2024-01-02 03:04:05 app[";
  inputs.push_back(s);  // Heroku-like prefixes that never close
  for (const std::string& in : inputs) {
    PastedError e = Timed([&] { return ParsePastedError(in); });
    EXPECT_FALSE(e.exceptions.empty());
    std::string many_lines;
    for (int i = 0; i < 20; ++i) many_lines += in.substr(0, 5000) + "\n";
    Timed([&] { return ParsePastedError(many_lines); });
  }
}

TEST(PastedErrorHostileTest, ManyLinesOfMixedShapes) {
  std::string text;
  for (int i = 0; i < 20000; ++i) {
    text += "2024-01-02 03:04:05 ERROR x\n  File \"/a.py\", line 1, in f\n    g()\nE   ValueError: v\n";
    text += "path/x.py:3: in f\n> \n| ValueError: q\n(1 additional frame(s) were not displayed)\n";
  }
  PastedError e = Timed([&] { return ParsePastedError(text); });
  EXPECT_LE(e.exceptions.size(), kPastedMaxExceptions);
}

// ---------------------------------------------------------------------------------------------------
// Real pastes: /work/shared/data/real-errors-dev.jsonl (see its README.md).

struct RealCase {
  const char* type;     // the type the input shows ("" when it shows none)
  const char* snippet;  // distinctive text the message must contain
};

const std::map<std::string, RealCase>& RealCases() {
  static const std::map<std::string, RealCase> cases = {
      {"aiohttp-001", {"RuntimeError", "Session is closed"}},
      {"aiohttp-002",
       {"aiohttp.client_exceptions.ContentTypeError", "Attempt to decode JSON with unexpected mimetype"}},
      {"aiohttp-003",
       {"aiohttp.client_exceptions.ContentTypeError", "Attempt to decode JSON with unexpected mimetype"}},
      {"aiohttp-004", {"RuntimeError", "Timeout context manager should be used inside a task"}},
      {"aiohttp-005", {"aiohttp.client_exceptions.ClientPayloadError", "Not enough data for satisfy content length"}},
      {"aiohttp-006", {"ClientPayloadError", "Not enough data to satisfy\ncontent length header."}},
      {"aiohttp-007", {"RuntimeError", "Session and connector has to use same event loop"}},
      {"aiohttp-008", {"ClientConnectorError", "Cannot connect to host www.virtool.ca:443"}},
      {"aiohttp-009", {"aiohttp.client_exceptions.ClientConnectorSSLError", "Cannot connect to host geo.iproyal.com"}},
      {"aiohttp-010", {"http.client_exceptions.ClientConnectorCertificateError", "Cannot connect to host i.instagram"}},
      {"aiohttp-011", {"aiohttp.client_exceptions.ClientResponseError", "403, message='Forbidden'"}},
      {"aiohttp-012", {"aiohttp.client_exceptions.WSServerHandshakeError", "Invalid response status"}},
      {"aiohttp-013", {"", "403, message='Invalid response status'"}},
      {"aiohttp-014", {"RuntimeError", "Added route will never be executed, method HEAD is already registered"}},
      {"aiohttp-015", {"ValueError", "Duplicate 'should_i_release', already handled by"}},
      {"aiohttp-016", {"aiohttp.http_exceptions.ContentEncodingError", "Can not decode content-encoding: br"}},
      {"aiohttp-017", {"TypeError", "Can not serialize value type: <class 'int'>\n headers: {}\n value: 4"}},
      {"aiohttp-018", {"TypeError", "Only io.IOBase, multidict and (name, file) pairs allowed"}},
      {"aiohttp-019", {"aiohttp.client_exceptions.ClientConnectorCertificateError", "certificate has expired"}},
      {"aiohttp-020", {"ValueError", "Newline or carriage return character detected"}},
      {"aiohttp-021", {"ClientConnectorError", "Temporary failure in name resolution"}},
      {"aiohttp-022", {"ValueError", "Could not find starting boundary b'-------boundary---0'"}},
      {"aiohttp-023", {"", "Could not find starting boundary b'--dd7db5e4c3bd4d5187bb978aef4d85b1'"}},
      {"aiohttp-024", {"ValueError", "Invalid boundary b'', expected b'------=_Part_125656_1263945784"}},
      {"aiohttp-025", {"RuntimeError", "wsgi app should be either Application or async function returning"}},
      {"aiohttp-026", {"ClientConnectorError", "Cannot connect to host www.datasciencetoolkit.org:80"}},
      {"aiohttp-027", {"aiohttp.client_exceptions.ClientConnectorError", "Connect call failed"}},
      {"aiohttp-028", {"RuntimeError", "Added route will never be executed, method POST is already registered"}},
      {"aiohttp-029", {"", "Only async functions are allowed as web-handlers"}},
      {"aiohttp-030", {"ValueError", "Only http proxies are supported"}},
      {"click-001", {"RuntimeError", "'rustfava' is not installed. Try passing 'package_name' instead."}},
      {"click-002", {"RuntimeError", "'mngr' is not installed. Try passing 'package_name' instead."}},
      {"click-003", {"RuntimeError", "Could not determine the version for None automatically."}},
      {"click-004", {"RuntimeError", "Could not determine version"}},
      {"click-005", {"TypeError", "Secondary flag is not valid for non-boolean flag."}},
      {"click-006", {"TypeError", "Got secondary option for non boolean flag."}},
      {"click-007", {"TypeError", "Arguments take exactly one parameter declaration, got 2"}},
      {"click-008", {"NoSuchOption", "No such option: -b"}},
      {"click-009", {"ValueError", "Invalid start character for option (pull-request-number)"}},
      {"click-010", {"TypeError", "Could not determine name for option"}},
      {"click-011", {"", "Invalid value for '-a': Value must be an iterable."}},
      {"click-012", {"click.exceptions.NoSuchOption", "No such option: -a"}},
      {"click-013", {"", "Got unexpected extra argument (/tmp/marker_output)"}},
      {"click-014", {"", "Missing option '--data-path'"}},
      {"click-015", {"", "'Expecting' is not a valid integer."}},
      {"starlette-001", {"RuntimeError", "Directory '/static' does not exist"}},
      {"starlette-002", {"RuntimeError", "Directory 'tasks' does not exist"}},
      {"starlette-003", {"RuntimeError", "StaticFiles directory 'public' does not exist."}},
      {"starlette-004", {"RuntimeError", "StaticFiles directory '../frontend/dist' does not exist."}},
      {"starlette-005", {"RuntimeError", "No response returned."}},
      {"starlette-006", {"RuntimeError", "Caught handled exception, but response already started."}},
      {"starlette-007", {"RuntimeError", "Cannot call \"receive\" once a disconnect message has been received."}},
      {"starlette-008", {"RuntimeError", "WebSocket is not connected. Need to call \"accept\" first."}},
      {"starlette-009", {"", "Cannot call \"send\" once a close message has been sent."}},
      {"starlette-010", {"RuntimeError", "File at path Y:\\stablediff\\"}},
      {"starlette-011", {"", "does not exist."}},
      {"starlette-012", {"RuntimeError", "File at path /Users/songhaonan/Desktop/xiaomusic/music is not a file."}},
      {"starlette-013", {"RuntimeError", "Cannot add middleware after an application has started"}},
      {"starlette-014", {"RuntimeError", "requires the httpx2 package to be installed.\nYou can install this with:"}},
      {"starlette-015", {"starlette.routing.NoMatchFound", "No route exists for name \"bye\" and params \"\"."}},
      {"starlette-016", {"RuntimeError", "Stream consumed"}},
      {"starlette-017", {"AttributeError", "'State' object has no attribute 'get'"}},
      {"starlette-018", {"AttributeError", "'State' object has no attribute 'view_rate_limit'"}},
      {"starlette-019", {"RuntimeError", "Receive channel has not been made available"}},
      {"starlette-020", {"RuntimeError", "The server does not support \"state\" in the lifespan scope."}},
      {"starlette-021", {"RuntimeError", "The server does not support \"state\" in the lifespan scope."}},
      {"starlette-022", {"starlette.formparsers.MultiPartException", "Missing boundary in multipart."}},
  };
  return cases;
}

TEST(PastedErrorRealTest, EveryDevSetInputParses) {
  std::ifstream in(ERRDEX_SOURCE_DIR "/../shared/data/real-errors-dev.jsonl");
  if (!in) GTEST_SKIP() << "real-errors-dev.jsonl not found";
  int cases = 0, typed = 0, raise_type = 0, kinds = 0;
  std::string json_line;
  while (std::getline(in, json_line)) {
    if (json_line.empty()) continue;
    nlohmann::json j = nlohmann::json::parse(json_line);
    const std::string id = j.at("case");
    const std::string input = j.at("input");
    SCOPED_TRACE(id + "\n" + input);
    ++cases;
    auto it = RealCases().find(id);
    ASSERT_NE(it, RealCases().end()) << "no expectation for " << id;
    PastedError e = Timed([&] { return ParsePastedError(input); }, 100);
    ASSERT_FALSE(e.exceptions.empty());
    const PastedException& x = Last(e);
    EXPECT_EQ(x.type, it->second.type);
    EXPECT_FALSE(x.message.empty());
    EXPECT_NE(x.message.find(it->second.snippet), std::string::npos) << "message: " << x.message;
    EXPECT_TRUE(MessageComesFromInput(x.message, input)) << "message: " << x.message;
    EXPECT_GE(x.message_line, 1);
    EXPECT_EQ(e.input_kind, j.at("input_kind").get<std::string>());
    if (j.at("input_kind") == "traceback") {
      EXPECT_FALSE(x.frames.empty());
    }
    if (x.type == it->second.type) ++typed;
    if (e.input_kind == j.at("input_kind").get<std::string>()) ++kinds;
    const std::string expected = j.at("expected").at("type");
    std::string last = x.type.substr(x.type.rfind('.') + 1);
    if (last == expected) ++raise_type;
    // The stream agrees on the last error.
    PastedErrorStream s;
    s.Feed(input);
    s.Finish();
    std::vector<PastedException> v = s.Take();
    if (v.empty()) continue;  // text without a recognisable error: only ParsePastedError falls back
    bool found = false;
    for (const PastedException& y : v) found = found || (y.type == x.type && y.message == x.message);
    EXPECT_TRUE(found);
  }
  EXPECT_EQ(cases, 67);
  std::printf("real-errors-dev: %d cases, %d with the printed type, %d with the raise site's type, %d kinds\n", cases,
              typed, raise_type, kinds);
}

}  // namespace
}  // namespace errdex
