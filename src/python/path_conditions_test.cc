// Limits of the path conditions of sites and of the tests that expect an exception (docs/analysis.md),
// through the extractor. The cases of the contract are corpus files: tests/corpus/extraction/path_conditions/
// and raises_tests/ (run by extraction_corpus_test.cc).
#include "python/path_conditions.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "python/python_extractor.h"
#include "testing/cpu_time.h"
#include "testing/test_extractor.h"

namespace errdex {
namespace {

using testing_util::TestExtractor;
using Strings = std::vector<std::string>;

FileFacts Extract(std::string_view source) {
  if (!source.empty() && source[0] == '\n') source.remove_prefix(1);
  return TestExtractor().Extract(source, ExtractOptions());
}

TEST(PathConditionsTest, LongHeadersAreCutAndConditionsBounded) {
  std::string source = "def f(x):\n    if x == '" + std::string(2000, 'a') + "':\n        raise ValueError('long')\n";
  FileFacts facts = TestExtractor().Extract(source, ExtractOptions());
  ASSERT_EQ(facts.sites.size(), 1u);
  ASSERT_EQ(facts.sites[0].conditions.size(), 1u);
  EXPECT_LE(facts.sites[0].conditions[0].code.size(), kMaxConditionCodeBytes);
  EXPECT_EQ(facts.sites[0].conditions[0].code.substr(0, 12), "if x == 'aaa");

  // 100 nested ifs, then 3000 early exits before one raise, at module level: bounded, and fast.
  std::string deep;
  std::string indent;
  for (int i = 0; i < 100; ++i) {
    deep += indent + "if c" + std::to_string(i) + ":\n";
    indent += " ";
  }
  deep += indent + "raise ValueError('deep')\n";
  for (int i = 0; i < 3000; ++i) deep += "if e" + std::to_string(i) + ":\n    raise KeyError('e')\n";
  deep += "raise ValueError('last')\n";
  const double start = testing::ProcessCpuSeconds();
  facts = TestExtractor().Extract(deep, ExtractOptions());
  const long ms = testing::CpuMillisecondsSince(start);
  EXPECT_LT(ms, 2000);
  ASSERT_EQ(facts.sites.size(), 3002u);
  const std::vector<Condition>& nested = facts.sites[0].conditions;
  ASSERT_EQ(nested.size(), kMaxConditionsPerSite);
  EXPECT_EQ(nested.back().code, "if c99:");  // the nearest are kept
  EXPECT_EQ(nested.front().code, "if c68:");
  const std::vector<Condition>& last = facts.sites.back().conditions;
  ASSERT_EQ(last.size(), kMaxConditionsPerSite);
  EXPECT_EQ(last.back().code, "if e2999:");
  EXPECT_TRUE(last.back().negated);
}

// ---------------------------------------------------------------------------------------------------
// Tests that expect an exception.

// A long Django message is cut at 1024 bytes after escaping, never inside an escape.
TEST(RaisesTestsTest, EscapedMessagesAreCutBetweenEscapes) {
  std::string message(1023, 'a');
  message += ".b";  // escaped: 1023 'a', then "\\.", cut at 1024 bytes would leave a lone backslash
  FileFacts facts =
      Extract("def test_long(self):\n    with self.assertRaisesMessage(E, \"" + message + "\"):\n        f()\n");
  ASSERT_EQ(facts.raises_tests.size(), 1u);
  EXPECT_EQ(facts.raises_tests[0].match, std::string(1023, 'a'));
}

TEST(RaisesTestsTest, CodeIsBounded) {
  std::string source = "import pytest\ndef test_big():\n    with pytest.raises(ValueError):\n";
  for (int i = 0; i < 200; ++i) source += "        call_number_" + std::to_string(i) + "()\n";
  FileFacts facts = TestExtractor().Extract(source, ExtractOptions());
  ASSERT_EQ(facts.raises_tests.size(), 1u);
  EXPECT_LE(facts.raises_tests[0].code.size(), kMaxRaisesTestCodeBytes);
  EXPECT_EQ(facts.raises_tests[0].code.rfind("with pytest.raises(ValueError):\n    call_number_0()\n", 0), 0u);
}

}  // namespace
}  // namespace errdex
