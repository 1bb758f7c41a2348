// Tests of error identity (src/catalog/error_id.h, docs/catalog.md): the id is 16 lowercase hex digits,
// a pure function of (repository, type, normalized template), plus (path, function) for anchored sites.
#include "catalog/error_id.h"

#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>

namespace errdex {
namespace {

// The strings an identity views live in the test's locals, which outlive every ErrorId() call.
struct Fields {
  std::string repo = "acme/shop";
  std::string type = "shop.errors.ConfigError";
  std::optional<std::string> normalized = std::string("missing key {} in {}");
  bool anchored = false;
  std::string path = "shop/config.py";
  std::string function = "Config.load";

  ErrorIdentity Identity() const {
    ErrorIdentity id;
    id.repo = repo;
    id.type = type;
    id.normalized_template = normalized;
    id.anchored = anchored;
    id.path = path;
    id.function = function;
    return id;
  }
  std::string Id() const { return ErrorId(Identity()); }
};

bool IsLowerHex16(const std::string& s) {
  if (s.size() != 16) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

TEST(ErrorIdTest, IsSixteenLowercaseHexDigits) {
  Fields f;
  EXPECT_TRUE(IsLowerHex16(f.Id())) << f.Id();
  // A bare `raise`: no type, no template, anchored.
  Fields bare;
  bare.type.clear();
  bare.normalized.reset();
  bare.anchored = true;
  EXPECT_TRUE(IsLowerHex16(bare.Id())) << bare.Id();
  // Everything empty still makes a well-formed id.
  EXPECT_TRUE(IsLowerHex16(ErrorId(ErrorIdentity{})));
  // Many different identities: always 16 lowercase hex digits, never colliding.
  std::set<std::string> ids;
  for (int i = 0; i < 2000; ++i) {
    Fields g;
    g.normalized = "message " + std::to_string(i) + " {}";
    const std::string id = g.Id();
    ASSERT_TRUE(IsLowerHex16(id)) << id;
    ids.insert(id);
  }
  EXPECT_EQ(ids.size(), 2000u);
}

TEST(ErrorIdTest, StableForTheSameIdentity) {
  Fields a, b;
  EXPECT_EQ(a.Id(), a.Id());
  EXPECT_EQ(a.Id(), b.Id());
}

TEST(ErrorIdTest, DependsOnContentNotOnTheStringObjects) {
  // The same content held by different std::string objects (built differently, different buffers)
  // gives the same id: only the bytes the string_views show count.
  Fields a;
  Fields b;
  b.repo = std::string("acme/") + "shop";
  b.type = std::string("shop.errors.") + std::string("ConfigError");
  b.normalized = std::string("missing key {} ") + "in {}";
  b.path.reserve(1000);
  b.path = std::string("shop/") + "config.py";
  ASSERT_NE(static_cast<const void*>(a.repo.data()), static_cast<const void*>(b.repo.data()));
  EXPECT_EQ(a.Id(), b.Id());

  // The identity copies the optional template: changing the local afterwards does not change it.
  Fields c;
  ErrorIdentity identity = c.Identity();
  const std::string before = ErrorId(identity);
  c.normalized = "something else";
  EXPECT_EQ(ErrorId(identity), before);
  EXPECT_EQ(before, a.Id());
}

TEST(ErrorIdTest, DiffersWhenRepoTypeOrTemplateDiffer) {
  const std::string base = Fields().Id();
  Fields repo;
  repo.repo = "acme/shop2";
  Fields type;
  type.type = "shop.errors.OtherError";
  Fields templ;
  templ.normalized = "missing key {} in {} (again)";
  Fields unresolved;  // the same class written differently is a different key
  unresolved.type = "errors.ConfigError";
  EXPECT_NE(repo.Id(), base);
  EXPECT_NE(type.Id(), base);
  EXPECT_NE(templ.Id(), base);
  EXPECT_NE(unresolved.Id(), base);
  std::set<std::string> all = {base, repo.Id(), type.Id(), templ.Id(), unresolved.Id()};
  EXPECT_EQ(all.size(), 5u);
}

TEST(ErrorIdTest, FieldBoundariesMatter) {
  // Moving bytes from one field to the next must not give the same key.
  Fields a, b;
  a.repo = "acme/sho";
  a.type = "pValueError";
  b.repo = "acme/shop";
  b.type = "ValueError";
  EXPECT_NE(a.Id(), b.Id());
  Fields c, d;
  c.type = "ValueError";
  c.normalized = "x";
  d.type = "ValueErrorx";
  d.normalized = "";
  EXPECT_NE(c.Id(), d.Id());
}

TEST(ErrorIdTest, NullTemplateDiffersFromEmptyTemplate) {
  Fields none, empty, dash, t;
  none.normalized.reset();
  empty.normalized = "";
  dash.normalized = "-";  // the marker byte of a null template must not collide with a template
  t.normalized = "t";
  EXPECT_NE(none.Id(), empty.Id());
  EXPECT_NE(none.Id(), dash.Id());
  EXPECT_NE(none.Id(), t.Id());
  EXPECT_NE(empty.Id(), dash.Id());
  EXPECT_NE(empty.Id(), t.Id());
}

TEST(ErrorIdTest, UnanchoredIgnoresPathAndFunction) {
  // The same message raised from two places is one error.
  Fields a, b;
  b.path = "shop/other.py";
  b.function = "<module>";
  EXPECT_EQ(a.Id(), b.Id());
}

TEST(ErrorIdTest, AnchoredIdentitiesDifferByPathAndFunction) {
  Fields a;
  a.type = "e";
  a.normalized.reset();
  a.anchored = true;
  Fields same = a;
  Fields other_path = a;
  other_path.path = "shop/cart.py";
  Fields other_function = a;
  other_function.function = "Config.save";
  Fields swapped = a;  // path and function contents moved across the boundary
  swapped.path = "shop/config.pyC";
  swapped.function = "onfig.load";
  EXPECT_EQ(a.Id(), same.Id());
  EXPECT_NE(a.Id(), other_path.Id());
  EXPECT_NE(a.Id(), other_function.Id());
  EXPECT_NE(a.Id(), swapped.Id());
  EXPECT_NE(other_path.Id(), other_function.Id());

  // Anchoring changes the identity even where path and function are the same.
  Fields unanchored = a;
  unanchored.anchored = false;
  EXPECT_NE(a.Id(), unanchored.Id());
}

}  // namespace
}  // namespace errdex
