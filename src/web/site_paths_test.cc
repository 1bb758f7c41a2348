// Tests of the site's paths and links (src/web/site_paths.h).
#include "web/site_paths.h"

#include <gtest/gtest.h>

#include <cctype>

namespace errdex::web {
namespace {

TEST(RepoSlugTest, PlainNamesStayReadable) {
  EXPECT_EQ(RepoSlug("Lightning-AI/pytorch-lightning"), "Lightning-AI/pytorch-lightning");
  EXPECT_EQ(RepoSlug("python/stdlib"), "python/stdlib");
  EXPECT_EQ(RepoSlug("socketio/socket.io"), "socketio/socket.io");
}

TEST(RepoSlugTest, EverythingElseIsEncodedAndRoundTrips) {
  const std::vector<std::string> names = {
      "evil/<b>x</b>", "a b/c\"d'e", "../../etc/passwd",          "./x",       "a//b",    "/abs", "trailing/", "", "..",
      "x/%41",         "ü/日本",     std::string("nul\0byte", 8), "a/.hidden", "a/b.html"};
  for (const std::string& name : names) {
    const std::string slug = RepoSlug(name);
    ASSERT_FALSE(slug.empty());
    for (char c : slug) {
      EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '%' ||
                  c == '/')
          << name;
    }
    // No component is empty, "." or "..", or starts with a dot.
    size_t start = 0;
    while (start <= slug.size()) {
      size_t end = slug.find('/', start);
      if (end == std::string::npos) end = slug.size();
      const std::string component = slug.substr(start, end - start);
      EXPECT_FALSE(component.empty()) << name;
      EXPECT_NE(component.front(), '.') << name;
      start = end + 1;
    }
    if (!name.empty()) {
      EXPECT_EQ(RepoNameFromSlug(slug), name) << slug;
    }
  }
  EXPECT_EQ(RepoSlug("evil/<b>x</b>"), "evil/%3Cb%3Ex%3C/b%3E");
  EXPECT_EQ(RepoSlug("../../etc"), "%2E./%2E./etc");
  EXPECT_EQ(RepoSlug("a//b"), "a%2F%2Fb");
}

TEST(RepoSlugTest, RejectsWhatIsNotASlug) {
  EXPECT_FALSE(RepoNameFromSlug(""));
  EXPECT_FALSE(RepoNameFromSlug("a//b"));
  EXPECT_FALSE(RepoNameFromSlug("a/"));
  EXPECT_FALSE(RepoNameFromSlug("../x"));
  EXPECT_FALSE(RepoNameFromSlug("a/<b>"));
  EXPECT_FALSE(RepoNameFromSlug("a/%4"));
  EXPECT_FALSE(RepoNameFromSlug("a/%zz"));
}

TEST(SitePathsTest, RootPrefixFollowsDepth) {
  EXPECT_EQ(RootPrefix("/"), "./");
  EXPECT_EQ(RootPrefix("/index.html"), "./");
  EXPECT_EQ(RootPrefix("/search"), "./");
  EXPECT_EQ(RootPrefix("/errors/0123456789abcdef"), "../");
  EXPECT_EQ(RootPrefix("/errors/0123456789abcdef.html"), "../");
  EXPECT_EQ(RootPrefix("/repos/o/n.html"), "../../");
  EXPECT_EQ(RootPrefix("/repos/o/n/page-2.html"), "../../../");
}

TEST(SitePathsTest, LinksAreRelativeAndEncoded) {
  EXPECT_EQ(ErrorHref("../", "0123456789abcdef"), "../errors/0123456789abcdef.html");
  EXPECT_EQ(ErrorJsonHref("../", "0123456789abcdef"), "../api/errors/0123456789abcdef.json");
  EXPECT_EQ(RepoHref("./", "acme/shop"), "./repos/acme/shop.html");
  EXPECT_EQ(RepoHref("./", "acme/shop", 3), "./repos/acme/shop/page-3.html");
  // The file name holds "%3C" literally; its URL holds "%253C".
  EXPECT_EQ(RepoPagePath("evil/<b>x</b>"), "repos/evil/%3Cb%3Ex%3C/b%3E.html");
  EXPECT_EQ(RepoHref("../", "evil/<b>x</b>"), "../repos/evil/%253Cb%253Ex%253C/b%253E.html");
  EXPECT_EQ(StaticHref("../../", "errdex.css"), "../../static/errdex.css");
  EXPECT_EQ(HomeHref("./"), "./index.html");
}

TEST(SitePathsTest, RepoRouteCandidates) {
  auto plain = RepoRouteCandidates("acme/shop");
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0], std::make_pair(std::string("acme/shop"), 1));
  auto paged = RepoRouteCandidates("acme/shop/page-12");
  ASSERT_EQ(paged.size(), 2u);
  EXPECT_EQ(paged[0], std::make_pair(std::string("acme/shop/page-12"), 1));
  EXPECT_EQ(paged[1], std::make_pair(std::string("acme/shop"), 12));
  EXPECT_EQ(RepoRouteCandidates("acme/shop/page-1").size(), 1u);
  EXPECT_EQ(RepoRouteCandidates("acme/shop/page-01").size(), 1u);
  EXPECT_EQ(RepoRouteCandidates("acme/shop/page-99999999999999").size(), 1u);
  auto hostile = RepoRouteCandidates("evil/%3Cb%3Ex%3C/b%3E");
  ASSERT_EQ(hostile.size(), 1u);
  EXPECT_EQ(hostile[0].first, "evil/<b>x</b>");
  EXPECT_TRUE(RepoRouteCandidates("a/<b>").empty());
}

TEST(SitePathsTest, ErrorIds) {
  EXPECT_TRUE(IsErrorId("0123456789abcdef"));
  EXPECT_FALSE(IsErrorId("0123456789ABCDEF"));
  EXPECT_FALSE(IsErrorId("0123456789abcde"));
  EXPECT_FALSE(IsErrorId("0123456789abcdef0"));
  EXPECT_FALSE(IsErrorId("../../etc/passwd"));
}

}  // namespace
TEST(SitePathsTest, DiffPathsNameBothRevisionsAndReadBack) {
  EXPECT_EQ(DiffPagePath("acme/fx", "v1.0", "2.0.0"), "repos/acme/fx/diff/v1.0..2.0.0.html");
  EXPECT_EQ(DiffJsonPath("acme/fx", "v1.0", "2.0.0"), "api/repos/acme/fx/diff/v1.0..2.0.0.json");
  // A tag with a slash stays one component; its '%' is %25 in a link.
  EXPECT_EQ(DiffPagePath("acme/fx", "release/1.0", "1.1"), "repos/acme/fx/diff/release%2F1.0..1.1.html");
  EXPECT_EQ(DiffHref("../", "acme/fx", "release/1.0", "1.1"), "../repos/acme/fx/diff/release%252F1.0..1.1.html");
  auto parts = ReadDiffRoute("acme/fx/diff/release%2F1.0..1.1");
  ASSERT_TRUE(parts.has_value());
  EXPECT_EQ(parts->name, "acme/fx");
  EXPECT_EQ(parts->from, "release/1.0");
  EXPECT_EQ(parts->to, "1.1");
  for (const char* bad : {"acme/fx/diff/1.0", "acme/fx/diff/1.0..", "acme/fx/diff/..1.0", "acme/fx/diff/1..2..3",
                          "acme/fx/1.0..1.1", "diff/1.0..1.1", "acme/fx/diff/1.0..%zz"}) {
    EXPECT_FALSE(ReadDiffRoute(bad).has_value()) << bad;
  }
}

}  // namespace errdex::web
