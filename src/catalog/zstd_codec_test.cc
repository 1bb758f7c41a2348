#include "catalog/zstd_codec.h"

#include <gtest/gtest.h>

#include <string>

namespace errdex {
namespace {

std::string Text(int n, const std::string& word) {
  std::string out;
  for (int i = 0; i < n; ++i) out += "{\"line\": " + std::to_string(i) + ", \"word\": \"" + word + "\"}\n";
  return out;
}

TEST(ZstdCodecTest, RoundTripsWithAndWithoutAPrefix) {
  const std::string old_version = Text(2000, "alpha");
  std::string new_version = old_version;
  new_version.replace(new_version.size() / 2, 5, "BETA!");
  std::string out;
  const std::string alone = ZstdCompress(new_version, "", 3);
  ASSERT_TRUE(ZstdDecompress(alone, "", 1 << 20, &out));
  EXPECT_EQ(out, new_version);
  const std::string delta = ZstdCompress(new_version, old_version, 3);
  ASSERT_TRUE(ZstdDecompress(delta, old_version, 1 << 20, &out));
  EXPECT_EQ(out, new_version);
  // Against its previous version, a small change costs far less than the text alone.
  EXPECT_LT(delta.size() * 4, alone.size());
  EXPECT_TRUE(ZstdDecompress(ZstdCompress("", "", 3), "", 10, &out));
  EXPECT_EQ(out, "");
}

TEST(ZstdCodecTest, RefusesTheWrongPrefixDamageAndOversizedFrames) {
  const std::string base = Text(500, "alpha");
  const std::string text = base + "tail";
  const std::string delta = ZstdCompress(text, base, 3);
  std::string out;
  EXPECT_FALSE(ZstdDecompress(delta, Text(500, "gamma"), 1 << 20, &out));
  EXPECT_FALSE(ZstdDecompress(delta, "", 1 << 20, &out));
  std::string damaged = ZstdCompress(text, "", 3);
  damaged[damaged.size() / 2] ^= 0x55;
  EXPECT_FALSE(ZstdDecompress(damaged, "", 1 << 20, &out));
  EXPECT_FALSE(ZstdDecompress(ZstdCompress(text, "", 3), "", text.size() - 1, &out));  // larger than allowed
  EXPECT_FALSE(ZstdDecompress("not a frame", "", 1 << 20, &out));
  EXPECT_FALSE(ZstdDecompress("", "", 1 << 20, &out));
}

}  // namespace
}  // namespace errdex
