// The paste corpus (tests/corpus/pastes/README.md): every tests/corpus/pastes/NAME.txt is parsed with
// ParsePastedError and read by a PastedErrorStream, and the full result of both must equal
// NAME.expected.json beside it. With ERRDEX_UPDATE_CORPUS=1 in the environment the runner instead rewrites
// each NAME.expected.json from the current output (keeping its "comment"), for an intentional change whose
// diff a reviewer then reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "match/pasted_error.h"

namespace errdex {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path& CorpusDir() {
  static const fs::path dir = fs::path(ERRDEX_SOURCE_DIR) / "tests" / "corpus" / "pastes";
  return dir;
}

// The case files (NAME.txt), sorted.
std::vector<std::string> CaseFiles() {
  std::vector<std::string> cases;
  std::error_code ec;
  for (fs::directory_iterator it(CorpusDir(), ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".txt") cases.push_back(it->path().filename().string());
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path ExpectationOf(const std::string& case_file) {
  std::string name = case_file.substr(0, case_file.size() - 4);  // without ".txt"
  return CorpusDir() / (name + ".expected.json");
}

json DescribeException(const PastedException& x) {
  json frames = json::array();
  for (const TracebackFrame& f : x.frames) {
    frames.push_back({{"path", f.path}, {"line", f.line}, {"function", f.function}, {"code", f.code}});
  }
  json out = {{"type", x.type}, {"message", x.message}, {"message_line", x.message_line}, {"frames", frames}};
  if (x.embeds_traceback) out["embeds_traceback"] = true;
  return out;
}

json DescribeAll(const std::vector<PastedException>& exceptions) {
  json out = json::array();
  for (const PastedException& x : exceptions) out.push_back(DescribeException(x));
  return out;
}

// What `scan` sees: the text read by a stream, then finished.
std::vector<PastedException> Streamed(const std::string& text) {
  PastedErrorStream s;
  s.FeedText(text);
  s.Finish();
  return s.Take();
}

// The expectation format of tests/corpus/pastes/README.md.
json Describe(const std::string& text) {
  PastedError e = ParsePastedError(text);
  return {
      {"input_kind", e.input_kind}, {"exceptions", DescribeAll(e.exceptions)}, {"stream", DescribeAll(Streamed(text))}};
}

bool UpdateRequested() {
  const char* value = std::getenv("ERRDEX_UPDATE_CORPUS");
  return value != nullptr && std::string(value) == "1";
}

class PasteCorpusTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PasteCorpusTest, ParseMatchesTheExpectation) {
  const fs::path input_path = CorpusDir() / GetParam();
  const fs::path expected_path = ExpectationOf(GetParam());
  const std::string text = ReadFile(input_path);
  json actual = Describe(text);
  const bool exists = fs::exists(expected_path);
  json expected = exists ? json::parse(ReadFile(expected_path), nullptr, /*allow_exceptions=*/false) : json::object();
  ASSERT_FALSE(expected.is_discarded()) << expected_path << " is not JSON";
  json comment = expected.is_object() && expected.contains("comment") ? expected["comment"] : json();
  if (expected.is_object()) expected.erase("comment");
  if (UpdateRequested()) {
    json written = actual;
    if (!comment.is_null()) written["comment"] = comment;
    const std::string text_written = written.dump(2) + "\n";
    if (!exists || ReadFile(expected_path) != text_written) {
      std::ofstream(expected_path, std::ios::binary) << text_written;
      std::cout << "rewrote " << expected_path.string() << "\n";
    }
    return;
  }
  ASSERT_TRUE(exists) << expected_path << " is missing (ERRDEX_UPDATE_CORPUS=1 writes it)";
  EXPECT_EQ(actual, expected) << "the parse of " << input_path << " differs from " << expected_path << "\nactual:\n"
                              << actual.dump(2);
  // Feeding the whole text as one Feed call (lines split inside) reads it as FeedText does.
  PastedErrorStream whole;
  whole.Feed(text);
  whole.Finish();
  EXPECT_EQ(DescribeAll(whole.Take()), actual["stream"]) << input_path;
}

std::string CaseName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param.substr(0, info.param.size() - 4);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, PasteCorpusTest, ::testing::ValuesIn(CaseFiles()), CaseName);

TEST(PasteCorpus, EveryExpectationHasItsPasteAndTheCorpusIsThere) {
  EXPECT_GE(CaseFiles().size(), 80u) << "the paste corpus is missing from " << CorpusDir();
  std::error_code ec;
  for (fs::directory_iterator it(CorpusDir(), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::string suffix = ".expected.json";
    if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    EXPECT_TRUE(fs::exists(CorpusDir() / (name.substr(0, name.size() - suffix.size()) + ".txt")))
        << it->path() << " has no paste";
  }
}

}  // namespace
}  // namespace errdex
