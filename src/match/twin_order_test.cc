#include "match/twin_order.h"

#include <gtest/gtest.h>

#include "match/type_agreement.h"

namespace errdex {
namespace {

SiteRow Reached(std::optional<int> calls, int entries) {
  SiteRow s;
  s.reach_calls = calls;
  s.reach_entries = calls ? entries : 0;
  return s;
}

TEST(TwinOrderTest, MoreEntriesThenFewerCallsThenAnyReachBeforeNone) {
  EXPECT_TRUE(MoreDirectlyReached(Reached(1, 9), Reached(0, 1)));
  EXPECT_FALSE(MoreDirectlyReached(Reached(0, 1), Reached(1, 9)));
  EXPECT_TRUE(MoreDirectlyReached(Reached(0, 2), Reached(0, 1)));
  EXPECT_TRUE(MoreDirectlyReached(Reached(0, 2), Reached(2, 2)));
  EXPECT_TRUE(MoreDirectlyReached(Reached(3, 1), Reached(std::nullopt, 0)));
  EXPECT_FALSE(MoreDirectlyReached(Reached(std::nullopt, 0), Reached(std::nullopt, 0)));
  EXPECT_FALSE(MoreDirectlyReached(Reached(1, 2), Reached(1, 2)));
}

TEST(TwinOrderTest, DescribesTheReach) {
  EXPECT_EQ(DescribeReach(Reached(0, 2)), "reached from 2 public functions, its own function is public");
  EXPECT_EQ(DescribeReach(Reached(1, 1)), "reached from 1 public function, the nearest 1 call away");
  EXPECT_EQ(DescribeReach(Reached(std::nullopt, 0)), "");
}

}  // namespace
}  // namespace errdex

namespace errdex {
namespace {

SiteRow At(std::string path) {
  SiteRow s;
  s.path = std::move(path);
  return s;
}

TEST(TwinOrderTest, TheModuleDefiningThePastedClass) {
  EXPECT_TRUE(InModuleOfPastedType(At("queue.py"), "_queue.Empty"));
  EXPECT_FALSE(InModuleOfPastedType(At("multiprocessing/queues.py"), "_queue.Empty"));
  EXPECT_TRUE(InModuleOfPastedType(At("src/acme/errors.py"), "acme.errors.Boom"));
  EXPECT_TRUE(InModuleOfPastedType(At("acme/__init__.py"), "acme.Boom"));
  EXPECT_FALSE(InModuleOfPastedType(At("notacme/errors.py"), "acme.errors.Boom"));
  EXPECT_FALSE(InModuleOfPastedType(At("queue.py"), "Empty"));
}

}  // namespace
}  // namespace errdex

namespace errdex {
namespace {

TEST(ModuleFamilyTest, AcceleratorsTwinsAndPrivateImplementations) {
  EXPECT_TRUE(SameModuleFamily("_queue", "queue"));
  EXPECT_TRUE(SameModuleFamily("decimal", "_pydecimal"));
  EXPECT_TRUE(SameModuleFamily("_decimal", "_pydecimal") || SameModuleFamily("decimal", "_decimal"));
  EXPECT_TRUE(SameModuleFamily("pytest", "_pytest"));
  EXPECT_FALSE(SameModuleFamily("_pydecimal", "numbers"));
  EXPECT_FALSE(SameModuleFamily("queue", "queues"));
}

}  // namespace
}  // namespace errdex
