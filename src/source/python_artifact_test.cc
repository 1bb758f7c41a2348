// Tests of artifact kinds, names and versions (source/python_artifact.h).
#include "source/python_artifact.h"

#include <gtest/gtest.h>

namespace errdex {
namespace {

TEST(PythonArtifactTest, KindFromTheExtension) {
  EXPECT_EQ(ArtifactKindOf("/x/requests-2.31.0-py3-none-any.whl"), ArtifactKind::kWheel);
  EXPECT_EQ(ArtifactKindOf("requests-2.31.0.tar.gz"), ArtifactKind::kSdistTarGz);
  EXPECT_EQ(ArtifactKindOf("Requests-2.31.0.TGZ"), ArtifactKind::kSdistTarGz);
  EXPECT_EQ(ArtifactKindOf("requests-2.31.0.zip"), ArtifactKind::kSdistZip);
  EXPECT_FALSE(ArtifactKindOf("requests-2.31.0.tar.bz2"));
  EXPECT_FALSE(ArtifactKindOf(".whl"));
  EXPECT_FALSE(ArtifactKindOf("dir.whl/file"));
}

TEST(PythonArtifactTest, NameAndVersionFromCoreMetadata) {
  auto n = ArtifactNameFromMetadata(
      "Metadata-Version: 2.1\r\nName: Foo_Bar\nSummary: x\n  continued: Version: 9\nVersion: 1.0.post1\n\n"
      "Name: other\n");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->name, "Foo_Bar");
  EXPECT_EQ(n->version, "1.0.post1");
  EXPECT_FALSE(ArtifactNameFromMetadata("Name: x\n\nVersion: 1.0\n"));  // the version is in the body
  EXPECT_FALSE(ArtifactNameFromMetadata("Name: ../x\nVersion: 1.0\n"));
  EXPECT_FALSE(ArtifactNameFromMetadata("Name: x\nVersion: 1.0 beta\n"));
  EXPECT_FALSE(ArtifactNameFromMetadata(""));
  EXPECT_TRUE(ArtifactNameFromMetadata("name: x\nVERSION: 2!1.0+local.7\n"));
}

TEST(PythonArtifactTest, NameAndVersionFromTheFileName) {
  auto wheel = ArtifactNameFromFileName("/d/foo_bar-1.2.3-1-py3-none-any.whl", ArtifactKind::kWheel);
  ASSERT_TRUE(wheel);
  EXPECT_EQ(wheel->name, "foo_bar");
  EXPECT_EQ(wheel->version, "1.2.3");
  EXPECT_TRUE(ArtifactNameFromFileName("foo-1.0-cp311-cp311-manylinux_2_17_x86_64.whl", ArtifactKind::kWheel));
  EXPECT_FALSE(ArtifactNameFromFileName("foo-1.0.whl", ArtifactKind::kWheel));
  auto sdist = ArtifactNameFromFileName("zope-interface-5.4.0.tar.gz", ArtifactKind::kSdistTarGz);
  ASSERT_TRUE(sdist);
  EXPECT_EQ(sdist->name, "zope-interface");
  EXPECT_EQ(sdist->version, "5.4.0");
  EXPECT_EQ(ArtifactNameFromFileName("pkg-0.1.zip", ArtifactKind::kSdistZip)->version, "0.1");
  EXPECT_FALSE(ArtifactNameFromFileName("noversion.tar.gz", ArtifactKind::kSdistTarGz));
}

TEST(PythonArtifactTest, WheelMembersWhereTheyInstall) {
  EXPECT_EQ(WheelInstalledPath("pkg/a.py"), "pkg/a.py");
  EXPECT_EQ(WheelInstalledPath("mod.py"), "mod.py");
  EXPECT_EQ(WheelInstalledPath("foo-1.0.data/purelib/pkg/a.py"), "pkg/a.py");
  EXPECT_EQ(WheelInstalledPath("foo-1.0.data/platlib/ext.py"), "ext.py");
  EXPECT_FALSE(WheelInstalledPath("foo-1.0.data/scripts/tool.py"));
  EXPECT_FALSE(WheelInstalledPath("foo-1.0.dist-info/METADATA"));
}

}  // namespace
}  // namespace errdex
