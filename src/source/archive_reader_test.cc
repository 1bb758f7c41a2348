// Tests of the hostile-archive checks of source/archive_reader.h on archives built here with libarchive's
// writer (src/testing/test_archive.h).
#include "source/archive_reader.h"

#include <gtest/gtest.h>

#include "testing/cpu_time.h"
#include "testing/test_archive.h"

namespace errdex {
namespace {

using testing::BuildArchive;
using testing::TestArchiveFormat;
using testing::TestMember;
using Type = TestMember::Type;

bool KeepPython(const std::string& path) { return path.size() > 3 && path.substr(path.size() - 3) == ".py"; }

struct Result {
  bool ok = false;
  std::vector<ArchiveMember> members;
  std::string error;
};

Result Read(const std::string& bytes, ArchiveFormat format, const ArchiveLimits& limits = ArchiveLimits()) {
  Result r;
  r.ok = ReadArchiveMemory(bytes, format, limits, KeepPython, &r.members, &r.error);
  return r;
}

Result ReadZip(const std::vector<TestMember>& members, const ArchiveLimits& limits = ArchiveLimits()) {
  return Read(BuildArchive(members, TestArchiveFormat::kZip), ArchiveFormat::kZip, limits);
}

Result ReadTarGz(const std::vector<TestMember>& members, const ArchiveLimits& limits = ArchiveLimits()) {
  return Read(BuildArchive(members, TestArchiveFormat::kTarGz), ArchiveFormat::kTarGz, limits);
}

TEST(ArchiveReaderTest, ReadsZipMembersAndKeepsOnlyWhatIsAskedFor) {
  Result r = ReadZip({{"pkg/", "", Type::kDirectory},
                      {"pkg/a.py", "raise ValueError('x')\n"},
                      {"pkg/data.bin", std::string(1000, 'z')},
                      {"pkg/caf\xc3\xa9.py", "x = 1\n"}});
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.members.size(), 4u);
  EXPECT_EQ(r.members[0].path, "pkg");
  EXPECT_TRUE(r.members[0].directory);
  EXPECT_EQ(r.members[1].path, "pkg/a.py");
  EXPECT_TRUE(r.members[1].kept);
  EXPECT_EQ(r.members[1].content, "raise ValueError('x')\n");
  EXPECT_EQ(r.members[2].size, 1000u);
  EXPECT_FALSE(r.members[2].kept);
  EXPECT_TRUE(r.members[2].content.empty());
  EXPECT_EQ(r.members[3].path, "pkg/caf\xc3\xa9.py");  // a UTF-8 name, whatever the process's locale
  EXPECT_EQ(r.members[3].content, "x = 1\n");
}

TEST(ArchiveReaderTest, ReadsTarGzMembers) {
  Result r = ReadTarGz({{"p-1.0/", "", Type::kDirectory}, {"p-1.0/p/x.py", "assert y\n"}, {"p-1.0/\xc3\xa9.py", ""}});
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.members.size(), 3u);
  EXPECT_EQ(r.members[1].content, "assert y\n");
  EXPECT_EQ(r.members[2].path, "p-1.0/\xc3\xa9.py");
}

TEST(ArchiveReaderTest, RefusesPathsThatLeaveTheRoot) {
  for (const std::string name :
       {"/etc/x.py", "a/../../x.py", "../x.py", "a/./x.py", "a//x.py", "a\\..\\x.py", "C:/x.py"}) {
    Result zip = ReadZip({{name, "x"}});
    EXPECT_FALSE(zip.ok) << name;
    Result tar = ReadTarGz({{name, "x"}});
    EXPECT_FALSE(tar.ok) << name;
    EXPECT_TRUE(zip.members.empty());
    EXPECT_EQ(zip.error.find('\n'), std::string::npos);
  }
  EXPECT_EQ(ReadZip({{"a/../x.py", "x"}}).error, "member 'a/../x.py' has a '..' component");
  EXPECT_EQ(ReadTarGz({{"/abs.py", "x"}}).error, "member '/abs.py' has an absolute path");
}

TEST(ArchiveReaderTest, RefusesLinksAndSpecialFiles) {
  EXPECT_EQ(ReadZip({{"a.py", "x"}, {"l.py", "", Type::kSymlink, "/etc/passwd"}}).error,
            "member 'l.py' is a symbolic link");
  EXPECT_EQ(ReadTarGz({{"p/a.py", "x"}, {"p/l.py", "", Type::kSymlink, "a.py"}}).error,
            "member 'p/l.py' is a symbolic link");
  EXPECT_EQ(ReadTarGz({{"p/a.py", "x"}, {"p/h.py", "", Type::kHardlink, "p/a.py"}}).error,
            "member 'p/h.py' is a hard link");
  EXPECT_EQ(ReadTarGz({{"p/fifo", "", Type::kFifo}}).error, "member 'p/fifo' is not a regular file or directory");
}

TEST(ArchiveReaderTest, RefusesDuplicateAndBadNames) {
  EXPECT_EQ(ReadZip({{"a.py", "1"}, {"a.py", "2"}}).error, "member 'a.py' appears twice");
  EXPECT_EQ(ReadTarGz({{"p/a.py", "1"}, {"p/a.py", "2"}}).error, "member 'p/a.py' appears twice");
  // Raw bytes that are not UTF-8 (a zip without the UTF-8 flag keeps them as they are).
  Result latin1 = ReadZip({{"caf\xe9.py", "x"}});
  EXPECT_FALSE(latin1.ok);
  EXPECT_NE(latin1.error.find("not UTF-8"), std::string::npos) << latin1.error;
  EXPECT_NE(latin1.error.find("caf\\xe9.py"), std::string::npos) << latin1.error;
  EXPECT_FALSE(ReadZip({{"a\x01.py", "x"}}).ok);
  EXPECT_EQ(ReadZip({{std::string(2000, 'a') + ".py", "x"}}).error.substr(0, 10), "member 'aa");
}

TEST(ArchiveReaderTest, RefusesTooManyMembers) {
  std::vector<TestMember> many;
  for (int i = 0; i < 50; ++i) many.emplace_back(std::to_string(1000 + i).append(".py"), "x");
  ArchiveLimits limits;
  limits.max_members = 49;
  EXPECT_EQ(ReadZip(many, limits).error, "more than 49 members");
  limits.max_members = 50;
  EXPECT_TRUE(ReadZip(many, limits).ok);
}

TEST(ArchiveReaderTest, RefusesMembersAndTotalsOverTheLimits) {
  ArchiveLimits limits;
  limits.max_member_bytes = 1000;
  EXPECT_EQ(ReadZip({{"big.py", std::string(1001, 'x')}}, limits).error, "member 'big.py' is larger than 1000 bytes");
  EXPECT_TRUE(ReadZip({{"ok.py", std::string(1000, 'x')}}, limits).ok);
  limits = ArchiveLimits();
  limits.max_total_bytes = 2500;
  EXPECT_EQ(
      ReadZip({{"a.py", std::string(1000, 'x')}, {"b", std::string(1000, 'x')}, {"c", std::string(1000, 'x')}}, limits)
          .error,
      "inflates to more than 2500 bytes");
  // A tar's headers count too: the gzip stream inflates to more than the members.
  limits.max_total_bytes = 3000;
  std::vector<TestMember> empties;
  for (int i = 0; i < 10; ++i) empties.emplace_back(std::string("p/e").append(1, static_cast<char>('0' + i)));
  EXPECT_EQ(ReadTarGz(empties, limits).error, "inflates to more than 3000 bytes");
}

TEST(ArchiveReaderTest, CountsWhatAMemberInflatesToNotWhatItDeclares) {
  // A member that claims 10 bytes and inflates to 8 MB: stopped at the limit, after reading about as much.
  const std::string zip = testing::WithDeclaredZipSizes(
      BuildArchive({{"bomb.py", std::string(size_t{8} << 20, '\0')}}, TestArchiveFormat::kZip), 10);
  ArchiveLimits limits;
  limits.max_member_bytes = 1 << 20;
  Result r = Read(zip, ArchiveFormat::kZip, limits);
  EXPECT_EQ(r.error, "member 'bomb.py' inflates to more than 1048576 bytes");
}

TEST(ArchiveReaderTest, DefaultLimitsStopADeflateBombQuickly) {
  // 48 MiB of zeros deflate to ~50 KB, a ratio of ~1000: refused by the default ratio limit (100) once past
  // its floor (32 MiB), without inflating the rest.
  const std::string zip = testing::WithDeclaredZipSizes(
      BuildArchive({{"a.py", std::string(size_t{48} << 20, '\0')}, {"b.py", std::string(size_t{48} << 20, '\0')}},
                   TestArchiveFormat::kZip),
      1);
  ASSERT_LT(zip.size(), size_t{1} << 20);
  const double started = testing::ProcessCpuSeconds();
  Result r = Read(zip, ArchiveFormat::kZip);
  const double seconds = testing::ProcessCpuSeconds() - started;
  EXPECT_EQ(r.error, "inflates to more than 100 times its own size: a zip bomb?");
  EXPECT_LT(seconds, 5.0);
  const std::string tgz = BuildArchive({{"p/a.py", std::string(size_t{48} << 20, '\0')}}, TestArchiveFormat::kTarGz);
  EXPECT_EQ(Read(tgz, ArchiveFormat::kTarGz).error, "inflates to more than 100 times its own size: a zip bomb?");
}

TEST(ArchiveReaderTest, RefusesTruncatedCorruptAndForeignInput) {
  const std::string zip = BuildArchive({{"a.py", std::string(5000, 'a')}, {"b.py", "y"}}, TestArchiveFormat::kZip);
  for (size_t cut : {zip.size() / 2, zip.size() - 10, size_t{30}}) {
    Result r = Read(zip.substr(0, cut), ArchiveFormat::kZip);
    EXPECT_FALSE(r.ok) << cut;
    EXPECT_FALSE(r.error.empty());
  }
  std::string flipped = BuildArchive({{"a.py", std::string(5000, 'a') + "tail"}}, TestArchiveFormat::kZip);
  flipped[flipped.size() / 3] = static_cast<char>(flipped[flipped.size() / 3] ^ 0x55);
  EXPECT_FALSE(Read(flipped, ArchiveFormat::kZip).ok);
  const std::string tgz = BuildArchive({{"p/a.py", std::string(50000, 'a')}}, TestArchiveFormat::kTarGz);
  EXPECT_FALSE(Read(tgz.substr(0, tgz.size() / 2), ArchiveFormat::kTarGz).ok);
  Result text = Read("just some text, not a zip\n", ArchiveFormat::kZip);
  EXPECT_EQ(text.error, "not a zip archive: Unrecognized archive format");
  EXPECT_FALSE(Read(zip, ArchiveFormat::kTarGz).ok);  // a zip named .tar.gz
  EXPECT_EQ(Read(BuildArchive({{"p/a.py", "x"}}, TestArchiveFormat::kTar), ArchiveFormat::kTarGz).error,
            "not gzip-compressed");
  EXPECT_FALSE(Read("", ArchiveFormat::kZip).ok);
}

TEST(ArchiveReaderTest, RefusesAnArchiveFileLargerThanTheLimit) {
  ArchiveLimits limits;
  limits.max_archive_bytes = 100;
  EXPECT_EQ(
      Read(BuildArchive({{"a.py", std::string(500, 'x')}}, TestArchiveFormat::kZipStored), ArchiveFormat::kZip, limits)
          .error,
      "larger than 100 bytes");
}

}  // namespace
}  // namespace errdex
