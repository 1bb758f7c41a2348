#include "match/frame_evidence.h"

#include <gtest/gtest.h>

namespace errdex {
namespace {

SiteRow Site(std::string path, int line, std::string function) {
  SiteRow s;
  s.path = std::move(path);
  s.line = line;
  s.function = std::move(function);
  return s;
}

TEST(FrameEvidenceTest, PathSuffixesAcrossPrefixesAndSeparators) {
  EXPECT_EQ(CommonSuffix("/usr/lib/python3/site-packages/aiohttp/client.py", "aiohttp/client.py"), 2);
  EXPECT_EQ(CommonSuffix("C:\\venv\\Lib\\site-packages\\click\\core.py", "src/click/core.py"), 2);
  EXPECT_EQ(CommonSuffix("app/core.py", "src/click/core.py"), 1);
  EXPECT_EQ(CommonSuffix("Cell In[3]", "core.py"), 0);
}

TEST(FrameEvidenceTest, FunctionNamesAsTracebacksPrintThem) {
  EXPECT_TRUE(SameFunction("_request", "ClientSession._request"));
  EXPECT_TRUE(SameFunction("ClientSession._request", "ClientSession._request"));
  EXPECT_TRUE(SameFunction("Session._request", "Client.Session._request"));
  EXPECT_FALSE(SameFunction("request", "ClientSession._request"));
  EXPECT_FALSE(SameFunction("", "<module>"));
  EXPECT_TRUE(SameFunction("<module>", "<module>"));
}

TEST(FrameEvidenceTest, InnermostFramePinsTheSite) {
  std::vector<TracebackFrame> frames{{"/app/main.py", 3, "<module>", ""},
                                     {"/venv/site-packages/pkg/api.py", 40, "call", ""},
                                     {"/venv/site-packages/pkg/core.py", 120, "check", ""}};
  FrameEvidence pinned = JudgeFrames(frames, Site("pkg/core.py", 118, "Checker.check"));
  EXPECT_TRUE(pinned.pinned);
  EXPECT_EQ(pinned.points, 30);
  EXPECT_EQ(pinned.line_distance, 2);
  EXPECT_EQ(JudgeFrames(frames, Site("pkg/core.py", 120, "check")).points, 35);
  FrameEvidence outer = JudgeFrames(frames, Site("pkg/api.py", 40, "call"));
  EXPECT_FALSE(outer.pinned);
  EXPECT_EQ(outer.points, 15);
  EXPECT_EQ(JudgeFrames(frames, Site("pkg/core.py", 5, "other")).points, 4);
  EXPECT_EQ(JudgeFrames(frames, Site("pkg/elsewhere.py", 5, "check")).points, 0);
  EXPECT_EQ(JudgeFrames({}, Site("pkg/core.py", 5, "check")).why, "");
}

}  // namespace
}  // namespace errdex
