// Tests of the index pipeline (src/index/indexer.h) on small fixture trees and git repositories built in
// a temporary directory, checked through the summary and through the catalog it writes.
#include "pipeline/indexer.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "pipeline/facts_memo.h"
#include "python/python_extractor.h"
#include "testing/catalog_test_peer.h"
#include "testing/git_test_util.h"
#include "testing/temp_dir.h"

namespace errdex {
namespace {

using namespace testing_util;
namespace fs = std::filesystem;
using Strings = std::vector<std::string>;

using testing_util::TempDir;

const char* const kInit = "from .errors import ShopError\n";
const char* const kErrors = "class ShopError(Exception):\n    \"\"\"Shop failures.\"\"\"\n";
const char* const kCart =
    "from .errors import ShopError\n"
    "\n"
    "def checkout(cart):\n"
    "    if not cart:\n"
    "        raise ShopError(f\"empty cart {cart}\")\n"
    "    raise ValueError(\"bad cart\")\n";
const char* const kTest =
    "def test_math():\n"
    "    assert 1 + 1 == 3, \"math broke\"\n";

// A small project: a package, a test, and three files that are skipped for different reasons.
void WriteFixture(const std::string& root) {
  WriteFile(root + "/shop/__init__.py", kInit);
  WriteFile(root + "/shop/errors.py", kErrors);
  WriteFile(root + "/shop/cart.py", kCart);
  WriteFile(root + "/tests/test_cart.py", kTest);
  std::string big = "raise RuntimeError('big')\n";
  while (big.size() < 3000) big += "# padding padding padding padding padding padding padding padding\n";
  WriteFile(root + "/big.py", big);
  WriteFile(root + "/blob.py", std::string("raise ValueError('x')\n\0\1\2", 25));
  WriteFile(root + "/latin.py", "raise ValueError('caf\xe9')\n");
  WriteFile(root + "/node_modules/dep/x.py", "raise ValueError('not read')\n");  // skipped directory
  WriteFile(root + "/README.md", "# not python\n");
}

IndexOptions Options(const std::string& source, const std::string& catalog) {
  IndexOptions o;
  o.source = source;
  o.catalog = catalog;
  o.name = "acme/shop";
  o.jobs = 2;
  o.extract.max_file_size = 2000;
  return o;
}

IndexSummary RunIndex(const IndexOptions& options) {
  IndexSummary summary;
  std::string error;
  EXPECT_TRUE(Index(options, &summary, &error)) << error;
  EXPECT_EQ(error, "");
  return summary;
}

std::vector<SiteRow> Sites(const std::string& catalog_path, const std::string& rev = "") {
  auto catalog = Catalog::Open(catalog_path, /*read_only=*/true);
  SiteFilter filter;
  filter.repo = "acme/shop";
  filter.rev = rev;
  std::vector<SiteRow> rows;
  catalog->ListSites(filter, [&](const SiteRow& row) { rows.push_back(row); });
  return rows;
}

// "path:line type_qualified [template]" of each site.
Strings Describe(const std::vector<SiteRow>& rows) {
  Strings out;
  for (const SiteRow& r : rows) {
    out.push_back(r.path + ":" + std::to_string(r.line) + " " + r.type_qualified.value_or("null") + " [" +
                  r.template_text.value_or("null") + "]" + (r.is_test ? " test" : ""));
  }
  return out;
}

TEST(IndexerTest, IndexesADirectory) {
  TempDir tmp;
  const std::string root = tmp / "shop";
  WriteFixture(root);
  const std::string db = tmp / "catalog.db";
  IndexSummary s = RunIndex(Options(root, db));
  EXPECT_EQ(s.repo, "acme/shop");
  EXPECT_EQ(s.commit, "");
  EXPECT_FALSE(s.unchanged);
  EXPECT_EQ(s.files, 7);   // every *.py outside node_modules
  EXPECT_EQ(s.parsed, 6);  // all but the too large one
  EXPECT_EQ(s.sites, 3);
  EXPECT_EQ(s.errors, 3);
  EXPECT_EQ(s.skipped, (std::map<std::string, int64_t>{{"binary", 1}, {"not_utf8", 1}, {"too_large", 1}}));
  EXPECT_GE(s.seconds, 0.0);

  EXPECT_EQ(Describe(Sites(db)), (Strings{"shop/cart.py:5 shop.errors.ShopError [empty cart {cart}]",
                                          "shop/cart.py:6 builtins.ValueError [bad cart]",
                                          "tests/test_cart.py:2 builtins.AssertionError [math broke] test"}));

  auto catalog = Catalog::Open(db, true);
  std::vector<RevisionRow> revisions = catalog->Revisions();
  ASSERT_EQ(revisions.size(), 1u);
  EXPECT_EQ(revisions[0].repo, "acme/shop");
  EXPECT_FALSE(revisions[0].commit.has_value());
  EXPECT_EQ(revisions[0].source, root);
  EXPECT_EQ(revisions[0].files, 7);
  EXPECT_EQ(revisions[0].sites, 3);
  EXPECT_EQ(revisions[0].skipped, 3);
  EXPECT_EQ(revisions[0].extractor_version, kExtractorVersion);
  // Each skipped file is recorded with its reason.
  Statement files(CatalogTestPeer::Db(*catalog), "SELECT path, status, reason, module FROM files ORDER BY path");
  Strings got;
  while (files.Step()) got.push_back(files.Text(0) + " " + files.Text(1) + " " + files.Text(2) + " " + files.Text(3));
  EXPECT_EQ(got, (Strings{"big.py skipped too_large big", "blob.py skipped binary blob",
                          "latin.py skipped not_utf8 latin", "shop/__init__.py ok  shop", "shop/cart.py ok  shop.cart",
                          "shop/errors.py ok  shop.errors", "tests/test_cart.py ok  test_cart"}));
  // The class and its docstring.
  auto cls = catalog->FindClass("acme/shop", "shop.errors.ShopError");
  ASSERT_TRUE(cls.has_value());
  EXPECT_EQ(cls->bases, (Strings{"builtins.Exception"}));
  EXPECT_EQ(cls->docstring, "Shop failures.");
  // The snippet of a site is found through its blob.
  std::vector<SiteRow> rows = Sites(db);
  ASSERT_FALSE(rows.empty());
  ASSERT_TRUE(rows[0].blob_id.has_value());
  auto snippet = catalog->FindSnippet(*rows[0].blob_id, rows[0].line, rows[0].col);
  ASSERT_TRUE(snippet.has_value());
  EXPECT_NE(snippet->text.find("raise ShopError"), std::string::npos) << snippet->text;
}

TEST(IndexerTest, ReindexingUnchangedContentIsANoOp) {
  TempDir tmp;
  const std::string root = tmp / "shop";
  WriteFixture(root);
  const std::string db = tmp / "catalog.db";
  IndexSummary first = RunIndex(Options(root, db));
  ASSERT_FALSE(first.unchanged);
  auto before = Catalog::Open(db, true)->FindRevision("acme/shop", std::nullopt);
  ASSERT_TRUE(before.has_value());

  IndexSummary second = RunIndex(Options(root, db));
  EXPECT_TRUE(second.unchanged);
  EXPECT_EQ(second.parsed, 0);
  EXPECT_EQ(second.sites, 3);
  auto after = Catalog::Open(db, true)->FindRevision("acme/shop", std::nullopt);
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(after->id, before->id);  // not rewritten
  EXPECT_EQ(after->indexed_at, before->indexed_at);

  // Another max_file_size reads the content differently: not unchanged, but nothing needs parsing
  // except the file that is no longer too large.
  IndexOptions bigger = Options(root, db);
  bigger.extract.max_file_size = 1 << 20;
  IndexSummary third = RunIndex(bigger);
  EXPECT_FALSE(third.unchanged);
  EXPECT_EQ(third.parsed, 1);
  EXPECT_EQ(third.sites, 4);
  EXPECT_EQ(third.skipped, (std::map<std::string, int64_t>{{"binary", 1}, {"not_utf8", 1}}));
}

TEST(IndexerTest, ReindexingAfterAnEditParsesOneFile) {
  TempDir tmp;
  const std::string root = tmp / "shop";
  WriteFixture(root);
  const std::string db = tmp / "catalog.db";
  RunIndex(Options(root, db));
  std::vector<SiteRow> old_sites = Sites(db);
  ASSERT_EQ(old_sites.size(), 3u);
  const std::string old_error = old_sites[1].error_id;  // ValueError "bad cart"

  std::string edited = kCart;
  edited.replace(edited.find("bad cart"), 8, "worse cart");
  WriteFile(root + "/shop/cart.py", edited);
  IndexSummary s = RunIndex(Options(root, db));
  EXPECT_FALSE(s.unchanged);
  EXPECT_EQ(s.files, 7);
  EXPECT_EQ(s.parsed, 1);
  EXPECT_EQ(s.bytes, static_cast<int64_t>(edited.size()));
  EXPECT_EQ(s.sites, 3);
  EXPECT_EQ(s.skipped, (std::map<std::string, int64_t>{{"binary", 1}, {"not_utf8", 1}, {"too_large", 1}}));

  std::vector<SiteRow> rows = Sites(db);
  EXPECT_EQ(Describe(rows), (Strings{"shop/cart.py:5 shop.errors.ShopError [empty cart {cart}]",
                                     "shop/cart.py:6 builtins.ValueError [worse cart]",
                                     "tests/test_cart.py:2 builtins.AssertionError [math broke] test"}));
  // The directory's revision was replaced, and the error no site raises any more is gone.
  auto catalog = Catalog::Open(db, true);
  EXPECT_EQ(catalog->Revisions().size(), 1u);
  EXPECT_FALSE(catalog->FindError(old_error).has_value());
  EXPECT_TRUE(catalog->FindError(rows[1].error_id).has_value());
  EXPECT_EQ(rows[0].error_id, old_sites[0].error_id);  // unchanged errors keep their id

  // Deleting a file: nothing to parse.
  fs::remove(root + "/tests/test_cart.py");
  IndexSummary removed = RunIndex(Options(root, db));
  EXPECT_EQ(removed.parsed, 0);
  EXPECT_EQ(removed.files, 6);
  EXPECT_EQ(removed.sites, 2);
}

TEST(IndexerTest, IdenticalFilesShareOneCachedBlob) {
  TempDir tmp;
  const std::string root = tmp / "dup";
  WriteFile(root + "/a.py", kCart);
  WriteFile(root + "/b.py", kCart);
  WriteFile(root + "/c.py", kCart);
  IndexOptions o = Options(root, tmp / "c.db");
  o.jobs = 1;
  IndexSummary s = RunIndex(o);
  EXPECT_EQ(s.files, 3);
  EXPECT_EQ(s.sites, 6);
  // ShopError is unresolved here (no package): its sites have a message, so one error per message.
  EXPECT_EQ(s.errors, 2);
  auto catalog = Catalog::Open(tmp / "c.db", true);
  Statement blobs(CatalogTestPeer::Db(*catalog), "SELECT count(*) FROM blob_cache");
  ASSERT_TRUE(blobs.Step());
  EXPECT_EQ(blobs.Int(0), 1);
}

TEST(IndexerTest, GitRepositoryAtTwoCommits) {
  TempDir tmp;
  const std::string repo = tmp / "repo";
  WriteFixture(repo);
  fs::remove(repo + "/blob.py");
  fs::remove(repo + "/latin.py");
  fs::remove_all(repo + "/node_modules");
  Git(tmp.path(), "init -q repo");
  Git(repo, "add -A");
  Git(repo, "commit -q -m first");
  const std::string first = Git(repo, "rev-parse HEAD");
  std::string edited = kCart;
  edited += "\ndef pay():\n    raise ShopError('declined')\n";
  WriteFile(repo + "/shop/cart.py", edited);
  Git(repo, "commit -q -am second");
  const std::string second = Git(repo, "rev-parse HEAD");
  ASSERT_NE(first, second);
  ASSERT_EQ(first.size(), 40u);

  const std::string db = tmp / "catalog.db";
  IndexOptions o = Options(repo, db);
  o.rev = first;
  IndexSummary a = RunIndex(o);
  EXPECT_EQ(a.commit, first);
  EXPECT_EQ(a.files, 5);
  EXPECT_EQ(a.parsed, 4);
  EXPECT_EQ(a.sites, 3);
  EXPECT_EQ(a.skipped, (std::map<std::string, int64_t>{{"too_large", 1}}));

  o.rev = "HEAD";
  IndexSummary b = RunIndex(o);
  EXPECT_EQ(b.commit, second);
  EXPECT_FALSE(b.unchanged);
  EXPECT_EQ(b.parsed, 1);  // only shop/cart.py changed
  EXPECT_EQ(b.sites, 4);

  // Both revisions are kept, each with its own sites.
  auto catalog = Catalog::Open(db, true);
  std::vector<RevisionRow> revisions = catalog->Revisions();
  ASSERT_EQ(revisions.size(), 2u);
  EXPECT_EQ(revisions[0].commit, first);
  EXPECT_EQ(revisions[1].commit, second);
  EXPECT_TRUE(revisions[0].committed_at.has_value());
  EXPECT_EQ(Sites(db, first).size(), 3u);
  EXPECT_EQ(Sites(db, second.substr(0, 10)).size(), 4u);
  EXPECT_EQ(Sites(db, "all").size(), 7u);
  EXPECT_EQ(Sites(db).size(), 4u);  // the latest by default
  for (const SiteRow& r : Sites(db, first)) EXPECT_EQ(r.commit, first);
  // An error raised by both commits links to both revisions.
  const std::string shared = Sites(db, first)[0].error_id;
  EXPECT_EQ(catalog->RevisionsOfError(shared).size(), 2u);
  catalog.reset();

  // Indexing the first commit again: unchanged, and still two revisions.
  o.rev = first;
  IndexSummary again = RunIndex(o);
  EXPECT_TRUE(again.unchanged);
  EXPECT_EQ(Catalog::Open(db, true)->Revisions().size(), 2u);
}

// A changed file is stored against its previous version (catalog/blob_cache.h), whether that version comes
// from the previous revision of the run (the memo) or from the catalog; either way its facts and snippets
// read back as a self-contained extraction gives them, and the unchanged files are not read again.
TEST(IndexerTest, ANewVersionOfAFileIsStoredAgainstTheOld) {
  TempDir tmp;
  const std::string repo = tmp / "repo";
  WriteFile(repo + "/shop/__init__.py", kInit);
  WriteFile(repo + "/shop/errors.py", kErrors);
  WriteFile(repo + "/shop/cart.py", kCart);
  Git(tmp.path(), "init -q repo");
  Git(repo, "add -A");
  Git(repo, "commit -q -m first");
  const std::string first = Git(repo, "rev-parse HEAD");
  WriteFile(repo + "/shop/cart.py", std::string(kCart) + "\ndef pay():\n    raise ShopError('declined')\n");
  Git(repo, "commit -q -am second");
  const std::string second = Git(repo, "rev-parse HEAD");
  const std::string old_blob = Git(repo, "rev-parse " + first + ":shop/cart.py");
  const std::string new_blob = Git(repo, "rev-parse " + second + ":shop/cart.py");

  // The reference: the second commit alone, every blob self-contained.
  IndexOptions alone = Options(repo, tmp / "alone.db");
  alone.rev = second;
  RunIndex(alone);
  FileFacts expected;
  ASSERT_TRUE(Catalog::Open(tmp / "alone.db", true)->FindBlob(new_blob, kExtractorVersion, &expected));

  for (bool with_memo : {true, false}) {
    SCOPED_TRACE(with_memo ? "with the memo" : "from the catalog");
    const std::string db = tmp / (with_memo ? "memo.db" : "catalog.db");
    FactsMemo memo;
    IndexOptions o = Options(repo, db);
    if (with_memo) o.memo = &memo;
    o.rev = first;
    RunIndex(o);
    EXPECT_EQ(memo.by_blob.size(), with_memo ? 3u : 0u);
    o.rev = second;
    IndexSummary b = RunIndex(o);
    EXPECT_EQ(b.parsed, 1);
    EXPECT_EQ(b.sites, 3);
    auto catalog = Catalog::Open(db, true);
    Statement base(CatalogTestPeer::Db(*catalog), "SELECT base, depth FROM blob_cache WHERE oid = ?1");
    base.Bind(1, new_blob);
    ASSERT_TRUE(base.Step());
    EXPECT_EQ(base.Text(0), old_blob);
    EXPECT_EQ(base.Int(1), 1);
    FileFacts got;
    ASSERT_TRUE(catalog->FindBlob(new_blob, kExtractorVersion, &got));
    ASSERT_EQ(got.sites.size(), expected.sites.size());
    for (size_t i = 0; i < got.sites.size(); ++i) {
      EXPECT_EQ(got.sites[i].template_text, expected.sites[i].template_text);
      EXPECT_EQ(got.sites[i].line, expected.sites[i].line);
    }
    auto snippet = catalog->FindSnippet(new_blob, 9, 4);
    ASSERT_TRUE(snippet.has_value());
    EXPECT_NE(snippet->text.find("raise ShopError('declined')"), std::string::npos) << snippet->text;
    EXPECT_EQ(Sites(db, second).size(), 3u);
  }
}

TEST(IndexerTest, FailuresAreReported) {
  TempDir tmp;
  IndexSummary summary;
  std::string error;
  EXPECT_FALSE(Index(Options(tmp / "missing", tmp / "c.db"), &summary, &error));
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;

  WriteFile(tmp / "src/a.py", "raise ValueError('x')\n");
  error.clear();
  EXPECT_FALSE(Index(Options(tmp / "src", tmp / "no/such/dir/c.db"), &summary, &error));
  EXPECT_FALSE(error.empty());

  // An unknown revision of a git repository.
  Git(tmp.path(), "init -q repo");
  WriteFile(tmp / "repo/a.py", "raise ValueError('x')\n");
  Git(tmp / "repo", "add -A");
  Git(tmp / "repo", "commit -q -m one");
  IndexOptions o = Options(tmp / "repo", tmp / "c.db");
  o.rev = "no-such-branch";
  error.clear();
  EXPECT_FALSE(Index(o, &summary, &error));
  EXPECT_FALSE(error.empty());
}

// A package whose tests provoke its errors through calls (the call graph decides which raises they reach).
void WriteTestsFixture(const std::string& root) {
  WriteFile(root + "/shop/__init__.py", kInit);
  WriteFile(root + "/shop/errors.py", kErrors + std::string("class CartError(ShopError):\n    pass\n"));
  WriteFile(root + "/shop/cart.py", kCart);
  WriteFile(root + "/shop/other.py",
            "from .errors import CartError\n"
            "def f(x):\n"
            "    raise CartError(f'cart {x} is locked')\n");
  // Not a test file: its pytest.raises is not linked.
  WriteFile(root + "/shop/helpers.py",
            "import pytest\n"
            "def check():\n"
            "    with pytest.raises(ValueError):\n"
            "        pass\n");
  WriteFile(root + "/tests/test_cart.py",
            "import pytest\n"
            "from shop import ShopError\n"
            "from shop.cart import checkout\n"
            "from shop.other import f\n"
            "def test_empty():\n"
            "    with pytest.raises(ShopError, match='empty cart \\\\[\\\\]'):\n"
            "        checkout([])\n"
            "def test_bad():\n"
            "    pytest.raises(ValueError, checkout, [1])\n"
            "def test_locked():\n"
            "    with pytest.raises(ShopError, match='is locked'):\n"
            "        f(1)\n"
            "def test_nothing_called():\n"
            "    with pytest.raises(ShopError, match='is locked'):\n"
            "        pass\n"
            "def test_unreadable_pattern():\n"
            "    with pytest.raises(ShopError, match='is ' + 'locked'):\n"
            "        f(2)\n");
}

TEST(IndexerTest, ConditionsAndTestsThatProvokeErrors) {
  TempDir tmp;
  const std::string root = tmp / "shop";
  WriteTestsFixture(root);
  const std::string db = tmp / "catalog.db";
  RunIndex(Options(root, db));
  auto catalog = Catalog::Open(db, true);
  std::map<std::string, SiteRow> by_place;
  for (const SiteRow& r : Sites(db)) by_place[r.path + ":" + std::to_string(r.line)] = r;
  ASSERT_EQ(by_place.count("shop/cart.py:5"), 1u);
  const SiteRow& empty = by_place["shop/cart.py:5"];
  std::vector<Condition> conditions = catalog->ConditionsOfSite(empty.revision_id, empty.path, empty.line, empty.col);
  ASSERT_EQ(conditions.size(), 1u);
  EXPECT_EQ(conditions[0].code, "if not cart:");
  EXPECT_EQ(conditions[0].line, 4);
  const SiteRow& bad = by_place["shop/cart.py:6"];
  conditions = catalog->ConditionsOfSite(bad.revision_id, bad.path, bad.line, bad.col);
  ASSERT_EQ(conditions.size(), 1u);
  EXPECT_EQ(conditions[0].kind, "early_exit");
  EXPECT_TRUE(conditions[0].negated);

  auto tests_of = [&](const SiteRow& site) {
    Strings out;
    for (const ErrorTestRow& t : catalog->TestsOfError(site.error_id, site.revision_id)) {
      out.push_back(t.path + ":" + std::to_string(t.line) + " " + t.function + " " + t.kind + " " + t.type + " [" +
                    t.match + "]");
    }
    return out;
  };
  EXPECT_EQ(tests_of(empty), (Strings{"tests/test_cart.py:6 test_empty pytest.raises ShopError [empty cart \\[\\]]"}));
  // ValueError is raised at one site of the code: a test without a pattern points at it.
  EXPECT_EQ(tests_of(bad), (Strings{"tests/test_cart.py:9 test_bad pytest.raises_call ValueError []"}));
  // CartError is a ShopError: pytest.raises(ShopError) catches it. The block of test_nothing_called has the
  // same type and pattern but calls nothing: it reaches no raise, so it links nothing. test_unreadable_pattern
  // reaches it, but its pattern is an expression: unknown, not absent, so its type alone does not link it.
  EXPECT_EQ(tests_of(by_place["shop/other.py:3"]),
            (Strings{"tests/test_cart.py:11 test_locked pytest.raises ShopError [is locked]"}));
  Statement count(CatalogTestPeer::Db(*catalog), "SELECT count(*) FROM error_tests");
  ASSERT_TRUE(count.Step());
  EXPECT_EQ(count.Int(0), 3);
}

TEST(IndexerTest, ATestLinkNamesTheRaiseItsBlockReaches) {
  // `AttributeError(name)` at two unrelated functions is one error (type and template `{name}`); each test
  // reaches one of them, and its link says which. Without the call graph, no raise is named.
  TempDir tmp;
  const std::string root = tmp / "shop";
  WriteFile(root + "/shop/__init__.py", "");
  WriteFile(root + "/shop/attrs.py",
            "def lookup(obj, name):\n"
            "    if not hasattr(obj, name):\n"
            "        raise AttributeError(name)\n"
            "    return getattr(obj, name)\n"
            "def remove(obj, name):\n"
            "    if not hasattr(obj, name):\n"
            "        raise AttributeError(name)\n"
            "    delattr(obj, name)\n");
  WriteFile(root + "/tests/test_attrs.py",
            "import pytest\n"
            "from shop.attrs import lookup, remove\n"
            "def test_lookup():\n"
            "    with pytest.raises(AttributeError):\n"
            "        lookup(object(), 'y')\n"
            "def test_remove():\n"
            "    with pytest.raises(AttributeError):\n"
            "        remove(object(), 'y')\n");
  auto links = [](const std::string& db) {
    Strings out;
    Statement rows(CatalogTestPeer::Db(*Catalog::Open(db, true)),
                   "SELECT function, coalesce(site_path, '-'), coalesce(site_line, 0) FROM error_tests ORDER BY 1");
    while (rows.Step()) out.push_back(rows.Text(0) + " " + rows.Text(1) + ":" + std::to_string(rows.Int(2)));
    return out;
  };
  const std::string db = tmp / "catalog.db";
  RunIndex(Options(root, db));
  EXPECT_EQ(links(db), (Strings{"test_lookup shop/attrs.py:3", "test_remove shop/attrs.py:7"}));
  IndexOptions without = Options(root, tmp / "plain.db");
  without.analysis = false;
  RunIndex(without);
  EXPECT_EQ(links(tmp / "plain.db"), Strings{});
}

// The tests and the analysis of every site of the latest revision of CATALOG_PATH, one line each.
Strings AnalysisLines(const std::string& catalog_path) {
  auto catalog = Catalog::Open(catalog_path, true);
  Strings out;
  for (const SiteRow& site : Sites(catalog_path)) {
    out.push_back(site.path + ":" + std::to_string(site.line) + " " +
                  catalog->AnalysisOfError(site.error_id, site.revision_id).value_or("no analysis"));
    for (const ErrorTestRow& t : catalog->TestsOfError(site.error_id, site.revision_id)) {
      out.push_back("  " + t.path + ":" + std::to_string(t.line) + " " + t.function + " " + t.kind);
    }
  }
  return out;
}

// A run without the analysis caches facts without the flow facts (python_extractor.h,
// kExtractorVersionWithoutFlow); a run with the analysis afterwards must not take them for complete: it reads
// the files again, and its analysis is that of a fresh catalog.
TEST(IndexerTest, FactsCachedWithoutTheAnalysisServeNoRunWithIt) {
  TempDir tmp;
  const std::string root = tmp / "shop";
  WriteTestsFixture(root);
  const std::string fresh = tmp / "fresh.db", reused = tmp / "reused.db";
  RunIndex(Options(root, fresh));
  IndexOptions without_analysis = Options(root, reused);
  without_analysis.analysis = false;
  const IndexSummary first = RunIndex(without_analysis);
  EXPECT_GT(first.parsed, 0);
  const IndexSummary second = RunIndex(Options(root, reused));
  EXPECT_EQ(second.parsed, first.parsed);
  const Strings analysis = AnalysisLines(fresh);
  EXPECT_EQ(AnalysisLines(reused), analysis);
  EXPECT_NE(std::find(analysis.begin(), analysis.end(), "  tests/test_cart.py:11 test_locked pytest.raises"),
            analysis.end());
  // Facts with the flow facts serve a run without the analysis too: another repository of the same files,
  // indexed into the catalog that holds only those, parses nothing.
  IndexOptions again = Options(root, fresh);
  again.analysis = false;
  again.name = "acme/shop-copy";
  EXPECT_EQ(RunIndex(again).parsed, 0);
}

TEST(IndexerTest, HelperCallsAreSitesOnlyWhenTheyReachTheHelperAndItRaisesTheirText) {
  TempDir tmp;
  const std::string root = tmp / "pkg";
  WriteFile(root + "/pkg/__init__.py", "");
  WriteFile(root + "/pkg/errors.py",
            "class NotExecutable(Exception):\n"
            "    def __init__(self, target):\n"
            "        super().__init__('Not an executable object: %r' % target)\n");
  WriteFile(root + "/pkg/core.py",
            "import os\n"
            "from .errors import NotExecutable\n"
            "class Store:\n"
            "    def fail(self, message):\n"
            "        raise ValueError(message)\n"
            "    def remove(self, message):\n"
            "        raise KeyError(message)\n"
            "    def execute(self, statement):\n"
            "        raise NotExecutable(statement)\n"
            "    def check(self):\n"
            "        self.fail('store is closed')\n"
            "def cleanup(conn, names):\n"
            "    os.remove('cache file.db')\n"               // a library call: not Store.remove
            "    names.remove('not a message either')\n"     // a list method: not Store.remove
            "    conn.execute('select 1 from nowhere')\n");  // NotExecutable writes its own message
  const std::string db = tmp / "catalog.db";
  RunIndex(Options(root, db));
  Strings via;
  for (const SiteRow& r : Sites(db)) {
    if (r.via) via.push_back(r.template_text.value_or("") + " @ " + *r.via);
  }
  EXPECT_EQ(via, (Strings{"store is closed @ pkg/core.py:11 in Store.check"}));
}

// A helper that raises what its callers hand it (docs/analysis.md, "Messages supplied by a caller"): each
// caller's message is an error reached only through that caller, in its call paths, its reach and the tests
// it links (a test without a pattern whose block reaches one caller provokes that caller's error alone).
TEST(IndexerTest, AMessageSuppliedByACallerIsReachedThroughThatCaller) {
  TempDir tmp;
  const std::string root = tmp / "pkg";
  WriteFile(root + "/pkg/__init__.py", "from pkg.config import Config, ConfigError\n");
  WriteFile(root + "/pkg/config.py",
            "class ConfigError(Exception):\n"
            "    pass\n"
            "class Config:\n"
            "    def load(self, path):\n"
            "        if not path:\n"
            "            self._raise(ConfigError, 'no path given')\n"
            "        return path\n"
            "    def validate(self, keys):\n"
            "        if keys:\n"
            "            self._raise(ConfigError, 'unknown key')\n"
            "    def _raise(self, error_class, message):\n"
            "        raise error_class(message)\n");
  WriteFile(root + "/tests/test_config.py",
            "import pytest\n"
            "from pkg import Config, ConfigError\n"
            "def test_load_without_a_path():\n"
            "    with pytest.raises(ConfigError):\n"
            "        Config().load('')\n");
  const std::string db = tmp / "catalog.db";
  RunIndex(Options(root, db));
  auto catalog = Catalog::Open(db, true);
  std::map<std::string, SiteRow> by_text;
  for (const SiteRow& r : Sites(db)) {
    if (r.via) by_text[r.template_text.value_or("")] = r;
  }
  ASSERT_EQ(by_text.size(), 2u);
  for (const auto& [text, row] : by_text) {
    // Call paths: "function:line" of each frame; the supplying call is cited, then the raise.
    const std::optional<std::string> analysis = catalog->AnalysisOfError(row.error_id, row.revision_id);
    ASSERT_TRUE(analysis);
    const nlohmann::json parsed = nlohmann::json::parse(*analysis);
    Strings paths;
    for (const auto& p : parsed["call_paths"]) {
      std::string frames;
      for (const auto& f : p["frames"]) {
        frames += (frames.empty() ? "" : " -> ") + f["function"].get<std::string>() + ":" +
                  std::to_string(f["line"].get<int>());
      }
      paths.push_back(frames);
    }
    const bool load = text == "no path given";
    EXPECT_EQ(paths, (Strings{load ? "Config.load:6 -> Config._raise:12" : "Config.validate:10 -> Config._raise:12"}))
        << text;
    EXPECT_EQ(row.reach_entries, 1) << text;  // not both public callers of the helper
    Strings tests;
    for (const ErrorTestRow& t : catalog->TestsOfError(row.error_id, row.revision_id)) tests.push_back(t.function);
    EXPECT_EQ(tests, load ? Strings{"test_load_without_a_path"} : Strings{}) << text;
  }
}

}  // namespace
}  // namespace errdex
