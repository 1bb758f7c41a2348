// Tests of the SQLite catalog (src/catalog/catalog.h): opening and migrating, writing revisions and
// reading them back, replacement, garbage collection of errors, atomicity and concurrent writers.
#include "catalog/catalog.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "catalog/error_id.h"
#include "catalog/schema.h"
#include "catalog/sqlite_db.h"
#include "catalog/zstd_codec.h"
#include "testing/catalog_test_peer.h"
#include "testing/temp_dir.h"

namespace errdex {
namespace {

namespace fs = std::filesystem;

using testing_util::TempDir;

const std::string kSha1 = "1111111111111111111111111111111111111111";
const std::string kSha2 = "2222222222222222222222222222222222222222";
const std::string kBlobA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const std::string kBlobB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const std::string kBlobC = "cccccccccccccccccccccccccccccccccccccccc";

// ---------------------------------------------------------------------------------------------------
// Raw SQLite helpers, independent of the code under test.

int64_t QueryInt(SqliteDb& db, const std::string& sql) {
  Statement s(db, sql);
  EXPECT_TRUE(s.Step()) << sql;
  return s.Int(0);
}

// Every row of every table (and the schema and user_version), as text, to compare states.
std::string Snapshot(const std::string& path) {
  SqliteDb db(path, /*read_only=*/true);
  std::string out = "user_version=" + std::to_string(QueryInt(db, "PRAGMA user_version")) + "\n";
  std::vector<std::string> tables;
  {
    Statement s(db, "SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name");
    while (s.Step()) {
      out += s.Text(0) + ": " + s.Text(1) + "\n";
      if (s.Text(1).rfind("CREATE TABLE", 0) == 0) tables.push_back(s.Text(0));
    }
  }
  for (const std::string& table : tables) {
    sqlite3_stmt* stmt = nullptr;
    const std::string sql = "SELECT * FROM " + table;
    if (sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sqlite3_errmsg(db.handle());
      return out;
    }
    std::vector<std::string> rows;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      std::string row;
      for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
        if (sqlite3_column_type(stmt, c) == SQLITE_NULL) {
          row += "NULL|";
        } else {
          const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
          row += std::string(text, static_cast<size_t>(sqlite3_column_bytes(stmt, c))) + "|";
        }
      }
      rows.push_back(row);
    }
    sqlite3_finalize(stmt);
    std::sort(rows.begin(), rows.end());
    out += "[" + table + "] " + std::to_string(rows.size()) + " rows\n";
    for (const std::string& r : rows) out += "  " + r + "\n";
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Building revisions.

struct SiteSpec {
  std::string path;
  int line;
  std::string type;                      // as written
  std::optional<std::string> qualified;  // resolved type
  std::optional<std::string> templ;      // rendered template
  std::string function = "<module>";
  bool is_test = false;
};

class RevisionBuilder {
 public:
  RevisionBuilder(std::string repo, std::optional<std::string> commit) {
    data_.repo = std::move(repo);
    data_.url = "https://github.com/" + data_.repo;
    data_.revision.commit = std::move(commit);
    data_.revision.source = "/src/" + data_.repo;
    data_.revision.digest = "digest-" + data_.revision.commit.value_or("dir");
    data_.revision.extractor_version = 7;
    data_.revision.indexed_at = "2026-01-02T03:04:05Z";
    if (data_.revision.commit) data_.revision.committed_at = "2026-01-01T00:00:00Z";
  }

  RevisionBuilder& File(const std::string& path, const std::string& blob, const std::string& module) {
    data_.files.push_back({path, blob, 100, module, path.rfind("tests/", 0) == 0, "ok", ""});
    return *this;
  }

  RevisionBuilder& Site(const SiteSpec& spec) {
    SiteRow row;
    row.path = spec.path;
    row.line = spec.line;
    row.col = 4;
    row.end_line = spec.line + 1;
    row.kind = "raise";
    row.type = spec.type;
    row.type_qualified = spec.qualified;
    row.template_text = spec.templ;
    row.function = spec.function;
    row.is_test = spec.is_test;
    row.error_id = IdOf(spec);
    if (ids_.insert(row.error_id).second) {
      data_.errors.push_back(
          {row.error_id, data_.repo, data_.url, row.type, row.type_qualified, row.template_text, row.template_text});
    }
    data_.sites.push_back(row);
    return *this;
  }

  RevisionBuilder& Class(const std::string& qualified, const std::string& path, int line,
                         std::vector<std::string> bases) {
    data_.classes.push_back({qualified, path, line, std::move(bases), "Docs of " + qualified + ".", "", "", {}, {}});
    return *this;
  }

  RevisionBuilder& Blob(const std::string& oid, const FileFacts* facts) {
    data_.new_blobs.push_back({oid, facts, "", {}});
    return *this;
  }

  std::string IdOf(const SiteSpec& spec) const {
    ErrorIdentity identity;
    const std::string type_key = spec.qualified.value_or(spec.type);
    identity.repo = data_.repo;
    identity.type = type_key;
    identity.normalized_template = spec.templ;
    return ErrorId(identity);
  }

  RevisionData Build() {
    data_.revision.files = static_cast<int64_t>(data_.files.size());
    data_.revision.bytes = 100 * data_.revision.files;
    data_.revision.sites = static_cast<int64_t>(data_.sites.size());
    return data_;
  }

 private:
  RevisionData data_;
  std::set<std::string> ids_;
};

const SiteSpec kConfigMissing{"shop/config.py", 10, "ConfigError", "shop.errors.ConfigError", "missing {key}"};
const SiteSpec kConfigBad{"shop/config.py",  20,           "errors.ConfigError", "shop.errors.ConfigError",
                          "bad value {v!r}", "Config.load"};
const SiteSpec kCartEmpty{"shop/cart.py", 5, "ValueError", "builtins.ValueError", "cart is empty", "Cart.checkout"};
const SiteSpec kTestSite{
    "tests/test_cart.py", 3, "AssertionError", "builtins.AssertionError", "oops {x}", "test_x", true};

FileFacts ConfigFacts() {
  FileFacts facts;
  Site s;
  s.kind = "raise";
  s.type = "ConfigError";
  s.template_text = "missing {key}";
  s.line = 10;
  s.col = 4;
  s.end_line = 11;
  s.function = "<module>";
  s.snippet_start = 8;
  s.snippet = "a = 1\nif not key:\n    raise ConfigError(f\"missing {key}\")\n";
  s.conditions = {{"if", "if not key:", 9, false, {}}, {"early_exit", "if key in CACHE:", 5, true, {}}};
  s.message_alternatives = {"no {key} given"};
  facts.sites.push_back(s);
  Site r;
  r.kind = "reraise";
  r.line = 30;
  r.col = 8;
  r.end_line = 30;
  r.function = "Config.load";
  r.snippet_start = 29;
  r.snippet = "    except OSError:\n        raise\n";
  facts.sites.push_back(r);
  facts.classes.push_back({"Config", 1, {"object"}, "The configuration.", "", "", {}});
  facts.imports.push_back({"ConfigError", ".errors.ConfigError"});
  facts.wildcard_imports.push_back(".constants");
  facts.raises_tests.push_back({"test_missing", 40, "ConfigError", "missing k", "pytest.raises",
                                "with pytest.raises(ConfigError, match=\"missing k\"):\n    load()"});
  return facts;
}

// The standard first revision: two files of the package and a test.
RevisionData FirstRevision(const FileFacts* config_facts) {
  RevisionData data = RevisionBuilder("acme/shop", kSha1)
                          .File("shop/cart.py", kBlobB, "shop.cart")
                          .File("shop/config.py", kBlobA, "shop.config")
                          .File("tests/test_cart.py", kBlobC, "test_cart")
                          .Site(kConfigMissing)
                          .Site(kConfigBad)
                          .Site(kCartEmpty)
                          .Site(kTestSite)
                          .Class("shop.errors.ConfigError", "shop/errors.py", 3, {"builtins.Exception"})
                          .Class("shop.config.Config", "shop/config.py", 1, {"object"})
                          .Blob(kBlobA, config_facts)
                          .Build();
  // The analysis of docs/analysis.md: a path condition of kConfigBad, and a test that provokes it.
  data.sites[1].conditions = {{"if", "if (value :=\n        raw.get(key)) is None:", 18, false, {}},
                              {"except", "except KeyError as e:", 19, false, {}}};
  data.error_tests.push_back({data.sites[1].error_id, "tests/test_cart.py", 12, "ConfigTest.test_bad",
                              "assertRaisesRegex", "ConfigError", "bad value '.*'",
                              "with self.assertRaisesRegex(ConfigError, \"bad value '.*'\"):\n    load()",
                              "shop/config.py", 20});
  return data;
}

std::vector<SiteRow> List(Catalog& catalog, const SiteFilter& filter) {
  std::vector<SiteRow> rows;
  catalog.ListSites(filter, [&](const SiteRow& row) { rows.push_back(row); });
  return rows;
}

// "path:line" of each row, in order.
std::vector<std::string> Where(const std::vector<SiteRow>& rows) {
  std::vector<std::string> out;
  for (const SiteRow& r : rows) out.push_back(r.path + ":" + std::to_string(r.line));
  return out;
}

using Strings = std::vector<std::string>;

// ---------------------------------------------------------------------------------------------------
// Opening and migrating.

TEST(CatalogTest, OpenCreatesAndMigrates) {
  TempDir dir;
  const std::string path = dir.File("new.db");
  ASSERT_FALSE(fs::exists(path));
  auto catalog = Catalog::Open(path, /*read_only=*/false);
  ASSERT_NE(catalog, nullptr);
  EXPECT_TRUE(fs::exists(path));
  EXPECT_EQ(QueryInt(CatalogTestPeer::Db(*catalog), "PRAGMA user_version"), kSchemaVersion);
  EXPECT_EQ(SchemaVersion(CatalogTestPeer::Db(*catalog)), kSchemaVersion);
  for (const char* table : {"repositories", "revisions", "blob_cache", "files", "errors", "site_rows", "revision_sites",
                            "class_rows", "revision_classes", "error_tests"}) {
    EXPECT_EQ(
        QueryInt(CatalogTestPeer::Db(*catalog),
                 std::string("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '") + table + "'"),
        1)
        << table;
  }
  for (const char* view : {"sites", "classes"}) {
    EXPECT_EQ(QueryInt(CatalogTestPeer::Db(*catalog),
                       std::string("SELECT count(*) FROM sqlite_master WHERE type = 'view' AND name = '") + view + "'"),
              1)
        << view;
  }
  for (const char* gone : {"blobs", "snippets"}) {
    EXPECT_EQ(QueryInt(CatalogTestPeer::Db(*catalog),
                       std::string("SELECT count(*) FROM sqlite_master WHERE name = '") + gone + "'"),
              0)
        << gone;
  }
  EXPECT_TRUE(catalog->Revisions().empty());
}

TEST(CatalogTest, ReopeningIsANoOp) {
  TempDir dir;
  const std::string path = dir.File("c.db");
  FileFacts facts = ConfigFacts();
  Catalog::Open(path, false)->WriteRevision(FirstRevision(&facts));
  const std::string before = Snapshot(path);
  {
    auto again = Catalog::Open(path, false);
    EXPECT_EQ(SchemaVersion(CatalogTestPeer::Db(*again)), kSchemaVersion);
    auto third = Catalog::Open(path, false);  // while another connection is open
    EXPECT_EQ(SchemaVersion(CatalogTestPeer::Db(*third)), kSchemaVersion);
  }
  EXPECT_EQ(Snapshot(path), before);
  auto reader = Catalog::Open(path, /*read_only=*/true);
  ASSERT_EQ(reader->Revisions().size(), 1u);
  EXPECT_EQ(reader->Revisions()[0].commit, kSha1);
  EXPECT_EQ(Snapshot(path), before);
}

// What migration 8 changes, undone (a catalog as schema 7 left it; the columns migration 9 adds go with
// site_rows, those migration 15 adds to error_tests are dropped): the tables of sites and classes with a
// row per revision, the blob cache as JSON text with a snippets table (emptied: the compressed cache cannot be
// decoded in SQL).
constexpr const char* kUndoMigration8 =
    "ALTER TABLE error_tests DROP COLUMN site_path; ALTER TABLE error_tests DROP COLUMN site_line; "
    "CREATE TABLE blobs(oid TEXT PRIMARY KEY, extractor_version INTEGER NOT NULL, status TEXT NOT NULL, "
    "reason TEXT NOT NULL, facts TEXT NOT NULL) WITHOUT ROWID; "
    "CREATE TABLE snippets(oid TEXT NOT NULL, line INTEGER NOT NULL, col INTEGER NOT NULL, start_line INTEGER NOT "
    "NULL, text TEXT NOT NULL, PRIMARY KEY(oid, line, col)) WITHOUT ROWID; "
    "DROP TABLE blob_cache; "
    "CREATE TABLE old_sites(id INTEGER PRIMARY KEY, revision_id INTEGER NOT NULL REFERENCES revisions(id) ON DELETE "
    "CASCADE, error_id TEXT NOT NULL REFERENCES errors(id), path TEXT NOT NULL, line INTEGER NOT NULL, col INTEGER "
    "NOT NULL, end_line INTEGER NOT NULL, kind TEXT NOT NULL, type TEXT, type_qualified TEXT, template TEXT, "
    "function TEXT NOT NULL, is_test INTEGER NOT NULL, via TEXT, conditions TEXT, wraps TEXT); "
    "INSERT INTO old_sites SELECT NULL, revision_id, error_id, path, line, col, end_line, kind, type, type_qualified, "
    "template, function, is_test, via, conditions, wraps FROM sites ORDER BY revision_id, seq; "
    "DROP VIEW sites; DROP TABLE revision_sites; DROP TABLE site_rows; ALTER TABLE old_sites RENAME TO sites; "
    "CREATE INDEX sites_by_revision ON sites(revision_id, path, line); CREATE INDEX sites_by_error ON "
    "sites(error_id); CREATE INDEX sites_by_file_name ON sites(substr(path, length(rtrim(path, replace(path, '/', "
    "''))) + 1)); "
    "CREATE TABLE old_classes(revision_id INTEGER NOT NULL REFERENCES revisions(id) ON DELETE CASCADE, "
    "qualified_name TEXT NOT NULL, path TEXT NOT NULL, line INTEGER NOT NULL, bases TEXT NOT NULL, docstring TEXT NOT "
    "NULL, message TEXT, message_from TEXT, PRIMARY KEY(revision_id, qualified_name)) WITHOUT ROWID; "
    "INSERT INTO old_classes SELECT revision_id, qualified_name, path, line, bases, docstring, message, message_from "
    "FROM classes; "
    "DROP VIEW classes; DROP TABLE revision_classes; DROP TABLE class_rows; ALTER TABLE old_classes RENAME TO "
    "classes; ";

// What migration 7 adds, taken away again (a catalog as schema 6 left it).
constexpr const char* kUndoMigration7 =
    "DROP INDEX revisions_by_rev; ALTER TABLE revisions DROP COLUMN version; ALTER TABLE revisions DROP COLUMN kind; "
    "ALTER TABLE revisions DROP COLUMN vendored; ALTER TABLE sites DROP COLUMN wraps; "
    "CREATE UNIQUE INDEX revisions_by_commit ON revisions(repo_id, ifnull(commit_sha, '')); ";

TEST(CatalogTest, ASchema6CatalogGetsRevisionKindsAndVersions) {
  TempDir dir;
  const std::string path = dir.File("schema6.db");
  FileFacts facts = ConfigFacts();
  {
    auto catalog = Catalog::Open(path, false);
    RevisionData data = FirstRevision(&facts);
    catalog->WriteRevision(data);
    CatalogTestPeer::Db(*catalog).Exec(std::string(kUndoMigration8) + kUndoMigration7 + "PRAGMA user_version = 6");
  }
  auto catalog = Catalog::Open(path, /*read_only=*/false);
  ASSERT_EQ(catalog->Revisions().size(), 1u);
  EXPECT_EQ(catalog->Revisions()[0].kind, "git");
  EXPECT_FALSE(catalog->Revisions()[0].version);
  // Two versions of one distribution are two revisions; the same version again replaces its revision.
  for (const char* version : {"1.0", "1.1", "1.1"}) {
    RevisionData dist =
        RevisionBuilder("pypi/acme", kSha1).File("shop/cart.py", kBlobB, "shop.cart").Site(kCartEmpty).Build();
    dist.revision.commit = std::nullopt;
    dist.revision.version = version;
    dist.revision.kind = "distribution";
    dist.revision.vendored = R"([{"path":"acme/_vendor/six.py","name":"six"}])";
    catalog->WriteRevision(dist);
  }
  ASSERT_TRUE(catalog->FindRevision("pypi/acme", std::nullopt, "1.1"));
  EXPECT_EQ(catalog->FindRevision("pypi/acme", std::nullopt, "1.1")->kind, "distribution");
  EXPECT_EQ(*catalog->FindRevision("pypi/acme", std::nullopt, "1.0")->vendored,
            R"([{"path":"acme/_vendor/six.py","name":"six"}])");
  EXPECT_FALSE(catalog->FindRevision("pypi/acme", std::nullopt));
  EXPECT_EQ(catalog->Revisions().size(), 3u);
}

TEST(CatalogTest, ASchema7CatalogSharesItsRowsAndCompressesItsBlobCache) {
  TempDir dir;
  const std::string path = dir.File("schema7.db");
  FileFacts facts = ConfigFacts();
  std::vector<std::string> sites_before;
  {
    auto catalog = Catalog::Open(path, false);
    catalog->WriteRevision(FirstRevision(&facts));
    RevisionData second = FirstRevision(&facts);
    second.revision.commit = kSha2;
    catalog->WriteRevision(second);
    SqliteDb& db = CatalogTestPeer::Db(*catalog);
    db.Exec(std::string(kUndoMigration8) + "PRAGMA user_version = 7");
    // The blob cache as schema 7 kept it: JSON text, one snippets row per site; and a blob compressed as the
    // round that compressed the cache stored it (one zstd frame).
    Statement compressed(db, "INSERT INTO blobs VALUES(?1, 7, 'ok', '', ?2)");
    compressed.Bind(1, kBlobB).BindBlob(2, ZstdCompress("{\"status\": \"ok\", \"reason\": \"\"}", "", 1));
    compressed.Run();
    db.Exec(std::string("INSERT INTO blobs VALUES('") + kBlobA +
            "', 7, 'ok', '', '{\"status\": \"ok\", \"sites\": []}');"
            "INSERT INTO snippets VALUES('" +
            kBlobA + "', 10, 4, 9, 'if not key:\n    raise ConfigError(key)');");
    EXPECT_EQ(QueryInt(db, "SELECT count(*) FROM sites"), 8);
    Statement rows(db, "SELECT revision_id, path, line, col, error_id, conditions FROM sites ORDER BY 1, 2, 3, 4");
    while (rows.Step())
      sites_before.push_back(rows.Text(0) + " " + rows.Text(1) + ":" + rows.Text(2) + ":" + rows.Text(3) + " " +
                             rows.Text(4) + " " + rows.Text(5));
  }
  auto catalog = Catalog::Open(path, /*read_only=*/true);
  SqliteDb& db = CatalogTestPeer::Db(*catalog);
  EXPECT_EQ(SchemaVersion(db), kSchemaVersion);
  std::vector<std::string> sites_after;
  Statement rows(db, "SELECT revision_id, path, line, col, error_id, conditions FROM sites ORDER BY 1, 2, 3, 4");
  while (rows.Step())
    sites_after.push_back(rows.Text(0) + " " + rows.Text(1) + ":" + rows.Text(2) + ":" + rows.Text(3) + " " +
                          rows.Text(4) + " " + rows.Text(5));
  EXPECT_EQ(sites_after, sites_before);
  EXPECT_EQ(QueryInt(db, "SELECT count(*) FROM site_rows"), 4);  // the two revisions share them
  EXPECT_EQ(QueryInt(db, "SELECT count(*) FROM class_rows"), 2);
  EXPECT_EQ(QueryInt(db, "SELECT count(*) FROM classes"), 4);
  std::string json;
  ASSERT_TRUE(catalog->FindBlobJson(kBlobA, 7, &json));
  EXPECT_EQ(json, "{\"status\": \"ok\", \"sites\": []}");
  ASSERT_TRUE(catalog->FindBlobJson(kBlobB, 7, &json));
  EXPECT_EQ(json, "{\"status\": \"ok\", \"reason\": \"\"}");
  auto snippet = catalog->FindSnippet(kBlobA, 10, 4);
  ASSERT_TRUE(snippet.has_value());
  EXPECT_EQ(snippet->start_line, 9);
  EXPECT_EQ(snippet->text, "if not key:\n    raise ConfigError(key)");
  EXPECT_EQ(catalog->FindClass("acme/shop", "shop.config.Config")->path, "shop/config.py");
  EXPECT_EQ(QueryInt(db, "PRAGMA freelist_count"), 0);  // vacuumed after the migration
}

TEST(CatalogTest, ReadingAnOlderCatalogUpgradesItFirst) {
  TempDir dir;
  const std::string path = dir.File("older.db");
  {
    // A catalog as schema 2 left it: without what migrations 3 to 7 add.
    auto catalog = Catalog::Open(path, false);
    CatalogTestPeer::Db(*catalog).Exec(
        std::string(kUndoMigration8) +
        "DROP TABLE error_lineage; DROP TABLE revision_labels; DROP INDEX sites_by_file_name; "
        "DROP TABLE error_analysis; DROP TABLE error_entry_points; DROP TABLE error_tests; ALTER TABLE sites DROP "
        "COLUMN conditions; "
        "DROP TABLE matcher_class_anchors; ALTER TABLE sites DROP COLUMN via; "
        "ALTER TABLE classes DROP COLUMN message; ALTER TABLE classes DROP COLUMN message_from; " +
        std::string(kUndoMigration7) + "PRAGMA user_version = 2");
  }
  auto reader = Catalog::Open(path, /*read_only=*/true);
  EXPECT_EQ(SchemaVersion(CatalogTestPeer::Db(*reader)), kSchemaVersion);
  EXPECT_TRUE(reader->SitesOfError("0000000000000000").empty());  // reads the new column
  EXPECT_TRUE(reader->TestsOfError("0000000000000000", 1).empty());
}

TEST(CatalogTest, ASchema3CatalogKeepsItsRevisionsThroughMigrations4And5) {
  TempDir dir;
  const std::string path = dir.File("schema3.db");
  FileFacts facts = ConfigFacts();
  {
    // Written by the previous errdex: schema 3, without conditions or tests.
    auto catalog = Catalog::Open(path, false);
    RevisionData data = FirstRevision(&facts);
    catalog->WriteRevision(data);
    CatalogTestPeer::Db(*catalog).Exec(
        std::string(kUndoMigration8) +
        "DROP TABLE error_lineage; DROP TABLE revision_labels; DROP INDEX sites_by_file_name; "
        "DROP TABLE error_analysis; DROP TABLE error_entry_points; DROP TABLE error_tests; "
        "ALTER TABLE sites DROP COLUMN conditions; " +
        std::string(kUndoMigration7) + "PRAGMA user_version = 3");
  }
  auto reader = Catalog::Open(path, /*read_only=*/true);
  EXPECT_EQ(SchemaVersion(CatalogTestPeer::Db(*reader)), kSchemaVersion);
  EXPECT_EQ(reader->Revisions().size(), 1u);
  std::vector<SiteRow> sites = reader->SitesOfError(RevisionBuilder("acme/shop", kSha1).IdOf(kConfigBad));
  ASSERT_EQ(sites.size(), 1u);
  EXPECT_TRUE(reader->ConditionsOfSite(sites[0].revision_id, sites[0].path, sites[0].line, sites[0].col).empty());
  EXPECT_TRUE(reader->TestsOfError(sites[0].error_id, sites[0].revision_id).empty());
  EXPECT_EQ(
      QueryInt(CatalogTestPeer::Db(*reader), "SELECT count(*) FROM sqlite_master WHERE name = 'error_tests_by_error'"),
      1);
  EXPECT_FALSE(reader->AnalysisOfError(sites[0].error_id, sites[0].revision_id));
  EXPECT_TRUE(reader->ErrorsSharingEntryPoints(sites[0].error_id, sites[0].revision_id, 10).empty());
}

TEST(CatalogTest, RefusesANewerCatalog) {
  TempDir dir;
  const std::string path = dir.File("newer.db");
  {
    auto catalog = Catalog::Open(path, false);
    CatalogTestPeer::Db(*catalog).Exec("PRAGMA user_version = " + std::to_string(kSchemaVersion + 1));
  }
  const std::string before = Snapshot(path);
  for (bool read_only : {false, true}) {
    try {
      Catalog::Open(path, read_only);
      ADD_FAILURE() << "a catalog of a newer schema was opened (read_only=" << read_only << ")";
    } catch (const SqliteError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("newer"), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      if (!read_only) {
        EXPECT_NE(message.find(std::to_string(kSchemaVersion + 1)), std::string::npos) << message;
        EXPECT_NE(message.find("upgrade errdex"), std::string::npos) << message;
      }
    }
  }
  EXPECT_EQ(Snapshot(path), before);  // nothing was migrated or dropped
}

TEST(CatalogTest, ReadOnlyOpenOfMissingFileFails) {
  TempDir dir;
  const std::string path = dir.File("missing.db");
  try {
    Catalog::Open(path, /*read_only=*/true);
    ADD_FAILURE() << "opened a missing catalog";
  } catch (const SqliteError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(path)) << "a read-only open created the file";
}

TEST(CatalogTest, ReadOnlyOpenOfEmptyOrForeignFileFails) {
  TempDir dir;
  const std::string empty = dir.File("empty.db");
  std::ofstream(empty).close();
  ASSERT_TRUE(fs::exists(empty));
  try {
    Catalog::Open(empty, /*read_only=*/true);
    ADD_FAILURE() << "opened an empty file as a catalog";
  } catch (const SqliteError& e) {
    EXPECT_NE(std::string(e.what()).find("not an errdex catalog"), std::string::npos) << e.what();
  }
  EXPECT_EQ(fs::file_size(empty), 0u);

  // An SQLite database that is not a catalog (user_version 0).
  const std::string other = dir.File("other.db");
  {
    SqliteDb db(other, false);
    db.Exec("CREATE TABLE t(x)");
  }
  EXPECT_THROW(Catalog::Open(other, true), SqliteError);

  // A text file.
  const std::string text = dir.File("text.db");
  std::ofstream(text) << "this is not a database, not even close; it is a long enough line of text\n";
  EXPECT_THROW(Catalog::Open(text, true), SqliteError);
  EXPECT_THROW(Catalog::Open(text, false), SqliteError);
}

// ---------------------------------------------------------------------------------------------------
// Round trip.

class CatalogRoundTrip : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.File("c.db");
    catalog_ = Catalog::Open(path_, false);
    facts_ = ConfigFacts();
    revision_id_ = catalog_->WriteRevision(FirstRevision(&facts_));
  }

  TempDir dir_;
  std::string path_;
  std::unique_ptr<Catalog> catalog_;
  FileFacts facts_;
  int64_t revision_id_ = 0;
  RevisionBuilder ids_{"acme/shop", kSha1};
};

TEST_F(CatalogRoundTrip, FindRevision) {
  EXPECT_GT(revision_id_, 0);
  auto rev = catalog_->FindRevision("acme/shop", kSha1);
  ASSERT_TRUE(rev.has_value());
  EXPECT_EQ(rev->id, revision_id_);
  EXPECT_EQ(rev->repo, "acme/shop");
  EXPECT_EQ(rev->url, "https://github.com/acme/shop");
  EXPECT_EQ(rev->commit, kSha1);
  EXPECT_EQ(rev->source, "/src/acme/shop");
  EXPECT_EQ(rev->digest, "digest-" + kSha1);
  EXPECT_EQ(rev->extractor_version, 7);
  EXPECT_EQ(rev->indexed_at, "2026-01-02T03:04:05Z");
  EXPECT_EQ(rev->committed_at, "2026-01-01T00:00:00Z");
  EXPECT_EQ(rev->files, 3);
  EXPECT_EQ(rev->bytes, 300);
  EXPECT_EQ(rev->sites, 4);
  EXPECT_EQ(rev->skipped, 0);

  EXPECT_FALSE(catalog_->FindRevision("acme/shop", kSha2).has_value());
  EXPECT_FALSE(catalog_->FindRevision("acme/shop", std::nullopt).has_value());
  EXPECT_FALSE(catalog_->FindRevision("acme/other", kSha1).has_value());
}

TEST_F(CatalogRoundTrip, ListSitesOfTheLatestRevision) {
  std::vector<SiteRow> rows = List(*catalog_, SiteFilter{});
  ASSERT_EQ(Where(rows), (Strings{"shop/cart.py:5", "shop/config.py:10", "shop/config.py:20", "tests/test_cart.py:3"}));
  const SiteRow& r = rows[2];
  EXPECT_EQ(r.error_id, ids_.IdOf(kConfigBad));
  EXPECT_EQ(r.repo, "acme/shop");
  EXPECT_EQ(r.url, "https://github.com/acme/shop");
  EXPECT_EQ(r.commit, kSha1);
  EXPECT_EQ(r.col, 4);
  EXPECT_EQ(r.end_line, 21);
  EXPECT_EQ(r.kind, "raise");
  EXPECT_EQ(r.type, "errors.ConfigError");
  EXPECT_EQ(r.type_qualified, "shop.errors.ConfigError");
  EXPECT_EQ(r.template_text, "bad value {v!r}");
  EXPECT_EQ(r.function, "Config.load");
  EXPECT_FALSE(r.is_test);
  EXPECT_EQ(r.blob_id, kBlobA);
  EXPECT_TRUE(rows[3].is_test);
  EXPECT_EQ(rows[3].blob_id, kBlobC);
}

TEST_F(CatalogRoundTrip, ListSitesFilters) {
  // A second repository and a second commit of the first.
  catalog_->WriteRevision(RevisionBuilder("acme/other", kSha1)
                              .File("o.py", kBlobA, "o")
                              .Site({"o.py", 1, "ValueError", "builtins.ValueError", "cart is empty"})
                              .Build());
  catalog_->WriteRevision(
      RevisionBuilder("acme/shop", kSha2).File("shop/config.py", kBlobA, "shop.config").Site(kConfigMissing).Build());

  // Default: the latest revision of each repository.
  EXPECT_EQ(Where(List(*catalog_, SiteFilter{})), (Strings{"o.py:1", "shop/config.py:10"}));
  // Repository.
  SiteFilter repo;
  repo.repo = "acme/shop";
  EXPECT_EQ(Where(List(*catalog_, repo)), (Strings{"shop/config.py:10"}));
  repo.repo = "acme/nope";
  EXPECT_TRUE(List(*catalog_, repo).empty());
  // A commit prefix, and "all".
  SiteFilter rev;
  rev.repo = "acme/shop";
  rev.rev = kSha1.substr(0, 7);
  EXPECT_EQ(List(*catalog_, rev).size(), 4u);
  for (const SiteRow& row : List(*catalog_, rev)) EXPECT_EQ(row.commit, kSha1);
  rev.rev = kSha2;
  EXPECT_EQ(Where(List(*catalog_, rev)), (Strings{"shop/config.py:10"}));
  rev.rev = "3333";
  EXPECT_TRUE(List(*catalog_, rev).empty());
  rev.rev = "all";
  EXPECT_EQ(List(*catalog_, rev).size(), 5u);
  rev.repo.reset();
  EXPECT_EQ(List(*catalog_, rev).size(), 6u);
  // Type: as written or qualified, exactly.
  SiteFilter type;
  type.rev = "all";
  type.type = "ConfigError";
  EXPECT_EQ(Where(List(*catalog_, type)), (Strings{"shop/config.py:10", "shop/config.py:10"}));
  type.type = "shop.errors.ConfigError";
  EXPECT_EQ(Where(List(*catalog_, type)), (Strings{"shop/config.py:10", "shop/config.py:20", "shop/config.py:10"}));
  type.type = "builtins.ValueError";
  EXPECT_EQ(Where(List(*catalog_, type)), (Strings{"o.py:1", "shop/cart.py:5"}));
  type.type = "Error";
  EXPECT_TRUE(List(*catalog_, type).empty());
  // Path prefix.
  SiteFilter path;
  path.rev = kSha1;
  path.repo = "acme/shop";
  path.path = "shop/";
  EXPECT_EQ(Where(List(*catalog_, path)), (Strings{"shop/cart.py:5", "shop/config.py:10", "shop/config.py:20"}));
  path.path = "tests";
  EXPECT_EQ(Where(List(*catalog_, path)), (Strings{"tests/test_cart.py:3"}));
  path.path = "shop/config.py";
  EXPECT_EQ(List(*catalog_, path).size(), 2u);
  path.path = "hop";
  EXPECT_TRUE(List(*catalog_, path).empty());
  // Limit.
  SiteFilter limit;
  limit.rev = "all";
  limit.limit = 2;
  EXPECT_EQ(Where(List(*catalog_, limit)), (Strings{"o.py:1", "shop/cart.py:5"}));
  limit.limit = 0;
  EXPECT_TRUE(List(*catalog_, limit).empty());
  limit.limit = -1;
  EXPECT_EQ(List(*catalog_, limit).size(), 6u);
  // Combined.
  SiteFilter all;
  all.repo = "acme/shop";
  all.rev = "all";
  all.type = "shop.errors.ConfigError";
  all.path = "shop/config";
  all.limit = 1;
  std::vector<SiteRow> rows = List(*catalog_, all);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].commit, kSha1);
  EXPECT_EQ(rows[0].line, 10);
}

TEST_F(CatalogRoundTrip, FindError) {
  auto e = catalog_->FindError(ids_.IdOf(kConfigBad));
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->id, ids_.IdOf(kConfigBad));
  EXPECT_EQ(e->repo, "acme/shop");
  EXPECT_EQ(e->url, "https://github.com/acme/shop");
  EXPECT_EQ(e->type, "errors.ConfigError");
  EXPECT_EQ(e->type_qualified, "shop.errors.ConfigError");
  EXPECT_EQ(e->template_text, "bad value {v!r}");
  EXPECT_FALSE(catalog_->FindError("0000000000000000").has_value());
  EXPECT_FALSE(catalog_->FindError("").has_value());
}

TEST_F(CatalogRoundTrip, SitesAndRevisionsOfError) {
  // The same error raised in a second commit, from two places.
  SiteSpec moved = kConfigMissing;
  moved.line = 40;
  const int64_t second = catalog_->WriteRevision(RevisionBuilder("acme/shop", kSha2)
                                                     .File("shop/config.py", kBlobA, "shop.config")
                                                     .Site(kConfigMissing)
                                                     .Site(moved)
                                                     .Build());
  EXPECT_NE(second, revision_id_);
  const std::string id = ids_.IdOf(kConfigMissing);
  std::vector<SiteRow> sites = catalog_->SitesOfError(id);
  ASSERT_EQ(sites.size(), 3u);
  // Newest revision first, then by path and line.
  EXPECT_EQ(sites[0].commit, kSha2);
  EXPECT_EQ(sites[0].line, 10);
  EXPECT_EQ(sites[1].commit, kSha2);
  EXPECT_EQ(sites[1].line, 40);
  EXPECT_EQ(sites[2].commit, kSha1);
  for (const SiteRow& s : sites) EXPECT_EQ(s.error_id, id);

  std::vector<RevisionRow> revisions = catalog_->RevisionsOfError(id);
  ASSERT_EQ(revisions.size(), 2u);
  EXPECT_EQ(revisions[0].commit, kSha1);
  EXPECT_EQ(revisions[1].commit, kSha2);

  // An error of the first commit only.
  ASSERT_EQ(catalog_->RevisionsOfError(ids_.IdOf(kCartEmpty)).size(), 1u);
  EXPECT_EQ(catalog_->SitesOfError(ids_.IdOf(kCartEmpty)).size(), 1u);
  EXPECT_TRUE(catalog_->SitesOfError("0000000000000000").empty());
  EXPECT_TRUE(catalog_->RevisionsOfError("0000000000000000").empty());
}

TEST_F(CatalogRoundTrip, ConditionsAndTestsOfAnError) {
  const std::string id = ids_.IdOf(kConfigBad);
  std::vector<SiteRow> sites = catalog_->SitesOfError(id);
  ASSERT_EQ(sites.size(), 1u);
  const SiteRow& s = sites[0];
  std::vector<Condition> conditions = catalog_->ConditionsOfSite(s.revision_id, s.path, s.line, s.col);
  ASSERT_EQ(conditions.size(), 2u);
  EXPECT_EQ(conditions[0].kind, "if");
  EXPECT_EQ(conditions[0].code, "if (value :=\n        raw.get(key)) is None:");
  EXPECT_EQ(conditions[0].line, 18);
  EXPECT_FALSE(conditions[0].negated);
  EXPECT_EQ(conditions[1].kind, "except");
  EXPECT_EQ(conditions[1].line, 19);
  // A site without conditions, and no site at all.
  std::vector<SiteRow> other = catalog_->SitesOfError(ids_.IdOf(kCartEmpty));
  ASSERT_EQ(other.size(), 1u);
  EXPECT_TRUE(catalog_->ConditionsOfSite(other[0].revision_id, other[0].path, other[0].line, other[0].col).empty());
  EXPECT_TRUE(catalog_->ConditionsOfSite(s.revision_id, s.path, s.line + 1, s.col).empty());

  std::vector<ErrorTestRow> tests = catalog_->TestsOfError(id, s.revision_id);
  ASSERT_EQ(tests.size(), 1u);
  EXPECT_EQ(tests[0].error_id, id);
  EXPECT_EQ(tests[0].path, "tests/test_cart.py");
  EXPECT_EQ(tests[0].line, 12);
  EXPECT_EQ(tests[0].function, "ConfigTest.test_bad");
  EXPECT_EQ(tests[0].kind, "assertRaisesRegex");
  EXPECT_EQ(tests[0].type, "ConfigError");
  EXPECT_EQ(tests[0].match, "bad value '.*'");
  EXPECT_EQ(tests[0].code, "with self.assertRaisesRegex(ConfigError, \"bad value '.*'\"):\n    load()");
  EXPECT_EQ(tests[0].site_path, "shop/config.py");
  EXPECT_EQ(tests[0].site_line, 20);
  EXPECT_TRUE(catalog_->TestsOfError(ids_.IdOf(kCartEmpty), s.revision_id).empty());
  EXPECT_TRUE(catalog_->TestsOfError(id, s.revision_id + 100).empty());

  // Replacing the revision replaces its tests; deleting it leaves none behind.
  catalog_->WriteRevision(RevisionBuilder("acme/shop", kSha1).Site(kConfigBad).Build());
  EXPECT_EQ(QueryInt(CatalogTestPeer::Db(*catalog_), "SELECT count(*) FROM error_tests"), 0);
  EXPECT_EQ(QueryInt(CatalogTestPeer::Db(*catalog_), "SELECT count(*) FROM sites WHERE conditions IS NOT NULL"), 0);
}

TEST_F(CatalogRoundTrip, FindClass) {
  auto c = catalog_->FindClass("acme/shop", "shop.errors.ConfigError");
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->qualified_name, "shop.errors.ConfigError");
  EXPECT_EQ(c->path, "shop/errors.py");
  EXPECT_EQ(c->line, 3);
  EXPECT_EQ(c->bases, (Strings{"builtins.Exception"}));
  EXPECT_EQ(c->docstring, "Docs of shop.errors.ConfigError.");
  EXPECT_FALSE(catalog_->FindClass("acme/other", "shop.errors.ConfigError").has_value());
  EXPECT_FALSE(catalog_->FindClass("acme/shop", "shop.errors").has_value());

  // The newest revision's definition wins.
  catalog_->WriteRevision(RevisionBuilder("acme/shop", kSha2)
                              .Class("shop.errors.ConfigError", "shop/errors2.py", 9, {"shop.errors.Base", "Mixin"})
                              .Build());
  c = catalog_->FindClass("acme/shop", "shop.errors.ConfigError");
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->path, "shop/errors2.py");
  EXPECT_EQ(c->line, 9);
  EXPECT_EQ(c->bases, (Strings{"shop.errors.Base", "Mixin"}));
}

// What `explain` reads on its cold path: one class by name, and the repository's classes without docstrings;
// their lists come back as written, quotes, commas and backslashes included (read without the JSON parser when
// they hold no escape).
TEST_F(CatalogRoundTrip, ClassOfLatestRevisionAgreesWithTheList) {
  RevisionData data = RevisionBuilder("acme/shop", kSha2)
                          .Class("shop.errors.ConfigError", "shop/errors2.py", 9, {"shop.errors.Base", "Mixin"})
                          .Class("shop.errors.Plain", "shop/errors2.py", 20, {})
                          .Build();
  data.classes[0].message = "bad {key}";
  data.classes[0].message_from = "__str__";
  data.classes[0].alternatives = {"a, b", "say \"hi\"", "back\\slash", ""};
  catalog_->WriteRevision(data);
  std::optional<ClassRow> one = catalog_->ClassOfLatestRevision("acme/shop", "shop.errors.ConfigError");
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->path, "shop/errors2.py");
  EXPECT_EQ(one->bases, (Strings{"shop.errors.Base", "Mixin"}));
  EXPECT_EQ(one->message, "bad {key}");
  EXPECT_EQ(one->alternatives, (Strings{"a, b", "say \"hi\"", "back\\slash", ""}));
  EXPECT_EQ(one->docstring, "");
  std::vector<ClassRow> all = catalog_->ClassesOfLatestRevision("acme/shop");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].qualified_name, "shop.errors.ConfigError");
  EXPECT_EQ(all[0].bases, one->bases);
  EXPECT_EQ(all[0].alternatives, one->alternatives);
  EXPECT_TRUE(all[1].bases.empty());
  EXPECT_TRUE(all[1].alternatives.empty());
  // Only the latest revision: the first one's class of that name is not read, nor another repository's.
  EXPECT_FALSE(catalog_->ClassOfLatestRevision("acme/shop", "shop.errors").has_value());
  EXPECT_FALSE(catalog_->ClassOfLatestRevision("acme/other", "shop.errors.ConfigError").has_value());
}

TEST_F(CatalogRoundTrip, BlobCacheAndSnippets) {
  FileFacts got;
  ASSERT_TRUE(catalog_->FindBlob(kBlobA, 7, &got));
  EXPECT_EQ(got.status, "ok");
  EXPECT_EQ(got.reason, "");
  ASSERT_EQ(got.sites.size(), 2u);
  EXPECT_EQ(got.sites[0].kind, "raise");
  EXPECT_EQ(got.sites[0].type, "ConfigError");
  EXPECT_EQ(got.sites[0].template_text, "missing {key}");
  EXPECT_EQ(got.sites[0].line, 10);
  EXPECT_EQ(got.sites[0].col, 4);
  EXPECT_EQ(got.sites[0].end_line, 11);
  EXPECT_EQ(got.sites[0].function, "<module>");
  EXPECT_EQ(got.sites[0].snippet, "");  // snippets live in their own record
  EXPECT_EQ(got.sites[0].message_alternatives, std::vector<std::string>{"no {key} given"});
  EXPECT_FALSE(got.sites[0].alternatives_capped);
  ASSERT_EQ(got.sites[0].conditions.size(), 2u);
  EXPECT_EQ(got.sites[0].conditions[0].kind, "if");
  EXPECT_EQ(got.sites[0].conditions[0].code, "if not key:");
  EXPECT_EQ(got.sites[0].conditions[0].line, 9);
  EXPECT_FALSE(got.sites[0].conditions[0].negated);
  EXPECT_EQ(got.sites[0].conditions[1].kind, "early_exit");
  EXPECT_TRUE(got.sites[0].conditions[1].negated);
  EXPECT_EQ(got.sites[1].kind, "reraise");
  EXPECT_TRUE(got.sites[1].conditions.empty());
  ASSERT_EQ(got.raises_tests.size(), 1u);
  EXPECT_EQ(got.raises_tests[0].function, "test_missing");
  EXPECT_EQ(got.raises_tests[0].line, 40);
  EXPECT_EQ(got.raises_tests[0].type, "ConfigError");
  EXPECT_EQ(got.raises_tests[0].match, "missing k");
  EXPECT_EQ(got.raises_tests[0].kind, "pytest.raises");
  EXPECT_EQ(got.raises_tests[0].code, "with pytest.raises(ConfigError, match=\"missing k\"):\n    load()");
  EXPECT_FALSE(got.sites[1].type.has_value());
  EXPECT_FALSE(got.sites[1].template_text.has_value());
  ASSERT_EQ(got.classes.size(), 1u);
  EXPECT_EQ(got.classes[0].qualname, "Config");
  EXPECT_EQ(got.classes[0].bases, (Strings{"object"}));
  EXPECT_EQ(got.classes[0].docstring, "The configuration.");
  ASSERT_EQ(got.imports.size(), 1u);
  EXPECT_EQ(got.imports[0].name, "ConfigError");
  EXPECT_EQ(got.imports[0].target, ".errors.ConfigError");
  EXPECT_EQ(got.wildcard_imports, (Strings{".constants"}));

  // Stored compressed (catalog/blob_cache.h); FindBlobJson decodes it to the JSON text.
  std::string json;
  ASSERT_TRUE(catalog_->FindBlobJson(kBlobA, 7, &json));
  EXPECT_NE(json.find("missing {key}"), std::string::npos) << json;
  EXPECT_EQ(
      QueryInt(CatalogTestPeer::Db(*catalog_),
               std::string("SELECT count(*) FROM blob_cache WHERE substr(facts, 1, 4) = x'28b52ffd' AND oid = '") +
                   kBlobA + "'"),
      1);
  // Another extractor version, or a blob never stored: a miss.
  EXPECT_FALSE(catalog_->FindBlob(kBlobA, 8, &got));
  EXPECT_FALSE(catalog_->FindBlobJson(kBlobA, 6, &json));
  EXPECT_FALSE(catalog_->FindBlob(kBlobB, 7, &got));
  // The prepared look-up is reusable after a miss.
  EXPECT_TRUE(catalog_->FindBlobJson(kBlobA, 7, &json));

  auto snippet = catalog_->FindSnippet(kBlobA, 10, 4);
  ASSERT_TRUE(snippet.has_value());
  EXPECT_EQ(snippet->start_line, 8);
  EXPECT_EQ(snippet->text, facts_.sites[0].snippet);
  snippet = catalog_->FindSnippet(kBlobA, 30, 8);
  ASSERT_TRUE(snippet.has_value());
  EXPECT_EQ(snippet->start_line, 29);
  EXPECT_EQ(snippet->text, "    except OSError:\n        raise\n");
  EXPECT_FALSE(catalog_->FindSnippet(kBlobA, 10, 5).has_value());
  EXPECT_FALSE(catalog_->FindSnippet(kBlobB, 10, 4).has_value());
}

// ---------------------------------------------------------------------------------------------------
// Replacement and garbage collection.

TEST(CatalogTest, WritingTheSameCommitTwiceReplacesIt) {
  TempDir dir;
  auto catalog = Catalog::Open(dir.File("c.db"), false);
  FileFacts facts = ConfigFacts();
  catalog->WriteRevision(FirstRevision(&facts));
  RevisionBuilder second("acme/shop", kSha1);
  second.File("shop/config.py", kBlobA, "shop.config").Site(kConfigMissing);
  RevisionData data = second.Build();
  data.revision.digest = "new digest";
  catalog->WriteRevision(data);

  std::vector<RevisionRow> revisions = catalog->Revisions();
  ASSERT_EQ(revisions.size(), 1u);
  EXPECT_EQ(revisions[0].digest, "new digest");
  EXPECT_EQ(revisions[0].sites, 1);
  SiteFilter all;
  all.rev = "all";
  EXPECT_EQ(Where(List(*catalog, all)), (Strings{"shop/config.py:10"}));
  // The errors only the replaced content raised are gone; the kept one stays.
  EXPECT_TRUE(catalog->FindError(second.IdOf(kConfigMissing)).has_value());
  EXPECT_FALSE(catalog->FindError(second.IdOf(kConfigBad)).has_value());
  EXPECT_FALSE(catalog->FindError(second.IdOf(kCartEmpty)).has_value());
  EXPECT_FALSE(catalog->FindError(second.IdOf(kTestSite)).has_value());
  EXPECT_EQ(QueryInt(CatalogTestPeer::Db(*catalog), "SELECT count(*) FROM errors"), 1);
  // Files and classes of the replaced revision are gone too.
  EXPECT_EQ(QueryInt(CatalogTestPeer::Db(*catalog), "SELECT count(*) FROM files"), 1);
  EXPECT_EQ(QueryInt(CatalogTestPeer::Db(*catalog), "SELECT count(*) FROM classes"), 0);
  EXPECT_FALSE(catalog->FindClass("acme/shop", "shop.errors.ConfigError").has_value());
  // The blob cache is kept: it does not belong to a revision.
  FileFacts cached;
  EXPECT_TRUE(catalog->FindBlob(kBlobA, 7, &cached));
}

// A site's other texts (schema 12) come back with the site, and the matcher reads them once per error and text.
TEST(CatalogTest, MessageAlternativesOfASiteRoundTrip) {
  TempDir dir;
  auto catalog = Catalog::Open(dir.File("c.db"), false);
  const SiteSpec chosen{"shop/cli.py", 7, "UsageError", "shop.errors.UsageError", "{msg.format(arg=arg)}", "resolve"};
  RevisionBuilder builder("acme/shop", kSha1);
  builder.File("shop/cli.py", kBlobA, "shop.cli").Site(chosen).Site(chosen);
  RevisionData data = builder.Build();
  data.sites[0].message_alternatives = {"file or directory not found: {arg}", "module not found: {arg}"};
  data.sites[0].alternatives_capped = true;
  data.sites[1].line = 9;
  data.sites[1].message_alternatives = {"module not found: {arg}", "found no collectors for {arg}"};
  catalog->WriteRevision(data);
  std::vector<SiteRow> sites = catalog->SitesOfError(builder.IdOf(chosen));
  ASSERT_EQ(sites.size(), 2u);
  std::sort(sites.begin(), sites.end(), [](const SiteRow& a, const SiteRow& b) { return a.line < b.line; });
  EXPECT_EQ(sites[0].message_alternatives,
            (std::vector<std::string>{"file or directory not found: {arg}", "module not found: {arg}"}));
  EXPECT_TRUE(sites[0].alternatives_capped);
  EXPECT_FALSE(sites[1].alternatives_capped);
  std::vector<std::string> texts;
  for (const MatcherTables::ErrorTemplate& e : catalog->matcher_tables().ErrorAlternatives()) {
    EXPECT_EQ(e.id, builder.IdOf(chosen));
    texts.push_back(e.template_text);
  }
  std::sort(texts.begin(), texts.end());
  EXPECT_EQ(texts, (std::vector<std::string>{"file or directory not found: {arg}", "found no collectors for {arg}",
                                             "module not found: {arg}"}));
}

TEST(CatalogTest, ADirectoryRevisionIsReplacedToo) {
  TempDir dir;
  auto catalog = Catalog::Open(dir.File("c.db"), false);
  RevisionBuilder b("me/dir", std::nullopt);
  catalog->WriteRevision(RevisionBuilder("me/dir", std::nullopt).File("a.py", kBlobA, "a").Site(kCartEmpty).Build());
  catalog->WriteRevision(RevisionBuilder("me/dir", std::nullopt).File("a.py", kBlobB, "a").Site(kConfigBad).Build());
  std::vector<RevisionRow> revisions = catalog->Revisions();
  ASSERT_EQ(revisions.size(), 1u);
  EXPECT_FALSE(revisions[0].commit.has_value());
  ASSERT_TRUE(catalog->FindRevision("me/dir", std::nullopt).has_value());
  EXPECT_FALSE(catalog->FindError(b.IdOf(kCartEmpty)).has_value());
  EXPECT_TRUE(catalog->FindError(b.IdOf(kConfigBad)).has_value());
}

TEST(CatalogTest, TwoCommitsCoexist) {
  TempDir dir;
  auto catalog = Catalog::Open(dir.File("c.db"), false);
  FileFacts facts = ConfigFacts();
  const int64_t first = catalog->WriteRevision(FirstRevision(&facts));
  RevisionBuilder second("acme/shop", kSha2);
  second.File("shop/config.py", kBlobA, "shop.config").Site(kConfigMissing);
  const int64_t second_id = catalog->WriteRevision(second.Build());
  EXPECT_NE(first, second_id);
  std::vector<RevisionRow> revisions = catalog->Revisions();
  ASSERT_EQ(revisions.size(), 2u);
  EXPECT_EQ(revisions[0].commit, kSha1);
  EXPECT_EQ(revisions[1].commit, kSha2);
  EXPECT_TRUE(catalog->FindRevision("acme/shop", kSha1).has_value());
  EXPECT_TRUE(catalog->FindRevision("acme/shop", kSha2).has_value());
  // Errors of the first commit only survive: that revision still raises them.
  EXPECT_TRUE(catalog->FindError(second.IdOf(kCartEmpty)).has_value());
  EXPECT_EQ(QueryInt(CatalogTestPeer::Db(*catalog), "SELECT count(*) FROM errors"), 4);
  SiteFilter all;
  all.rev = "all";
  EXPECT_EQ(List(*catalog, all).size(), 5u);
}

TEST(CatalogTest, ErrorsWithNoSitesLeftAreDeleted) {
  TempDir dir;
  auto catalog = Catalog::Open(dir.File("c.db"), false);
  RevisionBuilder ids("acme/shop", kSha1);
  // kConfigMissing is raised by both commits, kCartEmpty by the first only, kConfigBad by the second.
  catalog->WriteRevision(RevisionBuilder("acme/shop", kSha1).Site(kConfigMissing).Site(kCartEmpty).Build());
  catalog->WriteRevision(RevisionBuilder("acme/shop", kSha2).Site(kConfigMissing).Site(kConfigBad).Build());
  // Another repository raising an error nobody else raises, untouched by what happens to acme/shop.
  catalog->WriteRevision(RevisionBuilder("acme/other", kSha1).Site(kTestSite).Build());
  RevisionBuilder other_ids("acme/other", kSha1);
  EXPECT_EQ(QueryInt(CatalogTestPeer::Db(*catalog), "SELECT count(*) FROM errors"), 4);

  // Commit 1 re-indexed without any site.
  catalog->WriteRevision(RevisionBuilder("acme/shop", kSha1).Build());
  EXPECT_FALSE(catalog->FindError(ids.IdOf(kCartEmpty)).has_value());
  EXPECT_TRUE(catalog->FindError(ids.IdOf(kConfigMissing)).has_value());  // commit 2 still raises it
  EXPECT_TRUE(catalog->FindError(ids.IdOf(kConfigBad)).has_value());

  // Commit 2 re-indexed without any site: nothing of acme/shop is left.
  catalog->WriteRevision(RevisionBuilder("acme/shop", kSha2).Build());
  EXPECT_FALSE(catalog->FindError(ids.IdOf(kConfigMissing)).has_value());
  EXPECT_FALSE(catalog->FindError(ids.IdOf(kConfigBad)).has_value());
  EXPECT_TRUE(catalog->FindError(other_ids.IdOf(kTestSite)).has_value());
  EXPECT_EQ(QueryInt(CatalogTestPeer::Db(*catalog), "SELECT count(*) FROM errors"), 1);
  EXPECT_EQ(catalog->Revisions().size(), 3u);
}

// ---------------------------------------------------------------------------------------------------
// Atomicity.

TEST(CatalogTest, AFailedWriteLeavesTheCatalogAsItWas) {
  TempDir dir;
  const std::string path = dir.File("c.db");
  auto catalog = Catalog::Open(path, false);
  FileFacts facts = ConfigFacts();
  catalog->WriteRevision(FirstRevision(&facts));
  const std::string before = Snapshot(path);

  // Replaces (repo, commit) — so the old revision is deleted first — adds blobs, files, errors and a
  // class, then fails on a site whose error id is not in the errors table (a foreign key violation).
  FileFacts other = ConfigFacts();
  other.sites[0].line = 99;
  RevisionBuilder bad("acme/shop", kSha1);
  bad.File("shop/new.py", kBlobB, "shop.new")
      .Site(kCartEmpty)
      .Class("shop.new.X", "shop/new.py", 1, {})
      .Blob(kBlobB, &other);
  RevisionData data = bad.Build();
  data.sites[0].conditions = {{"if", "if x:", 1, false, {}}};  // written before the failure, rolled back with it
  SiteRow orphan = data.sites[0];
  orphan.error_id = "ffffffffffffffff";
  orphan.line = 77;
  data.sites.push_back(orphan);
  EXPECT_THROW(catalog->WriteRevision(data), SqliteError);
  EXPECT_EQ(Snapshot(path), before);

  // The same in a new repository (its repositories row is inserted first).
  RevisionData fresh = RevisionBuilder("acme/new", kSha2).Site(kConfigMissing).Build();
  fresh.sites[0].error_id = "eeeeeeeeeeeeeeee";
  EXPECT_THROW(catalog->WriteRevision(fresh), SqliteError);
  EXPECT_EQ(Snapshot(path), before);

  // The connection is usable afterwards: no transaction was left open.
  RevisionData good = RevisionBuilder("acme/new", kSha2).Site(kConfigMissing).Build();
  EXPECT_NO_THROW(catalog->WriteRevision(good));
  EXPECT_TRUE(catalog->FindRevision("acme/new", kSha2).has_value());
  EXPECT_TRUE(catalog->FindRevision("acme/shop", kSha1).has_value());
}

TEST(CatalogTest, ATransactionWithoutCommitRollsBack) {
  TempDir dir;
  const std::string path = dir.File("c.db");
  auto catalog = Catalog::Open(path, false);
  FileFacts facts = ConfigFacts();
  catalog->WriteRevision(FirstRevision(&facts));
  const std::string before = Snapshot(path);
  {
    Transaction tx(CatalogTestPeer::Db(*catalog));
    CatalogTestPeer::Db(*catalog).Exec("DELETE FROM revision_sites");
    CatalogTestPeer::Db(*catalog).Exec("DELETE FROM revisions");
    CatalogTestPeer::Db(*catalog).Exec("INSERT INTO repositories(name) VALUES('x/y')");
    EXPECT_TRUE(List(*catalog, SiteFilter{}).empty());  // visible inside the transaction
  }
  EXPECT_EQ(Snapshot(path), before);
  EXPECT_EQ(List(*catalog, SiteFilter{}).size(), 4u);

  // An exception thrown inside the transaction scope rolls back as well.
  try {
    Transaction tx(CatalogTestPeer::Db(*catalog));
    CatalogTestPeer::Db(*catalog).Exec("DELETE FROM revision_classes");
    CatalogTestPeer::Db(*catalog).Exec("INSERT INTO nonexistent VALUES(1)");
    tx.Commit();
    ADD_FAILURE() << "the bad statement did not throw";
  } catch (const SqliteError&) {
  }
  EXPECT_EQ(Snapshot(path), before);
}

// ---------------------------------------------------------------------------------------------------
// Several connections.

TEST(CatalogTest, TwoCatalogsOnOneFileBothLand) {
  TempDir dir;
  const std::string path = dir.File("c.db");
  auto a = Catalog::Open(path, false);
  auto b = Catalog::Open(path, false);
  FileFacts facts = ConfigFacts();
  // A reads first (its prepared blob look-up must not hold the database), then each writes in turn.
  std::string json;
  EXPECT_FALSE(a->FindBlobJson(kBlobA, 7, &json));
  a->WriteRevision(FirstRevision(&facts));
  EXPECT_TRUE(b->FindBlobJson(kBlobA, 7, &json));
  b->WriteRevision(RevisionBuilder("acme/other", kSha2).File("o.py", kBlobB, "o").Site(kConfigBad).Build());
  a->WriteRevision(RevisionBuilder("acme/shop", kSha2).Site(kCartEmpty).Build());
  b->WriteRevision(RevisionBuilder("acme/third", std::nullopt).Site(kTestSite).Build());

  for (Catalog* c : {a.get(), b.get()}) {
    std::vector<RevisionRow> revisions = c->Revisions();
    ASSERT_EQ(revisions.size(), 4u);
    EXPECT_EQ(revisions[0].repo, "acme/other");
    EXPECT_EQ(revisions[1].repo, "acme/shop");
    EXPECT_EQ(revisions[2].repo, "acme/shop");
    EXPECT_EQ(revisions[3].repo, "acme/third");
  }
  a.reset();
  b.reset();
  auto reader = Catalog::Open(path, true);
  EXPECT_EQ(reader->Revisions().size(), 4u);
  SiteFilter all;
  all.rev = "all";
  EXPECT_EQ(List(*reader, all).size(), 4u + 1u + 1u + 1u);
}

}  // namespace
}  // namespace errdex

namespace errdex {
namespace {

TEST(CatalogTest, AnalysesAndEntryPointsAreStoredPerRevision) {
  TempDir dir;
  auto catalog = Catalog::Open(dir.File("c.db"), false);
  FileFacts facts = ConfigFacts();
  RevisionData data = FirstRevision(&facts);
  const std::string missing = data.sites[0].error_id, bad = data.sites[1].error_id, empty = data.sites[2].error_id;
  data.analyses.push_back({missing, R"({"meaning": {"summary": "s"}})", {"shop.load", "shop.Config.get"}});
  data.analyses.push_back({bad, R"({"call_paths": []})", {"shop.load"}});
  data.analyses.push_back({empty, "{}", {"shop.Cart.checkout", "shop.load"}});
  const int64_t rev = catalog->WriteRevision(data);
  EXPECT_EQ(catalog->AnalysisOfError(missing, rev), R"({"meaning": {"summary": "s"}})");
  EXPECT_FALSE(catalog->AnalysisOfError(missing, rev + 1));
  // Both others share "shop.load"; nothing else is shared.
  std::vector<std::pair<std::string, std::string>> shared = catalog->ErrorsSharingEntryPoints(missing, rev, 10);
  ASSERT_EQ(shared.size(), 2u);
  for (const auto& [id, entry] : shared) {
    EXPECT_TRUE(id == bad || id == empty);
    EXPECT_EQ(entry, "shop.load");
  }
  EXPECT_EQ(catalog->ErrorsSharingEntryPoints(missing, rev, 1).size(), 1u);
  // Scope: same function, or the methods of a class.
  EXPECT_EQ(catalog->ErrorsInScope(rev, "shop/config.py", "Config.load", "", 10), Strings{bad});
  EXPECT_EQ(catalog->ErrorsInScope(rev, "shop/config.py", "", "Config.", 10), Strings{bad});
  EXPECT_TRUE(catalog->ErrorsInScope(rev, "shop/config.py", "", "Other.", 10).empty());
  // Rewriting the revision replaces its analyses.
  data.analyses.resize(1);
  const int64_t again = catalog->WriteRevision(data);
  EXPECT_FALSE(catalog->AnalysisOfError(bad, again));
  EXPECT_TRUE(catalog->ErrorsSharingEntryPoints(missing, again, 10).empty());
}

}  // namespace
}  // namespace errdex
