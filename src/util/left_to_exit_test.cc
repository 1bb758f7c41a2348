// Tests of the memory left to the process exit (src/util/left_to_exit.h).
#include "util/left_to_exit.h"

#include <gtest/gtest.h>

#include <memory>

namespace errdex {
namespace {

struct Flagged {
  bool* destroyed;
  explicit Flagged(bool* flag) : destroyed(flag) {}
  ~Flagged() { *destroyed = true; }
};

TEST(LeftToExitTest, AnObjectLeftIsNotDestroyedWhenItsLastOwnerGoes) {
  bool destroyed = false;
  const size_t before = LeftToExitCount();
  std::weak_ptr<Flagged> watch;
  {
    auto object = std::make_shared<Flagged>(&destroyed);
    watch = object;
    LeaveToExit(object);
  }
  EXPECT_FALSE(destroyed);
  EXPECT_FALSE(watch.expired());
  EXPECT_EQ(LeftToExitCount(), before + 1);
  // An object not left goes with its owner.
  bool other = false;
  { auto object = std::make_shared<Flagged>(&other); }
  EXPECT_TRUE(other);
}

}  // namespace
}  // namespace errdex
