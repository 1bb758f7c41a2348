#include "python/wrapped_errors.h"

#include <gtest/gtest.h>

namespace errdex {
namespace {

TEST(WrappedErrorsTest, ParsesExceptHeaders) {
  auto one = ParseExceptHeader("except MaxRetryError as e:");
  ASSERT_TRUE(one);
  EXPECT_EQ(one->types, std::vector<std::string>{"MaxRetryError"});
  EXPECT_EQ(one->name, "e");
  auto two = ParseExceptHeader("except (ValueError, socket.error) as err:");
  ASSERT_TRUE(two);
  EXPECT_EQ(two->types, (std::vector<std::string>{"ValueError", "socket.error"}));
  EXPECT_EQ(two->name, "err");
  auto bare = ParseExceptHeader("except:");
  ASSERT_TRUE(bare);
  EXPECT_TRUE(bare->types.empty());
  auto group = ParseExceptHeader("except* OSError as eg:");
  ASSERT_TRUE(group);
  EXPECT_EQ(group->types, std::vector<std::string>{"OSError"});
  EXPECT_FALSE(ParseExceptHeader("exceptional = 1"));
  EXPECT_FALSE(ParseExceptHeader("if x:"));
}

TEST(WrappedErrorsTest, ASiteInAnExceptClauseRecordsWhatItWrapsAndWhetherItPassesIt) {
  Site site;
  site.kind = "raise";
  site.template_text = "{e}";
  site.conditions.push_back({"for", "for _ in range(3):", 1, false, {}});
  site.conditions.push_back({"except", "except MaxRetryError as e:", 5, false, {}});
  auto resolve = [](const std::string& t) -> std::optional<std::string> {
    if (t == "MaxRetryError") return "urllib3.exceptions.MaxRetryError";
    return std::nullopt;
  };
  EXPECT_EQ(*WrappedErrorsJson(site, resolve),
            R"({"name":"e","passes":true,"types":["urllib3.exceptions.MaxRetryError"]})");
  site.template_text = "Invalid location {location!r}: {e!r}";
  EXPECT_NE(WrappedErrorsJson(site, resolve)->find(R"("passes":true)"), std::string::npos);
  site.template_text = "no luck with {element}";  // "e" inside another name does not count
  EXPECT_NE(WrappedErrorsJson(site, resolve)->find(R"("passes":false)"), std::string::npos);
  site.kind = "reraise";
  EXPECT_FALSE(WrappedErrorsJson(site, resolve));
  site.kind = "raise";
  site.conditions.pop_back();
  EXPECT_FALSE(WrappedErrorsJson(site, resolve));
}

}  // namespace
}  // namespace errdex
