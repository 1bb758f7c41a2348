#include "source/python_environment.h"

#include <gtest/gtest.h>

#include "source/installed_source.h"
#include "testing/git_test_util.h"
#include "testing/temp_dir.h"

namespace errdex {
namespace {

using testing_util::TempDir;
using testing_util::WriteFile;

TEST(PythonEnvironmentTest, NormalizesNamesAsPep503) {
  EXPECT_EQ(NormalizeDistributionName("PyYAML"), "pyyaml");
  EXPECT_EQ(NormalizeDistributionName("typing_extensions"), "typing-extensions");
  EXPECT_EQ(NormalizeDistributionName("zope.interface"), "zope-interface");
  EXPECT_EQ(NormalizeDistributionName("a-_.b"), "a-b");
}

TEST(PythonEnvironmentTest, FindsVendoredPackagesAndModules) {
  std::vector<VendoredPackage> v =
      FindVendoredPackages({"pip/__init__.py", "pip/_vendor/__init__.py", "pip/_vendor/six.py",
                            "pip/_vendor/urllib3/__init__.py", "pip/_vendor/urllib3/util/retry.py"});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].path, "pip/_vendor/six");
  EXPECT_EQ(v[0].name, "six");
  EXPECT_EQ(v[1].path, "pip/_vendor/urllib3");
  EXPECT_EQ(v[1].name, "urllib3");
}

TEST(PythonEnvironmentTest, ParsesTheProbeAndDropsUnsafePaths) {
  PythonEnvironment env;
  std::string error;
  ASSERT_TRUE(ParsePythonEnvironment(
      R"({"executable": "/usr/bin/python3", "version": "3.11.2", "stdlib": "/usr/lib/python3.11",
          "stdlib_files": ["json/decoder.py", "../etc/passwd.py", "/abs.py"],
          "distributions": [
            {"name": "Requests", "version": "2.28.1", "location": "/dp", "files": ["requests/api.py"],
             "other_files": 0, "files_from": "top_level.txt"},
            {"name": "requests", "version": "9.9", "location": "/other", "files": [], "other_files": 0,
             "files_from": ""},
            {"name": "fast_core", "version": "0.3", "location": "/dp", "files": [], "other_files": 2,
             "files_from": "RECORD"}]})",
      &env, &error))
      << error;
  EXPECT_EQ(env.version, "3.11.2");
  EXPECT_EQ(env.stdlib_files, std::vector<std::string>{"json/decoder.py"});
  ASSERT_EQ(env.distributions.size(), 2u);  // the first "requests" on sys.path wins
  EXPECT_EQ(env.distributions[0].normalized, "fast-core");
  EXPECT_EQ(env.distributions[1].normalized, "requests");
  EXPECT_EQ(env.distributions[1].version, "2.28.1");
  EXPECT_FALSE(ParsePythonEnvironment("not json", &env, &error));
  EXPECT_FALSE(ParsePythonEnvironment("{}", &env, &error));
}

TEST(PythonEnvironmentTest, AMissingInterpreterIsAOneLineError) {
  PythonEnvironment env;
  std::string error;
  EXPECT_FALSE(ProbePythonEnvironment("/nonexistent/python3", &env, &error));
  EXPECT_NE(error.find("/nonexistent/python3"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(InstalledSourceTest, ListsOnlyItsOwnFilesAndRecordsADistributionWithoutSource) {
  TempDir dir;
  WriteFile(dir / "sp/mine/a.py", "raise ValueError('x')\n");
  WriteFile(dir / "sp/theirs/b.py", "x = 1\n");
  InstalledDistribution dist;
  dist.normalized = "mine";
  dist.version = "1.0";
  dist.location = dir.path() + "/sp";
  dist.files = {"mine/a.py", "mine/missing.py"};
  InstalledSource source = DistributionSource(dist);
  std::vector<SourceEntry> files;
  std::vector<SourceSkip> skips;
  std::string error;
  ASSERT_TRUE(source.List(&files, &skips, &error));
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].path, "mine/a.py");
  ASSERT_EQ(skips.size(), 1u);
  EXPECT_EQ(skips[0].reason, "unreadable");
  EXPECT_EQ(source.info().default_name, "pypi/mine");
  EXPECT_EQ(source.info().kind, "distribution");
  EXPECT_EQ(source.info().version, "1.0");
  std::string content;
  ASSERT_TRUE(source.Read(files[0], &content, &error)) << error;
  EXPECT_EQ(content, "raise ValueError('x')\n");

  dist.files.clear();
  dist.other_files = 3;
  InstalledSource compiled = DistributionSource(dist);
  ASSERT_TRUE(compiled.List(&files, &skips, &error));
  EXPECT_TRUE(files.empty());
  ASSERT_EQ(skips.size(), 1u);
  EXPECT_EQ(skips[0].reason, "compiled_only");
}

}  // namespace
}  // namespace errdex
