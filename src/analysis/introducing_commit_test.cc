#include "analysis/introducing_commit.h"

#include <git2.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "testing/git_test_util.h"
#include "testing/temp_dir.h"
#include "testing/test_extractor.h"

namespace errdex {
namespace {

using namespace testing_util;
namespace fs = std::filesystem;

// A fixture repository in a temporary directory, committed to with fixed dates.
class HistoryRepo {
 public:
  HistoryRepo() : dir_(tmp_ / "repo") {
    fs::create_directories(dir_);
    Git(dir_, "init -q");
  }
  const std::string& dir() const { return dir_; }
  // A path beside the repository, removed with it.
  std::string Beside(const std::string& name) const { return tmp_ / name; }

  void Write(const std::string& path, const std::string& content) { WriteFile(dir_ + "/" + path, content); }
  void Remove(const std::string& path) { Git(dir_, "rm -q " + ShellQuote(path)); }

  // Commits everything with committer date 2020-01-DAY 10:00:00 UTC; returns the commit's id.
  std::string Commit(const std::string& message, int day, const std::string& author = "t") {
    char date[64];
    std::snprintf(date, sizeof date, "2020-01-%02dT10:00:00Z", day);
    Git(dir_, "add -A && GIT_COMMITTER_DATE=" + std::string(date) + " GIT_AUTHOR_DATE=" + date +
                  " GIT_AUTHOR_NAME=" + ShellQuote(author) + " git commit -q --allow-empty -m " + ShellQuote(message));
    return Git(dir_, "rev-parse HEAD");
  }

 private:
  TempDir tmp_;
  std::string dir_;
};

std::vector<std::optional<IntroducingCommit>> Find(const HistoryRepo& repo, const std::vector<HistoryNeedle>& needles,
                                                   HistoryLimits limits = {}, HistoryStats* stats = nullptr,
                                                   const std::string& rev = "HEAD") {
  std::string error;
  auto out = FindIntroducingCommits(repo.dir(), rev, needles, limits, &error, stats);
  EXPECT_EQ(error, "");
  EXPECT_EQ(out.size(), needles.size());
  return out;
}

TEST(IntroducingCommitTest, FindsTheCommitThatAddedEachText) {
  HistoryRepo repo;
  repo.Write("pkg/a.py", "raise ValueError('first message here')\n");
  const std::string c1 = repo.Commit("Add a.py\n\nWith a body.", 1, "Alice Example");
  repo.Write("pkg/a.py", "raise ValueError('first message here')\nraise KeyError('second message here')\n");
  const std::string c2 = repo.Commit("Second message", 2, "Bob");
  repo.Write("other/b.py", "x = 1\n");
  repo.Commit("Unrelated file", 3);
  repo.Write("pkg/a.py", "# comment\nraise ValueError('first message here')\nraise KeyError('second message here')\n");
  repo.Commit("Touch a.py without changing the messages", 4);

  const auto out = Find(repo, {{"pkg/a.py", "first message here"}, {"pkg/a.py", "second message here"}});
  ASSERT_TRUE(out[0].has_value());
  EXPECT_EQ(out[0]->commit, c1);
  EXPECT_EQ(out[0]->committed_at, "2020-01-01T10:00:00Z");
  EXPECT_EQ(out[0]->author, "Alice Example");
  EXPECT_EQ(out[0]->summary, "Add a.py");
  EXPECT_FALSE(out[0]->bounded);  // a root commit introduced it
  ASSERT_TRUE(out[1].has_value());
  EXPECT_EQ(out[1]->commit, c2);
  EXPECT_EQ(out[1]->committed_at, "2020-01-02T10:00:00Z");
  EXPECT_EQ(out[1]->author, "Bob");
  EXPECT_EQ(out[1]->summary, "Second message");
  EXPECT_FALSE(out[1]->bounded);
}

TEST(IntroducingCommitTest, AbsentTextsPathsAndEmptyNeedlesGiveNothing) {
  HistoryRepo repo;
  repo.Write("pkg/a.py", "raise ValueError('present text')\n");
  repo.Commit("Add", 1);
  const auto out = Find(repo, {{"pkg/a.py", "absent text"},
                               {"pkg/missing.py", "present text"},
                               {"pkg", "present text"},
                               {"pkg/a.py", ""},
                               {"/pkg/a.py", "present text"},
                               {"pkg/../pkg/a.py", "present text"},
                               {"pkg/a.py", "present text"}});
  for (size_t i = 0; i + 1 < out.size(); ++i) EXPECT_FALSE(out[i].has_value()) << i;
  EXPECT_TRUE(out.back().has_value());
}

TEST(IntroducingCommitTest, TheRunMustBeUnbroken) {
  HistoryRepo repo;
  repo.Write("a.py", "msg = 'come and go'\n");
  repo.Commit("Add", 1);
  repo.Write("a.py", "msg = 'gone'\n");
  repo.Commit("Remove the text", 2);
  repo.Write("a.py", "msg = 'come and go'\n");
  const std::string c3 = repo.Commit("Bring it back", 3);
  const auto out = Find(repo, {{"a.py", "come and go"}});
  ASSERT_TRUE(out[0].has_value());
  EXPECT_EQ(out[0]->commit, c3);
  EXPECT_FALSE(out[0]->bounded);
}

TEST(IntroducingCommitTest, RenamesAreFollowed) {
  HistoryRepo repo;
  repo.Write("old/a.py", "msg = 'moved text'\nother = 'a line that makes the file similar enough'\n");
  const std::string added = repo.Commit("Add", 1);
  repo.Write("old/a.py",
             "msg = 'moved text'\nother = 'a line that makes the file similar enough'\nlate = 'late text'\n");
  const std::string late = repo.Commit("Add a late text", 2);
  Git(repo.dir(), "mv old new");
  repo.Write("new/a.py",
             "msg = 'moved text'\nother = 'a line that makes the file similar enough'\n"
             "late = 'late text'\nnew = 'text of the move'\n");
  const std::string moved = repo.Commit("Move old/ to new/, with an edit", 3);
  repo.Write("unrelated.py", "x = 1\n");
  repo.Commit("Unrelated", 4);
  repo.Write("fresh.py", "msg = 'moved text'\n");  // a new file with the same text is no move
  const std::string fresh = repo.Commit("Fresh", 5);
  HistoryStats stats;
  const auto out = Find(repo,
                        {{"new/a.py", "moved text"},
                         {"new/a.py", "late text"},
                         {"new/a.py", "text of the move"},
                         {"fresh.py", "moved text"}},
                        HistoryLimits{}, &stats);
  ASSERT_EQ(out.size(), 4u);
  for (const auto& o : out) ASSERT_TRUE(o.has_value());
  EXPECT_EQ(out[0]->commit, added);  // older than the move: followed to old/a.py
  EXPECT_EQ(out[1]->commit, late);
  EXPECT_EQ(out[2]->commit, moved);
  EXPECT_EQ(out[3]->commit, fresh);
  EXPECT_FALSE(out[0]->bounded);
  EXPECT_EQ(stats.renames_followed, 1);
}

TEST(IntroducingCommitTest, AFileReplacedByADirectoryCountsAsIntroduced) {
  HistoryRepo repo;
  repo.Write("pkg", "not a directory yet\n");
  repo.Commit("pkg is a file", 1);
  repo.Remove("pkg");
  repo.Write("pkg/a.py", "msg = 'under pkg'\n");
  const std::string c2 = repo.Commit("pkg is a directory", 2);
  const auto out = Find(repo, {{"pkg/a.py", "under pkg"}});
  ASSERT_TRUE(out[0].has_value());
  EXPECT_EQ(out[0]->commit, c2);
}

TEST(IntroducingCommitTest, MaxCommitsBoundsTheWalk) {
  HistoryRepo repo;
  repo.Write("a.py", "msg = 'very old text'\n");
  const std::string c1 = repo.Commit("Add", 1);
  repo.Write("a.py", "msg = 'very old text'\nnew = 'newer text'\n");
  const std::string c2 = repo.Commit("Newer", 2);
  repo.Write("b.py", "x = 1\n");
  repo.Commit("b", 3);
  repo.Write("b.py", "x = 2\n");
  const std::string c4 = repo.Commit("b again", 4);
  const std::vector<HistoryNeedle> needles = {{"a.py", "very old text"}, {"a.py", "newer text"}};

  // Two steps (c4→c3, c3→c2) reach c2 without comparing it with its parent: both texts are older.
  HistoryLimits limits;
  limits.max_commits = 2;
  HistoryStats stats;
  const auto out = Find(repo, needles, limits, &stats);
  for (const auto& r : out) {
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->commit, c2);
    EXPECT_TRUE(r->bounded);
  }
  EXPECT_EQ(stats.commits_walked, 2);
  EXPECT_EQ(stats.bounded, 2);
  EXPECT_EQ(stats.resolved, 0);

  // Three steps reach the root commit, which introduced what it holds: nothing is bounded.
  limits.max_commits = 3;
  const auto more = Find(repo, needles, limits, &stats);
  ASSERT_TRUE(more[0].has_value());
  EXPECT_EQ(more[0]->commit, c1);
  EXPECT_FALSE(more[0]->bounded);
  ASSERT_TRUE(more[1].has_value());
  EXPECT_EQ(more[1]->commit, c2);
  EXPECT_FALSE(more[1]->bounded);
  EXPECT_EQ(stats.resolved, 2);

  limits.max_commits = 0;
  const auto none = Find(repo, {{"a.py", "newer text"}}, limits);
  ASSERT_TRUE(none[0].has_value());
  EXPECT_EQ(none[0]->commit, c4);
  EXPECT_TRUE(none[0]->bounded);
}

TEST(IntroducingCommitTest, ZeroSecondsBoundsTheWalk) {
  HistoryRepo repo;
  repo.Write("a.py", "msg = 'text'\n");
  repo.Commit("Add", 1);
  repo.Write("b.py", "x = 1\n");
  const std::string head = repo.Commit("b", 2);
  HistoryLimits limits;
  limits.max_seconds = -1;
  const auto out = Find(repo, {{"a.py", "text"}}, limits);
  ASSERT_TRUE(out[0].has_value());
  EXPECT_EQ(out[0]->commit, head);
  EXPECT_TRUE(out[0]->bounded);
}

TEST(IntroducingCommitTest, TextFromAMergedBranchIsAttributedToTheMerge) {
  HistoryRepo repo;
  repo.Write("a.py", "base = 'base text'\n");
  repo.Commit("Base", 1);
  Git(repo.dir(), "checkout -q -b side");
  repo.Write("a.py", "base = 'base text'\nside = 'side text'\n");
  repo.Commit("Side change", 2);
  Git(repo.dir(), "checkout -q main");
  repo.Write("c.py", "x = 1\n");
  repo.Commit("Main change", 3);
  Git(repo.dir(),
      "version >/dev/null && GIT_COMMITTER_DATE=2020-01-04T10:00:00Z git merge -q --no-ff -m 'Merge side' side");
  const std::string merge = Git(repo.dir(), "rev-parse HEAD");
  const auto out = Find(repo, {{"a.py", "side text"}, {"a.py", "base text"}});
  ASSERT_TRUE(out[0].has_value());
  EXPECT_EQ(out[0]->commit, merge);
  EXPECT_EQ(out[0]->summary, "Merge side");
  ASSERT_TRUE(out[1].has_value());
  EXPECT_EQ(out[1]->summary, "Base");
}

TEST(IntroducingCommitTest, OnlyChangedSubtreesAreEnteredAndBlobsReadOncePerStep) {
  HistoryRepo repo;
  repo.Write("pkg/deep/a.py", "one = 'message one'\ntwo = 'message two'\nthree = 'message three'\n");
  const std::string c1 = repo.Commit("Add", 1);
  for (int day = 2; day <= 11; ++day) {
    repo.Write("elsewhere/b.py", "x = " + std::to_string(day) + "\n");
    repo.Commit("elsewhere " + std::to_string(day), day);
  }
  repo.Write("pkg/deep/a.py", "one = 'message one'\ntwo = 'message two'\nthree = 'message three'\n# edit\n");
  repo.Commit("Edit a.py", 12);
  HistoryStats stats;
  const auto out = Find(repo,
                        {{"pkg/deep/a.py", "message one"},
                         {"pkg/deep/a.py", "message two"},
                         {"pkg/deep/a.py", "message three"},
                         {"pkg/deep/a.py", "message two"}},
                        {}, &stats);
  for (const auto& r : out) {
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->commit, c1);
  }
  EXPECT_EQ(stats.commits_walked, 11);
  EXPECT_EQ(stats.blobs_read, 1);  // only the parent of "Edit a.py": the other steps never reach pkg/
  EXPECT_EQ(stats.resolved, 4);
}

TEST(IntroducingCommitTest, RevisionsAndSummaries) {
  HistoryRepo repo;
  repo.Write("a.py", "msg = 'text'\n");
  const std::string long_line(300, 'x');
  const std::string c1 = repo.Commit("\n" + long_line + "\nbody", 1);
  repo.Write("a.py", "msg = 'text'\nnew = 'new text'\n");
  repo.Commit("Second", 2);
  Git(repo.dir(), "tag -a -m tag v1 HEAD~1");

  const auto at_tag = Find(repo, {{"a.py", "text"}, {"a.py", "new text"}}, {}, nullptr, "v1");
  ASSERT_TRUE(at_tag[0].has_value());
  EXPECT_EQ(at_tag[0]->commit, c1);
  EXPECT_EQ(at_tag[0]->summary.size(), 200u);
  EXPECT_EQ(at_tag[0]->summary.substr(197), "…");
  EXPECT_FALSE(at_tag[1].has_value());  // not there at v1

  std::string error;
  EXPECT_TRUE(FindIntroducingCommits(repo.dir(), "no-such-rev", {{"a.py", "text"}}, {}, &error).empty());
  EXPECT_NE(error.find("unknown revision 'no-such-rev'"), std::string::npos) << error;
  error.clear();
  EXPECT_TRUE(FindIntroducingCommits(repo.dir() + "/nope", "HEAD", {{"a.py", "text"}}, {}, &error).empty());
  EXPECT_NE(error.find("cannot open git repository"), std::string::npos) << error;
}

TEST(IntroducingCommitTest, WorksOnAnOpenRepositoryAndABareClone) {
  HistoryRepo repo;
  repo.Write("a.py", "msg = 'text'\n");
  const std::string c1 = repo.Commit("Add", 1);
  repo.Write("b.py", "x = 1\n");
  repo.Commit("b", 2);
  const std::string bare = repo.Beside("bare.git");
  Git(repo.dir(), "clone -q --bare . " + ShellQuote(bare));

  git_libgit2_init();
  git_repository* raw = nullptr;
  ASSERT_EQ(git_repository_open_bare(&raw, bare.c_str()), 0);
  std::string error;
  const auto out = FindIntroducingCommits(raw, "HEAD", {{"a.py", "text"}}, {}, &error);
  git_repository_free(raw);
  git_libgit2_shutdown();
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(out[0].has_value()) << error;
  EXPECT_EQ(out[0]->commit, c1);
}

TEST(IntroducingCommitTest, AShallowHistoryIsBounded) {
  HistoryRepo repo;
  repo.Write("a.py", "msg = 'text'\n");
  repo.Commit("Add", 1);
  repo.Write("b.py", "x = 1\n");
  repo.Commit("b", 2);
  repo.Write("b.py", "x = 2\n");
  repo.Commit("b again", 3);
  const std::string shallow = repo.Beside("shallow");
  Git(repo.dir(), "clone -q --depth 2 file://" + ShellQuote(repo.dir()) + " " + ShellQuote(shallow));
  std::string error;
  const auto out = FindIntroducingCommits(shallow, "HEAD", {{"a.py", "text"}}, {}, &error);
  const std::string second = Git(shallow, "rev-parse HEAD~1");
  ASSERT_EQ(out.size(), 1u) << error;
  ASSERT_TRUE(out[0].has_value());
  EXPECT_EQ(out[0]->commit, second);
  EXPECT_TRUE(out[0]->bounded);
}

// A measurement on a real history, run by hand:
//   ERRDEX_HISTORY_BENCH_REPO=/work/.mirror/Lightning-AI+pytorch-lightning/repo
//   ./build/errdex_tests --gtest_also_run_disabled_tests --gtest_filter='*DISABLED_Benchmark*'
// Needles: for every site with a template in the *.py files under src/ (ERRDEX_HISTORY_BENCH_PREFIX to
// change), the longest literal piece of the template between placeholders, cut to its longest prefix or
// suffix found in the file (a message may be written as several literals), when it is >= 12 bytes.
TEST(IntroducingCommitTest, DISABLED_Benchmark) {
  const char* repo_path = std::getenv("ERRDEX_HISTORY_BENCH_REPO");
  if (repo_path == nullptr) GTEST_SKIP() << "set ERRDEX_HISTORY_BENCH_REPO to a git dir";
  const char* prefix_env = std::getenv("ERRDEX_HISTORY_BENCH_PREFIX");
  const std::string prefix = prefix_env != nullptr ? prefix_env : "src/";
  git_libgit2_init();
  git_repository* repo = nullptr;
  ASSERT_EQ(git_repository_open_ext(&repo, repo_path, GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr), 0);
  git_object* tree_object = nullptr;
  ASSERT_EQ(git_revparse_single(&tree_object, repo, "HEAD^{tree}"), 0);
  std::vector<HistoryNeedle> needles;
  std::set<std::string> files;
  struct State {
    git_repository* repo;
    std::string prefix;
    std::vector<HistoryNeedle>* needles;
    std::set<std::string>* files;
  } state{repo, prefix, &needles, &files};
  git_tree_walk(
      reinterpret_cast<git_tree*>(tree_object), GIT_TREEWALK_PRE,
      [](const char* root, const git_tree_entry* entry, void* payload) -> int {
        auto* s = static_cast<State*>(payload);
        const std::string path = std::string(root) + git_tree_entry_name(entry);
        if (git_tree_entry_type(entry) != GIT_OBJECT_BLOB || path.rfind(s->prefix, 0) != 0 || path.size() < 3 ||
            path.substr(path.size() - 3) != ".py") {
          return 0;
        }
        git_blob* blob = nullptr;
        if (git_blob_lookup(&blob, s->repo, git_tree_entry_id(entry)) != 0) return 0;
        const std::string content(static_cast<const char*>(git_blob_rawcontent(blob)),
                                  static_cast<size_t>(git_blob_rawsize(blob)));
        git_blob_free(blob);
        const FileFacts facts = TestExtractor().Extract(content, ExtractOptions{});
        for (const Site& site : facts.sites) {
          if (!site.template_text) continue;
          std::string best;
          std::string piece;
          int depth = 0;
          for (char c : *site.template_text + "{") {
            if (c == '{') {
              if (depth == 0 && piece.size() > best.size()) best = piece;
              piece.clear();
              ++depth;
            } else if (c == '}') {
              if (depth > 0) --depth;
            } else if (depth == 0) {
              piece += c;
            }
          }
          // The piece as written may span two source literals ("abc " "def"): keep its longest prefix
          // or suffix that is in the file (presence of a prefix is monotone in its length).
          auto longest = [&content](const std::string& text, bool from_start) {
            size_t lo = 0, hi = text.size();
            while (lo < hi) {
              const size_t mid = (lo + hi + 1) / 2;
              const std::string part = from_start ? text.substr(0, mid) : text.substr(text.size() - mid);
              if (content.find(part) != std::string::npos) {
                lo = mid;
              } else {
                hi = mid - 1;
              }
            }
            return from_start ? text.substr(0, lo) : text.substr(text.size() - lo);
          };
          std::string head = longest(best, true);
          std::string tail = longest(best, false);
          std::string needle = head.size() >= tail.size() ? head : tail;
          if (needle.size() >= 12) {
            s->needles->push_back({path, needle});
            s->files->insert(path);
          }
        }
        return 0;
      },
      &state);
  git_object_free(tree_object);
  const auto started = std::chrono::steady_clock::now();
  HistoryStats stats;
  std::string error;
  HistoryLimits limits;
  if (const char* max = std::getenv("ERRDEX_HISTORY_BENCH_MAX_COMMITS")) limits.max_commits = std::atoi(max);
  const auto out = FindIntroducingCommits(repo, "HEAD", needles, limits, &error, &stats);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  git_repository_free(repo);
  git_libgit2_shutdown();
  ASSERT_EQ(out.size(), needles.size()) << error;
  std::set<std::string> commits;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i]) commits.insert(out[i]->commit);
    if (i % 97 == 0 && out[i]) {  // a few samples, to check by hand against git
      std::printf("sample %s\t%s\t%s%s\n", needles[i].path.c_str(), needles[i].text.c_str(), out[i]->commit.c_str(),
                  out[i]->bounded ? " (bounded)" : "");
    }
  }
  std::printf(
      "needles %zu in %zu files: %.3f s, %d commits walked, %d blobs read; resolved %d, bounded %d, absent %d, "
      "%zu distinct commits\n",
      needles.size(), files.size(), seconds, stats.commits_walked, stats.blobs_read, stats.resolved, stats.bounded,
      stats.absent, commits.size());
}

}  // namespace
}  // namespace errdex
