// Class texts chosen by the raise's arguments (docs/extraction.md, docs/matching.md): the local standard
// library's configparser is indexed, python3 runs it into DuplicateSectionError and DuplicateOptionError at
// two raises each, and the final line alone (what users paste most) is answered with the raise whose
// arguments render that text: `raise DuplicateSectionError(section)` in add_section cannot say "While reading
// from ...", which only `_read`'s raise, passing the source, renders.
#include <gtest/gtest.h>

#include <string>

#include "testing/git_test_util.h"
#include "testing/indexed_fixture.h"

namespace errdex {
namespace {

using namespace testing_util;

class ClassTextsByArgumentsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    fixture_ = new IndexedFixture();
    std::string path;
    ASSERT_EQ(Shell("python3 -c 'import configparser; print(configparser.__file__)'", &path), 0) << path;
    std::string source;
    ASSERT_EQ(Shell("cat " + ShellQuote(Trim(path)), &source), 0);
    fixture_->Write("configparser.py", source);
    std::string error;
    ASSERT_TRUE(fixture_->Index("python/stdlib", &error)) << error;
  }
  static void TearDownTestSuite() {
    delete fixture_;
    fixture_ = nullptr;
  }

  // The last line python3 prints to stderr for CODE (the final line of its traceback).
  static std::string FinalLine(const std::string& code) {
    std::string output;
    Shell("python3 -c " + ShellQuote(code) + " 2>&1 >/dev/null", &output);
    output = Trim(output);
    return output.substr(output.rfind('\n') + 1);
  }

  // The function of the first match of PASTE, and of the second after a comma when there is one.
  static std::string Functions(const std::string& paste) {
    Explanation e = fixture_->Explain(paste, 5);
    std::string out;
    for (size_t i = 0; i < e.matches.size() && i < 2; ++i) out += (i ? "," : "") + e.matches[i].site.function;
    return out;
  }

  static IndexedFixture* fixture_;
};

IndexedFixture* ClassTextsByArgumentsTest::fixture_ = nullptr;

TEST_F(ClassTextsByArgumentsTest, ADuplicateSectionWhileReadingIsTheReadersRaise) {
  const std::string line = FinalLine("import configparser\nconfigparser.ConfigParser().read_string('[a]\\n[a]\\n')");
  ASSERT_NE(line.find("DuplicateSectionError: While reading from '<string>' [line  2]: section 'a'"), std::string::npos)
      << line;
  // add_section's raise passes the section alone: it renders "Section 'a' already exists" only.
  EXPECT_EQ(Functions(line), "RawConfigParser._read");
}

TEST_F(ClassTextsByArgumentsTest, ADuplicateOptionWithALineNumberIsNotReadDictsRaise) {
  const std::string line =
      FinalLine("import configparser\nconfigparser.ConfigParser().read_string('[a]\\nx = 1\\nx = 2\\n')");
  ASSERT_NE(line.find("DuplicateOptionError: While reading from '<string>' [line  3]: option 'x' in section 'a'"),
            std::string::npos)
      << line;
  // read_dict's raise passes no line number (lineno defaults to None): it cannot print " [line N]", so it is not
  // the twin that follows `_read`'s raise.
  EXPECT_EQ(Functions(line), "RawConfigParser._read");
}

TEST_F(ClassTextsByArgumentsTest, ASectionAddedTwiceIsStillAnsweredWithAddSection) {
  const std::string line = FinalLine(
      "import configparser\nc = configparser.ConfigParser()\nc.add_section('a')\n"
      "c.add_section('a')");
  ASSERT_NE(line.find("DuplicateSectionError: Section 'a' already exists"), std::string::npos) << line;
  EXPECT_EQ(Functions(line).substr(0, 27), "RawConfigParser.add_section");
}

}  // namespace
}  // namespace errdex
