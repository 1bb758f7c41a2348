#include "python/traceback_vocabulary.h"

#include <gtest/gtest.h>

namespace errdex::python_paste {
namespace {

TEST(TracebackVocabularyTest, TheEmbeddedTableIsRead) {
  const TracebackVocabulary& v = PythonTracebackVocabulary();
  EXPECT_EQ(v.header, "Traceback (most recent call last)");
  EXPECT_EQ(v.header_line, "Traceback (most recent call last):");
  EXPECT_EQ(v.group_header, "Exception Group");
  EXPECT_EQ(v.chain_prefixes.size(), 2u);
  ASSERT_EQ(v.chain_lines.size(), 2u);
  EXPECT_TRUE(v.chain_lines[0].starts_with(v.chain_prefixes[0]));
  EXPECT_TRUE(IsListed(v.type_suffixes, "Error"));
  EXPECT_TRUE(IsListed(v.not_types, "Usage"));
  EXPECT_TRUE(IsListed(v.code_keywords, "except"));
  EXPECT_TRUE(IsListed(v.source_extensions, ".pyx"));
  EXPECT_EQ(v.django_type, "Exception Type:");
  EXPECT_EQ(v.django_value, "Exception Value:");
  EXPECT_TRUE(IsPackageDirectory("site-packages"));
  EXPECT_TRUE(IsPackageDirectory("dist-packages"));
  EXPECT_FALSE(IsPackageDirectory("packages"));
  EXPECT_TRUE(IsListed(v.vendor_directories, "_vendor"));
}

TEST(TracebackVocabularyTest, LoggedTypesEndLikeExceptionTypes) {
  EXPECT_TRUE(EndsLikeLoggedType("KeyError"));
  EXPECT_TRUE(EndsLikeLoggedType("SolveFailure"));  // Poetry's, which type_suffix alone would not take
  EXPECT_TRUE(EndsLikeLoggedType("KeyboardInterrupt"));
  EXPECT_FALSE(EndsLikeLoggedType("app"));
  EXPECT_FALSE(EndsLikeLoggedType("ERROR"));
}

}  // namespace
}  // namespace errdex::python_paste
