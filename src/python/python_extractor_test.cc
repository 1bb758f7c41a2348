// Tests of the Python extractor against docs/extraction.md: limits, hostile input, options and threads.
// The cases of the contract (source in, facts out) are corpus files under tests/corpus/extraction/, run by
// extraction_corpus_test.cc. Each expectation was derived from the contract (and checked against what
// CPython would do at run time), not copied from the output.
#include "python/python_extractor.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "extract/template.h"
#include "testing/cpu_time.h"
#include "testing/test_extractor.h"

namespace errdex {
namespace {

using testing_util::TestExtractor;

using Strings = std::vector<std::string>;

class PythonExtractorTest : public ::testing::Test {
 protected:
  // Extracts SOURCE; a single leading newline is dropped so that raw string literals can start on
  // their own line and line 1 is the first line after `R"py(`.
  static FileFacts Extract(std::string_view source, const ExtractOptions& options = ExtractOptions()) {
    if (!source.empty() && source[0] == '\n') source.remove_prefix(1);
    return TestExtractor().Extract(source, options);
  }

  // "LINE:COL-END_LINE KIND TYPE [TEMPLATE] FUNCTION", with `null` for a missing type or template.
  static std::string Describe(const Site& s) {
    return std::to_string(s.line) + ":" + std::to_string(s.col) + "-" + std::to_string(s.end_line) + " " + s.kind +
           " " + s.type.value_or("null") + " " + (s.template_text ? "[" + *s.template_text + "]" : "null") + " " +
           s.function;
  }

  static Strings Sites(const FileFacts& facts) {
    Strings out;
    for (const Site& s : facts.sites) out.push_back(Describe(s));
    return out;
  }

  // The template of the site on the last line of `PREAMBLE raise E(ARGS)`; "null" when it has none.
  static std::string TemplateOf(std::string_view args, std::string_view preamble = "") {
    std::string source(preamble);
    source += "raise E(";
    source += args;
    source += ")\n";
    FileFacts facts = TestExtractor().Extract(source, ExtractOptions());
    EXPECT_EQ(facts.status, "ok") << source;
    if (facts.sites.empty()) return "<no site>";
    const Site& s = facts.sites.back();
    EXPECT_EQ(s.kind, "raise") << source;
    EXPECT_EQ(s.type.value_or(""), "E") << source;
    return s.template_text ? *s.template_text : "null";
  }
};

// Runs FN and fails when it takes a second or more (hostile input must stay fast).
template <typename Fn>
void ExpectFast(Fn fn, const char* what) {
  const double start = testing::ProcessCpuSeconds();
  fn();
  const long ms = testing::CpuMillisecondsSince(start);
  EXPECT_LT(ms, 1000) << what;
}

// ===================================================================================================
// Snippets

TEST_F(PythonExtractorTest, SnippetAroundTheSite) {
  ExtractOptions options;
  options.snippet_context = 1;
  FileFacts facts = Extract("a = 1\nb = 2\nraise E(\n  'x')\nc = 3\nd = 4\n", options);
  ASSERT_EQ(facts.sites.size(), 1u);
  EXPECT_EQ(facts.sites[0].snippet_start, 2);
  EXPECT_EQ(facts.sites[0].snippet, "b = 2\nraise E(\n  'x')\nc = 3");
  options.snippet_context = 15;
  facts = Extract("raise E('only line')", options);
  ASSERT_EQ(facts.sites.size(), 1u);
  EXPECT_EQ(facts.sites[0].snippet_start, 1);
  EXPECT_EQ(facts.sites[0].snippet, "raise E('only line')");
}

// ===================================================================================================
// Hostile input

TEST_F(PythonExtractorTest, FileOverTheSizeLimitIsSkipped) {
  ExtractOptions options;
  options.max_file_size = 64;
  std::string source = "raise E('x')\n";
  source.resize(65, '#');
  FileFacts facts = Extract(source, options);
  EXPECT_EQ(facts.status, "skipped");
  EXPECT_EQ(facts.reason, "too_large");
  EXPECT_TRUE(facts.sites.empty());
  source.resize(64);  // exactly at the limit: read
  facts = Extract(source, options);
  EXPECT_EQ(facts.status, "ok");
  EXPECT_EQ(facts.sites.size(), 1u);
}

TEST_F(PythonExtractorTest, DeeplyNestedParentheses) {
  ExpectFast(
      [&] {
        std::string source = "x = " + std::string(5000, '(') + "1" + std::string(5000, ')') + "\nraise E('after')\n";
        FileFacts facts = Extract(source);
        if (facts.status == "skipped") {
          EXPECT_EQ(facts.reason, "too_deep");
          EXPECT_TRUE(facts.sites.empty());
        } else {
          EXPECT_EQ(Sites(facts), Strings({"2:0-2 raise E [after] <module>"}));
        }
      },
      "5000 parentheses");
}

TEST_F(PythonExtractorTest, DeeplyNestedLists) {
  ExpectFast(
      [&] {
        std::string source = "x = " + std::string(300, '[') + std::string(300, ']') + "\nraise E('after')\n";
        FileFacts facts = Extract(source);
        if (facts.status == "skipped") {
          EXPECT_EQ(facts.reason, "too_deep");
        } else {
          EXPECT_EQ(facts.status, "ok");
          EXPECT_EQ(Sites(facts), Strings({"2:0-2 raise E [after] <module>"}));
        }
      },
      "300 lists");
}

TEST_F(PythonExtractorTest, NestingLimitIsConfigurable) {
  ExtractOptions options;
  options.max_nesting = 50;
  std::string source = "x = " + std::string(300, '[') + std::string(300, ']') + "\nraise E('after')\n";
  FileFacts facts = Extract(source, options);
  EXPECT_EQ(facts.status, "skipped");
  EXPECT_EQ(facts.reason, "too_deep");
}

TEST_F(PythonExtractorTest, DeepMessageExpression) {
  ExpectFast(
      [&] {
        std::string expr = "'a'";
        for (int i = 0; i < 150; ++i) expr = "(" + expr + " + x)";
        FileFacts facts = Extract("raise E(" + expr + ")\n");
        ASSERT_EQ(facts.sites.size(), 1u);
        ASSERT_TRUE(facts.sites[0].template_text.has_value());
      },
      "deep message");
}

TEST_F(PythonExtractorTest, ManyRedundantParenthesesAreTransparent) {
  // CPython accepts up to 200 nested parentheses; all of them are transparent.
  std::string expr = std::string(150, '(') + "'a'" + std::string(150, ')');
  EXPECT_EQ(TemplateOf(expr), "a");
  EXPECT_EQ(TemplateOf(std::string(150, '(') + "x.y" + std::string(150, ')')), "{x.y}");
}

// Deep nesting without brackets: 20000 nested lambdas. Disabled: it currently runs out of memory
// (every scope's qualified name repeats its parents', O(depth^2) bytes, and the too_deep check only
// runs when the bracket depth exceeds 200). Enable once the extractor bounds it.
TEST_F(PythonExtractorTest, DeeplyNestedLambdas) {
  ExpectFast(
      [&] {
        std::string source = "x = ";
        for (int i = 0; i < 20000; ++i) source += "lambda: ";
        source += "1\nraise E('after')\n";
        FileFacts facts = Extract(source);
        if (facts.status == "skipped") {
          EXPECT_EQ(facts.reason, "too_deep");
        } else {
          EXPECT_EQ(Sites(facts), Strings({"2:0-2 raise E [after] <module>"}));
        }
      },
      "20000 lambdas");
}

TEST_F(PythonExtractorTest, MegabyteSingleLineString) {
  ExpectFast(
      [&] {
        std::string body(1 << 20, 'a');
        FileFacts facts = Extract("raise E('" + body + "')\n");
        EXPECT_EQ(facts.status, "ok");
        ASSERT_EQ(facts.sites.size(), 1u);
        EXPECT_EQ(facts.sites[0].template_text.value_or(""), body);
      },
      "1 MB string");
}

TEST_F(PythonExtractorTest, ManyOpenBracesAsFormatString) {
  ExpectFast(
      [&] {
        // An even run of braces is doubled braces: 50000 literal `{`, rendered doubled again.
        FileFacts facts = Extract("raise E('" + std::string(100000, '{') + "'.format(a))\n");
        ASSERT_EQ(facts.sites.size(), 1u);
        EXPECT_EQ(facts.sites[0].template_text.value_or(""), std::string(100000, '{'));
      },
      "100000 braces");
  ExpectFast(
      [&] {
        // Unclosed fields everywhere.
        std::string fmt;
        for (int i = 0; i < 50000; ++i) fmt += "{0";
        FileFacts facts = Extract("raise E('" + fmt + "'.format(a))\n");
        ASSERT_EQ(facts.sites.size(), 1u);
        EXPECT_TRUE(facts.sites[0].template_text.has_value());
      },
      "50000 unclosed fields");
  ExpectFast(
      [&] {
        FileFacts facts = Extract("raise E(\"{\" * 100000 .format(a))\n");
        // The placeholder's brace does not balance: it is written as U+2774 so the template parses back.
        EXPECT_EQ(Sites(facts), Strings({"1:0-1 raise E [{\"\u2774\" * 100000 .format(a)}] <module>"}));
      },
      "brace expression");
}

TEST_F(PythonExtractorTest, ManyPercentParentheses) {
  ExpectFast(
      [&] {
        std::string fmt;
        for (int i = 0; i < 100000; ++i) fmt += "%(";
        FileFacts facts = Extract("raise E('" + fmt + "' % d)\n");
        ASSERT_EQ(facts.sites.size(), 1u);
        EXPECT_EQ(facts.sites[0].template_text.value_or(""), fmt);  // no valid conversion: literal
      },
      "100000 %(");
}

TEST_F(PythonExtractorTest, ManyFieldsAndConversions) {
  ExpectFast(
      [&] {
        std::string f;
        for (int i = 0; i < 30000; ++i) f += "{x}";
        FileFacts facts = Extract("raise E(f'" + f + "')\n");
        ASSERT_EQ(facts.sites.size(), 1u);
        EXPECT_EQ(facts.sites[0].template_text.value_or(""), f);
      },
      "30000 f-string fields");
  ExpectFast(
      [&] {
        std::string fmt;
        for (int i = 0; i < 50000; ++i) fmt += "%(k)s";
        FileFacts facts = Extract("raise E('" + fmt + "' % d)\n");
        ASSERT_EQ(facts.sites.size(), 1u);
        EXPECT_EQ(facts.sites[0].template_text.value_or("").size(), 50000u * 3);
      },
      "50000 %(k)s");
}

TEST_F(PythonExtractorTest, LongConcatenationChain) {
  ExpectFast(
      [&] {
        std::string expr;
        for (int i = 0; i < 5000; ++i) expr += "'a' + ";
        expr += "'b'";
        FileFacts facts = Extract("raise E(" + expr + ")\n");
        ASSERT_EQ(facts.sites.size(), 1u);
        EXPECT_TRUE(facts.sites[0].template_text.has_value());
      },
      "5000 +");
}

// A class text joined from a list that many statements change, each join of a chain of lists re-reading
// the body (docs/extraction.md, "Class messages"): bounded, and a list past 64 items is not known.
TEST_F(PythonExtractorTest, ClassTextsOfLongAssembledListsAreBounded) {
  ExpectFast(
      [&] {
        std::string source = "class E(Exception):\n    def __str__(self):\n        p0 = ['start']\n";
        for (int i = 1; i < 16; ++i) source += "        p" + std::to_string(i) + " = p" + std::to_string(i - 1) + "\n";
        for (int i = 0; i < 2000; ++i) source += "        if self.x:\n            p0.append('part')\n";
        for (int i = 0; i < 50; ++i) source += "        t" + std::to_string(i) + " = ''.join(p15)\n";
        source += "        return 'text: ' + ''.join(p15)\n";
        source +=
            "class F(Exception):\n    def __str__(self):\n        q = ['a', 'b']\n        q.append('c')\n"
            "        return '-'.join(q)\n";
        FileFacts facts = Extract(source);
        ASSERT_EQ(facts.classes.size(), 2u);
        EXPECT_EQ(facts.classes[0].message, "text: {''.join(p15)}");
        EXPECT_EQ(facts.classes[1].message, "a-b-c");
      },
      "2000 appends under 16 names");
}

TEST_F(PythonExtractorTest, ManySites) {
  ExpectFast(
      [&] {
        std::string source;
        for (int i = 0; i < 5000; ++i) source += "raise E('site %d' % i)\n";
        FileFacts facts = Extract(source);
        ASSERT_EQ(facts.sites.size(), 5000u);
        EXPECT_EQ(facts.sites[4999].line, 5000);
        EXPECT_EQ(facts.sites[4999].template_text.value_or(""), "site {i}");
      },
      "5000 sites");
}

TEST_F(PythonExtractorTest, IsUsableFromSeveralThreadsAtOnce) {
  // Extract() is documented thread-safe; run it concurrently on the same input.
  const std::string source = "def f(x):\n    raise ValueError(f'bad {x}')\n";
  std::vector<FileFacts> results(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < results.size(); ++i) {
    threads.emplace_back([&, i] { results[i] = TestExtractor().Extract(source, ExtractOptions()); });
  }
  for (std::thread& t : threads) t.join();
  for (const FileFacts& r : results) EXPECT_EQ(Sites(r), Strings({"2:4-2 raise ValueError [bad {x}] f"}));
}

// ===================================================================================================
// Translation functions and keyword messages

}  // namespace
}  // namespace errdex
