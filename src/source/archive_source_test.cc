// Tests of ArchiveSource (source/archive_source.h) on wheels and sdists built here.
#include "source/archive_source.h"

#include <gtest/gtest.h>

#include <fstream>

#include "testing/temp_dir.h"
#include "testing/test_archive.h"

namespace errdex {
namespace {

using testing::BuildArchive;
using testing::TestArchiveFormat;
using testing::TestMember;

class ArchiveSourceTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::vector<TestMember>& members, TestArchiveFormat format) {
    const std::string path = tmp_ / name;
    std::ofstream(path, std::ios::binary) << BuildArchive(members, format);
    return path;
  }

  static std::vector<std::string> Paths(const std::vector<SourceEntry>& entries) {
    std::vector<std::string> paths;
    for (const SourceEntry& e : entries) paths.push_back(e.path);
    return paths;
  }

  testing_util::TempDir tmp_;
};

TEST_F(ArchiveSourceTest, WheelIsTheInstalledTree) {
  const std::string whl =
      Write("Foo_Bar-1.0-py3-none-any.whl",
            {{"foo/__init__.py", "from .core import run\n"},
             {"foo/core.py", "def run():\n    raise ValueError('bad')\n"},
             {"foo/__pycache__/core.cpython-311.py", "x"},
             {"foo/_vendor/six.py", "raise TypeError('x')\n"},
             {"foo/build/step.py", "pass\n"},
             {"foo_bar-1.0.data/purelib/extra.py", "pass\n"},
             {"foo_bar-1.0.data/scripts/tool.py", "pass\n"},
             {"foo_bar-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: Foo.Bar\nVersion: 1.0.1\n"},
             {"foo_bar-1.0.dist-info/RECORD", ""}},
            TestArchiveFormat::kZip);
  std::string error;
  std::unique_ptr<ArchiveSource> source = ArchiveSource::Open(whl, ArchiveLimits(), &error);
  ASSERT_TRUE(source) << error;
  EXPECT_EQ(source->info().kind, "archive");
  EXPECT_EQ(source->info().default_name, "pypi/foo-bar");  // the metadata's name, PEP 503 normalized
  EXPECT_EQ(source->info().version, "1.0.1");              // the metadata's version, not the file name's
  EXPECT_EQ(source->info().location, whl);
  EXPECT_TRUE(source->info().commit.empty());
  ASSERT_EQ(source->info().vendored.size(), 1u);
  EXPECT_EQ(source->info().vendored[0], std::make_pair(std::string("foo/_vendor/six"), std::string("six")));
  std::vector<SourceEntry> files;
  std::vector<SourceSkip> skips;
  ASSERT_TRUE(source->List(&files, &skips, &error));
  EXPECT_EQ(Paths(files), (std::vector<std::string>{"extra.py", "foo/__init__.py", "foo/_vendor/six.py",
                                                    "foo/build/step.py", "foo/core.py"}));
  std::string content;
  ASSERT_TRUE(source->Read(files[4], &content, &error));
  EXPECT_EQ(content, "def run():\n    raise ValueError('bad')\n");
  EXPECT_EQ(files[4].blob_id, GitBlobId(content));
  // Source::Open reads it too; a revision cannot be chosen.
  std::unique_ptr<Source> opened = Source::Open(whl, "", &error);
  ASSERT_TRUE(opened) << error;
  EXPECT_EQ(opened->info().default_name, "pypi/foo-bar");
  EXPECT_FALSE(Source::Open(whl, "v1", &error));
  EXPECT_NE(error.find("no revisions"), std::string::npos);
}

TEST_F(ArchiveSourceTest, SdistWithoutItsFolderAndItsSrcLayout) {
  const std::string sdist = Write("shop-kit-2.0.tar.gz",
                                  {{"shop_kit-2.0/", "", TestMember::Type::kDirectory},
                                   {"shop_kit-2.0/PKG-INFO", "Metadata-Version: 2.1\nName: shop_kit\nVersion: 2.0\n"},
                                   {"shop_kit-2.0/README.md", "# Shop\n"},
                                   {"shop_kit-2.0/setup.py", "pass\n"},
                                   {"shop_kit-2.0/src/shop/cart.py", "raise KeyError('item')\n"},
                                   {"shop_kit-2.0/src/shop_kit.egg-info/PKG-INFO", "Name: other\nVersion: 9\n"},
                                   {"shop_kit-2.0/src/shop_kit.egg-info/SOURCES.txt", "x"},
                                   {"shop_kit-2.0/build/lib/shop/cart.py", "pass\n"},
                                   {"shop_kit-2.0/tests/test_cart.py", "pass\n"}},
                                  TestArchiveFormat::kTarGz);
  std::string error;
  std::unique_ptr<ArchiveSource> source = ArchiveSource::Open(sdist, ArchiveLimits(), &error);
  ASSERT_TRUE(source) << error;
  EXPECT_EQ(source->info().default_name, "pypi/shop-kit");
  EXPECT_EQ(source->info().version, "2.0");
  std::vector<SourceEntry> files, docs;
  std::vector<SourceSkip> skips;
  ASSERT_TRUE(source->List(&files, &skips, &error));
  EXPECT_EQ(Paths(files), (std::vector<std::string>{"setup.py", "src/shop/cart.py", "tests/test_cart.py"}));
  ASSERT_TRUE(source->ListDocuments(&docs, &skips, &error));
  EXPECT_EQ(Paths(docs), (std::vector<std::string>{"README.md"}));
}

TEST_F(ArchiveSourceTest, NameFromTheFileNameWhenTheMetadataSaysNothing) {
  const std::string zip =
      Write("legacy-pkg-0.3.zip", {{"legacy-pkg-0.3/legacy.py", "assert 0\n"}}, TestArchiveFormat::kZip);
  std::string error;
  std::unique_ptr<ArchiveSource> source = ArchiveSource::Open(zip, ArchiveLimits(), &error);
  ASSERT_TRUE(source) << error;
  EXPECT_EQ(source->info().default_name, "pypi/legacy-pkg");
  EXPECT_EQ(source->info().version, "0.3");
  const std::string bad = Write("nothing.whl", {{"x.py", ""}}, TestArchiveFormat::kZip);
  EXPECT_FALSE(ArchiveSource::Open(bad, ArchiveLimits(), &error));
  EXPECT_EQ(error, "refusing nothing.whl: no valid name and version in its METADATA nor in its file name");
}

TEST_F(ArchiveSourceTest, RefusesWhatIsNotAnArtifact) {
  std::string error;
  const std::string two = Write("two-1.0.tar.gz", {{"a-1.0/x.py", ""}, {"b-1.0/y.py", ""}}, TestArchiveFormat::kTarGz);
  EXPECT_FALSE(ArchiveSource::Open(two, ArchiveLimits(), &error));
  EXPECT_EQ(error,
            "refusing two-1.0.tar.gz: not an sdist: its members are not all in one top-level folder (a-1.0, b-1.0)");
  const std::string twice =
      Write("d-1.0-py3-none-any.whl", {{"x.py", ""}, {"d-1.0.data/purelib/x.py", ""}}, TestArchiveFormat::kZip);
  EXPECT_FALSE(ArchiveSource::Open(twice, ArchiveLimits(), &error));
  EXPECT_EQ(error, "refusing d-1.0-py3-none-any.whl: two members are installed at x.py");
  const std::string text = tmp_ / "fake-1.0-py3-none-any.whl";
  std::ofstream(text) << "not a zip\n";
  EXPECT_FALSE(Source::Open(text, "", &error));
  EXPECT_EQ(error, "refusing fake-1.0-py3-none-any.whl: not a zip archive: Unrecognized archive format");
  const std::string link =
      Write("l-1.0.tar.gz", {{"l-1.0/a.py", "x"}, {"l-1.0/b.py", "", TestMember::Type::kSymlink, "a.py"}},
            TestArchiveFormat::kTarGz);
  EXPECT_FALSE(Source::Open(link, "", &error));
  EXPECT_EQ(error, "refusing l-1.0.tar.gz: member 'l-1.0/b.py' is a symbolic link");
}

}  // namespace
}  // namespace errdex
