#include "match/template_alignment.h"

#include <gtest/gtest.h>

#include <string>

#include "testing/cpu_time.h"

namespace errdex {
namespace {

Alignment Align(std::string_view rendered, std::string_view text) {
  return AlignTemplate(PrepareTemplate(rendered), NormalizeSpace(text));
}

TEST(NormalizeSpaceTest, CollapsesAndTrims) {
  EXPECT_EQ(NormalizeSpace("  a \t\n b  c\r\n"), "a b c");
  EXPECT_EQ(NormalizeSpace(""), "");
  EXPECT_EQ(NormalizeSpace(" \n\t "), "");
}

TEST(AlignTemplateTest, WholeMessageWithBindings) {
  Alignment a = Align("unknown SKU {sku!r} in {where}", "unknown SKU 'X-1' in 'basket'");
  EXPECT_TRUE(a.complete);
  EXPECT_TRUE(a.whole);
  EXPECT_DOUBLE_EQ(a.coverage(), 1.0);
  ASSERT_EQ(a.bindings.size(), 2u);
  EXPECT_EQ(a.bindings[0], std::make_pair(std::string("sku!r"), std::string("'X-1'")));
  EXPECT_EQ(a.bindings[1], std::make_pair(std::string("where"), std::string("'basket'")));
}

TEST(AlignTemplateTest, TemplateInsideALongerText) {
  // aiohttp's ClientResponseError.__str__ wraps the site's text.
  Alignment a = Align("Attempt to decode JSON with unexpected mimetype: {ctype}",
                      "200, message='Attempt to decode JSON with unexpected mimetype: text/html', url='http://x'");
  EXPECT_TRUE(a.complete);
  EXPECT_FALSE(a.whole);
  ASSERT_EQ(a.bindings.size(), 1u);
  // The trailing placeholder ends where the quote opened before the template closes.
  EXPECT_EQ(a.bindings[0].second, "text/html");
}

TEST(AlignTemplateTest, TrailingPlaceholderEndsAtTheWrappersCloser) {
  // requests' ConnectionError shows urllib3's error as `Caused by NewConnectionError("...")`.
  Alignment a = Align("Failed to establish a new connection: {e}",
                      "Max retries exceeded with url: / (Caused by NewConnectionError(\"HTTPConnection(host='h', "
                      "port=9): Failed to establish a new connection: [Errno 111] Connection refused\"))");
  ASSERT_TRUE(a.complete);
  EXPECT_EQ(a.bindings[0].second, "[Errno 111] Connection refused");
  // Brackets and apostrophes inside the value do not end it; nothing opened before: the rest of the text.
  EXPECT_EQ(Align("(x: {v}", "(x: can't (really) [go]) tail").bindings[0].second, "can't (really) [go]");
  EXPECT_EQ(Align("x: {v}", "x: can't (really) [go]) tail").bindings[0].second, "can't (really) [go]) tail");
}

TEST(AlignTemplateTest, TemplateEndingInLiteralEndsTheMessage) {
  Alignment a = Align("{a}: bad value", "x: y: bad value");
  EXPECT_TRUE(a.whole);
  EXPECT_EQ(a.bindings[0].second, "x: y");
}

TEST(AlignTemplateTest, WhitespaceOfTheTemplateAndTheTextDoNotMatter) {
  Alignment a = Align("timeout out of range:\n    expected 0 < timeout, got {t}",
                      "timeout out of range: expected 0 < timeout,   got 99");
  EXPECT_TRUE(a.whole);
  EXPECT_EQ(a.bindings[0].second, "99");
}

TEST(AlignTemplateTest, DoubledBracesAreLiteral) {
  Alignment a = Align("use one of {{EUR, USD}}, not {c}", "use one of {EUR, USD}, not 'GBP'");
  EXPECT_TRUE(a.whole);
  EXPECT_EQ(a.bindings[0].second, "'GBP'");
}

TEST(AlignTemplateTest, PiecesMustComeInOrder) {
  Alignment a = Align("first {x} second", "second 1 first");
  EXPECT_FALSE(a.complete);
  EXPECT_LT(a.coverage(), 1.0);
  EXPECT_TRUE(a.bindings.empty());
}

TEST(AlignTemplateTest, RewordedMessageIsPartlyCovered) {
  Alignment a = Align("quantity must be positive, got {q}", "quantity must be postive, got -1");
  EXPECT_FALSE(a.complete);
  EXPECT_GT(a.coverage(), 0.4);
  EXPECT_LT(a.coverage(), 1.0);
  Alignment none = Align("completely different words", "nothing in common here");
  EXPECT_EQ(none.matched_literal_bytes, 0u);
}

TEST(AlignTemplateTest, PlaceholderOnlyTemplateHasNoLiteral) {
  Alignment a = Align("{key}", "anything");
  EXPECT_EQ(a.literal_bytes, 0u);
  EXPECT_FALSE(a.complete);
}

TEST(AlignTemplateTest, LongBindingsAreCut) {
  std::string value(1000, 'v');
  Alignment a = Align("value {v} is bad", "value " + value + " is bad");
  ASSERT_TRUE(a.complete);
  EXPECT_LE(a.bindings[0].second.size(), kMaxBindingBytes + 3);
}

TEST(AlignTemplateTest, HostileTextStaysLinear) {
  // Pieces that almost match everywhere: a naive search would be quadratic.
  std::string text(1 << 20, 'a');
  std::string tmpl = std::string(200, 'a') + "b {x} " + std::string(200, 'a') + "c";
  const double start = testing::ProcessCpuSeconds();
  Alignment a = Align(tmpl, text);
  const long ms = testing::CpuMillisecondsSince(start);
  EXPECT_FALSE(a.complete);
  EXPECT_LT(ms, 2000);
  // Deep brackets and binary bytes are just text.
  std::string nested(100000, '(');
  nested += std::string("\0\xff\xfe", 3);
  EXPECT_FALSE(Align("value {x} ((( bad", nested).complete);
}

}  // namespace
}  // namespace errdex
