#include "extract/cached_facts_codec.h"

#include <gtest/gtest.h>

#include <string>

namespace errdex {
namespace {

std::string SomeFactsJson() {
  std::string json = R"({"status":"ok","reason":"","sites":[)";
  for (int i = 0; i < 200; ++i) {
    if (i > 0) json += ",";
    json += R"({"kind":"raise","type":"ValueError","template":"bad value {x})" + std::to_string(i) + R"(","line":)" +
            std::to_string(i) + "}";
  }
  return json + "]}";
}

TEST(CachedFactsCodecTest, RoundTripsAndCompresses) {
  const std::string json = SomeFactsJson();
  const std::string stored = EncodeCachedFacts(json);
  EXPECT_TRUE(IsCompressedFacts(stored));
  EXPECT_LT(stored.size() * 4, json.size());  // repetitive JSON compresses well
  std::string decoded;
  ASSERT_TRUE(DecodeCachedFacts(stored, &decoded));
  EXPECT_EQ(decoded, json);
}

TEST(CachedFactsCodecTest, EmptyTextRoundTrips) {
  std::string decoded = "left over";
  ASSERT_TRUE(DecodeCachedFacts(EncodeCachedFacts(""), &decoded));
  EXPECT_EQ(decoded, "");
}

TEST(CachedFactsCodecTest, PlainJsonOfOlderCatalogsIsReadAsIs) {
  const std::string json = R"({"status":"skipped","reason":"binary"})";
  EXPECT_FALSE(IsCompressedFacts(json));
  std::string decoded;
  ASSERT_TRUE(DecodeCachedFacts(json, &decoded));
  EXPECT_EQ(decoded, json);
}

TEST(CachedFactsCodecTest, TruncatedOrDamagedFramesAreRefused) {
  const std::string stored = EncodeCachedFacts(SomeFactsJson());
  std::string decoded;
  EXPECT_FALSE(DecodeCachedFacts(stored.substr(0, stored.size() / 2), &decoded));
  EXPECT_FALSE(DecodeCachedFacts(stored.substr(0, 5), &decoded));
  std::string damaged = stored;
  for (size_t i = 12; i < damaged.size(); i += 7) damaged[i] = static_cast<char>(damaged[i] ^ 0x5A);
  EXPECT_FALSE(DecodeCachedFacts(damaged, &decoded));
}

TEST(CachedFactsCodecTest, AFrameClaimingAHugeContentIsRefusedWithoutAllocating) {
  // A frame header (magic, descriptor with an 8-byte content size, window) that claims 2^40 bytes: a hostile
  // catalog must not make the reader allocate that much.
  std::string header("\x28\xB5\x2F\xFD", 4);
  header += static_cast<char>(0xC0);  // frame content size field: 8 bytes, single segment
  const unsigned long long claimed = 1ULL << 40;
  for (int i = 0; i < 8; ++i) header += static_cast<char>((claimed >> (8 * i)) & 0xFF);
  std::string decoded;
  EXPECT_FALSE(DecodeCachedFacts(header, &decoded));
  EXPECT_TRUE(decoded.empty());
}

}  // namespace
}  // namespace errdex
