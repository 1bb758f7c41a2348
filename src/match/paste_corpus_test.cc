// Paste-parsing cases kept as data (tests/corpus/pastes/README.md): each NAME.txt is parsed with
// ParsePastedError and the result compared with NAME.expected.json.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "match/pasted_error.h"

namespace errdex {
namespace {

namespace fs = std::filesystem;

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

nlohmann::json Describe(const PastedError& e) {
  nlohmann::json exceptions = nlohmann::json::array();
  for (const PastedException& x : e.exceptions) {
    nlohmann::json frames = nlohmann::json::array();
    for (const TracebackFrame& f : x.frames) {
      frames.push_back({{"path", f.path}, {"line", f.line}, {"function", f.function}, {"code", f.code}});
    }
    exceptions.push_back({{"type", x.type}, {"message", x.message}, {"frames", frames}});
  }
  return {{"input_kind", e.input_kind}, {"exceptions", exceptions}};
}

TEST(PasteCorpusTest, EveryPasteParsesAsExpected) {
  const fs::path dir = fs::path(ERRDEX_SOURCE_DIR) / "tests/corpus/pastes";
  int cases = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".txt") continue;
    ++cases;
    fs::path expected_path = entry.path();
    expected_path.replace_extension(".expected.json");
    std::ifstream expected_in(expected_path);
    ASSERT_TRUE(expected_in) << "missing " << expected_path;
    nlohmann::json expected = nlohmann::json::parse(expected_in);
    EXPECT_EQ(Describe(ParsePastedError(ReadAll(entry.path()))), expected) << entry.path();
  }
  EXPECT_GT(cases, 0);
}

}  // namespace
}  // namespace errdex
