// The OpenAPI description (src/web/openapi.h) parses as JSON, is OpenAPI 3, describes every route of
// docs/web.md and has no dangling reference.
#include "web/openapi.h"

#include <gtest/gtest.h>

#include <functional>

namespace errdex::web {
namespace {

TEST(OpenApiTest, ParsesAndDescribesEveryRoute) {
  const nlohmann::json doc = nlohmann::json::parse(OpenApiJson().dump());
  ASSERT_TRUE(doc.is_object());
  EXPECT_EQ(doc["openapi"].get<std::string>().substr(0, 2), "3.");
  EXPECT_TRUE(doc["info"]["title"].is_string());
  EXPECT_TRUE(doc["info"]["version"].is_string());
  for (const char* path :
       {"/", "/search", "/repos/{owner}/{name}", "/errors/{id}", "/api/errors/{id}", "/api/match", "/api/repos",
        "/api/repos/{owner}/{name}/errors", "/api/openapi.json", "/api/search-index.json",
        "/api/repos/{owner}/{name}/diff", "/api/repos/{owner}/{name}/diff/{from}..{to}", "/repos/{owner}/{name}/diff",
        "/repos/{owner}/{name}/diff/{from}..{to}"}) {
    ASSERT_TRUE(doc["paths"].contains(path)) << path;
    const nlohmann::json& item = doc["paths"][path];
    ASSERT_TRUE(item.contains("get") || item.contains("post")) << path;
    for (const auto& [method, op] : item.items()) {
      EXPECT_TRUE(op.contains("responses")) << path << " " << method;
      EXPECT_TRUE(op["responses"].contains("200")) << path << " " << method;
      // Every {parameter} of the path is declared.
      for (size_t open = std::string(path).find('{'); open != std::string::npos;
           open = std::string(path).find('{', open + 1)) {
        const std::string name = std::string(path).substr(open + 1, std::string(path).find('}', open) - open - 1);
        bool declared = false;
        for (const nlohmann::json& p : op.value("parameters", nlohmann::json::array())) {
          declared = declared || (p["in"] == "path" && p["name"] == name && p["required"] == true);
        }
        EXPECT_TRUE(declared) << path << " " << name;
      }
    }
  }
  EXPECT_TRUE(doc["paths"]["/api/match"].contains("post"));
  EXPECT_TRUE(doc["paths"]["/search"].contains("post"));
  EXPECT_TRUE(doc["paths"]["/search"].contains("get"));
}

TEST(OpenApiTest, EveryReferenceResolves) {
  const nlohmann::json doc = OpenApiJson();
  int refs = 0;
  std::function<void(const nlohmann::json&)> walk = [&](const nlohmann::json& v) {
    if (v.is_object()) {
      if (v.contains("$ref")) {
        const std::string ref = v["$ref"].get<std::string>();
        ASSERT_EQ(ref.rfind("#/components/schemas/", 0), 0u) << ref;
        EXPECT_TRUE(doc["components"]["schemas"].contains(ref.substr(21))) << ref;
        ++refs;
      }
      for (const auto& [k, item] : v.items()) walk(item);
    } else if (v.is_array()) {
      for (const auto& item : v) walk(item);
    }
  };
  walk(doc);
  EXPECT_GT(refs, 5);
}

}  // namespace
}  // namespace errdex::web
