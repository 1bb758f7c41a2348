#include "python/raising_helpers.h"

#include <gtest/gtest.h>

#include "testing/test_extractor.h"

namespace errdex {
namespace {

using testing_util::TestExtractor;

const char* const kCore = R"py(class UsageError(Exception):
    pass


class Context:
    def fail(self, message):
        raise UsageError(message, self)

    def other(self, code):
        raise SystemExit(code)


class Command:
    def parse_args(self, ctx, args):
        if args:
            ctx.fail(f"Got unexpected extra argument ({args[0]})")
        ctx.fail(message="Missing command.")
        print("not a helper call")
        ctx.other("text is not the code")


def bail(reason):
    raise RuntimeError(reason)


def top():
    bail("plain function helper")
    bail(f"with {top} placeholder")
)py";

const char* const kTypes = R"py(class ParamType:
    def fail(self, message, param=None, ctx=None):
        raise BadParameter(message, ctx=ctx, param=param)

    def convert(self, value, param, ctx):
        self.fail(f"{value!r} is not a valid integer.", param, ctx)
)py";

TEST(RaisingHelpersTest, ExtractionRecordsHelpersAndCalls) {
  FileFacts facts = TestExtractor().Extract(kCore, ExtractOptions());
  ASSERT_EQ(facts.raising_helpers.size(), 3u);
  EXPECT_EQ(facts.raising_helpers[0].function, "Context.fail");
  EXPECT_TRUE(facts.raising_helpers[0].is_method);
  EXPECT_EQ(facts.raising_helpers[0].param_index, 1);
  EXPECT_EQ(facts.raising_helpers[0].param, "message");
  EXPECT_EQ(facts.raising_helpers[0].line, 7);
  EXPECT_EQ(facts.raising_helpers[2].function, "bail");
  EXPECT_FALSE(facts.raising_helpers[2].is_method);
  // print(...) is not recorded; calls without literal text are not either.
  for (const MessageCall& c : facts.message_calls) EXPECT_NE(c.name, "print");
}

TEST(RaisingHelpersTest, CallsBecomeSitesOfTheHelpersRaise) {
  FileFacts core = TestExtractor().Extract(kCore, ExtractOptions());
  FileFacts types = TestExtractor().Extract(kTypes, ExtractOptions());
  std::vector<FileFactsRef> files{{"pkg/core.py", &core}, {"pkg/types.py", &types}};
  std::vector<std::string> got;
  for (const HelperCallSite& h : LinkRaisingHelpers(files)) {
    got.push_back(files[h.call_file].path + ":" + std::to_string(h.call->line) + " -> " + files[h.helper_file].path +
                  ":" + std::to_string(h.raise->line) + " [" + h.template_text + "]");
  }
  std::vector<std::string> want{
      // ctx.fail from Command: any method named fail (two files), the positional or keyword message.
      "pkg/core.py:16 -> pkg/core.py:7 [Got unexpected extra argument ({args[0]})]",
      "pkg/core.py:16 -> pkg/types.py:3 [Got unexpected extra argument ({args[0]})]",
      "pkg/core.py:17 -> pkg/core.py:7 [Missing command.]",
      "pkg/core.py:17 -> pkg/types.py:3 [Missing command.]",
      // ctx.other("...") hands text to a parameter that is the code: still a raise of that parameter.
      "pkg/core.py:19 -> pkg/core.py:10 [text is not the code]",
      "pkg/core.py:27 -> pkg/core.py:23 [plain function helper]",
      "pkg/core.py:28 -> pkg/core.py:23 [with {top} placeholder]",
      // self.fail inside ParamType: its own class's helper only.
      "pkg/types.py:6 -> pkg/types.py:3 [{value!r} is not a valid integer.]",
  };
  EXPECT_EQ(got, want);
}

// pytest's shape: a warning helper, a function handing its parameter to it inside an instance (a derived
// helper), and the callers that write the text.
const char* const kConfig = R"py(import warnings


class Config:
    def issue_config_time_warning(self, warning, stacklevel):
        warnings.warn(warning, stacklevel=stacklevel)

    def _warn_or_fail_if_strict(self, message):
        if self.strict:
            raise UsageError(message)
        self.issue_config_time_warning(PytestConfigWarning(message), stacklevel=3)

    def _validate_config_options(self, key):
        self._warn_or_fail_if_strict(f"Unknown config option: {key}")

    def _warn_already_imported(self, name):
        self.issue_config_time_warning(PytestAssertRewriteWarning(f"Module already imported: {name}"), 5)
)py";

TEST(RaisingHelpersTest, AnInstanceHandedOnMakesADerivedHelper) {
  FileFacts config = TestExtractor().Extract(kConfig, ExtractOptions());
  std::vector<FileFactsRef> files{{"pkg/config.py", &config}};
  std::vector<std::string> got;
  for (const HelperCallSite& h : LinkRaisingHelpers(files)) {
    got.push_back(std::to_string(h.call->line) + " -> " + std::to_string(h.raise->line) + " " + h.instance_type +
                  " via " + h.reach_function + " [" + h.template_text + "]");
  }
  std::vector<std::string> want{
      // The forwarding call itself (its instance holds only the parameter) is no site.
      "14 -> 10  via Config._warn_or_fail_if_strict [Unknown config option: {key}]",
      "14 -> 6 PytestConfigWarning via Config._warn_or_fail_if_strict [Unknown config option: {key}]",
      "17 -> 6 PytestAssertRewriteWarning via Config.issue_config_time_warning [Module already imported: {name}]",
  };
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace errdex
