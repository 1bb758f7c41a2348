// Tests of the error page (src/web/error_page.h): the example page's sections in order, sections left out
// without data, links to pinned permalinks and to other pages, and escaping of hostile content.
#include "web/error_page.h"

#include <gtest/gtest.h>

#include <regex>

namespace errdex::web {
namespace {

using nlohmann::json;

const char* const kSha = "9fed5c27d2a1b2c3d4e5f60718293a4b5c6d7e8f";

json Site(const std::string& path, int line, bool is_test = false) {
  return {{"rev", kSha},
          {"path", path},
          {"line", line},
          {"col", 12},
          {"end_line", line + 3},
          {"kind", "raise"},
          {"type", "RuntimeError"},
          {"type_qualified", "builtins.RuntimeError"},
          {"template", "Failed to determine the arguments"},
          {"function", "_unwrap_compiled"},
          {"is_test", is_test},
          {"permalink", "https://github.com/Lightning-AI/pytorch-lightning/blob/" + std::string(kSha) + "/" + path +
                            "#L" + std::to_string(line)},
          {"via", nullptr}};
}

json MinimalReport() {
  return {{"id", "87dc5ad37e85ba4e"},
          {"repo", "Lightning-AI/pytorch-lightning"},
          {"url", "https://github.com/Lightning-AI/pytorch-lightning"},
          {"kind", "raise"},
          {"type", "RuntimeError"},
          {"type_qualified", "builtins.RuntimeError"},
          {"template",
           "Failed to determine the arguments that were used to compile the module. Make sure to import lightning "
           "before `torch.compile` is used."},
          {"normalized_template", "..."},
          {"sites", json::array({Site("src/lightning/fabric/wrappers.py", 356)})},
          {"snippet",
           {{"path", "src/lightning/fabric/wrappers.py"},
            {"start_line", 354},
            {"line", 356},
            {"end_line", 359},
            {"text",
             "    if isinstance(obj, OptimizedModule):\n"
             "        if (compile_kwargs := getattr(obj, \"_compile_kwargs\", None)) is None:\n"
             "            raise RuntimeError(\n"
             "                \"Failed to determine the arguments that were used to compile the module. Make sure to "
             "import\"\n"
             "                \" lightning before `torch.compile` is used.\"\n"
             "            )\n"
             "        return obj._orig_mod, compile_kwargs\n"}}},
          {"exception_class", {{"qualified_name", "builtins.RuntimeError"}, {"builtin", true}}},
          {"revisions", json::array({{{"rev", kSha},
                                      {"indexed_at", "2026-08-29T10:00:00Z"},
                                      {"committed_at", "2026-08-28T09:00:00Z"},
                                      {"source", "/src"}}})}};
}

json FullReport() {
  json r = MinimalReport();
  r["explanation"] = {
      {"meaning", {{"summary", "_unwrap_compiled() reads _compile_kwargs of a compiled module."}}},
      {"conditions", json::array({{{"kind", "if"},
                                   {"code", "if isinstance(obj, OptimizedModule):"},
                                   {"line", 354},
                                   {"negated", false},
                                   {"path", "src/lightning/fabric/wrappers.py"},
                                   {"function", "_unwrap_compiled"}},
                                  {{"kind", "if"},
                                   {"code", "if (compile_kwargs := getattr(obj, \"_compile_kwargs\", None)) is None:"},
                                   {"line", 355},
                                   {"negated", false}}})},
      {"state",
       json::array(
           {{{"read", {{"kind", "getattr"}, {"target", "obj"}, {"name", "_compile_kwargs"}}},
             {"path", "src/lightning/fabric/wrappers.py"},
             {"line", 355},
             {"function", "_unwrap_compiled"},
             {"code", "if (compile_kwargs := getattr(obj, \"_compile_kwargs\", None)) is None:"},
             {"writers",
              json::array({{{"path", "src/lightning/fabric/wrappers.py"},
                            {"line", 410},
                            {"function", "_capture_compile_kwargs.<locals>._capture"},
                            {"code", "compiled_model._compile_kwargs = deepcopy(kwargs)"},
                            {"kind", "assign"},
                            {"is_test", false},
                            {"installed_by",
                             json::array({{{"path", "src/lightning/fabric/wrappers.py"},
                                           {"line", 416},
                                           {"code", "torch.compile = _capture_compile_kwargs(torch.compile)"}}})}}})},
             {"more", 0}}})},
      {"triggers",
       {{"call_paths",
         json::array({{{"certain", true},
                       {"frames", json::array({{{"path", "src/lightning/fabric/fabric.py"},
                                                {"line", 220},
                                                {"function", "Fabric.setup"},
                                                {"code", "module, compile_kwargs = _unwrap_compiled(module)"}},
                                               {{"path", "src/lightning/fabric/wrappers.py"},
                                                {"line", 356},
                                                {"function", "_unwrap_compiled"},
                                                {"code", "raise RuntimeError("}}})}},
                      {{"certain", false},
                       {"frames", json::array({{{"path", "src/lightning/fabric/fabric.py"},
                                                {"line", 500},
                                                {"function", "Fabric.load"},
                                                {"code", "x = self._unwrap(m)"}}})}}})},
        {"tests", json::array({{{"path", "tests/test_wrappers.py"},
                                {"line", 42},
                                {"function", "test_unwrap_compiled"},
                                {"kind", "pytest.raises"},
                                {"type", "RuntimeError"},
                                {"match", "Failed to determine"},
                                {"reaches", {{"path", "src/lightning/fabric/wrappers.py"}, {"line", 356}}},
                                {"code",
                                 "with pytest.raises(RuntimeError, match=\"Failed to determine\"):\n"
                                 "    _unwrap_compiled(torch.compile(model))"}}})}}},
      {"solutions", json::array({{{"kind", "advice"},
                                  {"text", "Make sure to import lightning before `torch.compile` is used."},
                                  {"path", "src/lightning/fabric/wrappers.py"},
                                  {"line", 356}},
                                 {{"kind", "docs"},
                                  {"path", "docs/compile.rst"},
                                  {"line", 12},
                                  {"passage", "Import `lightning` <b>first</b>."},
                                  {"matched", "torch.compile"},
                                  {"mentions", "message"}}})},
      {"history",
       {{"commit", std::string(kSha)},
        {"summary", "Capture compile kwargs"},
        {"author", "awaelchli"},
        {"committed_at", "2024-01-24T02:17:41Z"},
        {"bounded", false}}}};
  r["related"] = json::array({{{"id", "0123456789abcdef"},
                               {"type", "RuntimeError"},
                               {"template", "Device should be CUDA, got {device} instead."},
                               {"reason", "same function"}},
                              {{"id", "not-an-id"}, {"type", "X"}, {"template", "dropped"}, {"reason", "bad id"}}});
  return r;
}

size_t Find(const std::string& page, const std::string& needle) {
  const size_t at = page.find(needle);
  EXPECT_NE(at, std::string::npos) << "missing: " << needle;
  return at;
}

TEST(ErrorPageTest, MinimalReportHasTitleMessageMeaningSourceFooterOnly) {
  const std::string page = RenderErrorPage(MinimalReport(), "../");
  const size_t title = Find(page,
                            "<p class=\"title-line\"><a href=\"../repos/Lightning-AI/pytorch-lightning.html\">"
                            "Lightning-AI/pytorch-lightning</a> · error · <span class=\"type\">RuntimeError</span>");
  const size_t message = Find(page, "<section id=\"message\">");
  const size_t meaning = Find(page, "<section id=\"meaning\">");
  const size_t source = Find(page, "<section id=\"source\">");
  const size_t footer = Find(page, "<footer class=\"error-footer\">");
  EXPECT_LT(title, message);
  EXPECT_LT(message, meaning);
  EXPECT_LT(meaning, source);
  EXPECT_LT(source, footer);
  for (const char* absent :
       {"id=\"solutions\"", "id=\"example\"", "id=\"when\"", "id=\"related\"", "<h3>When the raise runs"}) {
    EXPECT_EQ(page.find(absent), std::string::npos) << absent;
  }
  Find(page, "Unspecified run-time error.");
  Find(page, "Thrown at <a class=\"loc\" href=\"https://github.com/Lightning-AI/pytorch-lightning/blob/" +
                 std::string(kSha) +
                 "/src/lightning/fabric/wrappers.py#L356\">src/lightning/fabric/wrappers.py:356</a>");
  Find(page, ">View on GitHub (pinned to 9fed5c27d2)</a>");
  Find(page, "<a href=\"../api/errors/87dc5ad37e85ba4e.json\">/api/errors/87dc5ad37e85ba4e</a>");
  Find(page, "committed 2026-08-28T09:00:00Z");
  // The raise (lines 356 to 359) is marked, the lines around it are not.
  Find(page, "<span class=\"l\"><span class=\"n\">355</span>");
  Find(page, "<span class=\"l hit\"><span class=\"n\">356</span>");
  Find(page, "<span class=\"l hit\"><span class=\"n\">359</span>");
  Find(page, "<span class=\"l\"><span class=\"n\">360</span>");
  Find(page, "<span class=\"kw\">raise</span>");
  // Stylesheet from a file, no inline script or style.
  Find(page, "<link rel=\"stylesheet\" href=\"../static/errdex.css\">");
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("style="), std::string::npos);
}

TEST(ErrorPageTest, FullReportHasEverySectionInTheExampleOrder) {
  const std::string page = RenderErrorPage(FullReport(), "../");
  std::vector<size_t> at;
  for (const char* id : {"message", "meaning", "source", "solutions", "example", "when", "related"}) {
    at.push_back(Find(page, std::string("<section id=\"") + id + "\">"));
  }
  at.push_back(Find(page, "<footer class=\"error-footer\">"));
  for (size_t i = 1; i < at.size(); ++i) EXPECT_LT(at[i - 1], at[i]) << i;
  Find(page, "_unwrap_compiled() reads _compile_kwargs of a compiled module.");
  Find(page, "<h3>When the raise runs</h3>");
  // A condition without a path takes the site's; its code is highlighted and linked.
  Find(page, "href=\"https://github.com/Lightning-AI/pytorch-lightning/blob/" + std::string(kSha) +
                 "/src/lightning/fabric/wrappers.py#L355\">src/lightning/fabric/wrappers.py:355</a>");
  Find(page, "<span class=\"kw\">if</span> isinstance(obj, OptimizedModule):");
  Find(page, "<h3>Where the state comes from</h3>");
  Find(page, "<code>obj._compile_kwargs</code>, read by the condition at");
  Find(page,
       "wrappers.py#L410\">src/lightning/fabric/wrappers.py:410</a> in "
       "<code>_capture_compile_kwargs.&lt;locals&gt;._capture</code>");
  Find(page,
       "installed at import time by <a class=\"loc\" href=\"https://github.com/Lightning-AI/pytorch-lightning/"
       "blob/" +
           std::string(kSha) + "/src/lightning/fabric/wrappers.py#L416\">");
  Find(page, "The message itself says: Make sure to import lightning before <code>torch.compile</code> is used.");
  Find(page,
       "docs/compile.rst:12</a> mentions the message:</p>\n<blockquote class=\"doc\">Import <code>lightning</code> "
       "&lt;b&gt;first&lt;/b&gt;.</blockquote>");
  Find(page, "<h3>History</h3>");
  Find(page,
       "The message was introduced by commit <a href=\"https://github.com/Lightning-AI/pytorch-lightning/commit/" +
           std::string(kSha) +
           "\"><code>9fed5c27d2</code></a> (2024-01-24T02:17:41Z) by awaelchli: "
           "“Capture compile kwargs”.");
  // Example: the test's code; When it happens: call paths and the tests.
  Find(page,
       "A test of the repository that provokes it, at <a class=\"loc\" href=\"https://github.com/Lightning-AI/"
       "pytorch-lightning/blob/" +
           std::string(kSha) + "/tests/test_wrappers.py#L42\">tests/test_wrappers.py:42</a>");
  Find(page,
       "<span class=\"kw\">with</span> pytest.raises(RuntimeError, match=<span class=\"st\">&quot;Failed to "
       "determine&quot;</span>):");
  Find(page, "<h3>Call paths from the public API</h3>");
  Find(page, "<code>Fabric.setup</code> → <code>_unwrap_compiled</code></p>");
  Find(page, "fabric.py#L220\">src/lightning/fabric/fabric.py:220</a> in <code>Fabric.setup</code>");
  Find(page, "<code>Fabric.load</code> <span class=\"tag\">through calls resolved by name only</span>");
  Find(page, "<h3>Tests that provoke it</h3>");
  Find(page, "<span class=\"label\">reaches</span> <a class=\"loc\" href=");
  Find(page, "wrappers.py#L356\">src/lightning/fabric/wrappers.py:356</a></li>");
  // Related: linked relative to the page, with the reason; a malformed id is dropped.
  Find(page,
       "<a class=\"error-ref\" href=\"../errors/0123456789abcdef.html\"><span class=\"type\">RuntimeError</span> "
       "Device should be CUDA, got <span class=\"ph\">{device}</span> instead.</a> <span class=\"reason\">same "
       "function</span>");
  EXPECT_EQ(page.find("dropped"), std::string::npos);
}

TEST(ErrorPageTest, EmptyExplanationPartsAreLeftOut) {
  json r = MinimalReport();
  r["explanation"] = {{"conditions", json::array()},
                      {"triggers", {{"tests", json::array()}, {"call_paths", nullptr}}},
                      {"solutions", json::array({""})}};
  r["related"] = json::array();
  const std::string page = RenderErrorPage(r, "../");
  for (const char* absent :
       {"id=\"solutions\"", "id=\"example\"", "id=\"when\"", "id=\"related\"", "When the raise runs"}) {
    EXPECT_EQ(page.find(absent), std::string::npos) << absent;
  }
}

TEST(ErrorPageTest, RepositoryClassAndDirectoryWithoutPermalinks) {
  json r = MinimalReport();
  r["url"] = nullptr;
  r["kind"] = "warn";
  r["type"] = "ShopWarning";
  r["sites"] = json::array({Site("shop/a.py", 356), Site("tests/test_a.py", 9, true)});
  for (json& s : r["sites"]) {
    s["rev"] = nullptr;
    s["permalink"] = nullptr;
  }
  r["snippet"]["path"] = "shop/a.py";
  r["exception_class"] = {{"qualified_name", "shop.errors.ShopWarning"},
                          {"path", "shop/errors.py"},
                          {"line", 4},
                          {"bases", json::array({"builtins.UserWarning"})},
                          {"docstring", "Something in the shop."}};
  r["revisions"][0]["rev"] = nullptr;
  const std::string page = RenderErrorPage(r, "../");
  Find(page, "· warning · <span class=\"type\">ShopWarning</span>");
  Find(page, "Warned at <span class=\"loc\">shop/a.py:356</span>");
  Find(page,
       "The exception class <code>shop.errors.ShopWarning</code> is defined at <span "
       "class=\"loc\">shop/errors.py:4</span> "
       "and derives from <code>builtins.UserWarning</code>.");
  Find(page, "<blockquote class=\"doc\">Something in the shop.</blockquote>");
  Find(page, "<h3>Also raised at</h3>");
  Find(page,
       "<span class=\"loc\">tests/test_a.py:9</span> in <code>_unwrap_compiled</code> <span class=\"tag\">test</span>");
  Find(page, "(a directory, no commit)");
  EXPECT_EQ(page.find("View on"), std::string::npos);
}

TEST(ErrorPageTest, HostileContentIsEscapedEverywhere) {
  const std::string evil = "<script>alert(1)</script><img src=x onerror=alert(2)>\"'</textarea>";
  json r = MinimalReport();
  r["repo"] = "evil/<b>x</b>";
  r["url"] = "javascript:alert(3)";
  r["type"] = evil;
  r["template"] = evil + " {" + evil + "}";
  r["sites"][0]["path"] = evil + ".py";
  r["sites"][0]["function"] = evil;
  r["sites"][0]["permalink"] = "javascript:alert(4)";
  r["sites"][0]["via"] = evil;
  r["snippet"]["path"] = evil + ".py";
  r["snippet"]["text"] = "raise X(\"" + evil + "\")  # " + evil + "\n";
  r["snippet"]["start_line"] = 356;
  r["exception_class"] = {
      {"qualified_name", evil}, {"path", evil}, {"line", 1}, {"bases", json::array({evil})}, {"docstring", evil}};
  r["explanation"] = {{"meaning", evil},
                      {"conditions", json::array({{{"code", evil}, {"line", 2}, {"kind", evil}, {"path", evil}}})},
                      {"triggers",
                       {{"tests", json::array({{{"path", evil},
                                                {"line", 3},
                                                {"function", evil},
                                                {"code", evil},
                                                {"match", evil},
                                                {"reaches", {{"path", evil}, {"line", 4}}},
                                                {"permalink", "javascript:alert(5)"}}})}}},
                      {"solutions", json::array({evil, {{"text", evil}, {evil, evil}}})}};
  r["related"] = json::array({{{"id", "0123456789abcdef"}, {"type", evil}, {"template", evil}, {"reason", evil}}});
  r["revisions"][0]["committed_at"] = evil;
  const std::string page = RenderErrorPage(r, "../");
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_EQ(page.find("</textarea"), std::string::npos);
  EXPECT_EQ(page.find("<b>"), std::string::npos);
  EXPECT_EQ(page.find("javascript:"), std::string::npos);
  // Every attribute value is a double-quoted string without a raw quote inside.
  const std::regex tag("<[a-z0-9]+(\\s+[a-z-]+=\"[^\"<>]*\")*\\s*/?>|</[a-z0-9]+>");
  size_t pos = 0;
  while ((pos = page.find('<', pos)) != std::string::npos) {
    size_t end = page.find('>', pos);
    ASSERT_NE(end, std::string::npos);
    const std::string t = page.substr(pos, end - pos + 1);
    if (t.rfind("<!DOCTYPE", 0) != 0) {
      EXPECT_TRUE(std::regex_match(t, tag)) << t;
    }
    pos = end + 1;
  }
  // The repository name is escaped in text and encoded in links.
  Find(page, "evil/&lt;b&gt;x&lt;/b&gt;");
  Find(page, "href=\"../repos/evil/%253Cb%253Ex%253C/b%253E.html\"");
}

TEST(ErrorPageTest, ToleratesUnexpectedShapes) {
  json r = MinimalReport();
  r["sites"] = json::array({{{"path", 3}, {"line", "x"}}});
  r["snippet"] = "not an object";
  r["exception_class"] = json::array();
  r["explanation"] = {
      {"conditions", "a plain sentence"}, {"triggers", "odd"}, {"solutions", {{"deep", {{"deeper", {1, 2, 3}}}}}}};
  r["related"] = {{"id", "0123456789abcdef"}};
  r["revisions"] = nullptr;
  const std::string page = RenderErrorPage(r, "../");
  Find(page, "a plain sentence");
  Find(page, "<section id=\"solutions\">");
  EXPECT_EQ(RenderErrorPage(json::object(), "../").find("<footer class=\"error-footer\">") != std::string::npos, true);
}

}  // namespace
}  // namespace errdex::web
