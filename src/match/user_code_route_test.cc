#include "match/user_code_route.h"

#include <gtest/gtest.h>

namespace errdex {
namespace {

TracebackFrame Frame(std::string path, int line, std::string function) {
  TracebackFrame f;
  f.path = std::move(path);
  f.line = line;
  f.function = std::move(function);
  return f;
}

TEST(UserCodeRouteTest, UserFramesThenTheLibraryToItsInnermostLine) {
  const std::string site = "/usr/lib/python3/dist-packages/";
  std::vector<TracebackFrame> frames = {
      Frame("/home/me/app.py", 12, "<module>"),
      Frame("/home/me/client.py", 4, "fetch"),
      Frame(site + "requests/api.py", 73, "get"),
      Frame(site + "requests/api.py", 59, "request"),
      Frame(site + "requests/sessions.py", 589, "request"),
      Frame(site + "requests/sessions.py", 703, "send"),
      Frame(site + "requests/adapters.py", 565, "send"),
  };
  EXPECT_EQ(UserCodeRoute(frames),
            "your code: app.py:12 → client.py:4 → requests.api.get → requests.api.request → … → "
            "requests.sessions.send → requests.adapters.send (requests/adapters.py:565)");
}

TEST(UserCodeRouteTest, TheStandardLibraryIsALibraryAndPackagesLoseTheirInit) {
  std::vector<TracebackFrame> frames = {
      Frame("app.py", 3, "<module>"),
      Frame("/usr/lib/python3.11/json/__init__.py", 346, "loads"),
      Frame("/usr/lib/python3.11/json/decoder.py", 355, "raw_decode"),
  };
  EXPECT_EQ(UserCodeRoute(frames), "your code: app.py:3 → json.loads → json.decoder.raw_decode (json/decoder.py:355)");
}

TEST(UserCodeRouteTest, NothingWithoutUserCodeOrWithoutALibrary) {
  EXPECT_EQ(UserCodeRoute({Frame("app.py", 3, "<module>"), Frame("lib.py", 5, "f")}), "");
  EXPECT_EQ(UserCodeRoute({Frame("/x/site-packages/a/b.py", 3, "f")}), "");
  EXPECT_EQ(UserCodeRoute({}), "");
}

}  // namespace
}  // namespace errdex
