#include "match/pasted_error.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace errdex {
namespace {

// ---------------------------------------------------------------------------------------------------
// Helpers.

const PastedException& Last(const PastedError& e) { return e.exceptions.back(); }

std::vector<std::string> Types(const PastedError& e) {
  std::vector<std::string> v;
  for (const PastedException& x : e.exceptions) v.push_back(x.type);
  return v;
}

// Runs F and fails when it takes longer than LIMIT_MS.
template <typename F>
auto Timed(F f, int limit_ms = 1000) {
  auto start = std::chrono::steady_clock::now();
  auto result = f();
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
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
// Messages and `Type: message` lines.

TEST(PastedErrorTest, BareMessage) {
  PastedError e = ParsePastedError("  Could not find starting boundary b'--dd7db5e4c3bd4d5187bb978aef4d85b1'\n\n");
  EXPECT_EQ(e.input_kind, "message");
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "");
  EXPECT_EQ(Last(e).message, "Could not find starting boundary b'--dd7db5e4c3bd4d5187bb978aef4d85b1'");
  EXPECT_EQ(Last(e).message_line, 1);
  EXPECT_TRUE(Last(e).frames.empty());
}

TEST(PastedErrorTest, BlankInputHasNoException) {
  EXPECT_TRUE(ParsePastedError("").exceptions.empty());
  EXPECT_TRUE(ParsePastedError(" \n\t\r\n").exceptions.empty());
}

TEST(PastedErrorTest, TypeAndMessage) {
  PastedError e = ParsePastedError("ValueError: invalid literal for int() with base 10: 'abc'");
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "ValueError");
  EXPECT_EQ(Last(e).message, "invalid literal for int() with base 10: 'abc'");
  EXPECT_EQ(e.input_kind, "message");
}

TEST(PastedErrorTest, DottedType) {
  PastedError e = ParsePastedError(
      "lightning.fabric.utilities.exceptions.MisconfigurationException: No supported gpu backend found!");
  EXPECT_EQ(Last(e).type, "lightning.fabric.utilities.exceptions.MisconfigurationException");
  EXPECT_EQ(Last(e).message, "No supported gpu backend found!");
}

TEST(PastedErrorTest, CamelCaseAndBuiltinTypes) {
  EXPECT_EQ(Last(ParsePastedError("NoMatchFound: No route exists for name \"bye\"")).type, "NoMatchFound");
  EXPECT_EQ(Last(ParsePastedError("starlette.routing.NoMatchFound: x")).type, "starlette.routing.NoMatchFound");
  EXPECT_EQ(Last(ParsePastedError("StopIteration")).type, "StopIteration");
  EXPECT_EQ(Last(ParsePastedError("KeyboardInterrupt")).type, "KeyboardInterrupt");
  EXPECT_EQ(Last(ParsePastedError("Exception: boom")).type, "Exception");
  EXPECT_EQ(Last(ParsePastedError("socket.gaierror: [Errno -2] Name or service not known")).type, "socket.gaierror");
  PastedError e = ParsePastedError("KeyError: 'boundary'");
  EXPECT_EQ(Last(e).type, "KeyError");
  EXPECT_EQ(Last(e).message, "'boundary'");
}

TEST(PastedErrorTest, WordsBeforeAColonAreNotTypes) {
  for (const char* text :
       {"Note: the cache was cleared before the run", "INFO: Started server process [63]",
        "http://localhost:8000/docs: connection refused", "C:\\Users\\me\\app.py: not found",
        "Usage: marker [OPTIONS] IN_FOLDER", "Hint: try again later", "see https://example.com/a:b for details"}) {
    PastedError e = ParsePastedError(text);
    ASSERT_EQ(e.exceptions.size(), 1u) << text;
    EXPECT_EQ(Last(e).type, "") << text;
    EXPECT_FALSE(Last(e).message.empty()) << text;
  }
  // A Windows path keeps its drive letter.
  EXPECT_EQ(Last(ParsePastedError("C:\\Users\\me\\app.py: not found")).message, "C:\\Users\\me\\app.py: not found");
  // `INFO:` is a log level: removed from the message.
  EXPECT_EQ(Last(ParsePastedError("INFO: Started server process [63]")).message, "Started server process [63]");
}

TEST(PastedErrorTest, TypeInsideProse) {
  PastedError e = ParsePastedError(
      "Unable to get request body inside an exception handler, got RuntimeError: Receive channel has not been "
      "made available");
  EXPECT_EQ(Last(e).type, "RuntimeError");
  EXPECT_EQ(Last(e).message, "Receive channel has not been made available");
  e = ParsePastedError("(RuntimeError: StaticFiles directory '../frontend/dist' does not exist.)");
  EXPECT_EQ(Last(e).type, "RuntimeError");
  EXPECT_EQ(Last(e).message, "StaticFiles directory '../frontend/dist' does not exist.");
  e = ParsePastedError("Getting `RuntimeError: Stream consumed` after call_next");
  EXPECT_EQ(Last(e).message, "Stream consumed");
  // Code is not a printed exception.
  e = ParsePastedError("    except ValueError: pass");
  EXPECT_EQ(Last(e).type, "");
}

TEST(PastedErrorTest, MultiLineMessage) {
  PastedError e = ParsePastedError(
      "RuntimeError: The starlette.testclient module requires the httpx package to be installed.\n"
      "You can install this with:\n"
      "    $ pip install httpx\n");
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).message,
            "The starlette.testclient module requires the httpx package to be installed.\n"
            "You can install this with:\n"
            "    $ pip install httpx");
}

TEST(PastedErrorTest, MessageStartingAfterBlankLines) {
  PastedError e = ParsePastedError(
      "Traceback (most recent call last):\n"
      "  File \"/app/x.py\", line 1, in <module>\n"
      "    import numpy\n"
      "ImportError: \n"
      "\n"
      "IMPORTANT: PLEASE READ THIS FOR ADVICE ON HOW TO SOLVE THIS ISSUE!\n"
      "\n"
      "Importing the numpy C-extensions failed.\n");
  EXPECT_EQ(Last(e).type, "ImportError");
  // Python prints a traceback's message as it is: its paragraphs stay together.
  EXPECT_EQ(
      Last(e).message,
      "IMPORTANT: PLEASE READ THIS FOR ADVICE ON HOW TO SOLVE THIS ISSUE!\n\nImporting the numpy C-extensions failed.");
  EXPECT_EQ(Last(e).message_line, 6);
}

TEST(PastedErrorTest, StrongTypeBeatsACamelCaseWordAtTheStart) {
  PastedError e = ParsePastedError("PyTorch: loading the checkpoint raised ValueError: bad magic number");
  EXPECT_EQ(Last(e).type, "ValueError");
  EXPECT_EQ(Last(e).message, "bad magic number");
}

TEST(PastedErrorTest, MessageInsideRepr) {
  PastedError e = ParsePastedError(
      "[2024-01-05 16:52:01,909: ERROR/ForkPoolWorker-8] Task send[538881f7] raised unexpected: "
      "TypeError(\"Can not serialize value type: <class 'int'>\\n headers: {}\\n value: 4\")");
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "TypeError");
  EXPECT_EQ(Last(e).message, "Can not serialize value type: <class 'int'>\n headers: {}\n value: 4");
}

TEST(PastedErrorTest, TypeSeparatedBySpaceWhenNothingElseFits) {
  PastedError e = ParsePastedError(
      "ClientConnectorError Cannot connect to host www.example.org:80 ssl:default [nodename nor servname provided]");
  EXPECT_EQ(Last(e).type, "ClientConnectorError");
  EXPECT_EQ(Last(e).message, "Cannot connect to host www.example.org:80 ssl:default [nodename nor servname provided]");
}

TEST(PastedErrorTest, ClickUsageError) {
  PastedError e = ParsePastedError(
      "Usage: marker [OPTIONS] IN_FOLDER\nTry 'marker --help' for help.\n\nError: Got unexpected extra argument "
      "(/tmp/out)\n");
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "");
  EXPECT_EQ(Last(e).message, "Got unexpected extra argument (/tmp/out)");
  EXPECT_EQ(Last(e).message_line, 4);
  EXPECT_EQ(e.input_kind, "message");
}

TEST(PastedErrorTest, UnknownShapeIsTheWholeTrimmedText) {
  PastedError e = ParsePastedError("\n\n  the server keeps saying\n    Missing option '--data-path'  \n\n");
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "");
  EXPECT_EQ(Last(e).message, "the server keeps saying\n    Missing option '--data-path'");
  EXPECT_EQ(Last(e).message_line, 3);
}

// ---------------------------------------------------------------------------------------------------
// Python tracebacks.

TEST(PastedErrorTest, Traceback) {
  const char* text =
      "Traceback (most recent call last):\n"
      "  File \"/home/u/app/main.py\", line 12, in <module>\n"
      "    main()\n"
      "  File \"/usr/lib/python3.12/site-packages/aiohttp/client_reqrep.py\", line 1026, in json\n"
      "    raise ContentTypeError(\n"
      "aiohttp.client_exceptions.ContentTypeError: 0, message='Attempt to decode JSON with unexpected mimetype: "
      "text/html', url=URL('http://x/')\n";
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(e.input_kind, "traceback");
  ASSERT_EQ(e.exceptions.size(), 1u);
  const PastedException& x = Last(e);
  EXPECT_EQ(x.type, "aiohttp.client_exceptions.ContentTypeError");
  EXPECT_EQ(x.message, "0, message='Attempt to decode JSON with unexpected mimetype: text/html', url=URL('http://x/')");
  EXPECT_EQ(x.message_line, 6);
  ASSERT_EQ(x.frames.size(), 2u);
  EXPECT_EQ(x.frames[0].path, "/home/u/app/main.py");
  EXPECT_EQ(x.frames[0].line, 12);
  EXPECT_EQ(x.frames[0].function, "<module>");
  EXPECT_EQ(x.frames[0].code, "main()");
  EXPECT_EQ(x.frames[1].path, "/usr/lib/python3.12/site-packages/aiohttp/client_reqrep.py");
  EXPECT_EQ(x.frames[1].function, "json");
  EXPECT_EQ(x.frames[1].code, "raise ContentTypeError(");
}

TEST(PastedErrorTest, TracebackWithCaretsAndMultiLineCode) {
  const char* text =
      "Traceback (most recent call last):\n"
      "  File \"/app/x.py\", line 3, in <module>\n"
      "    foo(\n"
      "    ^^^^\n"
      "        1,\n"
      "        ^^\n"
      "    )\n"
      "    ^\n"
      "  File \"/app/x.py\", line 2, in foo\n"
      "    return cast(bytes, self._obj.process(data, max_length))\n"
      "                       ~~~~~~~~~~~~~~~~~^^^^^^^^^^^^^^^^^^\n"
      "TypeError: process() takes exactly 1 argument (2 given)\n";
  PastedError e = ParsePastedError(text);
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "TypeError");
  ASSERT_EQ(Last(e).frames.size(), 2u);
  EXPECT_EQ(Last(e).frames[0].code, "foo(\n1,\n)");
  EXPECT_EQ(Last(e).frames[1].code, "return cast(bytes, self._obj.process(data, max_length))");
}

TEST(PastedErrorTest, TracebackMultiLineMessageAndTrailingLog) {
  const char* text =
      "Traceback (most recent call last):\n"
      "  File \"aiohttp/_http_parser.pyx\", line 761, in aiohttp._http_parser.cb_on_body\n"
      "  File \"/usr/local/lib/python3.12/site-packages/aiohttp/http_parser.py\", line 1034, in feed_data\n"
      "    raise ContentEncodingError(\n"
      "aiohttp.http_exceptions.ContentEncodingError: 400, message:\n"
      "  Can not decode content-encoding: br\n"
      "INFO:     connection closed\n";
  PastedError e = ParsePastedError(text);
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).message, "400, message:\n  Can not decode content-encoding: br");
  ASSERT_EQ(Last(e).frames.size(), 2u);
  EXPECT_EQ(Last(e).frames[0].code, "");  // Cython frames show no source
  EXPECT_EQ(Last(e).frames[0].function, "aiohttp._http_parser.cb_on_body");
}

TEST(PastedErrorTest, ChainedTracebacks) {
  const char* text =
      "Traceback (most recent call last):\n"
      "  File \"/srv/formparsers.py\", line 236, in parse\n"
      "    boundary = params[b\"boundary\"]\n"
      "               ~~~~~~^^^^^^^^^^^^^\n"
      "KeyError: b'boundary'\n"
      "\n"
      "During handling of the above exception, another exception occurred:\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"/srv/formparsers.py\", line 238, in parse\n"
      "    raise MultiPartException(\"Missing boundary in multipart.\")\n"
      "starlette.formparsers.MultiPartException: Missing boundary in multipart.\n"
      "\n"
      "The above exception was the direct cause of the following exception:\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"/srv/app.py\", line 9, in handler\n"
      "    raise HTTPException(400) from exc\n"
      "starlette.exceptions.HTTPException: 400: Bad Request\n";
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(e.input_kind, "traceback");
  EXPECT_EQ(Types(e), (std::vector<std::string>{"KeyError", "starlette.formparsers.MultiPartException",
                                                "starlette.exceptions.HTTPException"}));
  EXPECT_EQ(e.exceptions[1].message, "Missing boundary in multipart.");
  EXPECT_EQ(e.exceptions[1].message_line, 12);
  EXPECT_EQ(Last(e).message, "400: Bad Request");
  EXPECT_EQ(Last(e).frames.size(), 1u);
}

TEST(PastedErrorTest, ExceptionGroup) {
  const char* text =
      "  + Exception Group Traceback (most recent call last):\n"
      "  |   File \"/app/main.py\", line 12, in <module>\n"
      "  |     asyncio.run(main())\n"
      "  |   File \"/app/main.py\", line 8, in main\n"
      "  |     async with asyncio.TaskGroup() as tg:\n"
      "  | ExceptionGroup: unhandled errors in a TaskGroup (2 sub-exceptions)\n"
      "  +-+---------------- 1 ----------------\n"
      "    | Traceback (most recent call last):\n"
      "    |   File \"/app/main.py\", line 4, in fetch\n"
      "    |     raise ValueError(f\"bad id {i}\")\n"
      "    | ValueError: bad id 3\n"
      "    +---------------- 2 ----------------\n"
      "    | Traceback (most recent call last):\n"
      "    |   File \"/app/main.py\", line 6, in fetch\n"
      "    |     raise KeyError(i)\n"
      "    | KeyError: 4\n"
      "    +------------------------------------\n";
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(e.input_kind, "traceback");
  EXPECT_EQ(Types(e), (std::vector<std::string>{"ExceptionGroup", "ValueError", "KeyError"}));
  EXPECT_EQ(e.exceptions[0].message, "unhandled errors in a TaskGroup (2 sub-exceptions)");
  EXPECT_EQ(e.exceptions[0].frames.size(), 2u);
  EXPECT_EQ(e.exceptions[1].message, "bad id 3");
  ASSERT_EQ(e.exceptions[1].frames.size(), 1u);
  EXPECT_EQ(e.exceptions[1].frames[0].code, "raise ValueError(f\"bad id {i}\")");
  EXPECT_EQ(Last(e).message, "4");
}

TEST(PastedErrorTest, SyntaxErrorFrameWithoutFunction) {
  const char* text =
      "Traceback (most recent call last):\n"
      "  File \"/app/run.py\", line 1, in <module>\n"
      "    import conf\n"
      "  File \"/app/conf.py\", line 3\n"
      "    def f(:\n"
      "          ^\n"
      "SyntaxError: invalid syntax\n";
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(Last(e).type, "SyntaxError");
  ASSERT_EQ(Last(e).frames.size(), 2u);
  EXPECT_EQ(Last(e).frames[1].function, "");
  EXPECT_EQ(Last(e).frames[1].line, 3);
  EXPECT_EQ(Last(e).frames[1].code, "def f(:");
}

TEST(PastedErrorTest, RecursionErrorRepeatedLines) {
  const char* text =
      "Traceback (most recent call last):\n"
      "  File \"/app/r.py\", line 2, in f\n"
      "    return f()\n"
      "  [Previous line repeated 996 more times]\n"
      "RecursionError: maximum recursion depth exceeded\n";
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(Last(e).type, "RecursionError");
  EXPECT_EQ(Last(e).frames.size(), 1u);
}

TEST(PastedErrorTest, WindowsPaths) {
  const char* text =
      "Traceback (most recent call last):\n"
      "  File \"C:\\Users\\x\\AppData\\Local\\Programs\\Python\\Python313\\Lib\\site-packages\\pkg\\mod.py\", line 12, "
      "in f\n"
      "    raise RuntimeError(f\"File at path {self.path} does not exist.\")\n"
      "RuntimeError: File at path Y:\\sd\\tags\\config.json does not exist.\n";
  PastedError e = ParsePastedError(text);
  ASSERT_EQ(Last(e).frames.size(), 1u);
  EXPECT_EQ(Last(e).frames[0].path,
            "C:\\Users\\x\\AppData\\Local\\Programs\\Python\\Python313\\Lib\\site-packages\\pkg\\mod.py");
  EXPECT_EQ(Last(e).message, "File at path Y:\\sd\\tags\\config.json does not exist.");

  e = ParsePastedError("C:\\proj\\tests\\test_a.py:12: in test_f\n    f()\nE   KeyError: 'k'\n");
  EXPECT_EQ(Last(e).type, "KeyError");
  ASSERT_EQ(Last(e).frames.size(), 1u);
  EXPECT_EQ(Last(e).frames[0].path, "C:\\proj\\tests\\test_a.py");
  EXPECT_EQ(Last(e).frames[0].line, 12);
  EXPECT_EQ(Last(e).frames[0].code, "f()");
}

TEST(PastedErrorTest, PartialPasteStartingMidFrame) {
  const char* text =
      "line 984, in _wrap_create_connection\n"
      "    raise ClientConnectorSSLError(req.connection_key, exc) from exc\n"
      "aiohttp.client_exceptions.ClientConnectorSSLError: Cannot connect to host h:1 ssl:default [bad]\n";
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(e.input_kind, "traceback");
  ASSERT_EQ(Last(e).frames.size(), 1u);
  EXPECT_EQ(Last(e).frames[0].path, "");
  EXPECT_EQ(Last(e).frames[0].line, 984);
  EXPECT_EQ(Last(e).frames[0].function, "_wrap_create_connection");
}

TEST(PastedErrorTest, DeindentedPaste) {
  const char* text =
      "app.mount(\"/tasks\", StaticFiles(directory=\"tasks\"), name=\"tasks\")\n"
      "File \"/env/lib/python3.10/site-packages/starlette/staticfiles.py\", line 57, in init\n"
      "raise RuntimeError(f\"Directory '{directory}' does not exist\")\n"
      "RuntimeError: Directory 'tasks' does not exist\n";
  PastedError e = ParsePastedError(text);
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "RuntimeError");
  ASSERT_EQ(Last(e).frames.size(), 1u);
  EXPECT_EQ(Last(e).frames[0].code, "raise RuntimeError(f\"Directory '{directory}' does not exist\")");
}

TEST(PastedErrorTest, FrozenFramesWithoutSourceAndTrailingLogLine) {
  const char* text =
      "Traceback (most recent call last):\n"
      "  File \"cli.py\", line 187, in <module>\n"
      "  File \"click/core.py\", line 1485, in __call__\n"
      "  File \"click/decorators.py\", line 500, in callback\n"
      "RuntimeError: 'rustfava' is not installed. Try passing 'package_name' instead.\n"
      "[PYI-387227:ERROR] Failed to execute script 'cli' due to unhandled exception!\n";
  PastedError e = ParsePastedError(text);
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).message, "'rustfava' is not installed. Try passing 'package_name' instead.");
  EXPECT_EQ(Last(e).frames.size(), 3u);
  // The stream also reports the ERROR log line, as an untyped error.
  PastedErrorStream s;
  s.Feed(text);
  s.Finish();
  std::vector<PastedException> all = s.Take();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[1].type, "");
  EXPECT_EQ(all[1].message, "Failed to execute script 'cli' due to unhandled exception!");
  EXPECT_EQ(all[1].message_line, 6);
}

// ---------------------------------------------------------------------------------------------------
// pytest.

TEST(PastedErrorTest, PytestShortTraceback) {
  const char* text =
      "    app = create_app(TestConfig)\n"
      "api/app.py:27: in create_app\n"
      "    routes.setup(app)\n"
      "../envs/lib/python3.5/site-packages/aiohttp/web_urldispatcher.py:459: in register_route\n"
      "    .format(name, self._routes[name]))\n"
      "E   ValueError: Duplicate 'should_i_release', already handled by <DynamicRoute 'x' [GET] /v1/x>\n";
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(e.input_kind, "traceback");
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "ValueError");
  EXPECT_EQ(Last(e).message, "Duplicate 'should_i_release', already handled by <DynamicRoute 'x' [GET] /v1/x>");
  EXPECT_EQ(Last(e).message_line, 6);
  ASSERT_EQ(Last(e).frames.size(), 2u);
  EXPECT_EQ(Last(e).frames[0].path, "api/app.py");
  EXPECT_EQ(Last(e).frames[0].line, 27);
  EXPECT_EQ(Last(e).frames[0].function, "create_app");
  EXPECT_EQ(Last(e).frames[0].code, "routes.setup(app)");
  EXPECT_EQ(Last(e).frames[1].function, "register_route");
}

TEST(PastedErrorTest, PytestLongReport) {
  const char* text =
      "=================================== FAILURES ===================================\n"
      "___________________________________ test_x ____________________________________\n"
      "\n"
      "    def test_x():\n"
      ">       bar()\n"
      "\n"
      "tests/test_x.py:5: \n"
      "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n"
      "\n"
      "    def bar():\n"
      "        value = compute()\n"
      ">       raise ValueError(\"bad value\\nsecond line\")\n"
      "E       ValueError: bad value\n"
      "E       second line\n"
      "\n"
      "tests/test_x.py:9: ValueError\n"
      "=========================== short test summary info ============================\n"
      "FAILED tests/test_x.py::test_x - ValueError: bad value\n";
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(e.input_kind, "traceback");
  ASSERT_EQ(e.exceptions.size(), 1u);
  const PastedException& x = Last(e);
  EXPECT_EQ(x.type, "ValueError");
  EXPECT_EQ(x.message, "bad value\nsecond line");
  EXPECT_EQ(x.message_line, 13);
  ASSERT_EQ(x.frames.size(), 2u);
  EXPECT_EQ(x.frames[0].path, "tests/test_x.py");
  EXPECT_EQ(x.frames[0].line, 5);
  EXPECT_EQ(x.frames[0].code, "bar()");
  EXPECT_EQ(x.frames[1].line, 9);
  EXPECT_EQ(x.frames[1].code, "raise ValueError(\"bad value\\nsecond line\")");
}

TEST(PastedErrorTest, PytestAssertionTypeFromLocation) {
  const char* text =
      "    def test_sum():\n"
      ">       assert add(1, 2) == 4\n"
      "E       assert 3 == 4\n"
      "E        +  where 3 = add(1, 2)\n"
      "\n"
      "tests/test_math.py:7: AssertionError\n";
  PastedError e = ParsePastedError(text);
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "AssertionError");
  EXPECT_EQ(Last(e).message, "assert 3 == 4\n +  where 3 = add(1, 2)");
  ASSERT_EQ(Last(e).frames.size(), 1u);
  EXPECT_EQ(Last(e).frames[0].code, "assert add(1, 2) == 4");
}

TEST(PastedErrorTest, WarningsLine) {
  PastedError e = ParsePastedError(
      "/usr/lib/python3/site-packages/pkg/mod.py:12: DeprecationWarning: foo() is deprecated, use bar()\n"
      "  warnings.warn(\"foo() is deprecated, use bar()\", DeprecationWarning)\n");
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "DeprecationWarning");
  EXPECT_EQ(Last(e).message, "foo() is deprecated, use bar()");
  ASSERT_EQ(Last(e).frames.size(), 1u);
  EXPECT_EQ(Last(e).frames[0].line, 12);
}

// ---------------------------------------------------------------------------------------------------
// Notebooks.

TEST(PastedErrorTest, IPythonTracebackWithAnsiColours) {
  const char* text =
      "\x1b[0;31m---------------------------------------------------------------------------\x1b[0m\n"
      "\x1b[0;31mValueError\x1b[0m                                Traceback (most recent call last)\n"
      "Cell \x1b[0;32mIn[3], line 5\x1b[0m\n"
      "\x1b[1;32m      3\x1b[0m x \x1b[38;5;241m=\x1b[39m \x1b[38;5;241m1\x1b[39m\n"
      "\x1b[0;32m----> 5\x1b[0m \x1b[43mf\x1b[49m\x1b[43m(\x1b[49m\x1b[43mx\x1b[49m\x1b[43m)\x1b[49m\n"
      "\n"
      "File \x1b[0;32m~/proj/x.py:12\x1b[0m, in \x1b[0;36mf\x1b[0;34m(a)\x1b[0m\n"
      "\x1b[1;32m     10\x1b[0m \x1b[38;5;28;01mdef\x1b[39;00m \x1b[38;5;21mf\x1b[39m(a):\n"
      "\x1b[0;32m---> 12\x1b[0m     \x1b[38;5;28;01mraise\x1b[39;00m \x1b[38;5;167;01mValueError\x1b[39;00m(\"bad "
      "value\")\n"
      "\n"
      "\x1b[0;31mValueError\x1b[0m: bad value\n";
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(e.input_kind, "traceback");
  ASSERT_EQ(e.exceptions.size(), 1u);
  const PastedException& x = Last(e);
  EXPECT_EQ(x.type, "ValueError");
  EXPECT_EQ(x.message, "bad value");
  EXPECT_EQ(x.message_line, 11);
  ASSERT_EQ(x.frames.size(), 2u);
  EXPECT_EQ(x.frames[0].path, "Cell In[3]");
  EXPECT_EQ(x.frames[0].line, 5);
  EXPECT_EQ(x.frames[0].code, "f(x)");
  EXPECT_EQ(x.frames[1].path, "~/proj/x.py");
  EXPECT_EQ(x.frames[1].line, 12);
  EXPECT_EQ(x.frames[1].function, "f");
  EXPECT_EQ(x.frames[1].code, "raise ValueError(\"bad value\")");
}

TEST(PastedErrorTest, OldIPythonAndLostEscapeBytes) {
  // Pasted into an issue, the ESC bytes are gone and the colour codes stay behind as text.
  const char* text =
      "[0;31m---------------------------------------------------------------------------[0m\n"
      "[0;31mKeyError[0m                                  Traceback (most recent call last)\n"
      "[0;32m<ipython-input-3-8a9f2e0f6b1c>[0m in [0;36m<module>[0;34m()[0m\n"
      "[0;32m----> 1[0;31m [0md[0;34m[[0;34m'b'[0m[0;34m][0m[0;34m[0m[0;34m[0m[0m\n"
      "\n"
      "[0;31mKeyError[0m: 'b'\n";
  PastedError e = ParsePastedError(text);
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "KeyError");
  EXPECT_EQ(Last(e).message, "'b'");
  ASSERT_EQ(Last(e).frames.size(), 1u);
  EXPECT_EQ(Last(e).frames[0].path, "<ipython-input-3-8a9f2e0f6b1c>");
  EXPECT_EQ(Last(e).frames[0].function, "<module>");
  EXPECT_EQ(Last(e).frames[0].line, 1);
}

TEST(PastedErrorTest, IPythonHeaderTypeWhenTheLastLineIsMissing) {
  const char* text =
      "ZeroDivisionError                         Traceback (most recent call last)\n"
      "Cell In[1], line 1\n"
      "----> 1 1/0\n";
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(Last(e).type, "ZeroDivisionError");
  EXPECT_EQ(Last(e).frames.size(), 1u);
}

TEST(PastedErrorTest, RichTraceback) {
  const char* text =
      "\u256d\u2500\u2500\u2500\u2500\u2500 Traceback (most recent call last) \u2500\u2500\u2500\u2500\u2500\u256e\n"
      "\u2502 /home/u/proj/cli.py:12 in main                  \u2502\n"
      "\u2502                                                 \u2502\n"
      "\u2502    11 \u2502   cfg = load()                          \u2502\n"
      "\u2502 \u2771  12 \u2502   raise ValueError(\"bad config\")        \u2502\n"
      "\u2502    13                                           \u2502\n"
      "\u2502 \u256d\u2500\u2500\u2500 locals \u2500\u2500\u2500\u256e                         \u2502\n"
      "\u2502 \u2502 cfg = None \u2502                               \u2502\n"
      "\u2502 \u2570\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256f   \u2502\n"
      "\u2570\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500"
      "\u2500\u2500\u2500\u256f\n"
      "ValueError: bad config\n";
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(e.input_kind, "traceback");
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "ValueError");
  EXPECT_EQ(Last(e).message, "bad config");
  ASSERT_EQ(Last(e).frames.size(), 1u);
  EXPECT_EQ(Last(e).frames[0].path, "/home/u/proj/cli.py");
  EXPECT_EQ(Last(e).frames[0].line, 12);
  EXPECT_EQ(Last(e).frames[0].function, "main");
  EXPECT_EQ(Last(e).frames[0].code, "raise ValueError(\"bad config\")");
}

TEST(PastedErrorTest, LoguruTraceback) {
  const char* text =
      "2024-01-02 03:04:05.123 | ERROR    | __main__:main:12 - An error has been caught in function '<module>'\n"
      "Traceback (most recent call last):\n"
      "\n"
      "  File \"/app/x.py\", line 20, in <module>\n"
      "    main()\n"
      "    \u2514 <function main at 0x7f>\n"
      "\n"
      "> File \"/app/x.py\", line 12, in main\n"
      "    raise ValueError(n)\n"
      "    \u2502                \u2514 3\n"
      "    \u2514 <class 'ValueError'>\n"
      "\n"
      "ValueError: 3\n";
  PastedError e = ParsePastedError(text);
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "ValueError");
  EXPECT_EQ(Last(e).message, "3");
  ASSERT_EQ(Last(e).frames.size(), 2u);
  EXPECT_EQ(Last(e).frames[0].code, "main()");
  EXPECT_EQ(Last(e).frames[1].code, "raise ValueError(n)");
}

TEST(PastedErrorTest, DjangoTechnicalErrorPage) {
  const char* text =
      "Environment:\n\nRequest Method: GET\nRequest URL: http://localhost:8000/items/abc/\n\n"
      "Django Version: 4.2.7\nPython Version: 3.11.4\n\n"
      "Traceback (most recent call last):\n"
      "  File \"/venv/lib/python3.11/site-packages/django/core/handlers/exception.py\", line 55, in inner\n"
      "    response = get_response(request)\n"
      "  File \"/app/items/views.py\", line 14, in detail\n"
      "    item = Item.objects.get(pk=int(pk))\n"
      "\n"
      "Exception Type: ValueError at /items/abc/\n"
      "Exception Value: invalid literal for int() with base 10: 'abc'\n";
  PastedError e = ParsePastedError(text);
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "ValueError");
  EXPECT_EQ(Last(e).message, "invalid literal for int() with base 10: 'abc'");
  EXPECT_EQ(Last(e).message_line, 16);
  EXPECT_EQ(Last(e).frames.size(), 2u);
}

TEST(PastedErrorTest, EveryTracebackLineLogPrefixed) {
  const char* text =
      "2024-01-02 03:04:05 ERROR Traceback (most recent call last):\n"
      "2024-01-02 03:04:05 ERROR   File \"/a.py\", line 1, in f\n"
      "2024-01-02 03:04:05 ERROR     g()\n"
      "2024-01-02 03:04:05 ERROR ValueError: x\n";
  PastedError e = ParsePastedError(text);
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "ValueError");
  ASSERT_EQ(Last(e).frames.size(), 1u);
  EXPECT_EQ(Last(e).frames[0].code, "g()");
}

TEST(PastedErrorTest, UvicornExceptionGroupThenChainedTraceback) {
  const char* text =
      "INFO:     127.0.0.1:52514 - \"GET / HTTP/1.1\" 500 Internal Server Error\n"
      "ERROR:    Exception in ASGI application\n"
      "  + Exception Group Traceback (most recent call last):\n"
      "  |   File \"/venv/site-packages/anyio/_backends/_asyncio.py\", line 763, in __aexit__\n"
      "  |     raise BaseExceptionGroup(\n"
      "  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)\n"
      "  +-+---------------- 1 ----------------\n"
      "    | Traceback (most recent call last):\n"
      "    |   File \"/venv/site-packages/starlette/middleware/base.py\", line 160, in call_next\n"
      "    |     raise RuntimeError(\"No response returned.\")\n"
      "    | RuntimeError: No response returned.\n"
      "    +------------------------------------\n"
      "\n"
      "During handling of the above exception, another exception occurred:\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"/venv/site-packages/uvicorn/protocols/http/httptools_impl.py\", line 409, in run_asgi\n"
      "    result = await app(  # type: ignore[func-returns-value]\n"
      "RuntimeError: No response returned.\n";
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(e.input_kind, "traceback");
  EXPECT_EQ(Types(e), (std::vector<std::string>{"ExceptionGroup", "RuntimeError", "RuntimeError"}));
  EXPECT_EQ(e.exceptions[1].message_line, 11);
  EXPECT_EQ(Last(e).message_line, 19);
}

// ---------------------------------------------------------------------------------------------------
// Logs.

TEST(PastedErrorTest, PythonLoggingExceptionDropsTheRecordMessage) {
  const char* text =
      "2024-01-02 03:04:05,123 - myapp.db - ERROR - Query failed\n"
      "Traceback (most recent call last):\n"
      "  File \"/srv/db.py\", line 40, in run\n"
      "    cur.execute(sql)\n"
      "sqlite3.OperationalError: no such table: users\n"
      "2024-01-02 03:04:06,001 - myapp - INFO - retrying\n";
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(e.input_kind, "traceback");
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "sqlite3.OperationalError");
  EXPECT_EQ(Last(e).message, "no such table: users");
  PastedErrorStream s;
  s.Feed(text);
  s.Finish();
  EXPECT_EQ(s.Take().size(), 1u);  // "Query failed" is the traceback's record, not a second error
}

TEST(PastedErrorTest, TimestampLevelPrefixes) {
  struct Case {
    const char* input;
    const char* type;
    const char* message;
  } cases[] = {
      {"2024-01-02 03:04:05,123 ERROR ValueError: bad", "ValueError", "bad"},
      {"2024-01-02T03:04:05.123456Z ERROR [myapp] ValueError: bad", "ValueError", "bad"},
      {"[2024-01-02 03:04:05,123] ERROR in app: Exception on /api [GET]", "", "Exception on /api [GET]"},
      {"[2024-01-02 03:04:05 +0000] [123] [ERROR] Exception in worker process", "", "Exception in worker process"},
      {"ERROR:root:KeyError: 'user'", "KeyError", "'user'"},
      {"ERROR:    Application startup failed. Exiting.", "", "Application startup failed. Exiting."},
      {"error: RuntimeError: Session is closed", "RuntimeError", "Session is closed"},
      {"E0102 03:04:05.123456  1234 server.cc:12] RuntimeError: lost", "RuntimeError", "lost"},
      {"E 2024-01-02 03:04:05 RuntimeError: lost", "RuntimeError", "lost"},
      {"[pid 123] ValueError: bad", "ValueError", "bad"},
      {"[E] [worker-3] ValueError: bad", "ValueError", "bad"},
      {"llamabot-1  | WARNING:app.ws.manager:Failed to send: Cannot call \"send\" once closed.", "",
       "Failed to send: Cannot call \"send\" once closed."},
      {"14:53:38.123 ERROR TimeoutError: read timed out", "TimeoutError", "read timed out"},
  };
  for (const Case& c : cases) {
    PastedError e = ParsePastedError(c.input);
    ASSERT_EQ(e.exceptions.size(), 1u) << c.input;
    EXPECT_EQ(Last(e).type, c.type) << c.input;
    EXPECT_EQ(Last(e).message, c.message) << c.input;
  }
}

TEST(PastedErrorTest, HerokuLog) {
  const char* text =
      "2022-06-15T03:42:11.794121+00:00 app[web.1]: Traceback (most recent call last):\n"
      "2022-06-15T03:42:11.794121+00:00 app[web.1]:   File \"/app/utils/telegram.py\", line 54, in send_message\n"
      "2022-06-15T03:42:11.794121+00:00 app[web.1]:     async with session.post(api_url,\n"
      "2022-06-15T03:42:11.794124+00:00 app[web.1]: RuntimeError: Timeout context manager should be used inside a "
      "task\n"
      "2022-06-15T03:42:11.796452+00:00 heroku[router]: at=info method=POST path=\"/\" status=500\n";
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(e.input_kind, "traceback");
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).message, "Timeout context manager should be used inside a task");
  ASSERT_EQ(Last(e).frames.size(), 1u);
  EXPECT_EQ(Last(e).frames[0].code, "async with session.post(api_url,");
}

TEST(PastedErrorTest, JournaldDockerComposeAndCloudLogging) {
  PastedError e = ParsePastedError("Oct 22 14:53:38 myhost python[16841]:     RuntimeError: Session is closed");
  EXPECT_EQ(Last(e).type, "RuntimeError");
  EXPECT_EQ(Last(e).message, "Session is closed");

  e = ParsePastedError(
      "web_1  | Traceback (most recent call last):\n"
      "web_1  |   File \"/app/main.py\", line 3, in <module>\n"
      "web_1  |     run()\n"
      "web_1  | ValueError: bad config\n"
      "web_1  |   key: port\n"
      "db_1   | LOG:  database system is ready to accept connections\n");
  EXPECT_EQ(Last(e).type, "ValueError");
  EXPECT_EQ(Last(e).message, "bad config\n  key: port");
  EXPECT_EQ(Last(e).frames.size(), 1u);

  e = ParsePastedError(
      "2024-04-15 09:34:22.067 CEST\n"
      "  File \"/usr/local/lib/python3.11/site-packages/starlette/staticfiles.py\", line 59, in __init__\n"
      "2024-04-15 09:34:22.072 CEST\n"
      "    raise RuntimeError(f\"Directory '{directory}' does not exist\")\n"
      "2024-04-15 09:34:23.075 CEST\n"
      "RuntimeError: Directory '/static' does not exist\n");
  EXPECT_EQ(Last(e).message, "Directory '/static' does not exist");
  EXPECT_EQ(Last(e).message_line, 6);
  ASSERT_EQ(Last(e).frames.size(), 1u);
  EXPECT_EQ(Last(e).frames[0].code, "raise RuntimeError(f\"Directory '{directory}' does not exist\")");
}

TEST(PastedErrorTest, MarkdownQuoteAndIndentedBlock) {
  PastedError e = ParsePastedError("> ValueError: Invalid boundary b'', expected b'--x'\n");
  EXPECT_EQ(Last(e).type, "ValueError");
  EXPECT_EQ(Last(e).message, "Invalid boundary b'', expected b'--x'");

  e = ParsePastedError(
      "> Traceback (most recent call last):\n"
      ">   File \"train.py\", line 60, in <module>\n"
      ">     main()\n"
      "> TypeError: Got secondary option for non boolean flag.\n");
  EXPECT_EQ(Last(e).type, "TypeError");
  ASSERT_EQ(Last(e).frames.size(), 1u);
  EXPECT_EQ(Last(e).frames[0].code, "main()");

  e = ParsePastedError(
      "*** Error executing callback app_started_callback for M:\\SD\\scripts\\main.py\n"
      "    Traceback (most recent call last):\n"
      "      File \"M:\\SD\\modules\\script_callbacks.py\", line 126, in app_started_callback\n"
      "        c.callback(demo, app)\n"
      "    RuntimeError: Cannot add middleware after an application has started\n"
      "Press any key to continue . . .\n");
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).message, "Cannot add middleware after an application has started");
  EXPECT_EQ(Last(e).frames[0].code, "c.callback(demo, app)");
}

TEST(PastedErrorTest, SentryPaste) {
  const char* text =
      "ClientConnectorError: Cannot connect to host www.virtool.ca:443 ssl:True [Connection reset by peer]\n"
      "(11 additional frame(s) were not displayed)\n"
      "...\n"
      "  File \"aiohttp/connector.py\", line 838, in _create_direct_connection\n"
      "    req=req, client_error=client_error)\n"
      "  File \"aiohttp/connector.py\", line 804, in _wrap_create_connection\n"
      "    raise client_error(req.connection_key, exc) from exc\n";
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(e.input_kind, "traceback");
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "ClientConnectorError");
  EXPECT_EQ(Last(e).message, "Cannot connect to host www.virtool.ca:443 ssl:True [Connection reset by peer]");
  EXPECT_EQ(Last(e).message_line, 1);
  ASSERT_EQ(Last(e).frames.size(), 2u);
  EXPECT_EQ(Last(e).frames[1].function, "_wrap_create_connection");

  // Sentry also repeats the exception line after the frames.
  e = ParsePastedError(
      "TypeError: Only io.IOBase, multidict and (name, file) pairs allowed\n"
      "(6 additional frame(s) were not displayed)\n"
      "...\n"
      "  File \"aiohttp/helpers.py\", line 178, in add_fields\n"
      "    .format(rec))\n"
      "\n"
      "TypeError: Only io.IOBase, multidict and (name, file) pairs allowed\n");
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).frames.size(), 1u);
  EXPECT_EQ(Last(e).message_line, 1);
}

TEST(PastedErrorTest, FlattenedTraceback) {
  const char* text =
      "Task exception was never retrieved future: <Task finished name='Task-9' coro=<read() done, defined at "
      "D:\\Bot\\main.py:100> exception=RuntimeError('WebSocket is not connected. Need to call \"accept\" first.')> "
      "Traceback (most recent call last):   File \"D:\\Bot\\main.py\", line 101, in read_from_socket     async for "
      "data in websocket.iter_text():   File \"C:\\Py\\site-packages\\starlette\\websockets.py\", line 146, in "
      "iter_text     yield await self.receive_text()           ^^^^^^^^^^^^^^^^^^^^^^^^^   File "
      "\"C:\\Py\\site-packages\\starlette\\websockets.py\", line 117, in receive_text     raise "
      "RuntimeError('WebSocket is not connected. Need to call \"accept\" first.') RuntimeError: WebSocket is not "
      "connected. Need to call \"accept\" first.";
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(e.input_kind, "traceback");
  ASSERT_EQ(e.exceptions.size(), 1u);
  const PastedException& x = Last(e);
  EXPECT_EQ(x.type, "RuntimeError");
  EXPECT_EQ(x.message, "WebSocket is not connected. Need to call \"accept\" first.");
  ASSERT_EQ(x.frames.size(), 3u);
  EXPECT_EQ(x.frames[0].path, "D:\\Bot\\main.py");
  EXPECT_EQ(x.frames[0].code, "async for data in websocket.iter_text():");
  EXPECT_EQ(x.frames[1].code, "yield await self.receive_text()");
  EXPECT_EQ(x.frames[2].function, "receive_text");
  EXPECT_EQ(x.frames[2].code, "raise RuntimeError('WebSocket is not connected. Need to call \"accept\" first.')");
  // The stream reports it once: the repr before the traceback is the same error.
  PastedErrorStream s;
  s.Feed(text);
  s.Finish();
  EXPECT_EQ(s.Take().size(), 1u);
}

TEST(PastedErrorTest, FlattenedTracebackCutBeforeTheExceptionLine) {
  PastedError e = ParsePastedError(
      "Traceback (most recent call last):   File \"/a.py\", line 1, in f     g()   File \"/b.py\", line 2, in g     "
      "raise KeyError('missing key')");
  EXPECT_EQ(Last(e).type, "KeyError");  // from the `raise` line
  EXPECT_EQ(Last(e).message, "missing key");
  EXPECT_EQ(Last(e).frames.size(), 2u);
}

TEST(PastedErrorTest, TracebackInsideJsonString) {
  const char* text =
      "{\"level\": \"error\", \"exception\": \"Traceback (most recent call last):\\n  File "
      "\\\"/srv/formparsers.py\\\", "
      "line 236, in parse\\n    boundary = params[b\\\"boundary\\\"]\\nKeyError: b'boundary'\\n\\nDuring handling "
      "of the above exception, another exception occurred:\\n\\nTraceback (most recent call last):\\n  File "
      "\\\"/srv/formparsers.py\\\", line 238, in parse\\n    raise MultiPartException(\\\"Missing boundary in "
      "multipart.\\\")\\nstarlette.formparsers.MultiPartException: Missing boundary in multipart.\", \"ts\": 1}";
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(e.input_kind, "traceback");
  EXPECT_EQ(Types(e), (std::vector<std::string>{"KeyError", "starlette.formparsers.MultiPartException"}));
  EXPECT_EQ(Last(e).message, "Missing boundary in multipart.");
  EXPECT_EQ(Last(e).message_line, 1);
  ASSERT_EQ(Last(e).frames.size(), 1u);
  EXPECT_EQ(Last(e).frames[0].path, "/srv/formparsers.py");
  EXPECT_EQ(Last(e).frames[0].code, "raise MultiPartException(\"Missing boundary in multipart.\")");
}

TEST(PastedErrorTest, TypedMessageInsideJsonString) {
  PastedError e =
      ParsePastedError("{\"level\":\"error\",\"msg\":\"ValueError: bad value\\nsee \\\"docs\\\"\",\"logger\":\"app\"}");
  EXPECT_EQ(Last(e).type, "ValueError");
  EXPECT_EQ(Last(e).message, "bad value\nsee \"docs\"");
}

TEST(PastedErrorTest, AsyncioTaskExceptionNeverRetrieved) {
  const char* text =
      "Task exception was never retrieved\n"
      "future: <Task finished name='Task-2' coro=<main() done> exception=ValueError('boom')>\n"
      "Traceback (most recent call last):\n"
      "  File \"/app/t.py\", line 3, in main\n"
      "    raise ValueError('boom')\n"
      "ValueError: boom\n";
  PastedErrorStream s;
  s.Feed(text);
  s.Finish();
  std::vector<PastedException> all = s.Take();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].frames.size(), 1u);
}

TEST(PastedErrorTest, LogWithSeveralTracebacks) {
  std::string text;
  for (int i = 0; i < 3; ++i) {
    text += "2024-01-02 03:04:0" + std::to_string(i) + ",000 ERROR worker: job failed\n";
    text += "Traceback (most recent call last):\n  File \"/w.py\", line 9, in run\n    job()\n";
    text += "OSError: [Errno 28] No space left on device: '/tmp/" + std::to_string(i) + "'\n";
  }
  PastedError e = ParsePastedError(text);
  EXPECT_EQ(e.input_kind, "log");
  ASSERT_EQ(e.exceptions.size(), 3u);
  EXPECT_EQ(Last(e).message, "[Errno 28] No space left on device: '/tmp/2'");
  EXPECT_EQ(Last(e).message_line, 15);
}

TEST(PastedErrorTest, LogWithoutTraceback) {
  PastedError e = ParsePastedError(
      "2024-01-02 03:04:05,001 INFO app: starting\n"
      "2024-01-02 03:04:05,002 ERROR app: upstream failed: aiohttp.client_exceptions.ServerDisconnectedError: "
      "Server disconnected\n"
      "2024-01-02 03:04:05,003 INFO app: stopping\n");
  EXPECT_EQ(e.input_kind, "log");
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(Last(e).type, "aiohttp.client_exceptions.ServerDisconnectedError");
  EXPECT_EQ(Last(e).message, "Server disconnected");
  EXPECT_EQ(Last(e).message_line, 2);
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

TEST(PastedErrorTest, IPythonElidedContextLines) {
  PastedError e = ParsePastedError(
      "---------------------------------------------------------------------------\n"
      "RuntimeError                              Traceback (most recent call last)\n"
      "Cell In[7], line 12\n"
      "---> 12 results = asyncio.run(main(urls))\n"
      "\n"
      "File /opt/conda/lib/python3.10/asyncio/runners.py:33, in run(main, debug)\n"
      "      9 \"\"\"Execute the coroutine and return the result.\n"
      "     10 \n"
      "   (...)\n"
      "     31 \"\"\"\n"
      "---> 33     raise RuntimeError(\n"
      "     34         \"asyncio.run() cannot be called from a running event loop\")\n"
      "\n"
      "RuntimeError: asyncio.run() cannot be called from a running event loop\n");
  EXPECT_EQ(e.input_kind, "traceback");
  EXPECT_EQ(Last(e).type, "RuntimeError");
  EXPECT_EQ(Last(e).message, "asyncio.run() cannot be called from a running event loop");
  ASSERT_FALSE(Last(e).frames.empty());
  EXPECT_EQ(Last(e).frames.back().function, "run");
}

TEST(PastedErrorTest, PipBuildOutputTrailerEndsTheMessage) {
  PastedError e = ParsePastedError(
      "      Traceback (most recent call last):\n"
      "        File \"/usr/lib/python3.9/subprocess.py\", line 373, in check_call\n"
      "          raise CalledProcessError(retcode, cmd)\n"
      "      subprocess.CalledProcessError: Command '['cmake', '.']' returned non-zero exit status 1.\n"
      "      [end of output]\n");
  EXPECT_EQ(Last(e).type, "subprocess.CalledProcessError");
  EXPECT_EQ(Last(e).message, "Command '['cmake', '.']' returned non-zero exit status 1.");
}

}  // namespace
}  // namespace errdex
