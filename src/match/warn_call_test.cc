#include "match/warn_call.h"

#include <gtest/gtest.h>

namespace errdex {
namespace {

SiteRow HelperSite(std::string function, std::string via, std::string kind = "warn") {
  SiteRow s;
  s.path = "src/lib/nodes.py";
  s.line = 263;
  s.end_line = 268;
  s.kind = std::move(kind);
  s.function = std::move(function);
  s.via = std::move(via);
  s.blob_id = "blob";
  s.type = "CollectionWarning";
  return s;
}

TEST(WarnCallTest, AWarnMethodIsAWarningCallTheCallIsTheSite) {
  std::optional<WarnCall> call = IssuedAtWarnCall(HelperSite("Node.warn", "src/lib/python.py:782 in Class.collect"));
  ASSERT_TRUE(call.has_value());
  EXPECT_EQ(call->site.path, "src/lib/python.py");
  EXPECT_EQ(call->site.line, 782);
  EXPECT_EQ(call->site.end_line, 782);
  EXPECT_EQ(call->site.function, "Class.collect");
  EXPECT_EQ(call->site.type, "CollectionWarning");
  EXPECT_FALSE(call->site.via.has_value());
  EXPECT_FALSE(call->site.blob_id.has_value());
  EXPECT_NE(call->why.find("Node.warn (src/lib/nodes.py:263)"), std::string::npos);
}

TEST(WarnCallTest, AHelperWithANameOfItsOwnIssuesTheWarningItself) {
  EXPECT_FALSE(IssuedAtWarnCall(HelperSite("Config.issue_config_time_warning", "src/lib/config.py:1536 in Config.v")));
  EXPECT_FALSE(IssuedAtWarnCall(HelperSite("warn_explicit_for", "src/lib/fixtures.py:2217 in F.check")));
}

TEST(WarnCallTest, OnlyWarningsLinkedThroughAHelper) {
  EXPECT_FALSE(IssuedAtWarnCall(HelperSite("Node.warn", "src/lib/python.py:782 in Class.collect", "raise")));
  SiteRow direct = HelperSite("Node.warn", "");
  direct.via.reset();
  EXPECT_FALSE(IssuedAtWarnCall(direct));
}

TEST(WarnCallTest, AMalformedViaIsIgnored) {
  for (const char* via : {"", "python.py in f", "python.py:x in f", "python.py:0 in f", ":12 in f", "python.py:12"}) {
    EXPECT_FALSE(IssuedAtWarnCall(HelperSite("Node.warn", via))) << via;
  }
}

}  // namespace
}  // namespace errdex
