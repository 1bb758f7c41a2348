#include "util/version_name.h"

#include <gtest/gtest.h>

namespace errdex {
namespace {

TEST(ParseVersionNameTest, ReadsVersionsAndRejectsTheRest) {
  ASSERT_TRUE(ParseVersionName("v1.2.3"));
  EXPECT_EQ(ParseVersionName("v1.2.3")->numbers, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_FALSE(ParseVersionName("v1.2.3")->pre);
  EXPECT_EQ(ParseVersionName("1.2")->numbers, (std::vector<int64_t>{1, 2}));
  EXPECT_TRUE(ParseVersionName("2.0.0rc1")->pre);
  EXPECT_TRUE(ParseVersionName("9.2.0.dev0")->pre);
  EXPECT_TRUE(ParseVersionName("v3.0.0-beta.2")->pre);
  EXPECT_FALSE(ParseVersionName("1.0.post1")->pre);
  for (const char* name : {"latest", "1", "v", "foo-1.2", "1.2.x", "1.2-fix", "1..2", "", "1.2.3.4.5.6", "1234567890.1",
                           "v1.2 ", "release/1.2"}) {
    EXPECT_FALSE(ParseVersionName(name)) << name;
  }
}

TEST(ParseVersionNameTest, OrdersAndSeries) {
  auto v = [](const char* name) { return *ParseVersionName(name); };
  EXPECT_TRUE(VersionLess(v("1.2rc1"), v("1.2")));
  EXPECT_TRUE(VersionLess(v("1.2.dev0"), v("1.2a1")));
  EXPECT_TRUE(VersionLess(v("1.2b1"), v("1.2rc1")));
  EXPECT_TRUE(VersionLess(v("1.2"), v("1.2.1")));
  EXPECT_TRUE(VersionLess(v("1.9"), v("1.10")));
  EXPECT_FALSE(VersionLess(v("1.2.0"), v("1.2")));
  EXPECT_FALSE(VersionLess(v("1.2"), v("1.2.0")));
  EXPECT_EQ(VersionSeries(v("1.9.4")), "1.9.x");
  EXPECT_EQ(VersionSeries(v("v2.1")), "2.x");
}

}  // namespace
}  // namespace errdex
