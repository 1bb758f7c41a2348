#include "match/pasted_line_cleanup.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace errdex::match_internal {
namespace {

TEST(PastedLineCleanup, StripsAnsiAndEscLessSgr) {
  std::string out;
  StripAnsi("\x1b[31mValueError\x1b[0m: x", &out);
  EXPECT_EQ(out, "ValueError: x");
  StripAnsi("[0;31mValueError[0m: x", &out);
  EXPECT_EQ(out, "ValueError: x");
  StripAnsi("keep [5m] as text", &out);
  EXPECT_EQ(out, "keep [5m] as text");
}

TEST(PastedLineCleanup, ExpandsEscapedTraceback) {
  std::vector<std::string> out;
  ExpandLine(R"({"msg": "Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nValueError: x"})", 0, &out);
  EXPECT_EQ(out, (std::vector<std::string>{R"({"msg":)", "Traceback (most recent call last):",
                                           R"(  File "a.py", line 1, in f)", "ValueError: x"}));
}

TEST(PastedLineCleanup, SplitsFlattenedTraceback) {
  std::vector<std::string> out;
  ExpandLine(R"(Traceback (most recent call last):   File "a.py", line 1, in f     g()   ValueError: x)", 0, &out);
  EXPECT_EQ(out, (std::vector<std::string>{"Traceback (most recent call last):", R"(  File "a.py", line 1, in f)",
                                           "    g()", "ValueError: x"}));
}

TEST(PastedLineCleanup, KeepsOrdinaryLine) {
  std::vector<std::string> out;
  ExpandLine(R"(C:\path\to\file.py is fine)", 0, &out);
  EXPECT_EQ(out, (std::vector<std::string>{R"(C:\path\to\file.py is fine)"}));
}

}  // namespace
}  // namespace errdex::match_internal
