#include "match/literal_matcher.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>

namespace errdex {
namespace {

std::vector<std::pair<uint32_t, size_t>> ScanAll(const LiteralMatcher& m, std::string_view text) {
  LiteralMatcher::Scratch scratch(m);
  std::vector<std::pair<uint32_t, size_t>> hits;
  m.Scan(text, scratch, [&](uint32_t id, size_t end) {
    hits.emplace_back(id, end);
    return true;
  });
  return hits;
}

TEST(LiteralMatcherTest, ReportsEveryOccurrenceInOrderOfEnd) {
  auto m = LiteralMatcher::Build({"cannot connect", "host", "conn"});
  auto hits = ScanAll(*m, "cannot connect to host; conn again");
  std::vector<std::pair<uint32_t, size_t>> want{{2, 11}, {0, 14}, {1, 22}, {2, 28}};
  EXPECT_EQ(hits, want);
}

TEST(LiteralMatcherTest, LiteralsAreBytesNotRegexes) {
  auto m = LiteralMatcher::Build({"a.*b", std::string("nul\0byte", 8), "(x|y)"});
  EXPECT_TRUE(ScanAll(*m, "aXXb xy").empty());
  EXPECT_EQ(ScanAll(*m, std::string("a.*b nul\0byte (x|y)", 19)).size(), 3u);
}

TEST(LiteralMatcherTest, StopsWhenAsked) {
  auto m = LiteralMatcher::Build({"ab"});
  LiteralMatcher::Scratch scratch(*m);
  int calls = 0;
  m->Scan("ab ab ab ab", scratch, [&](uint32_t, size_t) { return ++calls < 2; });
  EXPECT_EQ(calls, 2);
}

TEST(LiteralMatcherTest, SerializesAndRejectsGarbage) {
  auto m = LiteralMatcher::Build({"first literal", "second"});
  std::string bytes = m->Serialize();
  auto back = LiteralMatcher::Deserialize(bytes);
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(ScanAll(*back, "the second and first literal"), ScanAll(*m, "the second and first literal"));
  EXPECT_EQ(LiteralMatcher::Deserialize("not a database at all"), nullptr);
  EXPECT_EQ(LiteralMatcher::Deserialize(bytes.substr(0, bytes.size() / 2)), nullptr);
}

TEST(LiteralMatcherTest, EmptySetMatchesNothing) {
  auto m = LiteralMatcher::Build({});
  EXPECT_TRUE(ScanAll(*m, "anything").empty());
  EXPECT_EQ(m->Serialize(), "");
  auto back = LiteralMatcher::Deserialize("");
  ASSERT_NE(back, nullptr);
  EXPECT_TRUE(ScanAll(*back, "anything").empty());
  EXPECT_THROW(LiteralMatcher::Build({""}), std::runtime_error);
}

}  // namespace
}  // namespace errdex
