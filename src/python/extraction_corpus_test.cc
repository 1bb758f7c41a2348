// The extraction corpus (tests/corpus/README.md): every tests/corpus/extraction/**/NAME.py is extracted
// with the default options and its facts, in the text form of testing/facts_text.h, must equal
// NAME.facts beside it. With ERRDEX_UPDATE_CORPUS=1 in the environment the runner instead rewrites each
// NAME.facts from the current output (keeping its leading `#` comment lines) for an intentional change,
// whose diff a reviewer then reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "python/python_extractor.h"
#include "testing/facts_text.h"
#include "testing/test_extractor.h"

namespace errdex {
namespace {

namespace fs = std::filesystem;
using testing_util::FactsText;
using testing_util::TestExtractor;

const fs::path& CorpusDir() {
  static const fs::path dir = fs::path(ERRDEX_SOURCE_DIR) / "tests" / "corpus" / "extraction";
  return dir;
}

// The case files (NAME.py), relative to the corpus directory, sorted.
std::vector<std::string> CaseFiles() {
  std::vector<std::string> cases;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(CorpusDir(), ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".py") {
      cases.push_back(it->path().lexically_relative(CorpusDir()).generic_string());
    }
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// The leading comment lines (each starting with '#') of an expectation file, and the rest.
std::pair<std::string, std::string> SplitComments(const std::string& text) {
  size_t pos = 0;
  while (pos < text.size() && text[pos] == '#') {
    size_t end = text.find('\n', pos);
    pos = end == std::string::npos ? text.size() : end + 1;
  }
  return {text.substr(0, pos), text.substr(pos)};
}

bool UpdateRequested() {
  const char* value = std::getenv("ERRDEX_UPDATE_CORPUS");
  return value != nullptr && std::string(value) == "1";
}

class ExtractionCorpusTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ExtractionCorpusTest, FactsMatchTheExpectation) {
  fs::path source_path = CorpusDir() / GetParam();
  fs::path expected_path = fs::path(source_path).replace_extension(".facts");
  std::string source = ReadFile(source_path);
  std::string actual = FactsText(source, TestExtractor().Extract(source, ExtractOptions()));
  bool exists = fs::exists(expected_path);
  auto [comments, expected] = SplitComments(exists ? ReadFile(expected_path) : "");
  if (UpdateRequested()) {
    if (!exists || expected != actual) {
      std::ofstream(expected_path, std::ios::binary) << comments << actual;
      std::cout << "rewrote " << expected_path.string() << "\n";
    }
    return;
  }
  ASSERT_TRUE(exists) << expected_path << " is missing (ERRDEX_UPDATE_CORPUS=1 writes it)";
  EXPECT_EQ(actual, expected) << "extraction of " << source_path << " differs from " << expected_path;
}

std::string CaseName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param.substr(0, info.param.size() - 3);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, ExtractionCorpusTest, ::testing::ValuesIn(CaseFiles()), CaseName);

TEST(ExtractionCorpus, EveryExpectationHasItsSourceAndTheCorpusIsThere) {
  std::vector<std::string> cases = CaseFiles();
  EXPECT_GE(cases.size(), 150u) << "the extraction corpus is missing from " << CorpusDir();
  std::error_code ec;
  for (fs::recursive_directory_iterator it(CorpusDir(), ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".facts") continue;
    EXPECT_TRUE(fs::exists(fs::path(it->path()).replace_extension(".py"))) << it->path() << " has no source";
  }
}

}  // namespace
}  // namespace errdex
