// Tests of `explain` (src/match/explainer.h) on catalogs indexed from small packages written here: exact
// matches with bindings, twins, types, frames, revisions, drift, class messages, no match, hostile input.
#include "match/explainer.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "pipeline/indexer.h"
#include "testing/git_test_util.h"
#include "testing/temp_dir.h"

namespace errdex {
namespace {

using namespace testing_util;

const char* const kErrors = R"py(class ShopError(Exception):
    """Shop failures."""


class PaymentDeclined(ShopError):
    def __init__(self, code, amount):
        super().__init__(f"payment of {amount} declined with code {code}")


class OutOfStock(ShopError):
    def __str__(self):
        return "out of stock: {0.sku}".format(self)


class Rejected(ShopError):
    def __str__(self):
        return f"order rejected by the warehouse: {self.args[0]}"
)py";

const char* const kCart = R"py(from .errors import ShopError, PaymentDeclined, OutOfStock, Rejected

STOCK = {}


def add(sku, qty):
    if qty <= 0:
        raise ValueError(f"quantity must be positive, got {qty!r}")
    if sku not in STOCK:
        raise KeyError(f"unknown SKU {sku!r}")


def remove(sku):
    raise ShopError(f"unknown SKU {sku!r}")


def pay(amount):
    raise PaymentDeclined("E42", amount)


def reserve(sku):
    raise OutOfStock(sku)


def check(n):
    if n > 10:
        raise ValueError("too many items in the cart")


def check_again(n):
    raise ValueError("too many items in the cart")


def ship(box):
    raise Rejected(f"box {box} is over the weight limit")
)py";

class ExplainerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteFile(dir_ / "src/shop/__init__.py", "");
    WriteFile(dir_ / "src/shop/errors.py", kErrors);
    WriteFile(dir_ / "src/shop/cart.py", kCart);
    IndexInto(dir_ / "src", "acme/shop");
  }

  void IndexInto(const std::string& source, const std::string& name, const std::string& rev = "") {
    IndexOptions options;
    options.source = source;
    options.rev = rev;
    options.name = name;
    options.catalog = dir_ / "catalog.db";
    options.jobs = 1;
    IndexSummary summary;
    std::string error;
    ASSERT_TRUE(Index(options, &summary, &error)) << error;
  }

  Explanation Explain(std::string_view paste, int top = 5) {
    auto catalog = Catalog::Open(dir_ / "catalog.db", /*read_only=*/true);
    std::string note;
    auto matcher = ErrorMatcher::Load(catalog->matcher_tables(), false, &note);
    EXPECT_EQ(note, "");
    return Explainer(*catalog, *matcher).Explain(paste, top);
  }

  TempDir dir_;
};

TEST_F(ExplainerTest, ExactMessageFindsItsSiteWithBindings) {
  Explanation e = Explain("ValueError: quantity must be positive, got -3");
  EXPECT_EQ(e.input_kind, "message");
  EXPECT_EQ(e.type, "ValueError");
  EXPECT_EQ(e.message, "quantity must be positive, got -3");
  ASSERT_FALSE(e.matches.empty());
  const ExplainMatch& m = e.matches[0];
  EXPECT_EQ(m.kind, ExplainMatch::Kind::kExact);
  EXPECT_EQ(m.site.path, "shop/cart.py");
  EXPECT_EQ(m.site.line, 8);
  EXPECT_EQ(m.site.function, "add");
  EXPECT_EQ(m.type, "builtins.ValueError");
  ASSERT_EQ(m.bindings.size(), 1u);
  EXPECT_EQ(m.bindings[0].first, "qty!r");
  EXPECT_EQ(m.bindings[0].second, "-3");
  EXPECT_GT(m.score, 0.7);
}

TEST_F(ExplainerTest, TypeTellsSameTextsApart) {
  Explanation key = Explain("KeyError: \"unknown SKU 'X-1'\"");
  ASSERT_GE(key.matches.size(), 2u);
  EXPECT_EQ(key.matches[0].site.function, "add");
  EXPECT_GT(key.matches[0].score, key.matches[1].score);
  Explanation shop = Explain("shop.errors.ShopError: unknown SKU 'X-1'");
  ASSERT_FALSE(shop.matches.empty());
  EXPECT_EQ(shop.matches[0].site.function, "remove");
  bool said_twin = false;
  for (const std::string& why : shop.matches[0].why) said_twin |= why.find("same message") != std::string::npos;
  EXPECT_TRUE(said_twin);
}

TEST_F(ExplainerTest, SameTemplateAtTwoSitesIsSaidAndFramesDecide) {
  // One error, two sites: nothing in the message picks one, so both are results, the twin after the first
  // and saying so (the other result of the same message is no "other result" of another error).
  Explanation bare = Explain("ValueError: too many items in the cart");
  ASSERT_EQ(bare.matches.size(), 2u);
  EXPECT_EQ(bare.matches[0].error_id, bare.matches[1].error_id);
  EXPECT_NE(bare.matches[0].site.line, bare.matches[1].site.line);
  bool said = false, twin = false, other = false;
  for (const std::string& why : bare.matches[0].why) said |= why.find("2 places") != std::string::npos;
  for (const std::string& why : bare.matches[1].why) {
    twin |= why.find(fmt::format("a twin of shop/cart.py:{} (shown above)", bare.matches[0].site.line)) == 0;
    other |= why.find("other result") != std::string::npos || why.find("2 places") != std::string::npos;
  }
  EXPECT_TRUE(said);
  EXPECT_TRUE(twin);
  EXPECT_FALSE(other);

  Explanation traced = Explain(
      "Traceback (most recent call last):\n"
      "  File \"/venv/lib/python3.12/site-packages/shop/cart.py\", line 31, in check_again\n"
      "    raise ValueError(\"too many items in the cart\")\n"
      "ValueError: too many items in the cart\n");
  EXPECT_EQ(traced.input_kind, "traceback");
  ASSERT_FALSE(traced.matches.empty());
  EXPECT_EQ(traced.matches[0].site.function, "check_again");
  for (const ExplainMatch& m : traced.matches) EXPECT_EQ(m.site.function, "check_again");  // the frame picked it
}

TEST_F(ExplainerTest, ClassMessagesLeadToTheSitesRaisingTheClass) {
  Explanation e = Explain("shop.errors.PaymentDeclined: payment of 12.50 declined with code E42");
  ASSERT_FALSE(e.matches.empty());
  EXPECT_EQ(e.matches[0].kind, ExplainMatch::Kind::kClassMessage);
  EXPECT_EQ(e.matches[0].site.function, "pay");
  Explanation str = Explain("OutOfStock: out of stock: X-9");
  ASSERT_FALSE(str.matches.empty());
  EXPECT_EQ(str.matches[0].site.function, "reserve");
}

TEST_F(ExplainerTest, SiteTextInsideItsClassRenderingBindsThroughBoth) {
  Explanation e = Explain("shop.errors.Rejected: order rejected by the warehouse: box B-7 is over the weight limit");
  ASSERT_FALSE(e.matches.empty());
  const ExplainMatch& m = e.matches[0];
  EXPECT_EQ(m.kind, ExplainMatch::Kind::kExact);
  EXPECT_EQ(m.site.function, "ship");
  ASSERT_EQ(m.bindings.size(), 1u);
  EXPECT_EQ(m.bindings[0], std::make_pair(std::string("box"), std::string("B-7")));
  EXPECT_NE(m.why[0].find("inside the text class shop.errors.Rejected renders"), std::string::npos) << m.why[0];
}

TEST_F(ExplainerTest, RewordedMessagesAreApproximate) {
  Explanation e = Explain("ValueError: quantity must be strictly positive, got -3");
  ASSERT_FALSE(e.matches.empty());
  EXPECT_EQ(e.matches[0].kind, ExplainMatch::Kind::kApproximate);
  EXPECT_EQ(e.matches[0].site.function, "add");
  EXPECT_NE(e.matches[0].why[0].find("approximate"), std::string::npos);
  // A shortened older form.
  Explanation shorter = Explain("ValueError: quantity must be positive");
  ASSERT_FALSE(shorter.matches.empty());
  EXPECT_EQ(shorter.matches[0].site.function, "add");
}

TEST_F(ExplainerTest, NoMatchSaysSo) {
  Explanation e = Explain("RuntimeError: the flux capacitor overheated");
  EXPECT_TRUE(e.matches.empty());
  for (const ExplainMatch& m : e.closest) EXPECT_EQ(m.kind, ExplainMatch::Kind::kClosest);
  EXPECT_TRUE(Explain("").matches.empty());
  EXPECT_EQ(Explain("   \n\t").input_kind, "");
}

TEST_F(ExplainerTest, FrameLinePicksTheRevision) {
  // The same error at two revisions of a git repository, on different lines.
  const std::string repo = dir_ / "repo";
  WriteFile(repo + "/pkg/mod.py", "def f():\n    raise ValueError('revision marker text')\n");
  Git(dir_.path(), "init -q repo");
  Git(repo, "add -A");
  Git(repo, "commit -q -m first");
  const std::string first = Git(repo, "rev-parse HEAD");
  WriteFile(repo + "/pkg/mod.py", "import os\n\n\ndef f():\n    raise ValueError('revision marker text')\n");
  Git(repo, "commit -q -am second");
  const std::string second = Git(repo, "rev-parse HEAD");
  IndexInto(repo, "acme/repo", first);
  IndexInto(repo, "acme/repo", second);

  Explanation plain = Explain("ValueError: revision marker text");
  ASSERT_FALSE(plain.matches.empty());
  EXPECT_EQ(plain.matches[0].site.commit.value_or(""), second);  // latest indexed by default
  Explanation old = Explain(
      "Traceback (most recent call last):\n"
      "  File \"/x/pkg/mod.py\", line 2, in f\n"
      "ValueError: revision marker text\n");
  ASSERT_FALSE(old.matches.empty());
  // The traceback's line fits the first revision; the answer is the newest one's site (the version step,
  // match/version_step.h), saying which revision the paste fits.
  EXPECT_EQ(old.matches[0].site.commit.value_or(""), second);
  EXPECT_EQ(old.matches[0].site.line, 5);
  EXPECT_EQ(old.matches[0].versions.matched_revision, first.substr(0, 12));
  EXPECT_EQ(old.matches[0].versions.probable_version, first.substr(0, 12));
  EXPECT_TRUE(plain.matches[0].versions.matched_revision.empty());
}

TEST_F(ExplainerTest, HostileInputIsHandledQuickly) {
  auto start = std::chrono::steady_clock::now();
  std::string long_line(1 << 20, 'x');
  Explain("ValueError: " + long_line);
  std::string garbage;
  for (int i = 0; i < 200000; ++i) garbage.push_back(static_cast<char>((i * 131 + 7) % 256));
  Explain(garbage);
  Explain("ValueError: " + std::string(100000, '(') + std::string(100000, ')'));
  // Crafted against backtracking engines: many near-matches of a template piece.
  std::string crafted;
  for (int i = 0; i < 20000; ++i) crafted += "quantity must be positive, got ";
  Explanation e = Explain("ValueError: " + crafted + "1");
  EXPECT_FALSE(e.matches.empty());
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 10.0);
}

}  // namespace
}  // namespace errdex
