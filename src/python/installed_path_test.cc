#include "python/installed_path.h"

#include <gtest/gtest.h>

namespace errdex {
namespace {

TEST(InstalledPathTest, BelowSitePackagesDistPackagesAndTheStdlib) {
  auto venv = InstalledPathOf("/home/me/.venv/lib/python3.12/site-packages/requests/adapters.py");
  ASSERT_TRUE(venv);
  EXPECT_EQ(venv->relative, "requests/adapters.py");
  EXPECT_FALSE(venv->stdlib);
  auto debian = InstalledPathOf("/usr/lib/python3/dist-packages/urllib3/util/retry.py");
  ASSERT_TRUE(debian);
  EXPECT_EQ(debian->relative, "urllib3/util/retry.py");
  auto stdlib = InstalledPathOf("/usr/lib/python3.11/json/decoder.py");
  ASSERT_TRUE(stdlib);
  EXPECT_EQ(stdlib->relative, "json/decoder.py");
  EXPECT_TRUE(stdlib->stdlib);
  auto windows = InstalledPathOf("C:\\Python311\\Lib\\site-packages\\click\\core.py");
  ASSERT_TRUE(windows);
  EXPECT_EQ(windows->relative, "click/core.py");
}

TEST(InstalledPathTest, UserFilesAreNotInstalled) {
  EXPECT_FALSE(InstalledPathOf("app.py"));
  EXPECT_FALSE(InstalledPathOf("/home/me/project/lib/app.py"));
  EXPECT_FALSE(InstalledPathOf("/home/me/site-packages"));
  EXPECT_FALSE(InstalledPathOf("<string>"));
}

TEST(InstalledPathTest, AVendoredCopyIsAnotherFile) {
  const char* frame = "/venv/lib/python3.11/site-packages/requests/adapters.py";
  EXPECT_TRUE(SameInstalledFile(frame, "requests/adapters.py"));
  EXPECT_FALSE(SameInstalledFile(frame, "pip/_vendor/requests/adapters.py"));
  EXPECT_TRUE(SameInstalledFile(frame, "src/requests/adapters.py"));  // an sdist's src/ layout
  EXPECT_FALSE(SameInstalledFile(frame, "lib/requests/adapters.py"));
  EXPECT_TRUE(IsVendoredPath("pip/_vendor/urllib3/connection.py"));
  EXPECT_FALSE(IsVendoredPath("urllib3/connection.py"));
  EXPECT_FALSE(IsVendoredPath("_vendor"));
}

}  // namespace
}  // namespace errdex
