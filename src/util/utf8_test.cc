#include "util/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace errdex {
namespace {

TEST(Utf8Test, AcceptsWellFormedText) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("plain ASCII, long enough for the eight-byte fast path"));
  EXPECT_TRUE(IsValidUtf8("caf\xC3\xA9 \xE2\x80\xA6 \xF0\x9F\x90\x8D"));
}

TEST(Utf8Test, RejectsMalformedText) {
  EXPECT_FALSE(IsValidUtf8("caf\xE9"));           // Latin-1
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));          // overlong
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));      // surrogate
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(IsValidUtf8("abc\xE2\x80"));       // truncated
}

TEST(Utf8Test, AppendUtf8EncodesEveryLength) {
  std::string out;
  AppendUtf8(0x41, &out);
  EXPECT_EQ(out, "A");
  out.clear();
  AppendUtf8(0, &out);
  EXPECT_EQ(out, std::string("\0", 1));
  out.clear();
  AppendUtf8(0x7F, &out);
  AppendUtf8(0x80, &out);
  EXPECT_EQ(out, "\x7F\xC2\x80");
  out.clear();
  AppendUtf8(0x7FF, &out);
  AppendUtf8(0x800, &out);
  EXPECT_EQ(out, "\xDF\xBF\xE0\xA0\x80");
  out.clear();
  AppendUtf8(0xFFFF, &out);
  AppendUtf8(0x10000, &out);
  AppendUtf8(0x10FFFF, &out);
  EXPECT_EQ(out, "\xEF\xBF\xBF\xF0\x90\x80\x80\xF4\x8F\xBF\xBF");
}

TEST(Utf8Test, AppendUtf8ReplacesInvalidCodePoints) {
  const std::string replacement = "\xEF\xBF\xBD";
  for (unsigned long cp : {0xD800ul, 0xDBFFul, 0xDC00ul, 0xDFFFul, 0x110000ul, 0xFFFFFFFFul}) {
    std::string out;
    AppendUtf8(cp, &out);
    EXPECT_EQ(out, replacement) << std::hex << cp;
  }
}

TEST(Utf8Test, CutUtf8KeepsBoundariesAndTheLimit) {
  EXPECT_EQ(CutUtf8("short", 10), "short");
  EXPECT_EQ(CutUtf8("exactly10!", 10), "exactly10!");
  EXPECT_EQ(CutUtf8("abcdefghijk", 10), "abcdefg\xE2\x80\xA6");
  // "é" is two bytes: a cut inside it moves back to its start.
  const std::string cut = CutUtf8("abcdef\xC3\xA9ghij", 10);
  EXPECT_EQ(cut, "abcdef\xE2\x80\xA6");
  EXPECT_TRUE(IsValidUtf8(cut));
  EXPECT_LE(cut.size(), 10u);
}

}  // namespace
}  // namespace errdex
