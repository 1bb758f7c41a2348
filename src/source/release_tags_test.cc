#include "source/release_tags.h"

#include <gtest/gtest.h>

#include "testing/git_test_util.h"
#include "testing/temp_dir.h"

namespace errdex {
namespace {

using testing_util::Git;
using testing_util::TempDir;
using testing_util::WriteFile;

class ReleaseRepo {
 public:
  ReleaseRepo() {
    Git(tmp_.path(), "init -q");
    Commit("1.0", "2024-01-01T00:00:00Z", {"v1.0", "not-a-version"});
    Commit("1.1", "2024-02-01T00:00:00Z", {"1.1.0", "v1.1"});  // two names of one commit
    Commit("rc", "2024-03-01T00:00:00Z", {"2.0.0rc1"});
    Commit("2.0", "2024-04-01T00:00:00Z", {"2.0.0"});
    head_ = Commit("head", "2024-05-01T00:00:00Z", {"v2.1"});
    // A release made later on a branch of its own: newer than HEAD, not before it.
    Git(tmp_.path(), "checkout -q -b later");
    Commit("later", "2024-06-01T00:00:00Z", {"3.0"});
    Git(tmp_.path(), "checkout -q main");
  }
  std::string Commit(const std::string& text, const std::string& date, const std::vector<std::string>& tags) {
    WriteFile(tmp_ / "f.py", "x = '" + text + "'\n");
    Git(tmp_.path(), "add -A && GIT_COMMITTER_DATE=" + date + " GIT_AUTHOR_DATE=" + date + " git commit -qm " + text);
    for (const std::string& tag : tags) Git(tmp_.path(), "tag -a -m x " + tag);
    return Git(tmp_.path(), "rev-parse HEAD");
  }
  const std::string& dir() const { return tmp_.path(); }
  const std::string& head() const { return head_; }

 private:
  TempDir tmp_;
  std::string head_;
};

std::vector<std::string> Names(const std::vector<ReleaseTag>& tags) {
  std::vector<std::string> out;
  for (const ReleaseTag& t : tags) out.push_back(t.name);
  return out;
}

TEST(SelectReleaseTagsTest, NewestReleasesOlderThanTheRevision) {
  ReleaseRepo repo;
  std::vector<ReleaseTag> tags;
  ReleaseTag rev;
  std::string error;
  ASSERT_TRUE(SelectReleaseTags(repo.dir(), "HEAD", 10, false, &tags, &rev, &error)) << error;
  EXPECT_EQ(rev.commit, repo.head());
  EXPECT_EQ(Names(tags), (std::vector<std::string>{"2.0.0", "1.1.0", "v1.0"}));
  ASSERT_TRUE(SelectReleaseTags(repo.dir(), "HEAD", 2, false, &tags, &rev, &error)) << error;
  EXPECT_EQ(Names(tags), (std::vector<std::string>{"2.0.0", "1.1.0"}));
  ASSERT_TRUE(SelectReleaseTags(repo.dir(), "HEAD", 10, true, &tags, &rev, &error)) << error;
  EXPECT_EQ(Names(tags), (std::vector<std::string>{"2.0.0", "2.0.0rc1", "1.1.0", "v1.0"}));
  ASSERT_TRUE(SelectReleaseTags(repo.dir(), "2.0.0", 10, false, &tags, &rev, &error)) << error;
  EXPECT_EQ(Names(tags), (std::vector<std::string>{"1.1.0", "v1.0"}));
  EXPECT_EQ(rev.version.numbers, (std::vector<int64_t>{2, 0, 0}));
  ASSERT_TRUE(SelectReleaseTags(repo.dir(), "later", 1, false, &tags, &rev, &error)) << error;
  EXPECT_EQ(Names(tags), (std::vector<std::string>{"v2.1"}));
  ASSERT_TRUE(SelectReleaseTags(repo.dir(), "HEAD", 0, false, &tags, &rev, &error)) << error;
  EXPECT_TRUE(tags.empty());
}

TEST(SelectReleaseTagsTest, BadInputFailsWithAMessage) {
  ReleaseRepo repo;
  TempDir plain;
  std::vector<ReleaseTag> tags;
  ReleaseTag rev;
  std::string error;
  EXPECT_FALSE(SelectReleaseTags(repo.dir(), "no-such-rev", 3, false, &tags, &rev, &error));
  EXPECT_NE(error.find("unknown revision"), std::string::npos) << error;
  EXPECT_FALSE(SelectReleaseTags(plain.path(), "HEAD", 3, false, &tags, &rev, &error));
  EXPECT_NE(error.find("cannot open git repository"), std::string::npos) << error;
}

}  // namespace
}  // namespace errdex
