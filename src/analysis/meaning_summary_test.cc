#include "analysis/meaning_summary.h"

#include <gtest/gtest.h>

namespace errdex {
namespace {

TEST(MeaningSummary, ComposesTheExamplePagesExplanationFromFacts) {
  SummaryFacts f;
  f.function = "_unwrap_compiled";
  f.type = "RuntimeError";
  f.function_doc = "Removes the OptimizedModule around the object if it is wrapped.";
  f.conditions = {{"if", "if isinstance(obj, OptimizedModule):", 354, false, {}},
                  {"if", "if (compile_kwargs := getattr(obj, \"_compile_kwargs\", None)) is None:", 355, false, {}}};
  f.state = nlohmann::json::parse(R"J([{
    "read": {"kind": "getattr", "target": "obj", "name": "_compile_kwargs"},
    "path": "src/w.py", "line": 355,
    "writers": [{"path": "src/w.py", "line": 410, "function": "_capture_compile_kwargs.<locals>._capture",
                 "code": "compiled_model._compile_kwargs = deepcopy(kwargs)", "kind": "assign",
                 "installed_by": [{"path": "src/w.py", "line": 416,
                                   "code": "torch.compile = _capture_compile_kwargs(torch.compile)"}]},
                {"path": "tests/t.py", "line": 690, "function": "test_unwrap", "code": "c._compile_kwargs = None",
                 "kind": "assign", "is_test": true, "installed_by": []}],
    "more": 0}])J");
  f.call_paths = nlohmann::json::parse(R"J([{"certain": true, "frames": [
    {"path": "src/f.py", "line": 10, "function": "Fabric.setup", "code": "x = _unwrap_compiled(m)"},
    {"path": "src/w.py", "line": 356, "function": "_unwrap_compiled", "code": "raise RuntimeError("}]}])J");
  f.advice = {"Make sure to import lightning before `torch.compile` is used."};
  f.tests = 1;
  EXPECT_EQ(ComposeSummary(f),
            "`_unwrap_compiled()` (“Removes the OptimizedModule around the object if it is wrapped.”) raises "
            "RuntimeError when `isinstance(obj, OptimizedModule)` and `(compile_kwargs := getattr(obj, "
            "\"_compile_kwargs\", None)) is None`. `_compile_kwargs` is written only in "
            "`_capture_compile_kwargs.<locals>._capture` (src/w.py:410), installed at import time by "
            "`torch.compile = _capture_compile_kwargs(torch.compile)` (src/w.py:416). If that code never ran for "
            "the object, the attribute is missing. It is reached from the public API through `Fabric.setup`. The "
            "message itself advises: “Make sure to import lightning before `torch.compile` is used.” One test of "
            "the repository provokes it.");
}

TEST(MeaningSummary, NegatedAndStructuralConditions) {
  SummaryFacts f;
  f.function = "connect";
  f.type = "TimeoutError";
  f.conditions = {{"early_exit", "if port is None:", 2, true, {}},
                  {"loop_else", "for attempt in range(3):", 4, false, {}},
                  {"except", "except OSError as e:", 9, false, {}}};
  EXPECT_EQ(ComposeSummary(f),
            "`connect()` raises TimeoutError when not `(port is None)`, after the loop `for attempt in range(3):` "
            "ends without break and while handling `OSError as e`.");
}

TEST(MeaningSummary, LoopsAreSaidAsLoops) {
  SummaryFacts f;
  f.function = "JSONObject";
  f.type = "JSONDecodeError";
  f.conditions = {{"while", "while True:", 166, false, {}}, {"except", "except StopIteration as err:", 187, false, {}}};
  EXPECT_EQ(ComposeSummary(f), "`JSONObject()` raises JSONDecodeError while handling `StopIteration as err`.");
  f.conditions = {{"while", "while pending:", 3, false, {}}, {"if", "if not done:", 4, false, {}}};
  EXPECT_EQ(ComposeSummary(f),
            "`JSONObject()` raises JSONDecodeError when `not done`, inside the loop `while pending:`.");
}

TEST(MeaningSummary, ModuleLevelWarningWithoutConditions) {
  SummaryFacts f;
  f.function = "<module>";
  f.type = "DeprecationWarning";
  f.kind = "warn";
  f.class_doc = "";
  f.tests = 3;
  EXPECT_EQ(
      ComposeSummary(f),
      "Importing the module warns with DeprecationWarning whenever it runs. 3 tests of the repository provoke it.");
}

TEST(MeaningSummary, ManyWritersAreCountedNotListed) {
  SummaryFacts f;
  f.function = "C.run";
  f.type = "ValueError";
  f.state = nlohmann::json::parse(R"J([{"read": {"kind": "attribute", "target": "self", "name": "mode"},
    "writers": [{"path": "a.py", "line": 3, "function": "C.__init__", "code": "self.mode = m"},
                {"path": "a.py", "line": 9, "function": "C.set", "code": "self.mode = m"}], "more": 5},
    {"read": "not an object"}, {"read": {"kind": "name", "name": "FLAG"}, "writers": [], "more": 0}])J");
  EXPECT_EQ(ComposeSummary(f),
            "`C.run()` raises ValueError whenever it runs. `mode` is written at 7 places, such as in `C.__init__` "
            "(a.py:3) and in `C.set` (a.py:9). Nothing in the repository writes `FLAG`.");
}

TEST(MeaningSummary, AnAssertFailsWhenItsExpressionIsFalse) {
  SummaryFacts f;
  f.function = "Collection.pop";
  f.kind = "assert";
  f.type = "AssertionError";
  EXPECT_EQ(ComposeSummary(f), "`Collection.pop()` fails an `assert` when its asserted expression is false.");
  f.conditions = {{"if", "if self.empty:", 3, false, {}}};
  EXPECT_EQ(ComposeSummary(f),
            "`Collection.pop()` fails an `assert` when its asserted expression is false, on the "
            "path where `self.empty`.");
}

TEST(DocstringSummary, FirstSentenceOfFirstParagraph) {
  EXPECT_EQ(DocstringSummary("Removes the wrapper, e.g. a proxy.  Then more.\n\nDetails."),
            "Removes the wrapper, e.g. a proxy.");
  EXPECT_EQ(DocstringSummary("No sentence end\nacross lines\n\nSecond"), "No sentence end across lines");
  EXPECT_EQ(DocstringSummary(""), "");
  EXPECT_EQ(DocstringSummary(std::string(500, 'x')), std::string(297, 'x') + "…");
}

}  // namespace
}  // namespace errdex
