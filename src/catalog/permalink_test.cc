// Tests of forge permalinks (src/catalog/permalink.h).
#include "catalog/permalink.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace errdex {
namespace {

const std::string kSha = "0123456789abcdef0123456789abcdef01234567";

std::string Link(const std::string& url, const std::string& path, int line) {
  return Permalink(url, kSha, path, line).value_or("<null>");
}

TEST(PermalinkTest, GitHub) {
  EXPECT_EQ(Link("https://github.com/acme/shop", "shop/errors.py", 12),
            "https://github.com/acme/shop/blob/" + kSha + "/shop/errors.py#L12");
}

TEST(PermalinkTest, GitLabUsesDashBlob) {
  EXPECT_EQ(Link("https://gitlab.com/group/sub/shop", "a/b.py", 7),
            "https://gitlab.com/group/sub/shop/-/blob/" + kSha + "/a/b.py#L7");
  // A self-hosted GitLab named gitlab.*.
  EXPECT_EQ(Link("https://gitlab.example.org/team/shop", "b.py", 1),
            "https://gitlab.example.org/team/shop/-/blob/" + kSha + "/b.py#L1");
}

TEST(PermalinkTest, BitbucketUsesSrcAndLines) {
  EXPECT_EQ(Link("https://bitbucket.org/acme/shop", "shop/cart.py", 300),
            "https://bitbucket.org/acme/shop/src/" + kSha + "/shop/cart.py#lines-300");
}

TEST(PermalinkTest, UnknownHostUsesTheGitHubForm) {
  EXPECT_EQ(Link("https://codeberg.org/acme/shop", "x.py", 3),
            "https://codeberg.org/acme/shop/blob/" + kSha + "/x.py#L3");
  EXPECT_EQ(Link("https://git.example.com/acme/shop", "x.py", 3),
            "https://git.example.com/acme/shop/blob/" + kSha + "/x.py#L3");
  // A host that merely mentions gitlab or bitbucket elsewhere is not one.
  EXPECT_EQ(Link("https://example.com/gitlab.mirror/shop", "x.py", 3),
            "https://example.com/gitlab.mirror/shop/blob/" + kSha + "/x.py#L3");
}

TEST(PermalinkTest, TrailingSlashesAreDropped) {
  EXPECT_EQ(Link("https://github.com/acme/shop/", "a.py", 1), "https://github.com/acme/shop/blob/" + kSha + "/a.py#L1");
  EXPECT_EQ(Link("https://github.com/acme/shop//", "a.py", 1),
            "https://github.com/acme/shop/blob/" + kSha + "/a.py#L1");
  EXPECT_EQ(Link("https://gitlab.com/acme/shop/", "a.py", 1),
            "https://gitlab.com/acme/shop/-/blob/" + kSha + "/a.py#L1");
  EXPECT_EQ(Link("https://bitbucket.org/acme/shop/", "a.py", 1),
            "https://bitbucket.org/acme/shop/src/" + kSha + "/a.py#lines-1");
}

TEST(PermalinkTest, NullWithoutCommit) {
  EXPECT_EQ(Permalink(std::string("https://github.com/acme/shop"), std::nullopt, "a.py", 1), std::nullopt);
}

TEST(PermalinkTest, NullWithoutUrl) {
  EXPECT_EQ(Permalink(std::nullopt, kSha, "a.py", 1), std::nullopt);
  EXPECT_EQ(Permalink(std::string(), kSha, "a.py", 1), std::nullopt);
}

TEST(PermalinkTest, PathsArePercentEncoded) {
  const std::string base = "https://github.com/acme/shop/blob/" + kSha + "/";
  EXPECT_EQ(Link("https://github.com/acme/shop", "my dir/a file.py", 2), base + "my%20dir/a%20file.py#L2");
  EXPECT_EQ(Link("https://github.com/acme/shop", "c#/x.py", 2), base + "c%23/x.py#L2");
  EXPECT_EQ(Link("https://github.com/acme/shop", "what?.py", 2), base + "what%3F.py#L2");
  EXPECT_EQ(Link("https://github.com/acme/shop", "100%.py", 2), base + "100%25.py#L2");
  // Non-ASCII: each UTF-8 byte, uppercase hex.
  EXPECT_EQ(Link("https://github.com/acme/shop", "caf\xC3\xA9/\xE6\x97\xA5.py", 2), base + "caf%C3%A9/%E6%97%A5.py#L2");
  // Unreserved characters and slashes stay as they are.
  EXPECT_EQ(Link("https://github.com/acme/shop", "a-b_c.d~e/F9.py", 2), base + "a-b_c.d~e/F9.py#L2");
  // The same encoding for the other forges.
  EXPECT_EQ(Link("https://bitbucket.org/acme/shop", "my dir/#?.py", 4),
            "https://bitbucket.org/acme/shop/src/" + kSha + "/my%20dir/%23%3F.py#lines-4");
  EXPECT_EQ(Link("https://gitlab.com/acme/shop", "my dir/#?.py", 4),
            "https://gitlab.com/acme/shop/-/blob/" + kSha + "/my%20dir/%23%3F.py#L4");
}

}  // namespace
}  // namespace errdex

namespace errdex {
namespace {

TEST(PermalinkTest, OnlyWebUrlsMakeLinks) {
  const std::optional<std::string> sha = "0123456789abcdef0123456789abcdef01234567";
  EXPECT_EQ(Permalink(std::string("javascript:alert(1)//"), sha, "a.py", 1), std::nullopt);
  EXPECT_EQ(Permalink(std::string("file:///etc"), sha, "a.py", 1), std::nullopt);
  EXPECT_EQ(Permalink(std::string("https://example.com/a b"), sha, "a.py", 1), std::nullopt);
  EXPECT_EQ(Permalink(std::string("https://example.com/\"onmouseover"), sha, "a.py", 1), std::nullopt);
  EXPECT_TRUE(Permalink(std::string("http://git.example.com/x/y"), sha, "a.py", 1).has_value());
}

}  // namespace
}  // namespace errdex
