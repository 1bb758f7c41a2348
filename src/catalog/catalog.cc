#include "catalog/catalog.h"

#include <sqlite3.h>

#include <nlohmann/json.hpp>

#include "catalog/schema.h"
#include "catalog/stored_lists.h"
#include "extract/file_facts_json.h"

namespace errdex {

std::unique_ptr<Catalog> Catalog::Open(const std::string& path, bool read_only) {
  auto db = std::make_unique<SqliteDb>(path, read_only);
  db->Exec("PRAGMA foreign_keys = ON");
  if (read_only) {
    const int version = SchemaVersion(*db);
    if (version == 0) throw SqliteError("not an errdex catalog (or empty): " + path);
    if (version > kSchemaVersion) throw SqliteError("catalog " + path + " is newer than this errdex");
    if (version < kSchemaVersion) {
      // Written by an older errdex: bring it up to date once (this needs write access), then read.
      db.reset();
      try {
        Open(path, /*read_only=*/false);
      } catch (const SqliteError& e) {
        throw SqliteError("catalog " + path + " was written by an older errdex (schema " + std::to_string(version) +
                          ", this one reads " + std::to_string(kSchemaVersion) +
                          ") and cannot be upgraded: " + e.what());
      }
      return Open(path, /*read_only=*/true);
    }
  } else {
    db->Exec("PRAGMA journal_mode = WAL");
    db->Exec("PRAGMA synchronous = NORMAL");
    const int before = SchemaVersion(*db);
    MigrateSchema(*db);
    // Migration 8 frees most pages of a catalog of many revisions (docs/catalog.md): give them back once.
    if (before > 0 && before < 8) {
      try {
        db->Exec("VACUUM");
      } catch (const SqliteError&) {
        // Another connection is reading: the space stays free inside the file, to be reused.
      }
    }
  }
  return std::unique_ptr<Catalog>(new Catalog(std::move(db)));
}

void Catalog::ConfigureForThreadPerConnection() {
  sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
}

int64_t Catalog::DataVersion() {
  BorrowedStatement s = Prepared("PRAGMA data_version");
  s.Step();
  return s.Int(0);
}

BorrowedStatement Catalog::Prepared(const std::string& sql) {
  std::unique_ptr<Statement>& slot = prepared_[sql];
  if (!slot) slot = std::make_unique<Statement>(*db_, sql);
  return BorrowedStatement(*slot);
}

bool Catalog::FindBlob(const std::string& blob_id, int version, FileFacts* facts) {
  std::string text;
  if (!FindBlobJson(blob_id, version, &text)) return false;
  nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return !json.is_discarded() && FileFactsFromJson(json, facts);
}

namespace {

constexpr const char* kRevisionColumns =
    "v.id, r.name, r.url, v.commit_sha, v.source, v.digest, v.extractor_version, v.indexed_at, v.committed_at, "
    "v.files, v.bytes, v.sites, v.skipped, v.version, v.kind, v.vendored";

}  // namespace

RevisionRow Catalog::ReadRevision(Statement& s) {
  RevisionRow row;
  row.id = s.Int(0);
  row.repo = s.Text(1);
  row.url = s.OptionalText(2);
  row.commit = s.OptionalText(3);
  row.source = s.Text(4);
  row.digest = s.Text(5);
  row.extractor_version = static_cast<int>(s.Int(6));
  row.indexed_at = s.Text(7);
  row.committed_at = s.OptionalText(8);
  row.files = s.Int(9);
  row.bytes = s.Int(10);
  row.sites = s.Int(11);
  row.skipped = s.Int(12);
  row.version = s.OptionalText(13);
  row.kind = s.Text(14);
  row.vendored = s.OptionalText(15);
  return row;
}

std::optional<RevisionRow> Catalog::FindRevision(const std::string& repo, const std::optional<std::string>& commit,
                                                 const std::optional<std::string>& version) {
  Statement s(*db_, std::string("SELECT ") + kRevisionColumns +
                        " FROM revisions v JOIN repositories r ON r.id = v.repo_id"
                        " WHERE r.name = ?1 AND ifnull(v.commit_sha, '') = ?2 AND ifnull(v.version, '') = ?3");
  s.Bind(1, repo).Bind(2, commit.value_or("")).Bind(3, version.value_or(""));
  if (!s.Step()) return std::nullopt;
  return ReadRevision(s);
}

std::vector<RevisionRow> Catalog::Revisions() {
  Statement s(*db_, std::string("SELECT ") + kRevisionColumns +
                        " FROM revisions v JOIN repositories r ON r.id = v.repo_id ORDER BY r.name, v.id");
  std::vector<RevisionRow> out;
  while (s.Step()) out.push_back(ReadRevision(s));
  return out;
}

bool Catalog::MatcherIsStale() {
  Statement s(*db_,
              "SELECT ifnull((SELECT max(indexed_at) FROM revisions), '') > "
              "ifnull((SELECT built_at FROM matcher WHERE id = 1), '')");
  return s.Step() && s.Int(0) != 0;
}

void Catalog::RebuildMatcher(const std::function<void(MatcherTables&)>& rebuild) {
  Transaction tx(*db_);
  rebuild(matcher_tables_);
  tx.Commit();
}

int64_t Catalog::WriteRevision(const RevisionData& data, const std::function<void(MatcherTables&)>& before_commit) {
  Transaction tx(*db_);
  Statement(*db_,
            "INSERT INTO repositories(name, url) VALUES(?1, ?2) ON CONFLICT(name) DO UPDATE SET "
            "url = coalesce(excluded.url, repositories.url)")
      .Bind(1, data.repo)
      .Bind(2, data.url)
      .Run();
  int64_t repo_id;
  {
    Statement s(*db_, "SELECT id FROM repositories WHERE name = ?1");
    s.Bind(1, data.repo);
    s.Step();
    repo_id = s.Int(0);
  }
  const RevisionRow& rev = data.revision;
  Statement(*db_,
            "DELETE FROM revisions WHERE repo_id = ?1 AND ifnull(commit_sha, '') = ?2 AND ifnull(version, '') = ?3")
      .Bind(1, repo_id)
      .Bind(2, rev.commit.value_or(""))
      .Bind(3, rev.version.value_or(""))
      .Run();
  if (sqlite3_changes(db_->handle()) > 0) DropUnreferencedRows();
  Statement(*db_,
            "INSERT INTO revisions(repo_id, commit_sha, source, digest, extractor_version, indexed_at, committed_at, "
            "files, bytes, sites, skipped, version, kind, vendored) "
            "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)")
      .Bind(1, repo_id)
      .Bind(2, rev.commit)
      .Bind(3, rev.source)
      .Bind(4, rev.digest)
      .Bind(5, int64_t{rev.extractor_version})
      .Bind(6, rev.indexed_at)
      .Bind(7, rev.committed_at)
      .Bind(8, rev.files)
      .Bind(9, rev.bytes)
      .Bind(10, rev.sites)
      .Bind(11, rev.skipped)
      .Bind(12, rev.version)
      .Bind(13, rev.kind)
      .Bind(14, rev.vendored)
      .Run();
  const int64_t revision_id = db_->LastInsertId();

  WriteBlobs(data);
  Statement file(*db_,
                 "INSERT OR REPLACE INTO files(revision_id, path, oid, size, module, is_test, status, reason) "
                 "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
  for (const RevisionData::File& f : data.files) {
    file.Bind(1, revision_id).Bind(2, f.path).Bind(3, f.blob_id).Bind(4, f.size).Bind(5, f.module);
    file.Bind(6, int64_t{f.is_test}).Bind(7, f.status).Bind(8, f.reason);
    file.Run();
  }
  Statement error(*db_,
                  "INSERT OR IGNORE INTO errors(id, repo_id, type, type_qualified, template, normalized) "
                  "VALUES(?1, ?2, ?3, ?4, ?5, ?6)");
  for (const ErrorRow& e : data.errors) {
    error.Bind(1, e.id).Bind(2, repo_id).Bind(3, e.type).Bind(4, e.type_qualified).Bind(5, e.template_text);
    error.Bind(6, e.normalized);
    error.Run();
  }
  WriteSites(data, revision_id);
  Statement test(*db_,
                 "INSERT INTO error_tests(revision_id, error_id, path, line, function, kind, type, match, code, "
                 "site_path, site_line) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  for (const ErrorTestRow& t : data.error_tests) {
    test.Bind(1, revision_id).Bind(2, t.error_id).Bind(3, t.path).Bind(4, int64_t{t.line}).Bind(5, t.function);
    test.Bind(6, t.kind).Bind(7, t.type).Bind(8, t.match).Bind(9, t.code);
    if (t.site_path.empty()) {
      test.BindNull(10).BindNull(11);
    } else {
      test.Bind(10, t.site_path).Bind(11, int64_t{t.site_line});
    }
    test.Run();
  }
  Statement analysis(*db_, "INSERT OR REPLACE INTO error_analysis(revision_id, error_id, analysis) VALUES(?1, ?2, ?3)");
  Statement entry(*db_, "INSERT OR IGNORE INTO error_entry_points(revision_id, entry, error_id) VALUES(?1, ?2, ?3)");
  for (const ErrorAnalysisRow& a : data.analyses) {
    analysis.Bind(1, revision_id).Bind(2, a.error_id).Bind(3, a.analysis);
    analysis.Run();
    for (const std::string& e : a.entry_points) {
      entry.Bind(1, revision_id).Bind(2, e).Bind(3, a.error_id);
      entry.Run();
    }
  }
  WriteClasses(data, revision_id);
  // Errors that no revision raises any more (a directory re-indexed after an edit).
  Statement(*db_,
            "DELETE FROM errors WHERE repo_id = ?1 AND NOT EXISTS "
            "(SELECT 1 FROM sites WHERE sites.error_id = errors.id)")
      .Bind(1, repo_id)
      .Run();
  if (before_commit) before_commit(matcher_tables_);
  tx.Commit();
  return revision_id;
}

namespace {

constexpr const char* kSiteColumns =
    "s.error_id, r.name, r.url, v.commit_sha, s.path, s.line, s.col, s.end_line, s.kind, s.type, "
    "s.type_qualified, s.template, s.function, s.is_test, f.oid, v.id, s.via, v.version, s.wraps, s.reach_calls, "
    "s.reach_entries, s.reach_via, s.message_alternatives, s.alternatives_capped, s.class_texts";
// The last component of s.path ("b.py" of "a/b.py"), as indexed by sites_by_file_name (schema.cc).
constexpr const char* kSiteFileName = "substr(s.path, length(rtrim(s.path, replace(s.path, '/', ''))) + 1)";
constexpr const char* kSiteJoins =
    " FROM sites s JOIN revisions v ON v.id = s.revision_id JOIN repositories r ON r.id = v.repo_id"
    " LEFT JOIN files f ON f.revision_id = s.revision_id AND f.path = s.path";

// The strings of the JSON list in column COLUMN (NULL, not a list, or not strings: none).
std::vector<std::string> JsonStrings(Statement& s, int column) {
  return s.IsNull(column) ? std::vector<std::string>() : StoredStrings(s.Text(column));
}

SiteRow ReadSite(Statement& s) {
  SiteRow row;
  row.error_id = s.Text(0);
  row.repo = s.Text(1);
  row.url = s.OptionalText(2);
  row.commit = s.OptionalText(3);
  row.path = s.Text(4);
  row.line = static_cast<int>(s.Int(5));
  row.col = static_cast<int>(s.Int(6));
  row.end_line = static_cast<int>(s.Int(7));
  row.kind = s.Text(8);
  row.type = s.OptionalText(9);
  row.type_qualified = s.OptionalText(10);
  row.template_text = s.OptionalText(11);
  row.function = s.Text(12);
  row.is_test = s.Int(13) != 0;
  row.blob_id = s.OptionalText(14);
  row.revision_id = s.Int(15);
  row.via = s.OptionalText(16);
  row.version = s.OptionalText(17);
  row.wraps = s.OptionalText(18);
  if (!s.IsNull(19)) {
    row.reach_calls = static_cast<int>(s.Int(19));
    row.reach_entries = static_cast<int>(s.Int(20));
  }
  row.reach_via = s.OptionalText(21);
  row.message_alternatives = JsonStrings(s, 22);
  row.alternatives_capped = s.Int(23) != 0;
  row.class_texts = JsonStrings(s, 24);
  return row;
}

}  // namespace

void Catalog::ListSites(const SiteFilter& filter, const std::function<void(const SiteRow&)>& visit) {
  std::string sql = std::string("SELECT ") + kSiteColumns + kSiteJoins + " WHERE 1";
  if (filter.repo) sql += " AND r.name = ?1";
  if (filter.rev.empty()) {
    // The latest revision of each repository as a list (an equality with a correlated max() made SQLite
    // read every site of every revision of a catalog of releases).
    sql += " AND v.id IN (SELECT max(id) FROM revisions GROUP BY repo_id)";
  } else if (filter.rev != "all") {
    sql += " AND (substr(v.commit_sha, 1, length(?2)) = ?2 OR v.version = ?2)";
  }
  if (filter.type) sql += " AND (s.type = ?3 OR s.type_qualified = ?3)";
  if (filter.path) sql += " AND substr(s.path, 1, length(?4)) = ?4";
  sql += " ORDER BY r.name, v.id, s.path, s.line, s.col, s.seq LIMIT ?5";
  Statement s(*db_, sql);
  if (filter.repo) s.Bind(1, *filter.repo);
  if (!filter.rev.empty() && filter.rev != "all") s.Bind(2, filter.rev);
  if (filter.type) s.Bind(3, *filter.type);
  if (filter.path) s.Bind(4, *filter.path);
  s.Bind(5, filter.limit);
  while (s.Step()) visit(ReadSite(s));
}

std::optional<ErrorRow> Catalog::FindError(const std::string& id) {
  BorrowedStatement s = Prepared(
      "SELECT e.id, r.name, r.url, e.type, e.type_qualified, e.template, e.normalized "
      "FROM errors e JOIN repositories r ON r.id = e.repo_id WHERE e.id = ?1");
  s.Bind(1, id);
  if (!s.Step()) return std::nullopt;
  return ErrorRow{s.Text(0),         s.Text(1),         s.OptionalText(2), s.OptionalText(3),
                  s.OptionalText(4), s.OptionalText(5), s.OptionalText(6)};
}

std::vector<SiteRow> Catalog::SitesOfError(const std::string& id) {
  BorrowedStatement s = Prepared(std::string("SELECT ") + kSiteColumns + kSiteJoins +
                                 " WHERE s.error_id = ?1 ORDER BY v.id DESC, s.path, s.line, s.seq");
  s.Bind(1, id);
  std::vector<SiteRow> out;
  while (s.Step()) out.push_back(ReadSite(s));
  return out;
}

std::vector<SiteRow> Catalog::SitesInFilesNamed(const std::string& file_name, int64_t limit) {
  // The file name expression is the one of the index sites_by_file_name (schema 6), so that a catalog of
  // many releases is not scanned once per frame.
  BorrowedStatement s = Prepared(std::string("SELECT ") + kSiteColumns + kSiteJoins + " WHERE " + kSiteFileName +
                                 " = ?1 ORDER BY v.id DESC, s.path, s.line, s.seq LIMIT ?2");
  s.Bind(1, file_name).Bind(2, limit);
  std::vector<SiteRow> out;
  while (s.Step()) out.push_back(ReadSite(s));
  return out;
}

std::vector<RevisionRow> Catalog::RevisionsOfError(const std::string& id) {
  BorrowedStatement s = Prepared(std::string("SELECT ") + kRevisionColumns +
                                 " FROM revisions v JOIN repositories r ON r.id = v.repo_id WHERE v.id IN "
                                 "(SELECT revision_id FROM sites WHERE error_id = ?1) ORDER BY v.id");
  s.Bind(1, id);
  std::vector<RevisionRow> out;
  while (s.Step()) out.push_back(ReadRevision(s));
  return out;
}

std::vector<Condition> Catalog::ConditionsOfSite(int64_t revision_id, const std::string& path, int line, int col) {
  BorrowedStatement s = Prepared(
      "SELECT conditions FROM sites WHERE revision_id = ?1 AND path = ?2 AND line = ?3 AND col = ?4 "
      "AND conditions IS NOT NULL LIMIT 1");
  s.Bind(1, revision_id).Bind(2, path).Bind(3, int64_t{line}).Bind(4, int64_t{col});
  std::vector<Condition> out;
  if (!s.Step()) return out;
  nlohmann::json json = nlohmann::json::parse(s.Text(0), nullptr, /*allow_exceptions=*/false);
  if (!json.is_discarded()) ConditionsFromJson(json, &out);
  return out;
}

std::vector<ErrorTestRow> Catalog::TestsOfError(const std::string& id, int64_t revision_id) {
  BorrowedStatement s = Prepared(
      "SELECT error_id, path, line, function, kind, type, match, code, site_path, site_line FROM error_tests "
      "WHERE error_id = ?1 AND revision_id = ?2 ORDER BY path, line, type");
  s.Bind(1, id).Bind(2, revision_id);
  std::vector<ErrorTestRow> out;
  while (s.Step()) {
    out.push_back({s.Text(0), s.Text(1), static_cast<int>(s.Int(2)), s.Text(3), s.Text(4), s.Text(5), s.Text(6),
                   s.Text(7), s.IsNull(8) ? std::string() : s.Text(8), s.IsNull(9) ? 0 : static_cast<int>(s.Int(9))});
  }
  return out;
}

std::optional<std::string> Catalog::AnalysisOfError(const std::string& id, int64_t revision_id) {
  BorrowedStatement s = Prepared("SELECT analysis FROM error_analysis WHERE error_id = ?1 AND revision_id = ?2");
  s.Bind(1, id).Bind(2, revision_id);
  if (!s.Step()) return std::nullopt;
  return s.Text(0);
}

std::vector<std::pair<std::string, std::string>> Catalog::ErrorsSharingEntryPoints(const std::string& id,
                                                                                   int64_t revision_id, int64_t limit) {
  // Narrow entry points first: one that reaches few errors says more about this one. CROSS JOIN keeps
  // SQLite from scanning every entry point of the revision: the error's own few come first.
  BorrowedStatement s = Prepared(
      "SELECT o.error_id, o.entry FROM error_entry_points e CROSS JOIN error_entry_points o "
      "ON o.revision_id = e.revision_id AND o.entry = e.entry "
      "WHERE e.error_id = ?1 AND e.revision_id = ?2 AND o.error_id != ?1 "
      "ORDER BY (SELECT count(*) FROM error_entry_points c WHERE c.revision_id = e.revision_id "
      "AND c.entry = e.entry), o.entry, o.error_id LIMIT ?3");
  s.Bind(1, id).Bind(2, revision_id).Bind(3, limit);
  std::vector<std::pair<std::string, std::string>> out;
  while (s.Step()) out.emplace_back(s.Text(0), s.Text(1));
  return out;
}

std::vector<std::string> Catalog::ErrorsInScope(int64_t revision_id, const std::string& path,
                                                const std::string& function, const std::string& class_prefix,
                                                int64_t limit) {
  BorrowedStatement s = Prepared(
      "SELECT error_id FROM sites WHERE revision_id = ?1 AND path = ?2 AND is_test = 0 AND "
      "(CASE WHEN ?4 = '' THEN function = ?3 ELSE substr(function, 1, length(?4)) = ?4 END) "
      "GROUP BY error_id ORDER BY min(line) LIMIT ?5");
  s.Bind(1, revision_id).Bind(2, path).Bind(3, function).Bind(4, class_prefix).Bind(5, limit);
  std::vector<std::string> out;
  while (s.Step()) out.push_back(s.Text(0));
  return out;
}

namespace {
ClassRow ReadClass(Statement& s) {
  ClassRow row{s.Text(0), s.Text(1), static_cast<int>(s.Int(2)), {}, s.Text(4), s.Text(5), s.Text(6), {}, {}};
  row.bases = StoredStrings(s.Text(3));
  row.alternatives = StoredStrings(s.Text(7));
  row.printed = StoredPrintedTexts(s.Text(8));
  return row;
}
constexpr const char* kLatestRevisionOfRepo =
    "(SELECT max(v.id) FROM revisions v JOIN repositories r ON r.id = v.repo_id WHERE r.name = ?1)";
}  // namespace

std::optional<std::string> Catalog::RepositoryName(int64_t id) {
  BorrowedStatement s = Prepared("SELECT name FROM repositories WHERE id = ?1");
  s.Bind(1, id);
  if (!s.Step()) return std::nullopt;
  return s.Text(0);
}

std::vector<ClassRow> Catalog::ClassesOfLatestRevision(const std::string& repo) {
  BorrowedStatement s = Prepared(
      // No docstrings: the matcher does not read them, and they are most of the bytes.
      std::string("SELECT c.qualified_name, c.path, c.line, c.bases, '', "
                  "coalesce(c.message, ''), coalesce(c.message_from, ''), coalesce(c.message_alternatives, ''), "
                  "coalesce(c.printed_texts, '') "
                  "FROM classes c "
                  "WHERE c.revision_id = ") +
      kLatestRevisionOfRepo + " ORDER BY c.qualified_name");
  s.Bind(1, repo);
  std::vector<ClassRow> out;
  while (s.Step()) out.push_back(ReadClass(s));
  return out;
}

std::optional<ClassRow> Catalog::ClassOfLatestRevision(const std::string& repo, const std::string& qualified_name) {
  // By the name index, in the order ClassesOfLatestRevision lists a name's rows (the revision's rows by id).
  BorrowedStatement s =
      Prepared(std::string("SELECT c.qualified_name, c.path, c.line, c.bases, '', coalesce(c.message, ''), "
                           "coalesce(c.message_from, ''), coalesce(c.message_alternatives, ''), "
                           "coalesce(c.printed_texts, '') FROM class_rows c "
                           "JOIN revision_classes m ON m.class_id = c.id "
                           "WHERE c.qualified_name = ?2 AND m.revision_id = ") +
               kLatestRevisionOfRepo + " ORDER BY m.class_id LIMIT 1");
  s.Bind(1, repo).Bind(2, qualified_name);
  if (!s.Step()) return std::nullopt;
  return ReadClass(s);
}

std::vector<std::pair<std::string, ClassRow>> Catalog::ClassesNamed(const std::string& last_name, int64_t limit) {
  // From the name index (the names alone, a cheap `instr` first) to the few rows of that name, then to their
  // revisions (CROSS JOIN keeps that order): reading every class of the latest revisions, each looked up by
  // id, was a tenth of a cold `explain`.
  BorrowedStatement s = Prepared(
      "SELECT c.qualified_name, c.path, c.line, c.bases, c.docstring, coalesce(c.message, ''), "
      "coalesce(c.message_from, ''), coalesce(c.message_alternatives, ''), coalesce(c.printed_texts, ''), r.name FROM "
      "class_rows c "
      "CROSS JOIN revision_classes m ON m.class_id = c.id "
      "CROSS JOIN revisions v ON v.id = m.revision_id "
      "JOIN repositories r ON r.id = v.repo_id "
      "WHERE instr(c.qualified_name, ?1) > 0 "
      "AND (c.qualified_name = ?1 OR substr(c.qualified_name, -length(?1) - 1) = '.' || ?1) "
      "AND v.id IN (SELECT max(id) FROM revisions GROUP BY repo_id) "
      "ORDER BY v.id, c.qualified_name LIMIT ?2");
  s.Bind(1, last_name).Bind(2, limit);
  std::vector<std::pair<std::string, ClassRow>> out;
  while (s.Step()) out.emplace_back(s.Text(9), ReadClass(s));
  return out;
}

std::vector<std::string> Catalog::ClassNamesIgnoringCase(const std::string& last_name, int64_t limit) {
  BorrowedStatement s = Prepared(
      "SELECT DISTINCT c.qualified_name FROM classes c "
      "WHERE c.revision_id IN (SELECT max(id) FROM revisions GROUP BY repo_id) "
      "AND (lower(c.qualified_name) = lower(?1) "
      "OR lower(substr(c.qualified_name, -length(?1) - 1)) = '.' || lower(?1)) "
      "ORDER BY c.qualified_name LIMIT ?2");
  s.Bind(1, last_name).Bind(2, limit);
  std::vector<std::string> out;
  while (s.Step()) out.push_back(s.Text(0));
  return out;
}

std::vector<SiteRow> Catalog::SitesRaising(const std::string& repo, const std::vector<std::string>& types,
                                           int64_t limit) {
  std::vector<SiteRow> out;
  Statement s(*db_, std::string("SELECT ") + kSiteColumns + kSiteJoins +
                        " WHERE s.revision_id = " + kLatestRevisionOfRepo +
                        " AND s.type_qualified = ?2 ORDER BY s.is_test, s.path, s.line, s.seq LIMIT ?3");
  for (const std::string& type : types) {
    s.Bind(1, repo).Bind(2, type).Bind(3, limit - static_cast<int64_t>(out.size()));
    while (s.Step()) out.push_back(ReadSite(s));
    s.Reset();
    if (static_cast<int64_t>(out.size()) >= limit) break;
  }
  return out;
}

std::optional<ClassRow> Catalog::FindClass(const std::string& repo, const std::string& qualified_name) {
  // From the few stored rows of this name to the revisions holding them (CROSS JOIN keeps that order: the
  // other way reads every class of every revision of the repository, once per call).
  BorrowedStatement s = Prepared(
      "SELECT c.qualified_name, c.path, c.line, c.bases, c.docstring, coalesce(c.message, ''), "
      "coalesce(c.message_from, ''), coalesce(c.message_alternatives, ''), coalesce(c.printed_texts, '') FROM "
      "class_rows c "
      "CROSS JOIN revision_classes m ON m.class_id = c.id "
      "CROSS JOIN revisions v ON v.id = m.revision_id JOIN repositories r ON r.id = v.repo_id "
      "WHERE c.qualified_name = ?2 AND r.name = ?1 ORDER BY v.id DESC LIMIT 1");
  s.Bind(1, repo).Bind(2, qualified_name);
  if (!s.Step()) return std::nullopt;
  return ReadClass(s);
}

}  // namespace errdex
