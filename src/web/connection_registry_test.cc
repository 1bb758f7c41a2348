// Tests of the connection registry of `errdex serve`'s front end (src/web/connection_registry.h).
#include "web/connection_registry.h"

#include <gtest/gtest.h>

namespace errdex::web {
namespace {

TEST(ConnectionRegistryTest, CountsPerAddressAndForgets) {
  ConnectionRegistry r;
  r.Add(1, "10.0.0.1");
  r.Add(2, "10.0.0.1");
  r.Add(3, "10.0.0.2");
  EXPECT_EQ(r.total(), 3u);
  EXPECT_EQ(r.CountOf("10.0.0.1"), 2u);
  r.Remove(1);
  r.Remove(1);
  EXPECT_EQ(r.CountOf("10.0.0.1"), 1u);
  EXPECT_EQ(r.CountOf("10.0.0.9"), 0u);
  EXPECT_EQ(r.total(), 2u);
}

TEST(ConnectionRegistryTest, TheLongestWaitingIsShedAndBusyOnesNever) {
  ConnectionRegistry r;
  for (ConnectionRegistry::Id id = 1; id <= 4; ++id) r.Add(id, id % 2 ? "a" : "b");
  EXPECT_EQ(r.OldestWaiting(), std::nullopt);  // all busy
  r.MarkWaiting(3);
  r.MarkWaiting(1);
  r.MarkWaiting(2);
  EXPECT_EQ(r.OldestWaiting(), 3u);
  EXPECT_EQ(r.OldestWaitingOf("a"), 3u);
  EXPECT_EQ(r.OldestWaitingOf("b"), 2u);
  r.MarkBusy(3);
  r.MarkWaiting(3);  // waiting again: now the youngest
  EXPECT_EQ(r.OldestWaiting(), 1u);
  EXPECT_EQ(r.OldestWaitingOf("a"), 1u);
  r.Remove(1);
  r.MarkBusy(2);
  EXPECT_EQ(r.OldestWaiting(), 3u);
  EXPECT_EQ(r.OldestWaitingOf("b"), std::nullopt);
}

}  // namespace
}  // namespace errdex::web
