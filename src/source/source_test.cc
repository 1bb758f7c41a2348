#include "source/source.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "source/directory_source.h"
#include "source/remote_url.h"
#include "testing/git_test_util.h"

namespace errdex {
namespace {

using namespace testing_util;

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------------
// Helpers: listing and reading.

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string MakeTempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string templ = std::string(base != nullptr && base[0] != '\0' ? base : "/tmp") + "/errdex_source_test.XXXXXX";
  std::vector<char> buffer(templ.begin(), templ.end());
  buffer.push_back('\0');
  if (::mkdtemp(buffer.data()) == nullptr) return "";
  return fs::canonical(buffer.data()).string();
}

std::vector<std::string> Paths(const std::vector<SourceEntry>& files) {
  std::vector<std::string> out;
  for (const SourceEntry& f : files) out.push_back(f.path);
  return out;
}

std::vector<std::pair<std::string, std::string>> Pairs(const std::vector<SourceSkip>& skips) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const SourceSkip& s : skips) out.emplace_back(s.path, s.reason);
  return out;
}

struct Listing {
  std::unique_ptr<Source> source;
  std::vector<SourceEntry> files;
  std::vector<SourceSkip> skips;
};

Listing OpenAndList(const std::string& location, const std::string& rev) {
  Listing l;
  std::string error;
  l.source = Source::Open(location, rev, &error);
  EXPECT_NE(l.source, nullptr) << error;
  if (l.source == nullptr) return l;
  EXPECT_TRUE(l.source->List(&l.files, &l.skips, &error)) << error;
  return l;
}

const SourceEntry* Find(const std::vector<SourceEntry>& files, const std::string& path) {
  for (const SourceEntry& f : files) {
    if (f.path == path) return &f;
  }
  return nullptr;
}

bool IsHex40(const std::string& s) {
  return s.size() == 40 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// ---------------------------------------------------------------------------------------------------
// The fixture: one repository with history, its work tree with untracked extras, and a bare clone.

const std::string kCoreV1 = "def f():\n    raise ValueError('v1')\n";
const std::string kCoreV2 = "def f():\n    raise ValueError('v2')\n";
const std::string kBytes = std::string("a = 1\r\nb = '\xff\xfe'\n") + std::string("\0tail\n", 6);
const std::string kNonUtf8Name = "caf\xe9.py";
const std::string kNewlineName = "new\nline.py";

class SourceRepoTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = MakeTempDir();
    ASSERT_FALSE(tmp_.empty());
    work_ = tmp_ + "/work";
    bare_ = tmp_ + "/bare.git";
    outside_ = tmp_ + "/outside";
    fs::create_directories(work_);
    Git(work_, "init -q");

    WriteFile(work_ + "/pkg/__init__.py", "");
    WriteFile(work_ + "/pkg/core.py", kCoreV1);
    Git(work_, "add -A && git commit -q -m c1");
    Git(work_, "tag v1 && git tag -a v1-annotated -m 'annotated tag'");
    c1_ = Git(work_, "rev-parse HEAD");

    WriteFile(work_ + "/pkg/core.py", kCoreV2);
    Git(work_, "commit -q -am c2");
    c2_ = Git(work_, "rev-parse HEAD");

    WriteFile(work_ + "/pkg/sub/__init__.py", "");
    WriteFile(work_ + "/pkg/sub/deep.py", "raise KeyError('deep')\n");
    WriteFile(work_ + "/pkg/tests/test_core.py", "assert True, 'ok'\n");
    WriteFile(work_ + "/with space.py", "x = 'space'\n");
    WriteFile(work_ + "/" + kNonUtf8Name, "x = 'latin-1 name'\n");
    WriteFile(work_ + "/" + kNewlineName, "x = 'newline name'\n");
    WriteFile(work_ + "/-dash.py", "x = 'dash'\n");
    WriteFile(work_ + "/bytes.py", kBytes);
    WriteFile(work_ + "/run.py", "#!/usr/bin/env python3\n");
    fs::permissions(work_ + "/run.py", fs::perms::owner_exec, fs::perm_options::add);
    WriteFile(work_ + "/README.md", "# readme\n");
    fs::create_symlink("pkg/core.py", work_ + "/link.py");
    Git(work_, "add -A && git commit -q -m c3");
    c3_ = Git(work_, "rev-parse HEAD");

    Git(work_, "checkout -q -b feature");
    WriteFile(work_ + "/feature.py", "x = 'feature'\n");
    Git(work_, "add -A && git commit -q -m feature && git checkout -q main");
    feature_ = Git(work_, "rev-parse feature");

    WriteFile(work_ + "/pkg/sub/deep.py", "raise KeyError('deeper')\n");
    Git(work_, "add -A && git update-index --add --cacheinfo 160000," + c1_ + ",vendor/lib && git commit -q -m c4");
    c4_ = Git(work_, "rev-parse HEAD");

    Git(tmp_, "clone -q --bare work bare.git");

    // Untracked extras that the directory source must skip or report; none is a listed file.
    WriteFile(work_ + "/.venv/pyvenv.cfg", "home = /usr/bin\n");
    WriteFile(work_ + "/.venv/lib/site.py", "x = 1\n");
    WriteFile(work_ + "/myenv/pyvenv.cfg", "home = /usr/bin\n");
    WriteFile(work_ + "/myenv/lib/mod.py", "x = 1\n");
    WriteFile(work_ + "/node_modules/pkg/index.py", "x = 1\n");
    WriteFile(work_ + "/build/lib/gen.py", "x = 1\n");
    WriteFile(work_ + "/dist/d.py", "x = 1\n");
    WriteFile(work_ + "/foo.egg-info/e.py", "x = 1\n");
    WriteFile(work_ + "/pkg/__pycache__/core.py", "x = 1\n");
    WriteFile(work_ + "/.tox/t.py", "x = 1\n");
    WriteFile(work_ + "/.mypy_cache/m.py", "x = 1\n");
    WriteFile(work_ + "/lib/site-packages/s.py", "x = 1\n");
    WriteFile(work_ + "/notes.txt", "not python\n");
    WriteFile(outside_ + "/target.py", "x = 'outside'\n");
    fs::create_symlink("nowhere.py", work_ + "/dangling.py");
    fs::create_symlink(outside_ + "/target.py", work_ + "/outside.py");
    fs::create_symlink("../outside", work_ + "/outdir");
    fs::create_symlink("pkg", work_ + "/linkdir");
    fs::create_symlink(".", work_ + "/pkg/self");
    ASSERT_EQ(::mkfifo((work_ + "/pipe.py").c_str(), 0644), 0);
    ok_ = !::testing::Test::HasFailure();
  }

  static void TearDownTestSuite() {
    if (!tmp_.empty()) {
      std::error_code ec;
      fs::remove_all(tmp_, ec);
    }
  }

  void SetUp() override { ASSERT_TRUE(ok_) << "fixture repositories could not be built"; }

  // The *.py files committed at c4 (== HEAD of main), sorted bytewise.
  static std::vector<std::string> HeadPaths() {
    std::vector<std::string> paths = {"-dash.py",
                                      "bytes.py",
                                      kNonUtf8Name,
                                      kNewlineName,
                                      "pkg/__init__.py",
                                      "pkg/core.py",
                                      "pkg/sub/__init__.py",
                                      "pkg/sub/deep.py",
                                      "pkg/tests/test_core.py",
                                      "run.py",
                                      "with space.py"};
    std::sort(paths.begin(), paths.end());
    return paths;
  }

  static inline std::string tmp_, work_, bare_, outside_;
  static inline std::string c1_, c2_, c3_, c4_, feature_;
  static inline bool ok_ = false;
};

TEST_F(SourceRepoTest, DirectoryListsPythonFilesSortedAndSkipsTheRest) {
  Listing l = OpenAndList(work_, "");
  ASSERT_NE(l.source, nullptr);
  EXPECT_FALSE(l.source->info().is_git);
  EXPECT_EQ(l.source->info().location, work_);
  EXPECT_EQ(l.source->info().commit, "");
  EXPECT_EQ(l.source->info().default_name, "work");
  EXPECT_EQ(l.source->info().web_url, "");
  EXPECT_EQ(Paths(l.files), HeadPaths());
  const std::vector<std::pair<std::string, std::string>> skips = {{"dangling.py", "symlink"},
                                                                  {"link.py", "symlink"},
                                                                  {"outdir", "symlink_outside_tree"},
                                                                  {"outside.py", "symlink_outside_tree"},
                                                                  {"pipe.py", "unreadable"}};
  EXPECT_EQ(Pairs(l.skips), skips);
}

TEST_F(SourceRepoTest, DirectoryBlobIdsAndSizesMatchGit) {
  Listing l = OpenAndList(work_, "");
  ASSERT_EQ(l.files.size(), HeadPaths().size());
  for (const SourceEntry& f : l.files) {
    EXPECT_EQ(f.blob_id, Git(work_, "hash-object --no-filters -- " + ShellQuote(f.path))) << f.path;
    EXPECT_EQ(f.size, fs::file_size(work_ + "/" + f.path)) << f.path;
  }
}

TEST_F(SourceRepoTest, GitSourceAgreesWithDirectorySource) {
  Listing dir = OpenAndList(work_, "");
  Listing git = OpenAndList(work_, "HEAD");
  ASSERT_NE(git.source, nullptr);
  EXPECT_TRUE(git.source->info().is_git);
  EXPECT_EQ(git.source->info().commit, c4_);
  EXPECT_EQ(git.source->info().location, work_);
  ASSERT_EQ(Paths(git.files), HeadPaths());
  ASSERT_EQ(dir.files.size(), git.files.size());
  for (size_t i = 0; i < git.files.size(); ++i) {
    EXPECT_EQ(git.files[i].blob_id, dir.files[i].blob_id) << git.files[i].path;
    EXPECT_EQ(git.files[i].size, dir.files[i].size) << git.files[i].path;
    EXPECT_EQ(git.files[i].blob_id, Git(work_, "rev-parse " + ShellQuote("HEAD:" + git.files[i].path)));
  }
  const std::vector<std::pair<std::string, std::string>> skips = {{"link.py", "symlink"}, {"vendor/lib", "submodule"}};
  EXPECT_EQ(Pairs(git.skips), skips);
}

TEST_F(SourceRepoTest, ReadReturnsTheExactBytes) {
  for (const std::string& rev : {std::string(), std::string("main")}) {
    Listing l = OpenAndList(work_, rev);
    ASSERT_NE(l.source, nullptr);
    const SourceEntry* bytes = Find(l.files, "bytes.py");
    ASSERT_NE(bytes, nullptr);
    std::string content, error;
    ASSERT_TRUE(l.source->Read(*bytes, &content, &error)) << error;
    EXPECT_EQ(content, kBytes);
    EXPECT_EQ(bytes->size, kBytes.size());
    EXPECT_EQ(bytes->blob_id, GitBlobId(kBytes));
    for (const SourceEntry& f : l.files) {
      ASSERT_TRUE(l.source->Read(f, &content, &error)) << f.path << ": " << error;
      EXPECT_EQ(content, ReadFile(work_ + "/" + f.path)) << f.path;
      EXPECT_EQ(GitBlobId(content), f.blob_id) << f.path;
    }
  }
}

TEST_F(SourceRepoTest, ResolvesBranchesTagsShasAndExpressions) {
  struct Case {
    std::string rev, commit;
  };
  for (const Case& c : std::vector<Case>{{"feature", feature_},
                                         {"v1", c1_},
                                         {"v1-annotated", c1_},
                                         {"refs/tags/v1-annotated", c1_},
                                         {c2_, c2_},
                                         {c2_.substr(0, 7), c2_},
                                         {"HEAD~3", c1_},
                                         {"main^", c3_},
                                         {"HEAD", c4_}}) {
    std::string error;
    std::unique_ptr<Source> s = Source::Open(work_, c.rev, &error);
    ASSERT_NE(s, nullptr) << c.rev << ": " << error;
    EXPECT_TRUE(s->info().is_git);
    EXPECT_EQ(s->info().commit, c.commit) << c.rev;
    EXPECT_TRUE(IsHex40(s->info().commit));
  }
  Listing v1 = OpenAndList(work_, "v1-annotated");
  EXPECT_EQ(Paths(v1.files), (std::vector<std::string>{"pkg/__init__.py", "pkg/core.py"}));
  ASSERT_EQ(v1.files.size(), 2u);
  EXPECT_EQ(v1.files[1].blob_id, GitBlobId(kCoreV1));
  EXPECT_EQ(v1.files[1].size, kCoreV1.size());
  std::string content, error;
  ASSERT_TRUE(v1.source->Read(v1.files[1], &content, &error)) << error;
  EXPECT_EQ(content, kCoreV1);

  Listing feature = OpenAndList(work_, "feature");
  EXPECT_NE(Find(feature.files, "feature.py"), nullptr);
  Listing head = OpenAndList(work_, "HEAD");
  EXPECT_EQ(Find(head.files, "feature.py"), nullptr);
}

TEST_F(SourceRepoTest, BareCloneIsReadAtHeadOrRev) {
  Listing head = OpenAndList(bare_, "");
  ASSERT_NE(head.source, nullptr);
  EXPECT_TRUE(head.source->info().is_git);
  EXPECT_EQ(head.source->info().commit, c4_);
  EXPECT_EQ(head.source->info().location, bare_);
  EXPECT_EQ(head.source->info().default_name, "bare");  // origin is a local path
  EXPECT_EQ(head.source->info().web_url, "");
  Listing work = OpenAndList(work_, "HEAD");
  ASSERT_EQ(head.files.size(), work.files.size());
  for (size_t i = 0; i < head.files.size(); ++i) {
    EXPECT_EQ(head.files[i].path, work.files[i].path);
    EXPECT_EQ(head.files[i].blob_id, work.files[i].blob_id);
  }
  Listing v1 = OpenAndList(bare_, "v1");
  ASSERT_NE(v1.source, nullptr);
  EXPECT_EQ(v1.source->info().commit, c1_);
  Listing feature = OpenAndList(bare_ + "/", "feature");
  ASSERT_NE(feature.source, nullptr);
  EXPECT_EQ(feature.source->info().commit, feature_);
  EXPECT_EQ(feature.source->info().location, bare_);
}

TEST_F(SourceRepoTest, DotGitDirectoryIsReadAtHead) {
  Listing l = OpenAndList(work_ + "/.git", "");
  ASSERT_NE(l.source, nullptr);
  EXPECT_TRUE(l.source->info().is_git);
  EXPECT_EQ(l.source->info().commit, c4_);
  EXPECT_EQ(l.source->info().default_name, "work");
  EXPECT_EQ(Paths(l.files), HeadPaths());
}

TEST_F(SourceRepoTest, ErrorsForUnknownRevisionNonRepositoryAndMissingPath) {
  std::string error;
  EXPECT_EQ(Source::Open(work_, "no-such-rev", &error), nullptr);
  EXPECT_EQ(error, "unknown revision 'no-such-rev' in " + work_);
  error.clear();
  EXPECT_EQ(Source::Open(bare_, "deadbeef", &error), nullptr);
  EXPECT_EQ(error, "unknown revision 'deadbeef' in " + bare_);
  error.clear();
  EXPECT_EQ(Source::Open(work_, "HEAD:pkg", &error), nullptr);  // a tree, not a commit
  EXPECT_EQ(error, "unknown revision 'HEAD:pkg' in " + work_);
  error.clear();
  EXPECT_EQ(Source::Open(outside_, "main", &error), nullptr);
  EXPECT_EQ(error, "not a git repository: " + outside_);
  error.clear();
  EXPECT_EQ(Source::Open(tmp_ + "/missing", "", &error), nullptr);
  EXPECT_EQ(error, "no such file or directory: " + tmp_ + "/missing");
  error.clear();
  EXPECT_EQ(Source::Open(work_ + "/README.md", "", &error), nullptr);
  EXPECT_EQ(error, "not a directory, wheel or sdist: " + work_ + "/README.md");

  const std::string empty_repo = tmp_ + "/empty";
  fs::create_directories(empty_repo);
  Git(empty_repo, "init -q");
  error.clear();
  EXPECT_EQ(Source::Open(empty_repo, "HEAD", &error), nullptr);
  EXPECT_EQ(error, "unknown revision 'HEAD' in " + empty_repo);
  EXPECT_NE(Source::Open(empty_repo, "", &error), nullptr);  // a work tree without REV: plain directory
}

TEST_F(SourceRepoTest, ConcurrentReadsFromFourThreads) {
  for (const std::string& rev : {std::string(), std::string("HEAD")}) {
    Listing l = OpenAndList(work_, rev);
    ASSERT_NE(l.source, nullptr);
    std::map<std::string, std::string> expected;
    for (const SourceEntry& f : l.files) expected[f.path] = ReadFile(work_ + "/" + f.path);
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        std::string content, error;
        for (int round = 0; round < 25; ++round) {
          for (size_t i = 0; i < l.files.size(); ++i) {
            const SourceEntry& f = l.files[(i + static_cast<size_t>(t)) % l.files.size()];
            if (!l.source->Read(f, &content, &error) || content != expected[f.path]) ++failures;
          }
        }
      });
    }
    for (std::thread& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0) << "rev '" << rev << "'";
  }
}

TEST_F(SourceRepoTest, MissingBlobOfAPartialMirror) {
  const std::string repo = tmp_ + "/partial";
  fs::create_directories(repo);
  Git(repo, "init -q");
  WriteFile(repo + "/a.py", "a = 1\n");
  WriteFile(repo + "/b.py", "b = 2\n");
  Git(repo, "add -A && git commit -q -m one");
  const std::string b_id = GitBlobId("b = 2\n");
  ASSERT_TRUE(fs::remove(repo + "/.git/objects/" + b_id.substr(0, 2) + "/" + b_id.substr(2)));

  Listing l = OpenAndList(repo, "HEAD");
  ASSERT_NE(l.source, nullptr);
  EXPECT_EQ(Paths(l.files), std::vector<std::string>{"a.py"});
  EXPECT_EQ(Pairs(l.skips), (std::vector<std::pair<std::string, std::string>>{{"b.py", "missing_blob"}}));
  std::string content, error;
  EXPECT_FALSE(l.source->Read(SourceEntry{"b.py", b_id, 6}, &content, &error));
  EXPECT_NE(error.find("b.py"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  EXPECT_FALSE(l.source->Read(SourceEntry{"x.py", "not-an-id", 1}, &content, &error));
}

TEST_F(SourceRepoTest, DirectoryReadFailsWhenAFileChangedOrVanished) {
  const std::string dir = tmp_ + "/mutable";
  WriteFile(dir + "/x.py", "x = 1\n");
  WriteFile(dir + "/y.py", "y = 1\n");
  Listing l = OpenAndList(dir, "");
  ASSERT_EQ(l.files.size(), 2u);
  WriteFile(dir + "/x.py", "x = 2\n");
  fs::remove(dir + "/y.py");
  std::string content, error;
  EXPECT_FALSE(l.source->Read(l.files[0], &content, &error));
  EXPECT_EQ(error, "x.py: changed since it was listed");
  EXPECT_FALSE(l.source->Read(l.files[1], &content, &error));
  EXPECT_EQ(error, "y.py: No such file or directory");
  EXPECT_FALSE(l.source->Read(SourceEntry{"../work/run.py", GitBlobId(""), 0}, &content, &error));
}

TEST_F(SourceRepoTest, NamesComeFromTheOriginRemoteWithoutCredentials) {
  Git(tmp_, "clone -q --bare work named.git");
  Git(tmp_ + "/named.git", "remote set-url origin https://user:s3cret@github.com/Owner/Repo.git");
  Listing bare = OpenAndList(tmp_ + "/named.git", "");
  ASSERT_NE(bare.source, nullptr);
  EXPECT_EQ(bare.source->info().default_name, "Owner/Repo");
  EXPECT_EQ(bare.source->info().web_url, "https://github.com/Owner/Repo");

  // A work tree read as a plain directory still takes its name from origin.
  Git(tmp_, "clone -q work checkout");
  Git(tmp_ + "/checkout", "remote set-url origin git@gitlab.com:grp/sub/proj.git");
  Listing dir = OpenAndList(tmp_ + "/checkout", "");
  ASSERT_NE(dir.source, nullptr);
  EXPECT_FALSE(dir.source->info().is_git);
  EXPECT_EQ(dir.source->info().default_name, "grp/sub/proj");
  EXPECT_EQ(dir.source->info().web_url, "https://gitlab.com/grp/sub/proj");

  Git(tmp_ + "/checkout", "remote set-url origin ssh://git@git.example.org:2222/team/tool.git");
  Listing other = OpenAndList(tmp_ + "/checkout", "HEAD");
  ASSERT_NE(other.source, nullptr);
  EXPECT_EQ(other.source->info().default_name, "team/tool");
  EXPECT_EQ(other.source->info().web_url, "");
}

TEST_F(SourceRepoTest, HostileRootPathsAndSymlinkedRoot) {
  const std::string root = tmp_ + "/-odd dir\n\xff";
  WriteFile(root + "/a.py", "a = 1\n");
  WriteFile(root + "/--help.py", "b = 1\n");
  Listing l = OpenAndList(root, "");
  ASSERT_NE(l.source, nullptr);
  EXPECT_EQ(Paths(l.files), (std::vector<std::string>{"--help.py", "a.py"}));
  EXPECT_EQ(l.source->info().location, root);

  fs::create_symlink(work_, tmp_ + "/work-link");
  Listing linked = OpenAndList(tmp_ + "/work-link", "");
  ASSERT_NE(linked.source, nullptr);
  EXPECT_EQ(Paths(linked.files), HeadPaths());
  EXPECT_EQ(linked.skips.size(), 5u);  // the same skips, the tree's links judged from the real root
  Listing linked_git = OpenAndList(tmp_ + "/work-link", "HEAD");
  ASSERT_NE(linked_git.source, nullptr);
  EXPECT_EQ(linked_git.source->info().commit, c4_);
}

TEST_F(SourceRepoTest, UnreadableFilesAndDirectoriesAreSkips) {
  if (::geteuid() == 0) GTEST_SKIP() << "permissions do not apply to root";
  const std::string dir = tmp_ + "/perms";
  WriteFile(dir + "/ok.py", "x = 1\n");
  WriteFile(dir + "/secret.py", "x = 1\n");
  WriteFile(dir + "/closed/inner.py", "x = 1\n");
  fs::permissions(dir + "/secret.py", fs::perms::none);
  fs::permissions(dir + "/closed", fs::perms::none);
  Listing l = OpenAndList(dir, "");
  fs::permissions(dir + "/secret.py", fs::perms::owner_all);
  fs::permissions(dir + "/closed", fs::perms::owner_all);
  EXPECT_EQ(Paths(l.files), std::vector<std::string>{"ok.py"});
  EXPECT_EQ(Pairs(l.skips),
            (std::vector<std::pair<std::string, std::string>>{{"closed", "unreadable"}, {"secret.py", "unreadable"}}));
}

TEST_F(SourceRepoTest, DocumentsAreListedFromDirectoriesAndCommits) {
  const std::string repo = tmp_ + "/docs";
  fs::create_directories(repo);
  Git(repo, "init -q");
  const std::string big(kMaxDocumentBytes + 1, 'x');
  const std::string at_limit(kMaxDocumentBytes, 'y');
  WriteFile(repo + "/README.md", "# Title\n\nDevice should be CUDA.\n");
  WriteFile(repo + "/docs/guide.rst", "Guide\n=====\n");
  WriteFile(repo + "/docs/NOTES.TXT", "upper-case extension\n");
  WriteFile(repo + "/docs/big.md", big);
  WriteFile(repo + "/docs/limit.md", at_limit);
  WriteFile(repo + "/pkg/mod.py", "raise ValueError('x')\n");
  WriteFile(repo + "/pkg/CHANGELOG", "no extension\n");
  WriteFile(repo + "/pkg/.md", "only an extension\n");
  WriteFile(repo + "/pkg/notes.mdx", "another extension\n");
  WriteFile(repo + "/node_modules/dep/README.md", "a dependency\n");
  WriteFile(repo + "/build/README.md", "generated\n");
  WriteFile(repo + "/src/x.egg-info/PKG-INFO.txt", "generated\n");
  fs::create_symlink("README.md", repo + "/link.md");
  Git(repo, "add -A -f && git commit -q -m docs");

  const std::vector<std::string> expected = {"README.md", "docs/NOTES.TXT", "docs/guide.rst", "docs/limit.md"};
  const std::vector<std::pair<std::string, std::string>> expected_skips = {{"docs/big.md", "too_large"},
                                                                           {"link.md", "symlink"}};
  for (const std::string& rev : {std::string(), std::string("HEAD")}) {
    std::string error;
    std::unique_ptr<Source> source = Source::Open(repo, rev, &error);
    ASSERT_NE(source, nullptr) << error;
    std::vector<SourceEntry> docs;
    std::vector<SourceSkip> skips;
    ASSERT_TRUE(source->ListDocuments(&docs, &skips, &error)) << error;
    EXPECT_EQ(Paths(docs), expected) << "rev '" << rev << "'";
    EXPECT_EQ(Pairs(skips), expected_skips) << "rev '" << rev << "'";
    for (const SourceEntry& d : docs) {
      std::string content;
      ASSERT_TRUE(source->Read(d, &content, &error)) << d.path << ": " << error;
      EXPECT_EQ(content, ReadFile(repo + "/" + d.path)) << d.path;
      EXPECT_EQ(d.size, content.size()) << d.path;
      EXPECT_EQ(d.blob_id, Git(repo, "rev-parse " + ShellQuote("HEAD:" + d.path))) << d.path;
    }
    // List() is unchanged: the Python files only.
    std::vector<SourceEntry> files;
    ASSERT_TRUE(source->List(&files, &skips, &error)) << error;
    EXPECT_EQ(Paths(files), std::vector<std::string>{"pkg/mod.py"}) << "rev '" << rev << "'";
  }
}

TEST_F(SourceRepoTest, DocumentsOfTheSharedFixture) {
  // The committed README.md at HEAD; the directory also has the untracked notes.txt, and never enters
  // node_modules/, .venv/, build/ and the other skipped directories.
  Listing git = OpenAndList(work_, "HEAD");
  ASSERT_NE(git.source, nullptr);
  std::vector<SourceEntry> docs;
  std::vector<SourceSkip> skips;
  std::string error;
  ASSERT_TRUE(git.source->ListDocuments(&docs, &skips, &error)) << error;
  EXPECT_EQ(Paths(docs), std::vector<std::string>{"README.md"});
  EXPECT_TRUE(skips.empty());  // the submodule is List()'s to report
  Listing dir = OpenAndList(work_, "");
  ASSERT_NE(dir.source, nullptr);
  ASSERT_TRUE(dir.source->ListDocuments(&docs, &skips, &error)) << error;
  EXPECT_EQ(Paths(docs), (std::vector<std::string>{"README.md", "notes.txt"}));
  const std::vector<std::pair<std::string, std::string>> dir_skips = {{"outdir", "symlink_outside_tree"}};
  EXPECT_EQ(Pairs(skips), dir_skips);
}

// ---------------------------------------------------------------------------------------------------
// Pure functions.

TEST(SourceTest, GitBlobIdMatchesGit) {
  EXPECT_EQ(GitBlobId(""), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
  EXPECT_EQ(GitBlobId("hello\n"), "ce013625030ba8dba906f756967f9e9ca394464a");
  EXPECT_TRUE(IsHex40(GitBlobId(std::string("\0\xff", 2))));
}

TEST(SourceTest, IsTestPath) {
  for (const char* p : {"test_x.py", "pkg/test_x.py", "x_test.py", "a/b/x_test.py", "tests.py", "conftest.py",
                        "pkg/conftest.py", "tests/helpers.py", "pkg/test/util.py", "a/testing/b/c.py", "test_.py"}) {
    EXPECT_TRUE(IsTestPath(p)) << p;
  }
  for (const char* p : {"x.py", "testx.py", "test.py", "pkg/latest.py", "contest.py", "mytests/x.py", "tests_util/x.py",
                        "pkg/test_x.pyi", "attest_x.py", "Test_x.py", "pkg/Tests/x.py"}) {
    EXPECT_FALSE(IsTestPath(p)) << p;
  }
}

TEST(SourceTest, IsDocumentName) {
  for (const char* n : {"README.md", "a/b/guide.rst", "notes.txt", "X.MD", "doc.Rst", "requirements.txt", "a.b.md"}) {
    EXPECT_TRUE(IsDocumentName(n)) << n;
  }
  for (const char* n : {".md", "a/.rst", "x.py", "README", "x.mdx", "x.md.bak", "md", "dir.md/x", "x.txt~"}) {
    EXPECT_FALSE(IsDocumentName(n)) << n;
  }
}

TEST(SourceTest, SkippedDirectoryNames) {
  for (const char* n : {".git", ".hg", ".svn", "node_modules", "__pycache__", ".tox", ".nox", ".venv", "venv", "build",
                        "dist", ".eggs", "foo.egg-info", ".mypy_cache", ".pytest_cache", "site-packages"}) {
    EXPECT_TRUE(IsSkippedDirectoryName(n)) << n;
  }
  for (const char* n : {"env", "src", "pkg", "builds", "egg-info-x", "tests"}) {
    EXPECT_FALSE(IsSkippedDirectoryName(n)) << n;
  }
}

TEST(SourceTest, MissingPathIsAnError) {
  std::string error;
  EXPECT_EQ(Source::Open("/nonexistent/errdex/path", "", &error), nullptr);
  EXPECT_EQ(error, "no such file or directory: /nonexistent/errdex/path");
  EXPECT_EQ(Source::Open("", "", &error), nullptr);
  EXPECT_EQ(error, "no such file or directory: ");
}

TEST(RemoteUrlTest, ParsesTheUsualShapes) {
  struct Case {
    std::string url, name, web_url;
  };
  const std::string gh = "https://github.com/owner/name";
  for (const Case& c : std::vector<Case>{
           {"https://github.com/owner/name", "owner/name", gh},
           {"https://github.com/owner/name.git", "owner/name", gh},
           {"https://github.com/owner/name/", "owner/name", gh},
           {"http://GitHub.com/owner/name.git\n", "owner/name", gh},
           {"https://www.github.com/owner/name", "owner/name", gh},
           {"git@github.com:owner/name.git", "owner/name", gh},
           {"github.com:owner/name", "owner/name", gh},
           {"ssh://git@github.com/owner/name", "owner/name", gh},
           {"ssh://git@github.com:22/owner/name.git", "owner/name", gh},
           {"git+ssh://git@github.com/owner/name.git", "owner/name", gh},
           {"https://github.com/owner/name.git?ref=x#frag", "owner/name", gh},
           {"https://gitlab.com/group/sub/proj.git", "group/sub/proj", "https://gitlab.com/group/sub/proj"},
           {"https://codeberg.org/o/n", "o/n", "https://codeberg.org/o/n"},
           {"git@bitbucket.org:o/n.git", "o/n", "https://bitbucket.org/o/n"},
           {"https://gitea.com/o/n.git", "o/n", "https://gitea.com/o/n"},
           {"ssh://git@host.example/owner/name", "owner/name", ""},
           {"git://example.com/a/b/owner/name.git", "owner/name", ""},
           {"https://[::1]:8080/owner/name", "owner/name", ""},
       }) {
    RemoteName r;
    ASSERT_TRUE(ParseRemoteUrl(c.url, &r)) << c.url;
    EXPECT_EQ(r.name, c.name) << c.url;
    EXPECT_EQ(r.web_url, c.web_url) << c.url;
  }
}

TEST(RemoteUrlTest, NeverKeepsCredentials) {
  for (const std::string url :
       {"https://user:t0ken@github.com/owner/name.git", "https://x-access-token:t0ken@github.com/owner/name",
        "https://t0ken@github.com/owner/name", "https://user:t0k/en@github.com/owner/name",
        "https://user:t0k@en@github.com/owner/name", "ssh://user:t0ken@github.com/owner/name",
        "user:t0ken@github.com:owner/name.git"}) {
    RemoteName r;
    ASSERT_TRUE(ParseRemoteUrl(url, &r)) << url;
    EXPECT_EQ(r.name, "owner/name") << url;
    EXPECT_EQ(r.web_url, "https://github.com/owner/name") << url;
    EXPECT_EQ(r.name.find("t0k"), std::string::npos) << url;
    EXPECT_EQ(r.web_url.find("t0k"), std::string::npos) << url;
  }
}

TEST(RemoteUrlTest, RejectsLocalPathsAndShortPaths) {
  for (const char* url : {"", "/srv/git/repo.git", "../upstream", "./a:b/c", "file:///srv/git/owner/name.git",
                          "https://github.com/onlyone", "https://github.com/", "git@github.com:name.git",
                          "https://github.com/owner/../name"}) {
    RemoteName r{"stale", "stale"};
    EXPECT_FALSE(ParseRemoteUrl(url, &r)) << url;
    EXPECT_EQ(r.name, "") << url;
    EXPECT_EQ(r.web_url, "") << url;
  }
}

}  // namespace
}  // namespace errdex
