// Extraction cases kept as data (tests/corpus/extraction/README.md): each NAME.py is extracted and its
// sites compared with NAME.expected.jsonl, one site per line in source order.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "testing/test_extractor.h"

namespace errdex {
namespace {

namespace fs = std::filesystem;

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

nlohmann::json Describe(const Site& s) {
  return {{"line", s.line},
          {"kind", s.kind},
          {"type", s.type ? nlohmann::json(*s.type) : nlohmann::json(nullptr)},
          {"template", s.template_text ? nlohmann::json(*s.template_text) : nlohmann::json(nullptr)}};
}

TEST(ExtractionCorpusTest, EveryFixtureGivesItsExpectedSites) {
  const fs::path dir = fs::path(ERRDEX_SOURCE_DIR) / "tests/corpus/extraction";
  int fixtures = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".py") continue;
    ++fixtures;
    fs::path expected_path = entry.path();
    expected_path.replace_extension(".expected.jsonl");
    std::ifstream expected_in(expected_path);
    ASSERT_TRUE(expected_in) << "missing " << expected_path;
    std::vector<nlohmann::json> expected;
    for (std::string line; std::getline(expected_in, line);) {
      if (!line.empty()) expected.push_back(nlohmann::json::parse(line));
    }
    FileFacts facts = testing_util::TestExtractor().Extract(ReadAll(entry.path()), ExtractOptions());
    ASSERT_EQ(facts.sites.size(), expected.size()) << entry.path();
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(Describe(facts.sites[i]), expected[i]) << entry.path() << " site " << i;
    }
  }
  EXPECT_GT(fixtures, 0);
}

}  // namespace
}  // namespace errdex
