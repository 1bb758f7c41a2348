#include "analysis/doc_mentions.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "source/source.h"
#include "testing/cpu_time.h"
#include "testing/test_extractor.h"

namespace errdex {
namespace {

const char kGuide[] =
    "Troubleshooting\n"
    "===============\n"
    "\n"
    "If you see ``Device should be CUDA, got cpu``, move the model\n"
    "to the GPU first with ``model.cuda()``.\n"
    "\n"
    "The hook ``configure_optimizers`` must return an optimizer.\n"
    "Call configure_optimizers_v2 for the new API.\n";

const char kReadme[] =
    "# Project\n"
    "\n"
    "When the device is wrong you get: Device should be CUDA, got cpu instead, move it first.\n"
    "\n"
    "Use `predict(` to run inference, or read about predict in general.\n"
    "We predict that predicted values and `predictor` differ.\n";

std::vector<Document> Docs() { return {{"docs/guide.rst", 1, kGuide}, {"README.md", 1, kReadme}}; }

TEST(DocMentionsTest, MessageHitsComeFirstWithTheirParagraph) {
  DocMentionFinder finder(Docs());
  const auto out = finder.Find(
      {{{"Device should be CUDA, got ", " instead, move it first.", " instead."}, "configure_optimizers"}}, 10);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].size(), 3u);
  // Both phrases on one line beat one phrase.
  EXPECT_EQ(out[0][0].path, "README.md");
  EXPECT_EQ(out[0][0].line, 3);
  EXPECT_EQ(out[0][0].kind, "message");
  EXPECT_EQ(out[0][0].matched, "Device should be CUDA, got");
  EXPECT_EQ(out[0][0].passage,
            "When the device is wrong you get: Device should be CUDA, got cpu instead, move it first.");
  EXPECT_EQ(out[0][1].path, "docs/guide.rst");
  EXPECT_EQ(out[0][1].line, 4);
  EXPECT_EQ(out[0][1].kind, "message");
  EXPECT_EQ(out[0][1].passage,
            "If you see ``Device should be CUDA, got cpu``, move the model to the GPU first with ``model.cuda()``.");
  // The function: a whole identifier only (not configure_optimizers_v2).
  EXPECT_EQ(out[0][2].path, "docs/guide.rst");
  EXPECT_EQ(out[0][2].line, 7);
  EXPECT_EQ(out[0][2].kind, "function");
  EXPECT_EQ(out[0][2].matched, "configure_optimizers");
}

TEST(DocMentionsTest, ShortCodeOrCommonPhrasesAreNoMessageMention) {
  DocMentionFinder finder({{"a.md", 1, "When using the trainer, see `Trainer(monitor=x)` and more.\n"}});
  // "When using the" is under kMinMessageMatchBytes; "`Trainer(monitor=" has no space: code, not prose.
  EXPECT_TRUE(finder.Find({{{"When using the ", "`Trainer(monitor="}, ""}}, 5)[0].empty());
  // A phrase shared by more than kMaxQueriesPerPhrase queries counts for none of them.
  std::vector<MentionQuery> many(kMaxQueriesPerPhrase + 1, MentionQuery{{"When using the trainer, see"}, ""});
  const auto shared = finder.Find(many, 5);
  for (const auto& mentions : shared) EXPECT_TRUE(mentions.empty());
  many.resize(kMaxQueriesPerPhrase);
  EXPECT_EQ(finder.Find(many, 5)[0].size(), 1u);
}

TEST(DocMentionsTest, MessagesWrappedOverLinesAreFound) {
  DocMentionFinder finder(
      {{"docs/a.rst", 1, "Intro.\n\nThe error   `the trainer was\n   already fitted` means so.\n"}});
  const auto out = finder.Find({{{"the trainer was already fitted"}, ""}}, 5);
  ASSERT_EQ(out[0].size(), 1u);
  EXPECT_EQ(out[0][0].line, 3);
  EXPECT_EQ(out[0][0].passage, "The error `the trainer was already fitted` means so.");
  EXPECT_EQ(out[0][0].matched, "the trainer was already fitted");
}

TEST(DocMentionsTest, PlainWordNamesNeedCodeForm) {
  DocMentionFinder finder(Docs());
  const auto out = finder.Find({{{}, "predict"}, {{}, "predictor"}, {{}, "fit"}, {{}, "__init__"}}, 10);
  ASSERT_EQ(out[0].size(), 1u);  // `predict(`, not "about predict", "We predict", "predicted"
  EXPECT_EQ(out[0][0].line, 5);
  EXPECT_EQ(out[0][0].kind, "function");
  ASSERT_EQ(out[1].size(), 1u);  // `predictor`
  EXPECT_EQ(out[1][0].line, 6);
  EXPECT_TRUE(out[2].empty());  // too short
  EXPECT_TRUE(out[3].empty());  // a dunder
}

TEST(DocMentionsTest, SpecificNames) {
  EXPECT_TRUE(IsSpecificFunctionName("configure_optimizers"));
  EXPECT_TRUE(IsSpecificFunctionName("to_cpu"));
  EXPECT_TRUE(IsSpecificFunctionName("predict"));
  EXPECT_TRUE(IsSpecificFunctionName("_fit"));
  EXPECT_FALSE(IsSpecificFunctionName("fit"));
  EXPECT_FALSE(IsSpecificFunctionName("setup"));
  EXPECT_FALSE(IsSpecificFunctionName("__init__"));
  EXPECT_FALSE(IsSpecificFunctionName("___"));
  EXPECT_FALSE(IsSpecificFunctionName("a.b_c"));
  EXPECT_FALSE(IsSpecificFunctionName(""));
}

TEST(DocMentionsTest, DedupesByLineLimitsAndKeepsQueriesApart) {
  DocMentionFinder finder({{"a.md", 1, "alpha_beta alpha_beta\nalpha_beta\n\nalpha_beta and the message text here\n"},
                           {"pkg/mod.py", 40, "Docstring about alpha_beta.\n"}});
  const auto out = finder.Find({{{"the message text here"}, "alpha_beta"}, {{}, "alpha_beta"}, {{}, ""}}, 3);
  ASSERT_EQ(out.size(), 3u);
  ASSERT_EQ(out[0].size(), 3u);
  EXPECT_EQ(out[0][0].line, 4);
  EXPECT_EQ(out[0][0].kind, "message");  // the function hit on the same line is folded into it
  EXPECT_EQ(out[0][1].line, 1);
  EXPECT_EQ(out[0][2].line, 2);
  ASSERT_EQ(out[1].size(), 3u);
  EXPECT_EQ(out[1][0].line, 1);
  EXPECT_EQ(out[1][1].line, 2);
  EXPECT_EQ(out[1][2].line, 4);
  const auto all = finder.Find({{{}, "alpha_beta"}}, 10);
  ASSERT_EQ(all[0].size(), 4u);
  EXPECT_EQ(all[0][3].path, "pkg/mod.py");
  EXPECT_EQ(all[0][3].line, 40);  // docstring lines are lines of their file
  EXPECT_TRUE(out[2].empty());
  EXPECT_TRUE(finder.Find({{{"x"}, ""}}, 0)[0].empty());
}

TEST(DocMentionsTest, LongParagraphsAreCutAroundTheHitOnUtf8Boundaries) {
  std::string paragraph;
  for (int i = 0; i < 200; ++i) paragraph += "é word ";
  paragraph += "the special message text ";
  for (int i = 0; i < 200; ++i) paragraph += "ü word ";
  DocMentionFinder finder({{"long.md", 1, paragraph + "\n"}});
  const auto out = finder.Find({{{"the special message text"}, ""}}, 1);
  ASSERT_EQ(out[0].size(), 1u);
  const std::string& p = out[0][0].passage;
  EXPECT_LE(p.size(), kMaxPassageBytes);
  EXPECT_GT(p.size(), kMaxPassageBytes - 10);
  EXPECT_NE(p.find("the special message text"), std::string::npos);
  EXPECT_EQ(p.substr(0, 3), "…");
  EXPECT_EQ(p.substr(p.size() - 3), "…");
  for (size_t i = 0; i < p.size();) {  // valid UTF-8 throughout
    const unsigned char c = static_cast<unsigned char>(p[i]);
    const size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
    ASSERT_NE(c >> 6, 2u) << "continuation byte at " << i;
    i += n;
  }
}

TEST(DocMentionsTest, ScalesToManyQueriesOverLargeDocuments) {
  // 10k queries (two phrases and a name each) over ~20 MB of documentation.
  std::vector<Document> docs;
  std::string filler;
  for (int i = 0; i < 2000; ++i) filler += "Some ordinary documentation line " + std::to_string(i) + " here.\n";
  size_t total = 0;
  for (int d = 0; total < 20u * 1024 * 1024; ++d) {
    std::string text = filler;
    text += "The value of parameter_" + std::to_string(d) + " must be positive, got a negative number.\n";
    total += text.size();
    docs.push_back({"docs/page" + std::to_string(d) + ".md", 1, std::move(text)});
  }
  std::vector<MentionQuery> queries;
  for (int q = 0; q < 10000; ++q) {
    // One phrase of its own, one shared by ten queries, one shared by all (dropped: kMaxQueriesPerPhrase).
    queries.push_back({{"The value of parameter_" + std::to_string(q) + " must be positive",
                        "shared phrase number " + std::to_string(q / 10), "a negative number."},
                       "function_number_" + std::to_string(q)});
  }
  DocMentionFinder finder(std::move(docs));
  const double started = testing::ProcessCpuSeconds();
  const auto out = finder.Find(queries, 3);
  const double seconds = testing::ProcessCpuSeconds() - started;
  std::printf("10k queries over %.1f MB: %.2f s\n", static_cast<double>(total) / 1e6, seconds);
  ASSERT_EQ(out.size(), queries.size());
  ASSERT_FALSE(out[7].empty());
  EXPECT_EQ(out[7][0].path, "docs/page7.md");
  EXPECT_EQ(out[7][0].line, 2001);
  EXPECT_EQ(out[7][0].matched, "The value of parameter_7 must be positive");
  EXPECT_EQ(out[7][0].kind, "message");
  EXPECT_LT(seconds, 30.0);  // Debug build on a shared machine; see the printed figure
}

}  // namespace
}  // namespace errdex

namespace errdex {
namespace {

// A measurement on a real repository, run by hand:
//   ERRDEX_DOCS_BENCH_REPO=/work/.mirror/Lightning-AI+pytorch-lightning/repo
//   ./build/errdex_tests --gtest_also_run_disabled_tests --gtest_filter='*DocMentions*DISABLED_Benchmark*'
// Documents: every ListDocuments() file at HEAD. Queries: one per site with a template in the *.py files,
// its literal pieces >= 12 bytes as phrases and the last component of its function as the name.
TEST(DocMentionsTest, DISABLED_Benchmark) {
  const char* location = std::getenv("ERRDEX_DOCS_BENCH_REPO");
  if (location == nullptr) GTEST_SKIP() << "set ERRDEX_DOCS_BENCH_REPO to a git dir";
  std::string error;
  std::unique_ptr<Source> source = Source::Open(location, "HEAD", &error);
  ASSERT_NE(source, nullptr) << error;
  std::vector<SourceEntry> entries;
  std::vector<SourceSkip> skips;
  ASSERT_TRUE(source->ListDocuments(&entries, &skips, &error)) << error;
  std::vector<Document> docs;
  size_t bytes = 0;
  for (const SourceEntry& e : entries) {
    std::string text;
    if (!source->Read(e, &text, &error)) continue;
    bytes += text.size();
    docs.push_back({e.path, 1, std::move(text)});
  }
  ASSERT_TRUE(source->List(&entries, &skips, &error)) << error;
  std::vector<MentionQuery> queries;
  std::vector<std::string> labels;
  for (const SourceEntry& e : entries) {
    std::string content;
    if (!source->Read(e, &content, &error)) continue;
    const FileFacts facts = testing_util::TestExtractor().Extract(content, ExtractOptions{});
    for (const Site& site : facts.sites) {
      if (!site.template_text) continue;
      MentionQuery q;
      std::string piece;
      int depth = 0;
      for (char c : *site.template_text + "{") {
        if (c == '{') {
          if (depth == 0 && piece.size() >= 12) q.phrases.push_back(piece);
          piece.clear();
          ++depth;
        } else if (c == '}') {
          if (depth > 0) --depth;
        } else if (depth == 0) {
          piece += c;
        }
      }
      const size_t dot = site.function.rfind('.');
      q.function_name = dot == std::string::npos ? site.function : site.function.substr(dot + 1);
      if (q.function_name == "<module>") q.function_name.clear();
      labels.push_back(e.path + ":" + std::to_string(site.line));
      queries.push_back(std::move(q));
    }
  }
  const size_t doc_count = docs.size();
  const auto started = std::chrono::steady_clock::now();
  DocMentionFinder finder(std::move(docs));
  const auto out = finder.Find(queries, 3);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  size_t with_message = 0, with_function = 0;
  for (size_t q = 0; q < out.size(); ++q) {
    bool message = false, function = false;
    for (const Mention& m : out[q]) (m.kind == "message" ? message : function) = true;
    with_message += message;
    with_function += function;
    if ((message && with_message % 2 == 1) || (!message && function && with_function % 40 == 1)) {
      std::printf("sample %s -> %s:%d [%s] %s\n", labels[q].c_str(), out[q][0].path.c_str(), out[q][0].line,
                  out[q][0].matched.c_str(), out[q][0].passage.substr(0, 160).c_str());
    }
  }
  std::printf("%zu documents, %.1f MB, %zu queries: %.3f s; %zu with a message mention, %zu with a function mention\n",
              doc_count, static_cast<double>(bytes) / 1e6, queries.size(), seconds, with_message, with_function);
}

}  // namespace
}  // namespace errdex
