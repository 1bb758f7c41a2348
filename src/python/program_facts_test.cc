// Tests of the program facts (docs/extraction.md, "Program facts"): limits, hostile input and the JSON
// round trip. The cases of the contract (functions, calls, state writes, __all__, what conditions read)
// are corpus files under tests/corpus/extraction/program_facts/ (extraction_corpus_test.cc). Expectations
// were written from the contract and Python's semantics (__qualname__, what an assignment writes).
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "extract/file_facts_json.h"
#include "python/python_extractor.h"
#include "testing/test_extractor.h"

namespace errdex {
namespace {

using testing_util::TestExtractor;
using Strings = std::vector<std::string>;

FileFacts Extract(std::string_view source) {
  if (!source.empty() && source[0] == '\n') source.remove_prefix(1);
  FileFacts facts = TestExtractor().Extract(source, ExtractOptions());
  EXPECT_EQ(facts.status, "ok") << facts.reason;
  return facts;
}

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ",") + p;
  return out;
}

// "QUALNAME LINE-END_LINE (PARAMS) [DECORATORS] method?"
Strings Functions(const FileFacts& facts) {
  Strings out;
  for (const FunctionDef& f : facts.functions) {
    out.push_back(f.qualname + " " + std::to_string(f.line) + "-" + std::to_string(f.end_line) + " (" + Join(f.params) +
                  ") [" + Join(f.decorators) + "]" + (f.is_method ? " method" : ""));
  }
  return out;
}

// "FUNCTION LINE:COL CALLEE"
Strings Calls(const FileFacts& facts) {
  Strings out;
  for (const CallFact& c : facts.calls) {
    out.push_back(c.function + " " + std::to_string(c.line) + ":" + std::to_string(c.col) + " " + c.callee);
  }
  return out;
}

// "FUNCTION LINE KIND TARGET|NAME"
Strings Writes(const FileFacts& facts) {
  Strings out;
  for (const StateWrite& w : facts.state_writes) {
    out.push_back(w.function + " " + std::to_string(w.line) + " " + w.kind + " " + w.target + "|" + w.name);
  }
  return out;
}

// "KIND TARGET|NAME" for each read of a condition of the site at LINE: the nearest one, or FROM_END
// conditions before it (earlier early exits come first).
Strings ReadsAt(const FileFacts& facts, int line, size_t from_end = 0) {
  for (const Site& s : facts.sites) {
    if (s.line != line) continue;
    if (from_end >= s.conditions.size()) {
      ADD_FAILURE() << "site at line " << line << " has " << s.conditions.size() << " conditions";
      return {};
    }
    Strings out;
    for (const StateRead& r : s.conditions[s.conditions.size() - 1 - from_end].reads)
      out.push_back(r.kind + " " + r.target + "|" + r.name);
    return out;
  }
  ADD_FAILURE() << "no site at line " << line;
  return {};
}

constexpr std::string_view kLightning = R"py(
from copy import deepcopy
from functools import wraps

import torch


def _capture_compile_kwargs(compile_fn):
    @wraps(compile_fn)
    def _capture(*args, **kwargs):
        compiled_model = compile_fn(model, **kwargs)
        compiled_model._compile_kwargs = deepcopy(kwargs)
        return compiled_model
    return _capture
torch.compile = _capture_compile_kwargs(torch.compile)


def _verify(obj):
    if (k := getattr(obj, "_compile_kwargs", None)) is None:
        raise RuntimeError("not compiled")
    return k
)py";

TEST(CodeModelTest, DocstringIsCutAtFourKilobytesOnACharacterBoundary) {
  std::string source = "def f():\n    \"\"\"";
  for (int i = 0; i < 3000; ++i) source += "\xC3\xA9";  // 6000 bytes of two-byte characters
  source += "\"\"\"\n";
  FileFacts facts = Extract(source);
  ASSERT_EQ(facts.functions.size(), 1u);
  const std::string& doc = facts.functions[0].docstring;
  EXPECT_LE(doc.size(), 4096u);
  EXPECT_GT(doc.size(), 4000u);
  EXPECT_EQ(doc.substr(doc.size() - 3), "\xE2\x80\xA6");
  EXPECT_EQ(doc.substr(doc.size() - 5, 2), "\xC3\xA9");
}

TEST(CodeModelTest, CallCodeIsTheTrimmedLineCutOnACharacterBoundary) {
  std::string source = "f(\"";
  for (int i = 0; i < 200; ++i) source += "\xC3\xA9";
  source += "\")\r\n";
  FileFacts facts = Extract(source);
  ASSERT_EQ(facts.calls.size(), 1u);
  EXPECT_LE(facts.calls[0].code.size(), 256u);
  EXPECT_EQ(facts.calls[0].code.substr(0, 3), "f(\"");
  EXPECT_EQ(facts.calls[0].code.substr(facts.calls[0].code.size() - 3), "\xE2\x80\xA6");
}

TEST(CodeModelTest, CallsPerFileAreBounded) {
  std::string source;
  for (int i = 0; i < 20100; ++i) source += "f()\n";
  FileFacts facts = Extract(source);
  EXPECT_EQ(facts.calls.size(), kMaxCallsPerFile);
  EXPECT_EQ(kMaxCallsPerFile, 20000u);
}

TEST(CodeModelTest, ClassAttributesAreWritesOfTheClass) {
  FileFacts facts = Extract(R"py(
class Dialect:
    supports_alter = True
    name: str = "default"
    only_annotated: int
    a = b = 0
    x, (y, *z) = 1, (2, 3)
    counter += 1
    del a
    if FLAG:
        flagged = True
    obj.attr = 1
    class Inner:
        depth = 2
    def method(self):
        local = 1
        self.inst = 2
        class InMethod:
            hidden = 3

def factory():
    class Local:
        hidden = 4
    return Local
)py");
  EXPECT_EQ(Writes(facts), (Strings{
                               "Dialect 2 class_attr Dialect|supports_alter",
                               "Dialect 3 class_attr Dialect|name",
                               "Dialect 5 class_attr Dialect|a",
                               "Dialect 5 class_attr Dialect|b",
                               "Dialect 6 class_attr Dialect|x",
                               "Dialect 6 class_attr Dialect|y",
                               "Dialect 6 class_attr Dialect|z",
                               "Dialect 10 class_attr Dialect|flagged",
                               "Dialect 11 assign obj|attr",
                               "Dialect.Inner 13 class_attr Dialect.Inner|depth",
                               "Dialect.method 16 assign self|inst",
                           }));
  ASSERT_FALSE(facts.state_writes.empty());
  EXPECT_EQ(facts.state_writes[0].code, "supports_alter = True");
  // The JSON round trip keeps the kind and target.
  FileFacts back;
  ASSERT_TRUE(FileFactsFromJson(FileFactsToJson(facts), &back));
  EXPECT_EQ(Writes(back), Writes(facts));
}

TEST(CodeModelTest, StateWriteCodeIsCutAt512Bytes) {
  std::string source = "x.a = \"";
  for (int i = 0; i < 400; ++i) source += "\xC3\xA9";
  source += "\"\n";
  FileFacts facts = Extract(source);
  ASSERT_EQ(facts.state_writes.size(), 1u);
  EXPECT_LE(facts.state_writes[0].code.size(), 512u);
  EXPECT_EQ(facts.state_writes[0].code.substr(facts.state_writes[0].code.size() - 3), "\xE2\x80\xA6");
}

TEST(CodeModelTest, JsonRoundTripKeepsEveryField) {
  FileFacts facts = Extract(kLightning);
  facts.functions[0].docstring = "Doc.";
  ASSERT_FALSE(facts.sites.empty());
  ASSERT_FALSE(facts.sites[0].conditions.empty());
  nlohmann::json json = FileFactsToJson(facts);
  EXPECT_FALSE(json.contains("all_names"));
  FileFacts back;
  ASSERT_TRUE(FileFactsFromJson(json, &back));
  EXPECT_EQ(Functions(back), Functions(facts));
  EXPECT_EQ(back.functions[0].docstring, "Doc.");
  EXPECT_EQ(Calls(back), Calls(facts));
  EXPECT_EQ(back.calls[3].code, facts.calls[3].code);
  EXPECT_EQ(Writes(back), Writes(facts));
  EXPECT_EQ(back.state_writes[1].code, facts.state_writes[1].code);
  EXPECT_FALSE(back.has_all);
  ASSERT_EQ(back.sites[0].conditions.size(), facts.sites[0].conditions.size());
  EXPECT_EQ(ReadsAt(back, 19), (Strings{"getattr obj|_compile_kwargs"}));
  EXPECT_EQ(FileFactsToJson(back), json);

  // Calls are stored compactly (a repeated function or line is left out): decoding restores them.
  FileFacts nested = Extract("def f():\n    a(b(c()))\n    d()\ne(f())\n");
  ASSERT_EQ(nested.calls.size(), 6u);
  ASSERT_TRUE(FileFactsFromJson(FileFactsToJson(nested), &back));
  ASSERT_EQ(back.calls.size(), 6u);
  for (size_t i = 0; i < back.calls.size(); ++i) {
    EXPECT_EQ(back.calls[i].function, nested.calls[i].function) << i;
    EXPECT_EQ(back.calls[i].code, nested.calls[i].code) << i;
  }
  EXPECT_EQ(back.calls[2].code, "a(b(c()))");
  EXPECT_EQ(back.calls[5].function, "<module>");

  FileFacts all = Extract("__all__ = []\n");
  nlohmann::json all_json = FileFactsToJson(all);
  EXPECT_TRUE(all_json.contains("all_names"));
  EXPECT_FALSE(all_json.contains("calls"));
  ASSERT_TRUE(FileFactsFromJson(all_json, &back));
  EXPECT_TRUE(back.has_all);
  EXPECT_TRUE(back.all_names.empty());
}

TEST(CodeModelTest, WalrusDeepInAnEarlierStatementIsALocal) {
  std::string source = "def f(p):\n    x = ";
  for (int i = 0; i < 150; ++i) source += "(";
  source += "y := [1, 2]";
  for (int i = 0; i < 150; ++i) source += ")";
  source += "\n    if y and Z:\n        raise E(\"x\")\n";
  FileFacts facts = Extract(source);
  EXPECT_EQ(ReadsAt(facts, 4), (Strings{"name |Z"}));
}

TEST(CodeModelTest, HostileNestingStaysBounded) {
  std::string source;
  for (int i = 0; i < 150; ++i) source += "a.b(";
  for (int i = 0; i < 150; ++i) source += ")";
  source += "\n";
  std::string deep = "x = ";
  for (int i = 0; i < 500; ++i) deep += "f(";
  for (int i = 0; i < 500; ++i) deep += ")";
  deep += "\n";
  FileFacts facts = TestExtractor().Extract(source, ExtractOptions());
  EXPECT_EQ(facts.calls.size(), 150u);
  FileFacts skipped = TestExtractor().Extract(deep, ExtractOptions());
  (void)skipped;  // deep nesting may be skipped as too_deep; it must not crash
}

}  // namespace
}  // namespace errdex
