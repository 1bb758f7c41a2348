#include "match/log_prefix.h"

#include <gtest/gtest.h>

namespace errdex::match_internal {
namespace {

TEST(LogPrefix, TimestampLoggerAndLevel) {
  LineInfo info = StripPrefixes("2024-01-02 03:04:05,123 - app - ERROR - boom");
  EXPECT_EQ(info.content, "boom");
  EXPECT_TRUE(info.log_prefix);
  EXPECT_TRUE(info.record_header);
  EXPECT_TRUE(info.error_level);
  EXPECT_FALSE(info.drop);
}

TEST(LogPrefix, ComposeServiceIsTheKey) {
  LineInfo info = StripPrefixes("web_1  | ValueError: x");
  EXPECT_EQ(info.content, "ValueError: x");
  EXPECT_EQ(info.key, "compose:web_1|");
  EXPECT_FALSE(info.error_level);
}

TEST(LogPrefix, TimestampAloneIsDropped) { EXPECT_TRUE(StripPrefixes("2024-01-02T03:04:05Z").drop); }

TEST(LogPrefix, PlainTextUntouched) {
  LineInfo info = StripPrefixes("ValueError: bad value");
  EXPECT_EQ(info.content, "ValueError: bad value");
  EXPECT_FALSE(info.log_prefix);
  EXPECT_FALSE(info.record_header);
}

}  // namespace
}  // namespace errdex::match_internal
