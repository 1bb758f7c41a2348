// Tests of ErrorTestLinker: which errors a test that expects an exception provokes.
#include "analysis/test_links.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace errdex {
namespace {

using Strings = std::vector<std::string>;

// A small hierarchy: shop.CartError(shop.ShopError(builtins.Exception)), shop.StockError(shop.CartError).
std::vector<std::string> Bases(const std::string& type) {
  static const std::map<std::string, Strings> kChains = {
      {"shop.ShopError", {"shop.ShopError", "builtins.Exception", "builtins.BaseException"}},
      {"shop.CartError", {"shop.CartError", "shop.ShopError", "builtins.Exception", "builtins.BaseException"}},
      {"shop.StockError",
       {"shop.StockError", "shop.CartError", "shop.ShopError", "builtins.Exception", "builtins.BaseException"}},
      {"builtins.ValueError", {"builtins.ValueError", "builtins.Exception", "builtins.BaseException"}},
  };
  auto it = kChains.find(type);
  return it == kChains.end() ? Strings{type} : it->second;
}

class ErrorTestLinkerTest : public ::testing::Test {
 protected:
  ErrorTestLinkerTest() : linker_(Bases) {
    linker_.AddCodeSite("cart-sku", "shop.CartError", "CartError", "unknown SKU {sku!r} in {where}");
    linker_.AddCodeSite("cart-max", "shop.CartError", "errors.CartError", "a cart holds at most {MAX_ITEMS} items");
    linker_.AddCodeSite("stock", "shop.StockError", "StockError", "only {available} of {sku} left; restocking soon");
    linker_.AddCodeSite("cuda", "builtins.ValueError", "ValueError", "Device should be CUDA, got {device} instead.");
    for (int i = 0; i < 5; ++i) {
      linker_.AddCodeSite("value-" + std::to_string(i), "builtins.ValueError", "ValueError",
                          "bad value number " + std::to_string(i) + ": {v}");
    }
    linker_.AddCodeSite("dyn", std::nullopt, "plugin.PluginError", "plugin {name} failed");
    linker_.AddCodeSite("dyn", std::nullopt, "plugin.PluginError", "plugin {name} failed");
  }
  ErrorTestLinker linker_;
};

TEST_F(ErrorTestLinkerTest, PatternsSelectByTemplate) {
  EXPECT_EQ(linker_.Link("CartError", "shop.CartError", "unknown SKU 'kiwi'"), (Strings{"cart-sku"}));
  EXPECT_EQ(linker_.Link("CartError", "shop.CartError", R"(at most \d+ items)"), (Strings{"cart-max"}));
  EXPECT_EQ(linker_.Link("ValueError", "builtins.ValueError", "got cpu"), (Strings{"cuda"}));
  EXPECT_EQ(linker_.Link("ValueError", "builtins.ValueError", "got cpu outside"), Strings{});
  EXPECT_EQ(linker_.Link("ValueError", "builtins.ValueError", R"(bad value number [0-2])"),
            (Strings{"value-0", "value-1", "value-2"}));
  // An invalid regex does not crash anything: taken as text, it fits no template here.
  EXPECT_EQ(linker_.Link("ValueError", "builtins.ValueError", "(?<=bad) value"), Strings{});
  EXPECT_EQ(linker_.Link("ValueError", "builtins.ValueError", "bad value number 3: (x"), (Strings{"value-3"}));
}

TEST_F(ErrorTestLinkerTest, SubclassesAreCaughtToo) {
  // pytest.raises(CartError) passes when a StockError is raised.
  EXPECT_EQ(linker_.Link("CartError", "shop.CartError", "only 0 of pear left"), (Strings{"stock"}));
  EXPECT_EQ(linker_.Link("ShopError", "shop.ShopError", "restocking soon"), (Strings{"stock"}));
  // Not the other way round.
  EXPECT_EQ(linker_.Link("StockError", "shop.StockError", "unknown SKU"), Strings{});
  // A catch-all type with a short pattern says nothing; with a long one it links as usual.
  EXPECT_EQ(linker_.Link("Exception", "builtins.Exception", "in"), Strings{});
  EXPECT_EQ(linker_.Link("Exception", "builtins.Exception", "restocking soon"), (Strings{"stock"}));
  // When the pattern fits errors of the named type itself, subclasses' errors that fit too are left out.
  EXPECT_EQ(linker_.Link("CartError", "shop.CartError", "in|left"), (Strings{"cart-sku"}));
  EXPECT_EQ(linker_.Link("ShopError", "shop.ShopError", "in|left"), (Strings{"cart-sku", "stock"}));
}

TEST_F(ErrorTestLinkerTest, WithoutPatternOnlyTheTypeItselfAtFewSites) {
  // CartError itself (not its subclass StockError): two sites.
  EXPECT_EQ(linker_.Link("CartError", "shop.CartError", ""), (Strings{"cart-sku", "cart-max"}));
  EXPECT_EQ(linker_.Link("StockError", "shop.StockError", ""), (Strings{"stock"}));
  EXPECT_EQ(linker_.Link("ShopError", "shop.ShopError", ""), Strings{});
  // ValueError: six sites, too many to say which one a test provokes.
  EXPECT_EQ(linker_.Link("ValueError", "builtins.ValueError", ""), Strings{});
  EXPECT_EQ(linker_.Link("Exception", "builtins.Exception", ""), Strings{});
  EXPECT_EQ(linker_.Link("KeyError", "builtins.KeyError", ""), Strings{});
}

TEST_F(ErrorTestLinkerTest, WithTheGraphOnlyReachedErrorsLink) {
  auto only = [](Strings ids) {
    return [ids](const std::string& id) { return std::find(ids.begin(), ids.end(), id) != ids.end() ? 1 : -1; };
  };
  // Six ValueError sites: without a pattern the type alone says nothing, but the block reaches one.
  EXPECT_EQ(linker_.LinkReached("ValueError", "builtins.ValueError", "", only({"value-3"})), (Strings{"value-3"}));
  EXPECT_EQ(linker_.LinkReached("ValueError", "builtins.ValueError", "", only({})), Strings{});
  // A block that reaches all six of them still says nothing about any one.
  EXPECT_EQ(linker_.LinkReached("ValueError", "builtins.ValueError", "",
                                only({"cuda", "value-0", "value-1", "value-2", "value-3", "value-4"})),
            Strings{});
  // With a pattern: the fit and the reach both. The named type's own error is preferred only among the
  // reached ones: when the block reaches the subclass's error alone, that one links.
  EXPECT_EQ(linker_.LinkReached("CartError", "shop.CartError", "in|left", only({"cart-sku", "stock"})),
            (Strings{"cart-sku"}));
  EXPECT_EQ(linker_.LinkReached("CartError", "shop.CartError", "in|left", only({"stock"})), (Strings{"stock"}));
  EXPECT_EQ(linker_.LinkReached("CartError", "shop.CartError", "unknown SKU 'kiwi'", only({"stock"})), Strings{});
  // Without a pattern, the nearest reached errors: value-1 is raised by the block's own call, value-2 two
  // calls further.
  auto distances = [](const std::string& id) { return id == "value-1" ? 1 : id == "value-2" ? 3 : -1; };
  EXPECT_EQ(linker_.LinkReached("ValueError", "builtins.ValueError", "", distances), (Strings{"value-1"}));
  // Two as near: the test does not tell which it provokes.
  auto two = [](const std::string& id) { return id == "value-1" || id == "value-2" ? 1 : -1; };
  EXPECT_EQ(linker_.LinkReached("ValueError", "builtins.ValueError", "", two), Strings{});
  // Nearest, but farther than kMaxDistanceWithoutPattern calls: reached through too much of the graph to say.
  auto far = [](const std::string& id) { return id == "value-2" ? kMaxDistanceWithoutPattern + 1 : -1; };
  EXPECT_EQ(linker_.LinkReached("ValueError", "builtins.ValueError", "", far), Strings{});
  auto at_limit = [](const std::string& id) { return id == "value-2" ? kMaxDistanceWithoutPattern : -1; };
  EXPECT_EQ(linker_.LinkReached("ValueError", "builtins.ValueError", "", at_limit), (Strings{"value-2"}));
  // A pattern is no guess: the distance does not matter.
  auto deep = [](const std::string& id) { return id == "stock" ? kMaxDistanceWithoutPattern + 3 : -1; };
  EXPECT_EQ(linker_.LinkReached("CartError", "shop.CartError", "in|left", deep), (Strings{"stock"}));
}

TEST(ErrorTestLinkerSpecificTest, ThroughPlaceholdersTheMostSpecificTemplateOfATypeLinks) {
  ErrorTestLinker linker(Bases);
  linker.AddCodeSite("general", "builtins.ValueError", "ValueError", "Cannot evaluate {kind}");
  linker.AddCodeSite("column", "builtins.ValueError", "ValueError", "Cannot evaluate column: {clause}");
  linker.AddCodeSite("other-type", "shop.CartError", "CartError", "Cannot evaluate {what}");
  EXPECT_EQ(linker.Link("ValueError", "builtins.ValueError", "Cannot evaluate column: foo"), (Strings{"column"}));
  // Reached or not, the more specific one decides: the general template does not stand in for it.
  auto general_only = [](const std::string& id) { return id == "general" ? 1 : -1; };
  EXPECT_EQ(linker.LinkReached("ValueError", "builtins.ValueError", "Cannot evaluate column: foo", general_only),
            Strings{});
  // A pattern that fits both templates' text (step 1) keeps both.
  EXPECT_EQ(linker.Link("ValueError", "builtins.ValueError", "Cannot evaluate"), (Strings{"general", "column"}));
}

TEST_F(ErrorTestLinkerTest, UnresolvedTypesCompareLastNames) {
  EXPECT_EQ(linker_.Link("PluginError", std::nullopt, ""), (Strings{"dyn"}));
  EXPECT_EQ(linker_.Link("other.PluginError", std::nullopt, "plugin x failed"), (Strings{"dyn"}));
  EXPECT_EQ(linker_.Link("errors.CartError", std::nullopt, "unknown SKU"), (Strings{"cart-sku"}));
  // A resolved test type meets errors whose type did not resolve by last name.
  EXPECT_EQ(linker_.Link("PluginError", "pkg.plugin.PluginError", ""), (Strings{"dyn"}));
  EXPECT_EQ(linker_.Link("", std::nullopt, ""), Strings{});
  // A generic last name says nothing: pytest's `fail.Exception` is not `skip.Exception`.
  linker_.AddCodeSite("skipped", std::nullopt, "skip.Exception", "{reason}");
  EXPECT_EQ(linker_.Link("fail.Exception", std::nullopt, ""), Strings{});
  EXPECT_EQ(linker_.Link("skip.Exception", std::nullopt, ""), Strings{});
}

}  // namespace
}  // namespace errdex
