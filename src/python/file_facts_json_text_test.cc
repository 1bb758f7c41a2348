// FileFactsJsonText must be byte for byte the dump of FileFactsToJson: on the facts of every case of the
// extraction corpus (tests/corpus/extraction) and on facts whose strings hold what JSON must escape.
#include "extract/file_facts_json_text.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "extract/file_facts_json.h"
#include "python/python_extractor.h"
#include "testing/test_extractor.h"

namespace errdex {
namespace {

namespace fs = std::filesystem;

std::string Reference(const FileFacts& facts) {
  return FileFactsToJson(facts).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

TEST(FileFactsJsonTextTest, SameTextAsTheJsonDocumentOnEveryCorpusCase) {
  const fs::path corpus = fs::path(ERRDEX_SOURCE_DIR) / "tests" / "corpus" / "extraction";
  int cases = 0;
  for (const auto& entry : fs::recursive_directory_iterator(corpus)) {
    if (entry.path().extension() != ".py") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream source;
    source << in.rdbuf();
    FileFacts facts = testing_util::TestExtractor().Extract(source.str(), ExtractOptions());
    EXPECT_EQ(FileFactsJsonText(facts), Reference(facts)) << entry.path();
    ++cases;
  }
  EXPECT_GE(cases, 150);
}

TEST(FileFactsJsonTextTest, EscapesAndEmptyFieldsLikeTheJsonDocument) {
  FileFacts facts;
  facts.status = "partial";
  facts.reason = "syntax_error";
  const std::string hostile =
      std::string("q\" b\\ /\b\f\n\r\t\x01\x1f\x7f \0 end", 21) + "caf\xC3\xA9 \xF0\x9F\x98\x80";
  const std::string invalid = "bad \xFF\xC3( \xED\xA0\x80 \xC0\xAF tail";
  Site site;
  site.kind = "raise";
  site.type = hostile;
  site.line = 3;
  site.col = 4;
  site.end_line = 5;
  site.function = invalid;
  site.conditions.push_back({"if", "if x:", 2, true, {{"attribute", "self", "a"}, {"name", "", hostile}}});
  site.conditions.push_back({"else", "", 1, false, {}});
  facts.sites.push_back(site);
  site.type.reset();
  site.template_text = "";
  site.conditions.clear();
  facts.sites.push_back(site);
  facts.classes.push_back({"A", 1, {"B", hostile}, "doc\n", "", "", {}});
  facts.classes.push_back({"C", 2, {}, "", "msg {x}", "__str__", {"other {y}", hostile}});
  facts.imports.push_back({"n", "..m.n"});
  facts.wildcard_imports = {"a.b", invalid};
  facts.raising_helpers.push_back({"Ctx.fail", "fail", true, 1, "message", 7, 8, -1, ""});
  facts.raising_helpers.push_back({"Ctx._raise_error", "_raise_error", true, 2, "explanation", 9, 8, 1, hostile});
  MessageCall call;
  call.name = "fail";
  call.function = "f";
  call.arguments.push_back({-1, "msg", hostile, ""});
  call.arguments.push_back({0, "", "x", "PytestConfigWarning"});
  call.class_arguments = {{1, "DivisionByZero"}, {2, hostile}};
  facts.message_calls.push_back(call);
  facts.message_calls.push_back(MessageCall());
  facts.raises_tests.push_back({"test_x", 9, "ValueError", "a\\.b", "pytest.raises", "with pytest.raises(E):"});
  facts.functions.push_back({"f", 1, 2, "", {"a", "b"}, {}, false});
  facts.functions.push_back({"C.m", 3, 4, hostile, {}, {"property", "x.y(1,\n 2)"}, true});
  facts.calls.push_back({"f", "g", 1, 0, "g()"});
  facts.calls.push_back({"f", "h", 1, 5, "g(); h()"});
  facts.calls.push_back({"<module>", "h", 2, 0, invalid});
  facts.state_writes.push_back({"f", "self", "a", "assign", 3, hostile});
  EXPECT_EQ(FileFactsJsonText(facts), Reference(facts));
  facts.flow = "F f 1\n" + hostile + "\n";
  EXPECT_EQ(FileFactsJsonText(facts), Reference(facts));
  facts.flow_truncated = true;
  EXPECT_EQ(FileFactsJsonText(facts), Reference(facts));
  facts.has_all = true;
  EXPECT_EQ(FileFactsJsonText(facts), Reference(facts));
  facts.all_names = {"a", "b"};
  EXPECT_EQ(FileFactsJsonText(facts), Reference(facts));
  EXPECT_EQ(FileFactsJsonText(FileFacts()), Reference(FileFacts()));
}

}  // namespace
}  // namespace errdex
