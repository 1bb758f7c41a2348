// Tests of the site's routes (src/web/site.h) over a catalog indexed from a package written here, with a
// hostile repository name and hostile messages: status codes, content types, the JSON API equal to
// `show --format json`, paging and filters, search, and that nothing from the repository escapes HTML.
#include "web/router.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "pipeline/indexer.h"
#include "report/error_report.h"
#include "source/installed_source.h"
#include "testing/git_test_util.h"
#include "testing/temp_dir.h"
#include "web/site_paths.h"

namespace errdex::web {
namespace {

using namespace testing_util;

const char* const kHostileRepo = "evil/<b>x</b>";

class SiteTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    WriteFile(*dir_ / "shop/shop/__init__.py", "");
    WriteFile(*dir_ / "shop/shop/cart.py",
              "def add(sku, qty):\n"
              "    if qty <= 0:\n"
              "        raise ValueError(f\"quantity must be positive, got {qty!r}\")\n"
              "    raise KeyError(f\"unknown SKU {sku!r}\")\n");
    std::string many;
    for (int i = 0; i < 130; ++i)
      many += fmt::format("def f{0}():\n    raise RuntimeError(\"numbered failure {0} happened\")\n", i);
    WriteFile(*dir_ / "shop/shop/many.py", many);
    WriteFile(*dir_ / "evil/evil.py",
              "class Evil(Exception):\n"
              "    \"\"\"<script>alert('doc')</script>\"\"\"\n\n"
              "def f():\n"
              "    raise Evil(\"<script>alert(1)</script><img src=x onerror=alert(2)> \\\" ' </textarea>\")\n");
    Index(*dir_ / "shop", "acme/shop");
    Index(*dir_ / "evil", kHostileRepo);
    // An installed distribution (docs/environments.md): its own group on the home page, its version shown.
    WriteFile(*dir_ / "sp/shopdist/api.py", "def go():\n    raise OSError(\"the installed shopdist failed\")\n");
    InstalledDistribution dist;
    dist.name = dist.normalized = "shopdist";
    dist.version = "1.2.3";
    dist.location = *dir_ / "sp";
    dist.files = {"shopdist/api.py"};
    InstalledSource installed = DistributionSource(dist);
    IndexOptions options;
    options.opened_source = &installed;
    options.name = "pypi/shopdist";
    options.catalog = *dir_ / "catalog.db";
    options.jobs = 1;
    IndexSummary summary;
    std::string error;
    ASSERT_TRUE(errdex::Index(options, &summary, &error)) << error;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  static void Index(const std::string& source, const std::string& name) {
    IndexOptions options;
    options.source = source;
    options.name = name;
    options.catalog = *dir_ / "catalog.db";
    options.jobs = 1;
    IndexSummary summary;
    std::string error;
    ASSERT_TRUE(errdex::Index(options, &summary, &error)) << error;
  }

  void SetUp() override {
    catalog_ = Catalog::Open(*dir_ / "catalog.db", /*read_only=*/true);
    std::string note;
    matcher_ = ErrorMatcher::Load(catalog_->matcher_tables(), false, &note);
    site_ = std::make_unique<Router>(*catalog_, matcher_.get());
  }

  std::string IdOf(const std::string& template_prefix) {
    std::string id;
    catalog_->ListSites({}, [&](const SiteRow& s) {
      if (s.template_text && s.template_text->rfind(template_prefix, 0) == 0) id = s.error_id;
    });
    EXPECT_FALSE(id.empty()) << template_prefix;
    return id;
  }

  WebResponse Get(const std::string& path, const QueryParams& query = {}) { return site_->Get(path, query); }

  static TempDir* dir_;
  std::unique_ptr<Catalog> catalog_;
  std::unique_ptr<ErrorMatcher> matcher_;
  std::unique_ptr<Router> site_;
};

TempDir* SiteTest::dir_ = nullptr;

TEST_F(SiteTest, HomeListsRepositoriesWithEncodedLinks) {
  WebResponse r = Get("/");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
  EXPECT_NE(r.body.find("<a href=\"./repos/acme/shop.html\">acme/shop</a>"), std::string::npos);
  EXPECT_NE(r.body.find("<a href=\"./repos/evil/%253Cb%253Ex%253C/b%253E.html\">evil/&lt;b&gt;x&lt;/b&gt;</a>"),
            std::string::npos);
  EXPECT_NE(r.body.find("<form id=\"search-form\" class=\"search\" method=\"post\" action=\"./search\">"),
            std::string::npos);
  EXPECT_NE(r.body.find("<script src=\"./static/errdex.js\" defer></script>"), std::string::npos);
  EXPECT_EQ(Get("/index.html").body, r.body);
}

TEST_F(SiteTest, HomeGroupsRepositoriesByKindAndADistributionPageShowsTheInstalledFile) {
  const std::string home = Get("/").body;
  const size_t git = home.find("<h3>Git repositories and directories</h3>");
  const size_t installed = home.find("<h3>Installed distributions</h3>");
  ASSERT_NE(git, std::string::npos);
  ASSERT_NE(installed, std::string::npos);
  EXPECT_LT(git, installed);
  EXPECT_GT(home.find("pypi/shopdist"), installed);
  EXPECT_LT(home.find("acme/shop"), installed);
  EXPECT_NE(home.find("<code>1.2.3</code>", installed), std::string::npos);
  const std::string page = Get("/errors/" + IdOf("the installed shopdist failed")).body;
  // The snippet of the installed file, highlighted, marked at the raise.
  EXPECT_NE(page.find("<span class=\"mark\" title=\"raised here\">▶</span>    <span class=\"kw\">raise</span> "
                      "OSError(<span class=\"st\">&quot;the installed shopdist failed&quot;</span>)"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("at version <code>1.2.3</code>"), std::string::npos);
}

TEST_F(SiteTest, ErrorPageAndJsonAnswerTheSameRoutesTwoWays) {
  const std::string id = IdOf("quantity must be positive");
  WebResponse page = Get("/errors/" + id);
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.body, Get("/errors/" + id + ".html").body);
  EXPECT_NE(page.body.find("acme/shop</a> · error · <span class=\"type\">ValueError</span>"), std::string::npos);
  WebResponse json = Get("/api/errors/" + id);
  EXPECT_EQ(json.status, 200);
  EXPECT_EQ(json.content_type, "application/json; charset=utf-8");
  EXPECT_EQ(json.body, DumpJson(*ErrorReportJson(*catalog_, id), 2) + "\n");
  EXPECT_EQ(json.body, Get("/api/errors/" + id + ".json").body);
}

TEST_F(SiteTest, UnknownAndMalformedAddressesAre404) {
  for (const char* path : {"/errors/0000000000000000", "/errors/../../etc/passwd", "/errors/%2E%2E%2Fcatalog.db",
                           "/errors/", "/nope", "/static/../catalog.db", "/repos/acme/none", "/repos/acme/shop/page-9",
                           "/repos/%2E%2E/%2E%2E", "/favicon.ico"}) {
    WebResponse r = Get(path);
    EXPECT_EQ(r.status, 404) << path;
    EXPECT_EQ(r.content_type, "text/html; charset=utf-8") << path;
  }
  for (const char* path :
       {"/api/errors/0000000000000000", "/api/errors/zz", "/api/nope", "/api/repos/acme/none/errors"}) {
    WebResponse r = Get(path);
    EXPECT_EQ(r.status, 404) << path;
    EXPECT_EQ(r.content_type, "application/json; charset=utf-8") << path;
    EXPECT_EQ(nlohmann::json::parse(r.body)["status"], 404);
  }
}

TEST_F(SiteTest, RepositoryPagesArePagedAndFiltered) {
  WebResponse first = Get("/repos/acme/shop.html");
  ASSERT_EQ(first.status, 200);
  EXPECT_EQ(first.body, Get("/repos/acme/shop").body);
  EXPECT_NE(first.body.find("<h2 class=\"module\">shop.cart</h2>"), std::string::npos);
  EXPECT_NE(first.body.find("<h3 class=\"type\">KeyError</h3>"), std::string::npos);
  EXPECT_NE(first.body.find("page 1 of 2"), std::string::npos);
  EXPECT_NE(first.body.find("href=\"../../repos/acme/shop/page-2.html\">next"), std::string::npos);
  WebResponse second = Get("/repos/acme/shop/page-2.html");
  ASSERT_EQ(second.status, 200);
  EXPECT_NE(second.body.find("page 2 of 2"), std::string::npos);
  EXPECT_NE(second.body.find("href=\"../../../repos/acme/shop.html\">← previous"), std::string::npos);
  EXPECT_NE(second.body.find("href=\"../../../errors/"), std::string::npos);

  WebResponse filtered = Get("/repos/acme/shop", {{"type", "ValueError"}});
  ASSERT_EQ(filtered.status, 200);
  EXPECT_NE(filtered.body.find("1 error match the filter"), std::string::npos);
  EXPECT_NE(filtered.body.find("<option value=\"ValueError\" selected>"), std::string::npos);
  WebResponse text = Get("/repos/acme/shop", {{"q", "NUMBERED FAILURE 12"}});
  EXPECT_NE(text.body.find("11 errors match the filter"), std::string::npos);  // 12, 120..129

  nlohmann::json api = nlohmann::json::parse(Get("/api/repos/acme/shop/errors", {{"page", "2"}}).body);
  EXPECT_EQ(api["total"], 132);
  EXPECT_EQ(api["pages"], 2);
  EXPECT_EQ(api["page"], 2);
  EXPECT_EQ(api["errors"].size(), 32u);
  nlohmann::json typed =
      nlohmann::json::parse(Get("/api/repos/acme/shop/errors.json", {{"type", "builtins.KeyError"}}).body);
  ASSERT_EQ(typed["errors"].size(), 1u);
  EXPECT_EQ(typed["errors"][0]["module"], "shop.cart");
  EXPECT_EQ(typed["errors"][0]["line"], 4);

  EXPECT_EQ(Get("/repos/acme/shop", {{"page", "0"}}).status, 400);
  EXPECT_EQ(Get("/repos/acme/shop", {{"page", "x"}}).status, 400);
  EXPECT_EQ(Get("/api/repos/acme/shop/errors", {{"page", "3"}}).status, 404);
  EXPECT_EQ(Get("/api/repos/acme/shop/errors", {{"q", std::string(300, 'a')}}).status, 400);
}

TEST_F(SiteTest, HostileRepositoryIsReachableAndEscaped) {
  const std::string href = fmt::format("/{}", RepoHref("", kHostileRepo));
  EXPECT_EQ(href, "/repos/evil/%253Cb%253Ex%253C/b%253E.html");
  WebResponse page = Get(href);
  ASSERT_EQ(page.status, 200);
  const std::string id = IdOf("<script>");
  WebResponse error = Get("/errors/" + id);
  ASSERT_EQ(error.status, 200);
  nlohmann::json repos = nlohmann::json::parse(Get("/api/repos").body);
  EXPECT_EQ(repos["repositories"][1]["name"], kHostileRepo);
  for (const WebResponse* r : {&page, &error}) {
    EXPECT_EQ(r->body.find("<script>"), std::string::npos);
    EXPECT_EQ(r->body.find("<img"), std::string::npos);
    EXPECT_EQ(r->body.find("</textarea"), std::string::npos);
    EXPECT_EQ(r->body.find("<b>"), std::string::npos);
  }
  EXPECT_NE(error.body.find("&lt;script&gt;alert(&#39;doc&#39;)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(Get("/api/repos/evil/%253Cb%253Ex%253C/b%253E/errors").status, 404);
}

TEST_F(SiteTest, SearchAndMatch) {
  WebResponse match = site_->Match("ValueError: quantity must be positive, got -3", std::nullopt);
  ASSERT_EQ(match.status, 200);
  nlohmann::json j = nlohmann::json::parse(match.body);
  ASSERT_FALSE(j["matches"].empty());
  EXPECT_EQ(j["matches"][0]["bindings"]["qty!r"], "-3");
  EXPECT_EQ(site_->Match("   ", std::nullopt).status, 400);
  EXPECT_EQ(site_->Match("x", std::string("0")).status, 400);
  EXPECT_EQ(
      nlohmann::json::parse(site_->Match("ValueError: quantity must be positive, got -3", "1").body)["matches"].size(),
      1u);

  const std::string paste =
      "Traceback (most recent call last):\n  File \"x.py\", line 1\n</textarea><script>alert(1)</script>\n"
      "ValueError: quantity must be positive, got <b>-3</b>";
  WebResponse search = site_->Search(paste);
  ASSERT_EQ(search.status, 200);
  EXPECT_NE(search.body.find("&lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_EQ(search.body.find("<script>"), std::string::npos);
  EXPECT_EQ(search.body.find("<b>"), std::string::npos);
  EXPECT_NE(search.body.find("href=\"./errors/" + IdOf("quantity must be positive") + ".html\""), std::string::npos);
  EXPECT_NE(search.body.find("<table class=\"bindings\">"), std::string::npos);
  EXPECT_EQ(Get("/search", {{"q", "ValueError: quantity must be positive, got -3"}}).body,
            site_->Search("ValueError: quantity must be positive, got -3").body);
  WebResponse none = site_->Search("nothing like this anywhere zzzz");
  EXPECT_NE(none.body.find("No error of the catalog matches this input"), std::string::npos);

  Router no_matcher(*catalog_, nullptr);
  EXPECT_EQ(no_matcher.Match("ValueError: x", std::nullopt).status, 503);
}

TEST_F(SiteTest, StaticFilesAndIndexes) {
  EXPECT_EQ(Get("/static/errdex.css").content_type, "text/css; charset=utf-8");
  EXPECT_EQ(Get("/static/errdex.js").content_type, "text/javascript; charset=utf-8");
  nlohmann::json index = nlohmann::json::parse(Get("/api/search-index.json").body);
  EXPECT_EQ(index["fields"][0], "id");
  EXPECT_EQ(index["errors"].size(), 134u);  // acme/shop 132, the hostile repository 1, pypi/shopdist 1
  nlohmann::json openapi = nlohmann::json::parse(Get("/api/openapi.json").body);
  EXPECT_TRUE(openapi["paths"].contains("/api/match"));
  EXPECT_EQ(Get("/api/repos").body, Get("/api/repos.json").body);
}

}  // namespace
}  // namespace errdex::web
