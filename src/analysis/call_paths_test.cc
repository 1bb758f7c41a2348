// Tests of the call paths from the public API to a raising function (src/analysis/call_paths.h), on
// hand-made facts (src/analysis/code_model_test_util.h).
#include "analysis/call_paths.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/code_model_test_util.h"

namespace errdex {
namespace {

using testing_util::FakeRepo;
using Strings = std::vector<std::string>;

// Each path as "path:line function | code" frames joined by " -> ", "(possible) " in front when not
// certain.
Strings Describe(const std::vector<CallPath>& paths) {
  Strings out;
  for (const CallPath& p : paths) {
    std::string s = p.certain ? "" : "(possible) ";
    for (size_t i = 0; i < p.frames.size(); ++i) {
      const CallFrame& f = p.frames[i];
      s += (i ? " -> " : "") + f.path + ":" + std::to_string(f.line) + " " + f.function;
      if (!f.code.empty()) s += " | " + f.code;
    }
    out.push_back(s);
  }
  return out;
}

TEST(CallPathsTest, LightningCompiledModule) {
  FakeRepo repo;
  testing_util::AddLightningLike(repo);
  const CodeModel& model = repo.Build();
  std::vector<CallPath> paths = PublicCallPaths(model, "lightning/fabric/wrappers.py", "_unwrap_compiled");
  EXPECT_EQ(
      Describe(paths),
      (Strings{
          "lightning/fabric/fabric.py:240 Fabric.setup | module = self._move_model_to_device(model=module, "
          "optimizers=list(optimizers)) -> lightning/fabric/fabric.py:905 Fabric._move_model_to_device | "
          "original, _ = _unwrap_compiled(model) -> lightning/fabric/wrappers.py:0 _unwrap_compiled",
          "lightning/fabric/fabric.py:290 Fabric.setup_module | module = self._move_model_to_device(model=module, "
          "optimizers=[]) -> lightning/fabric/fabric.py:905 Fabric._move_model_to_device | original, _ = "
          "_unwrap_compiled(model) -> lightning/fabric/wrappers.py:0 _unwrap_compiled",
          "(possible) lightning/fabric/strategies/strategy.py:50 Strategy.teardown | "
          "self.precision.convert_module(self.model) -> lightning/fabric/_precision.py:12 "
          "_Precision.convert_module | model, kw = _unwrap_compiled(module) -> "
          "lightning/fabric/wrappers.py:0 _unwrap_compiled",
      }));
  // Bounds.
  EXPECT_EQ(PublicCallPaths(model, "lightning/fabric/wrappers.py", "_unwrap_compiled", 6, 1).size(), 1u);
  EXPECT_TRUE(PublicCallPaths(model, "lightning/fabric/wrappers.py", "_unwrap_compiled", 1).empty());
  EXPECT_EQ(PublicCallPaths(model, "lightning/fabric/wrappers.py", "_unwrap_compiled", 2).size(), 3u);
  // A public raising function is its own entry.
  EXPECT_EQ(Describe(PublicCallPaths(model, "lightning/fabric/fabric.py", "Fabric.setup")),
            Strings{"lightning/fabric/fabric.py:0 Fabric.setup"});
  // Module-level code and unknown functions have none.
  EXPECT_TRUE(PublicCallPaths(model, "lightning/fabric/wrappers.py", "<module>").empty());
  EXPECT_TRUE(PublicCallPaths(model, "lightning/fabric/wrappers.py", "nothing_here").empty());
  EXPECT_TRUE(PublicCallPaths(model, "nowhere.py", "f").empty());
  // A lambda in a function is searched from the function; the last frame keeps the site's scope.
  std::vector<CallPath> from_lambda =
      PublicCallPaths(model, "lightning/fabric/wrappers.py", "_unwrap_compiled.<locals>.<lambda>", 6, 1);
  ASSERT_EQ(from_lambda.size(), 1u);
  EXPECT_EQ(from_lambda[0].frames.back().function, "_unwrap_compiled.<locals>.<lambda>");
  // The memo gives the same answer.
  CallPathFinder finder(model);
  const std::vector<CallPath>& first = finder.Find("lightning/fabric/wrappers.py", "_unwrap_compiled");
  const std::vector<CallPath>& again = finder.Find("lightning/fabric/wrappers.py", "_unwrap_compiled");
  EXPECT_EQ(&first, &again);
  EXPECT_EQ(Describe(first), Describe(paths));
}

TEST(CallPathsTest, CyclesShortestFirstAndDistinctEntries) {
  FakeRepo repo;
  // _a and _b call each other; _a raises. api() calls _b; api2() calls _a directly and _b too.
  // deep() reaches _a only through 7 private hops.
  repo.Def("m.py", "_a", 1, 5)
      .Def("m.py", "_b", 6, 9)
      .Def("m.py", "api", 10, 12)
      .Def("m.py", "api2", 13, 16)
      .Call("m.py", "_a", "_b", 2, "_b()")
      .Call("m.py", "_b", "_a", 7, "_a()")
      .Call("m.py", "api", "_b", 11, "_b()")
      .Call("m.py", "api2", "_b", 14, "_b()")
      .Call("m.py", "api2", "_a", 15, "_a()");
  for (int i = 0; i < 7; ++i) {
    std::string name = "_hop" + std::to_string(i);
    std::string next = i == 0 ? "_a" : "_hop" + std::to_string(i - 1);
    repo.Def("m.py", name, 100 + i * 10, 105 + i * 10).Call("m.py", name, next, 101 + i * 10, next + "()");
  }
  repo.Def("m.py", "deep", 200, 201).Call("m.py", "deep", "_hop6", 200, "_hop6()");
  const CodeModel& model = repo.Build();
  EXPECT_EQ(Describe(PublicCallPaths(model, "m.py", "_a")),
            (Strings{"m.py:15 api2 | _a() -> m.py:0 _a", "m.py:11 api | _b() -> m.py:7 _b | _a() -> m.py:0 _a"}));
  // deep() is 8 calls away: beyond the default depth, within a larger one.
  EXPECT_EQ(PublicCallPaths(model, "m.py", "_a", 8).size(), 3u);
  EXPECT_EQ(PublicCallPaths(model, "m.py", "_a", 8).back().frames.size(), 9u);
}

TEST(CallPathsTest, TestsAndImportTimeCallersAreNotEntries) {
  FakeRepo repo;
  repo.Def("m.py", "_raise", 1, 2).Call("m.py", "<module>", "_raise", 5, "_raise()");
  repo.File("tests/test_m.py", true);
  repo.Import("tests/test_m.py", "_raise", "m._raise")
      .Def("tests/test_m.py", "test_it", 1, 2)
      .Call("tests/test_m.py", "test_it", "_raise", 2, "_raise()");
  const CodeModel& model = repo.Build();
  EXPECT_TRUE(PublicCallPaths(model, "m.py", "_raise").empty());
}

}  // namespace
}  // namespace errdex
