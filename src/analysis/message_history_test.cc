#include "analysis/message_history.h"

#include <gtest/gtest.h>

namespace errdex {
namespace {

using Strings = std::vector<std::string>;

TEST(MessageNeedlesTest, StartAndEndOfTheLongestRuns) {
  EXPECT_EQ(MessageNeedles("Failed to determine the arguments that were used to compile the module."),
            (Strings{"Failed to determine the ", "d to compile the module."}));
  // Placeholders and backslashes cut runs; the first two needles are the start and end of the longest run,
  // the third the start of the next one.
  const std::string templ = "Device should be CUDA, got {device} instead of a proper device\\n at all";
  EXPECT_EQ(MessageNeedles(templ), (Strings{std::string("Device should be CUDA, got ").substr(0, 24),
                                            std::string("Device should be CUDA, got ").substr(3),
                                            std::string(" instead of a proper device").substr(0, 24)}));
}

TEST(MessageNeedlesTest, ShortMessagesGetShortNeedles) {
  EXPECT_EQ(MessageNeedles("Unrecognized hint: {hint!r}"), (Strings{"Unrecognized hint: "}));
  EXPECT_EQ(MessageNeedles("can't use this function in 'only scalars' mode"),
            (Strings{"can't use this function ", "n in 'only scalars' mode"}));
  EXPECT_TRUE(MessageNeedles("bad {x}").empty());
  EXPECT_TRUE(MessageNeedles("").empty());
}

}  // namespace
}  // namespace errdex
