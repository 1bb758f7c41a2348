#include "python/traceback_line.h"

#include <gtest/gtest.h>

#include <string_view>

namespace errdex::python_paste {
namespace {

TEST(TracebackLineTest, HeaderChainAndRepeatedFrames) {
  EXPECT_EQ(ClassifyTraceLine("Traceback (most recent call last):", false).kind, Kind::kHeader);
  TraceLine ipython = ClassifyTraceLine("ValueError                 Traceback (most recent call last)", false);
  EXPECT_EQ(ipython.kind, Kind::kHeader);
  EXPECT_EQ(ipython.header_type, "ValueError");
  EXPECT_TRUE(ClassifyTraceLine("  + Exception Group Traceback (most recent call last):", false).group_header);
  EXPECT_EQ(ClassifyTraceLine("During handling of the above exception, another exception occurred:", false).kind,
            Kind::kChain);
  EXPECT_EQ(ClassifyTraceLine("The above exception was the direct cause of the following exception:", false).kind,
            Kind::kChain);
  EXPECT_EQ(ClassifyTraceLine("  [Previous line repeated 996 more times]", false).kind, Kind::kSkip);
  EXPECT_EQ(ClassifyTraceLine("anything", true).kind, Kind::kSeparator);
}

TEST(TracebackLineTest, FramesInEveryPrintedStyle) {
  TraceLine cpython = ClassifyTraceLine("  File \"/app/x.py\", line 12, in <module>", false);
  ASSERT_EQ(cpython.kind, Kind::kFrame);
  EXPECT_EQ(cpython.style, FrameStyle::kPython);
  EXPECT_EQ(cpython.frame.path, "/app/x.py");
  EXPECT_EQ(cpython.frame.line, 12);
  EXPECT_EQ(cpython.frame.function, "<module>");
  EXPECT_EQ(cpython.indent, 2u);

  TraceLine syntax = ClassifyTraceLine("File \"/app/conf.py\", line 3", false);
  ASSERT_EQ(syntax.kind, Kind::kFrame);
  EXPECT_EQ(syntax.frame.function, "");

  TraceLine ipython8 = ClassifyTraceLine("File ~/proj/x.py:12, in f(a)", false);
  ASSERT_EQ(ipython8.kind, Kind::kFrame);
  EXPECT_EQ(ipython8.style, FrameStyle::kIPython);
  EXPECT_EQ(ipython8.frame.path, "~/proj/x.py");
  EXPECT_EQ(ipython8.frame.function, "f");

  TraceLine cell = ClassifyTraceLine("Cell In[3], line 5", false);
  ASSERT_EQ(cell.kind, Kind::kFrame);
  EXPECT_EQ(cell.frame.path, "Cell In[3]");
  EXPECT_EQ(cell.frame.line, 5);

  TraceLine old = ClassifyTraceLine("<ipython-input-3-8a9f> in <module>()", false);
  ASSERT_EQ(old.kind, Kind::kFrame);
  EXPECT_EQ(old.frame.path, "<ipython-input-3-8a9f>");
  EXPECT_EQ(old.frame.function, "<module>");

  TraceLine rich = ClassifyTraceLine("/home/u/proj/cli.py:12 in main", false);
  ASSERT_EQ(rich.kind, Kind::kFrame);
  EXPECT_EQ(rich.frame.line, 12);

  TraceLine cut = ClassifyTraceLine("line 984, in _wrap_create_connection", false);
  ASSERT_EQ(cut.kind, Kind::kFrame);
  EXPECT_EQ(cut.frame.path, "");
  EXPECT_EQ(cut.frame.line, 984);
}

TEST(TracebackLineTest, PytestAndWarningsLines) {
  TraceLine in_func = ClassifyTraceLine("api/app.py:27: in create_app", false);
  ASSERT_EQ(in_func.kind, Kind::kPytestLocation);
  EXPECT_EQ(in_func.loc, LocKind::kInFunc);
  EXPECT_EQ(in_func.frame.function, "create_app");

  TraceLine typed = ClassifyTraceLine("tests/test_x.py:9: ValueError", false);
  ASSERT_EQ(typed.kind, Kind::kPytestLocation);
  EXPECT_EQ(typed.loc, LocKind::kType);
  EXPECT_EQ(typed.loc_type, "ValueError");

  TraceLine warning = ClassifyTraceLine("/usr/lib/pkg/mod.py:12: DeprecationWarning: foo() is deprecated", false);
  ASSERT_EQ(warning.kind, Kind::kPytestLocation);
  EXPECT_EQ(warning.loc, LocKind::kTypeMessage);
  EXPECT_EQ(warning.loc_type, "DeprecationWarning");
  EXPECT_EQ(warning.loc_message, "foo() is deprecated");

  TraceLine e_line = ClassifyTraceLine("E       ValueError: bad value", false);
  ASSERT_EQ(e_line.kind, Kind::kPytestE);
  EXPECT_EQ(e_line.e_spaces, 7u);

  TraceLine boundary = ClassifyTraceLine("______________ test_x ______________", false);
  EXPECT_EQ(boundary.kind, Kind::kSeparator);
  EXPECT_TRUE(boundary.test_boundary);
  // Not a location: no directory or extension before the line number.
  EXPECT_EQ(ClassifyTraceLine("localhost:8000: refused", false).kind, Kind::kText);
}

TEST(TracebackLineTest, ArrowsCaretsAndText) {
  TraceLine arrow = ClassifyTraceLine("----> 5 f(x)", false);
  ASSERT_EQ(arrow.kind, Kind::kArrow);
  EXPECT_EQ(arrow.arrow_line, 5);
  EXPECT_EQ(arrow.arrow_code, "f(x)");
  EXPECT_EQ(ClassifyTraceLine("    ^^^^~~~~~~", false).kind, Kind::kCaret);
  EXPECT_EQ(ClassifyTraceLine("~~~", false).kind, Kind::kBlank);  // a markdown fence
  EXPECT_EQ(ClassifyTraceLine("ValueError: bad value", false).kind, Kind::kText);
  EXPECT_EQ(ClassifyTraceLine("   ", false).kind, Kind::kBlank);
}

TEST(TracebackLineTest, GroupGuttersBoxesAndContextLines) {
  GroupGutter member = ReadGroupGutter("    | ValueError: bad id 3");
  EXPECT_EQ(member.content, "ValueError: bad id 3");
  EXPECT_FALSE(member.separator);
  EXPECT_TRUE(ReadGroupGutter("  +-+---------------- 1 ----------------").separator);
  EXPECT_TRUE(ReadGroupGutter("RuntimeError: after the group").outside);
  EXPECT_FALSE(ReadGroupGutter("   ").outside);

  std::string_view boxed = "\u2502 /home/u/proj/cli.py:12 in main   \u2502";
  EXPECT_TRUE(ReadBoxBorder(&boxed));
  EXPECT_EQ(boxed, " /home/u/proj/cli.py:12 in main   ");  // the classifier trims
  std::string_view plain = "ValueError: x";
  EXPECT_FALSE(ReadBoxBorder(&plain));
  EXPECT_EQ(plain, "ValueError: x");

  EXPECT_TRUE(IsNumberedContextLine("12 x = 1"));
  EXPECT_FALSE(IsNumberedContextLine("x = 1"));
}

}  // namespace
}  // namespace errdex::python_paste
