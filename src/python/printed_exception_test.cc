#include "python/printed_exception.h"

#include <gtest/gtest.h>

#include <string>

namespace errdex::python_paste {
namespace {

TEST(PrintedExceptionTest, RanksNames) {
  EXPECT_EQ(RankTypeName("ValueError"), TypeRank::kStrong);
  EXPECT_EQ(RankTypeName("aiohttp.client_exceptions.ClientConnectorError"), TypeRank::kStrong);
  EXPECT_EQ(RankTypeName("socket.timeout"), TypeRank::kStrong);
  EXPECT_EQ(RankTypeName("NoSuchOption"), TypeRank::kCamel);
  EXPECT_EQ(RankTypeName("Failed"), TypeRank::kWord);
  EXPECT_EQ(RankTypeName("Error"), TypeRank::kNone);
  EXPECT_EQ(RankTypeName("value"), TypeRank::kNone);
}

TEST(PrintedExceptionTest, TypeSuffix) {
  EXPECT_TRUE(HasTypeSuffix("ClientConnectorError"));
  EXPECT_TRUE(HasTypeSuffix("pkg._PrivateWarning"));
  EXPECT_FALSE(HasTypeSuffix("Error"));
  EXPECT_FALSE(HasTypeSuffix("pkg.lowerError"));
}

TEST(PrintedExceptionTest, FindsExceptionInProse) {
  ExcParse e;
  ASSERT_TRUE(FindInLine("request failed (KeyError: 'id') after retry", &e));
  EXPECT_EQ(e.type, "KeyError");
  EXPECT_EQ(e.message, "'id'");
  EXPECT_TRUE(e.complete);
  ExcParse code;
  EXPECT_FALSE(FindInLine("raise ValueError: x", &code));
}

TEST(PrintedExceptionTest, RaiseCode) {
  std::string type, message;
  ASSERT_TRUE(ParseRaiseCode("raise ValueError(\"bad value\")", &type, &message));
  EXPECT_EQ(type, "ValueError");
  EXPECT_EQ(message, "bad value");
  EXPECT_FALSE(ParseRaiseCode("return x", &type, &message));
}

}  // namespace
}  // namespace errdex::python_paste
