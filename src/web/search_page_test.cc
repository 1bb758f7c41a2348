// Tests of the search page's rendering of an explanation (web/pages.h): the chain's links, escaped.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "web/pages.h"

namespace errdex::web {
namespace {

nlohmann::json Match(const std::string& id, const std::string& type, const std::string& path,
                     const nlohmann::json& bindings) {
  return {{"id", id},
          {"type", type},
          {"template", "{e}"},
          {"score", 0.5},
          {"bindings", bindings},
          {"site", {{"repo", "pypi/x"}, {"path", path}, {"line", 3}, {"function", "f"}}},
          {"why", nlohmann::json::array()}};
}

TEST(SearchPageTest, ShowsTheOtherLinksOfAChainWithTheirBindings) {
  nlohmann::json explanation = {
      {"input_kind", "message"},
      {"type", "high.ConnectionError"},
      {"message", "boom"},
      {"matches", {Match("0123456789abcdef", "high.ConnectionError", "high/api.py", {{"e", "boom"}})}},
      {"chain", {Match("fedcba9876543210", "low.MaxRetryError", "low/pool.py", {{"url", "<script>/x"}})}}};
  const std::string html = RenderSearchPage("high.ConnectionError: boom", explanation);
  const size_t chain = html.find("Other links of the chain");
  ASSERT_NE(chain, std::string::npos);
  EXPECT_LT(html.find("high/api.py"), chain);
  EXPECT_GT(html.find("low/pool.py"), chain);
  EXPECT_NE(html.find("&lt;script&gt;/x"), std::string::npos);
  EXPECT_EQ(html.find("<script>/x"), std::string::npos);
}

TEST(SearchPageTest, NoChainNoSection) {
  nlohmann::json explanation = {{"input_kind", "message"},
                                {"type", "X"},
                                {"message", "m"},
                                {"matches", {Match("0123456789abcdef", "X", "a.py", nlohmann::json::object())}}};
  EXPECT_EQ(RenderSearchPage("X: m", explanation).find("Other links of the chain"), std::string::npos);
}

}  // namespace
}  // namespace errdex::web
