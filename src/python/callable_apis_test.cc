#include "python/callable_apis.h"

#include <gtest/gtest.h>

namespace errdex {
namespace {

TEST(CallableApis, RegisteringApisByPathAndByLastAttribute) {
  EXPECT_TRUE(RegistersCallable("atexit.register"));
  EXPECT_TRUE(RegistersCallable("contextlib.ExitStack.callback"));
  EXPECT_TRUE(RegistersCallable("unittest.TestCase.addCleanup"));
  // An "attribute" row: whatever external value the method is read from.
  EXPECT_TRUE(RegistersCallable("asyncio.get_event_loop.call_soon"));
  EXPECT_TRUE(RegistersCallable("concurrent.futures.Future.add_done_callback"));
  // A callee that calls what it is handed, or a path row's name under another module.
  EXPECT_FALSE(RegistersCallable("functools.reduce"));
  EXPECT_FALSE(RegistersCallable("contextlib.contextmanager"));
  EXPECT_FALSE(RegistersCallable("mylib.register"));
  EXPECT_FALSE(RegistersCallable("call_soon"));
  EXPECT_FALSE(RegistersCallable(""));
}

TEST(CallableApis, InspectingApisByModuleAndByPath) {
  EXPECT_TRUE(InspectsCallable("inspect.signature"));
  EXPECT_TRUE(InspectsCallable("inspect.Signature.from_callable"));
  EXPECT_TRUE(InspectsCallable("functools.wraps"));
  EXPECT_FALSE(InspectsCallable("inspect"));  // the module itself is no callee under it
  EXPECT_FALSE(InspectsCallable("inspection.signature"));
  EXPECT_FALSE(InspectsCallable("functools.reduce"));
  EXPECT_FALSE(InspectsCallable("atexit.register"));
  // Not update_wrapper: it returns its first argument, which the graph takes from the callback's return.
  EXPECT_FALSE(InspectsCallable("functools.update_wrapper"));
}

TEST(CallableApis, BuiltinValues) {
  EXPECT_EQ(BuiltinAttributeType("__dict__"), "dict");
  EXPECT_EQ(BuiltinAttributeType("__name__"), "str");
  EXPECT_EQ(BuiltinAttributeType("copy"), "");
  EXPECT_EQ(BuiltinResultType("vars"), "dict");
  EXPECT_EQ(BuiltinResultType("str"), "str");
  EXPECT_EQ(BuiltinResultType("len"), "int");
  EXPECT_EQ(BuiltinResultType("sorted"), "list");
  EXPECT_EQ(BuiltinResultType("getattr"), "");
  EXPECT_TRUE(IsBuiltinMethod("dict", "copy"));
  EXPECT_TRUE(IsBuiltinMethod("list", "remove"));
  EXPECT_TRUE(IsBuiltinMethod("str", "zfill"));
  EXPECT_FALSE(IsBuiltinMethod("str", "copy"));
  EXPECT_FALSE(IsBuiltinMethod("list", "_apply_to_parent"));
  EXPECT_FALSE(IsBuiltinMethod("", ""));
}

}  // namespace
}  // namespace errdex
