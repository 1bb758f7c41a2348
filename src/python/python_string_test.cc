#include "python/python_string.h"

#include <gtest/gtest.h>

#include <string>

namespace errdex {
namespace {

StringPrefix Plain() { return ParseStringPrefix("\""); }
StringPrefix Raw() { return ParseStringPrefix("r\""); }
StringPrefix Bytes() { return ParseStringPrefix("b\""); }
StringPrefix Format() { return ParseStringPrefix("f\""); }

std::string Decode(std::string_view body, const StringPrefix& prefix = Plain()) {
  return DecodeStringBody(body, prefix);
}

// ---------------------------------------------------------------------------------------------------
// Prefixes

struct PrefixCase {
  const char* token;
  bool raw, bytes, format;
  size_t quote_len;
};

TEST(PythonStringTest, ParsesEveryPrefix) {
  const PrefixCase cases[] = {
      {"\"", false, false, false, 1},     {"'", false, false, false, 1},      {"\"\"\"", false, false, false, 3},
      {"'''", false, false, false, 3},    {"u'", false, false, false, 1},     {"U\"\"\"", false, false, false, 3},
      {"r'", true, false, false, 1},      {"R\"", true, false, false, 1},     {"b'", false, true, false, 1},
      {"B'''", false, true, false, 3},    {"rb'", true, true, false, 1},      {"Rb\"", true, true, false, 1},
      {"bR'", true, true, false, 1},      {"BR\"\"\"", true, true, false, 3}, {"f'", false, false, true, 1},
      {"F\"\"\"", false, false, true, 3}, {"fr'", true, false, true, 1},      {"rf\"", true, false, true, 1},
      {"Fr'''", true, false, true, 3},    {"RF\"", true, false, true, 1},
  };
  for (const PrefixCase& c : cases) {
    StringPrefix p = ParseStringPrefix(c.token);
    EXPECT_EQ(p.raw, c.raw) << c.token;
    EXPECT_EQ(p.bytes, c.bytes) << c.token;
    EXPECT_EQ(p.format, c.format) << c.token;
    EXPECT_EQ(p.quote_len, c.quote_len) << c.token;
  }
}

TEST(PythonStringTest, UnknownPrefixLettersAreIgnored) {
  StringPrefix p = ParseStringPrefix("x'");
  EXPECT_FALSE(p.raw);
  EXPECT_FALSE(p.bytes);
  EXPECT_FALSE(p.format);
  EXPECT_EQ(p.quote_len, 1u);
}

// ---------------------------------------------------------------------------------------------------
// Escapes

TEST(PythonStringTest, PlainTextIsUnchanged) {
  EXPECT_EQ(Decode(""), "");
  EXPECT_EQ(Decode("hello, world"), "hello, world");
  EXPECT_EQ(Decode("caf\xC3\xA9 \xE2\x82\xAC"), "caf\xC3\xA9 \xE2\x82\xAC");
  EXPECT_EQ(Decode("{braces} stay {{ }}"), "{braces} stay {{ }}");
}

TEST(PythonStringTest, SimpleEscapes) {
  EXPECT_EQ(Decode(R"(a\nb\tc\rd)"), "a\nb\tc\rd");
  EXPECT_EQ(Decode(R"(\a\b\f\v)"), "\a\b\f\v");
  EXPECT_EQ(Decode(R"(\\ \' \")"), "\\ ' \"");
}

TEST(PythonStringTest, HexEscapes) {
  EXPECT_EQ(Decode(R"(\x41\x62)"), "Ab");
  EXPECT_EQ(Decode(R"(\xe9)"), "\xC3\xA9");  // U+00E9 in a str
  EXPECT_EQ(Decode(R"(\xFF)"), "\xC3\xBF");
  EXPECT_EQ(Decode(R"(\x00)"), std::string("\0", 1));
}

TEST(PythonStringTest, UnicodeEscapes) {
  EXPECT_EQ(Decode(R"(\u00e9)"), "\xC3\xA9");
  EXPECT_EQ(Decode(R"(\u20AC)"), "\xE2\x82\xAC");
  EXPECT_EQ(Decode(R"(\U0001F600)"), "\xF0\x9F\x98\x80");
  EXPECT_EQ(Decode(R"(\U00000041)"), "A");
}

TEST(PythonStringTest, NamedEscapesAreKeptAsWritten) {
  EXPECT_EQ(Decode(R"(\N{BULLET} item)"), R"(\N{BULLET} item)");
  EXPECT_EQ(Decode(R"(\N{LATIN SMALL LETTER E WITH ACUTE})"), R"(\N{LATIN SMALL LETTER E WITH ACUTE})");
}

TEST(PythonStringTest, OctalEscapes) {
  EXPECT_EQ(Decode(R"(\101\102)"), "AB");
  EXPECT_EQ(Decode(R"(\0)"), std::string("\0", 1));
  EXPECT_EQ(Decode(R"(\7)"), "\a");
  EXPECT_EQ(Decode(R"(\1010)"), "A0");  // at most three digits
  EXPECT_EQ(Decode(R"(\351)"), "\xC3\xA9");
  EXPECT_EQ(Decode(R"(\777)"), "\xC7\xBF");  // U+01FF in a str
  EXPECT_EQ(Decode(R"(\8)"), R"(\8)");       // not an octal digit: kept
}

TEST(PythonStringTest, LineContinuationIsRemoved) {
  EXPECT_EQ(Decode("first \\\nsecond"), "first second");
  EXPECT_EQ(Decode("first \\\r\nsecond"), "first second");
  EXPECT_EQ(Decode("first \\\rsecond"), "first second");
}

TEST(PythonStringTest, SourceNewlinesReadAsLineFeed) {
  // A triple-quoted literal in a file with CRLF line endings has \n at run time.
  EXPECT_EQ(Decode("a\r\nb\rc\nd"), "a\nb\nc\nd");
  EXPECT_EQ(Decode("a\r\nb", Raw()), "a\nb");
  EXPECT_EQ(Decode("a\r\nb", Bytes()), "a\nb");
  EXPECT_EQ(Decode("a\r\n{{b}}", Format()), "a\n{b}");
}

TEST(PythonStringTest, InvalidEscapesAreKeptAsWritten) {
  EXPECT_EQ(Decode(R"(\q\d\ )"), R"(\q\d\ )");
  EXPECT_EQ(Decode(R"(\x4)"), R"(\x4)");
  EXPECT_EQ(Decode(R"(\xZZ)"), R"(\xZZ)");
  EXPECT_EQ(Decode(R"(\u12)"), R"(\u12)");
  EXPECT_EQ(Decode(R"(\U0001F6)"), R"(\U0001F6)");
  EXPECT_EQ(Decode("trailing\\"), "trailing\\");
}

TEST(PythonStringTest, RawStringsKeepBackslashes) {
  EXPECT_EQ(Decode(R"(C:\new\x41\u00e9\N{X}\\)", Raw()), R"(C:\new\x41\u00e9\N{X}\\)");
  EXPECT_EQ(Decode("a\\\nb", Raw()), "a\\\nb");  // backslash-newline stays in a raw string
  EXPECT_EQ(Decode(R"(\')", Raw()), R"(\')");
}

TEST(PythonStringTest, BytesAreReadAsLatin1) {
  EXPECT_EQ(Decode(R"(\xff\x41)", Bytes()),
            "\xC3\xBF"
            "A");
  EXPECT_EQ(Decode(R"(\351)", Bytes()), "\xC3\xA9");
  EXPECT_EQ(Decode(R"(\777)", Bytes()), "\xC3\xBF");  // octal value taken modulo 256
  EXPECT_EQ(Decode(R"(\x00)", Bytes()), std::string("\0", 1));
  EXPECT_EQ(Decode(R"(\n\t)", Bytes()), "\n\t");
}

TEST(PythonStringTest, BytesHaveNoUnicodeEscapes) {
  EXPECT_EQ(Decode(R"(\u00e9)", Bytes()), R"(\u00e9)");
  EXPECT_EQ(Decode(R"(\U0001F600)", Bytes()), R"(\U0001F600)");
  EXPECT_EQ(Decode(R"(\N{BULLET})", Bytes()), R"(\N{BULLET})");
}

TEST(PythonStringTest, RawBytesKeepEverything) {
  EXPECT_EQ(Decode(R"(\x00\n)", ParseStringPrefix("rb'")), R"(\x00\n)");
}

TEST(PythonStringTest, FStringDoubledBracesBecomeSingle) {
  EXPECT_EQ(Decode("{{literal}} and }}{{", Format()), "{literal} and }{");
  EXPECT_EQ(Decode(R"({{\n}})", Format()), "{\n}");
  // A raw f-string still halves doubled braces.
  EXPECT_EQ(Decode(R"({{\n}})", ParseStringPrefix("rf'")), R"({\n})");
  // Not an f-string: doubled braces are two characters.
  EXPECT_EQ(Decode("{{x}}"), "{{x}}");
}

// ---------------------------------------------------------------------------------------------------
// UTF-8 encoding

TEST(PythonStringTest, SurrogateEscapeBecomesReplacementCharacter) {
  EXPECT_EQ(Decode(R"(\ud800)"), "\xEF\xBF\xBD");
  EXPECT_EQ(Decode(R"(\U00110000)"), "\xEF\xBF\xBD");
}

TEST(PythonStringTest, LongBodyDecodesLinearly) {
  std::string body;
  for (int i = 0; i < 200000; ++i) body += "\\x41";
  std::string out = Decode(body);
  EXPECT_EQ(out, std::string(200000, 'A'));
}

}  // namespace
}  // namespace errdex
