#include "catalog/stored_lists.h"

#include <gtest/gtest.h>

namespace errdex {
namespace {

TEST(StoredListsTest, StringsReadBackAsWritten) {
  for (const std::vector<std::string>& list :
       std::vector<std::vector<std::string>>{{"a.B", "C"}, {"say \"hi\"", "a,b", "back\\slash", "new\nline"}, {""}}) {
    const std::optional<std::string> text = StoredStringsText(list);
    ASSERT_TRUE(text);
    EXPECT_EQ(StoredStrings(*text), list);
  }
  EXPECT_FALSE(StoredStringsText({}));
}

TEST(StoredListsTest, BadStoredStringsReadAsNothingOrSkipTheirBadItems) {
  EXPECT_TRUE(StoredStrings("").empty());
  EXPECT_TRUE(StoredStrings("[]").empty());
  EXPECT_TRUE(StoredStrings("not json").empty());
  EXPECT_TRUE(StoredStrings("[\"a\",]").empty());  // a trailing comma is no JSON
  EXPECT_TRUE(StoredStrings("{\"a\": 1}").empty());
  EXPECT_EQ(StoredStrings("[\"a\", 1, \"b\"]"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(StoredStrings("[\"a\", \"b\"]"), (std::vector<std::string>{"a", "b"}));
}

TEST(StoredListsTest, PrintedTextsReadBackAsWritten) {
  const std::vector<PrintedText> texts = {
      {"ImportError while loading conftest '{path}'.", "src/_pytest/config/__init__.py", 159,
       "print_conftest_import_error", 232, "_main"},
      {"it said \"no\"", "a.py", 1, "f", 2, "g"}};
  const std::vector<PrintedText> back = StoredPrintedTexts(StoredPrintedTextsText(texts));
  ASSERT_EQ(back.size(), texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(back[i].template_text, texts[i].template_text);
    EXPECT_EQ(back[i].path, texts[i].path);
    EXPECT_EQ(back[i].line, texts[i].line);
    EXPECT_EQ(back[i].function, texts[i].function);
    EXPECT_EQ(back[i].handler_line, texts[i].handler_line);
    EXPECT_EQ(back[i].handler_function, texts[i].handler_function);
  }
  EXPECT_EQ(StoredPrintedTextsText({}), "");
  EXPECT_TRUE(StoredPrintedTexts("").empty());
  EXPECT_EQ(StoredPrintedTexts("[[\"t\", \"p\", 1], \"x\", [\"t\", \"p\", 1, \"f\", 2, \"g\"]]").size(), 1u);
}

}  // namespace
}  // namespace errdex
