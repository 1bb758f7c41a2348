#include "catalog/schema.h"

#include <string>

#include "catalog/blob_cache.h"

namespace errdex {

namespace {

// Migration 8's step after its SQL: the old blob cache's rows move to blob_cache, then its tables go.
void DropOldBlobCache(SqliteDb& db) {
  ConvertBlobCacheToV8(db);
  db.Exec("DROP TABLE blobs; DROP TABLE snippets;");
}

// Migration N takes the schema from version N-1 to N. Never edit a released migration: add one.
const char* const kMigrations[] = {
    // 1: the first schema.
    R"sql(
CREATE TABLE repositories(
  id    INTEGER PRIMARY KEY,
  name  TEXT NOT NULL UNIQUE,
  url   TEXT
);
CREATE TABLE revisions(
  id                INTEGER PRIMARY KEY,
  repo_id           INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  commit_sha        TEXT,
  source            TEXT NOT NULL,
  digest            TEXT NOT NULL,
  extractor_version INTEGER NOT NULL,
  indexed_at        TEXT NOT NULL,
  committed_at      TEXT,
  files             INTEGER NOT NULL,
  bytes             INTEGER NOT NULL,
  sites             INTEGER NOT NULL,
  skipped           INTEGER NOT NULL
);
CREATE UNIQUE INDEX revisions_by_commit ON revisions(repo_id, ifnull(commit_sha, ''));
CREATE TABLE blobs(
  oid               TEXT PRIMARY KEY,
  extractor_version INTEGER NOT NULL,
  status            TEXT NOT NULL,
  reason            TEXT NOT NULL,
  facts             TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE snippets(
  oid        TEXT NOT NULL,
  line       INTEGER NOT NULL,
  col        INTEGER NOT NULL,
  start_line INTEGER NOT NULL,
  text       TEXT NOT NULL,
  PRIMARY KEY(oid, line, col)
) WITHOUT ROWID;
CREATE TABLE files(
  revision_id INTEGER NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
  path        TEXT NOT NULL,
  oid         TEXT,
  size        INTEGER NOT NULL,
  module      TEXT NOT NULL,
  is_test     INTEGER NOT NULL,
  status      TEXT NOT NULL,
  reason      TEXT NOT NULL,
  PRIMARY KEY(revision_id, path)
) WITHOUT ROWID;
CREATE TABLE errors(
  id             TEXT PRIMARY KEY,
  repo_id        INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  type           TEXT,
  type_qualified TEXT,
  template       TEXT,
  normalized     TEXT
) WITHOUT ROWID;
CREATE INDEX errors_by_repo ON errors(repo_id);
CREATE TABLE sites(
  id             INTEGER PRIMARY KEY,
  revision_id    INTEGER NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
  error_id       TEXT NOT NULL REFERENCES errors(id),
  path           TEXT NOT NULL,
  line           INTEGER NOT NULL,
  col            INTEGER NOT NULL,
  end_line       INTEGER NOT NULL,
  kind           TEXT NOT NULL,
  type           TEXT,
  type_qualified TEXT,
  template       TEXT,
  function       TEXT NOT NULL,
  is_test        INTEGER NOT NULL
);
CREATE INDEX sites_by_revision ON sites(revision_id, path, line);
CREATE INDEX sites_by_error ON sites(error_id);
CREATE TABLE classes(
  revision_id    INTEGER NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
  qualified_name TEXT NOT NULL,
  path           TEXT NOT NULL,
  line           INTEGER NOT NULL,
  bases          TEXT NOT NULL,
  docstring      TEXT NOT NULL,
  PRIMARY KEY(revision_id, qualified_name)
) WITHOUT ROWID;
)sql",
    // 2: the matcher (docs/matching.md): one Hyperscan database of anchor literals, which errors each
    // anchor stands for, and a full-text index of every error's literal words for approximate matching.
    R"sql(
CREATE TABLE matcher(
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  hs_database BLOB NOT NULL,
  errors      INTEGER NOT NULL,
  anchors     INTEGER NOT NULL,
  built_at    TEXT NOT NULL
);
CREATE TABLE matcher_anchors(
  pattern  INTEGER NOT NULL,
  error_id TEXT NOT NULL,
  PRIMARY KEY(pattern, error_id)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE error_words USING fts5(words, error_id UNINDEXED, tokenize = 'unicode61');
)sql",
    // 3: classes that render their own message, anchored in the matcher too; sites made by calls of
    // raising helpers say where their message is written (docs/extraction.md).
    R"sql(
ALTER TABLE classes ADD COLUMN message TEXT;
ALTER TABLE classes ADD COLUMN message_from TEXT;
CREATE TABLE matcher_class_anchors(
  pattern        INTEGER NOT NULL,
  repo_id        INTEGER NOT NULL,
  qualified_name TEXT NOT NULL,
  PRIMARY KEY(pattern, repo_id, qualified_name)
) WITHOUT ROWID;
ALTER TABLE sites ADD COLUMN via TEXT;
)sql",
    // 4: analysis (docs/analysis.md): the path condition of each site, and the tests of a revision that
    // provoke each error.
    R"sql(
ALTER TABLE sites ADD COLUMN conditions TEXT;
CREATE TABLE error_tests(
  revision_id INTEGER NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
  error_id    TEXT NOT NULL,
  path        TEXT NOT NULL,
  line        INTEGER NOT NULL,
  function    TEXT NOT NULL,
  kind        TEXT NOT NULL,
  type        TEXT NOT NULL,
  match       TEXT NOT NULL,
  code        TEXT NOT NULL
);
CREATE INDEX error_tests_by_error ON error_tests(error_id);
CREATE INDEX error_tests_by_revision ON error_tests(revision_id);
)sql",
    // 5: the rest of the analysis (docs/analysis.md): per error of a revision, its meaning, where the
    // state its conditions read comes from, call paths from the public API, solutions and history (one
    // JSON document), and the public entry points it is reachable from (for related errors).
    R"sql(
CREATE TABLE error_analysis(
  revision_id INTEGER NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
  error_id    TEXT NOT NULL,
  analysis    TEXT NOT NULL,
  PRIMARY KEY(error_id, revision_id)
) WITHOUT ROWID;
CREATE INDEX error_analysis_by_revision ON error_analysis(revision_id);
CREATE TABLE error_entry_points(
  revision_id INTEGER NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
  entry       TEXT NOT NULL,
  error_id    TEXT NOT NULL,
  PRIMARY KEY(revision_id, entry, error_id)
) WITHOUT ROWID;
CREATE INDEX error_entry_points_by_error ON error_entry_points(error_id, revision_id);
)sql",
    // 6: versions (docs/catalog.md "Releases and lineage"): the release tag a revision was indexed as,
    // the link of each error of a revision to what it became in the next indexed revision, and an index
    // of the sites by file name (a traceback's frames, in a catalog of many releases).
    R"sql(
CREATE TABLE revision_labels(
  revision_id INTEGER PRIMARY KEY REFERENCES revisions(id) ON DELETE CASCADE,
  label       TEXT NOT NULL
);
CREATE TABLE error_lineage(
  repo_id          INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  from_revision_id INTEGER NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
  to_revision_id   INTEGER NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
  from_error_id    TEXT,
  to_error_id      TEXT,
  changes          TEXT NOT NULL,
  confidence       INTEGER NOT NULL
);
CREATE INDEX error_lineage_by_from ON error_lineage(from_error_id, from_revision_id);
CREATE INDEX error_lineage_by_to ON error_lineage(to_error_id, to_revision_id);
CREATE INDEX error_lineage_by_pair ON error_lineage(from_revision_id, to_revision_id);
CREATE INDEX sites_by_file_name ON sites(substr(path, length(rtrim(path, replace(path, '/', ''))) + 1));
)sql",
    // 7: installed distributions and released artifacts (docs/catalog.md, "Revisions"): a revision is a
    // commit (git), a version (a distribution, the standard library, a wheel or sdist) or neither (a
    // directory); its kind, and the vendored packages a distribution ships. A site inside an except clause says
    // what it wraps (sites.wraps).
    R"sql(
ALTER TABLE revisions ADD COLUMN version TEXT;
ALTER TABLE revisions ADD COLUMN kind TEXT NOT NULL DEFAULT 'directory';
ALTER TABLE revisions ADD COLUMN vendored TEXT;
UPDATE revisions SET kind = 'git' WHERE commit_sha IS NOT NULL;
DROP INDEX revisions_by_commit;
CREATE UNIQUE INDEX revisions_by_rev ON revisions(repo_id, ifnull(commit_sha, ''), ifnull(version, ''));
ALTER TABLE sites ADD COLUMN wraps TEXT;
)sql",
    // 8: rows that revisions share are stored once (docs/catalog.md, "Rows shared by revisions"): a site or
    // class identical in many revisions is one row of site_rows or class_rows (keyed by errdex_digest of its
    // columns), referenced by revision_sites (with the site's place in its revision's order, seq) or
    // revision_classes; `sites` and `classes` become views of the
    // same columns as before. The blob cache becomes blob_cache (facts and snippets compressed, a new version
    // of a file stored against the old one); ConvertBlobCacheToV8 moves the old cache's rows after this SQL.
    R"sql(
CREATE TABLE blob_cache(
  oid               TEXT NOT NULL,
  extractor_version INTEGER NOT NULL,
  status            TEXT NOT NULL,
  reason            TEXT NOT NULL,
  base              TEXT,
  depth             INTEGER NOT NULL,
  facts             BLOB NOT NULL,
  snippets          BLOB NOT NULL,
  PRIMARY KEY(oid, extractor_version)
);
CREATE TABLE site_rows(
  id             INTEGER PRIMARY KEY,
  digest         INTEGER NOT NULL,
  error_id       TEXT NOT NULL REFERENCES errors(id),
  path           TEXT NOT NULL,
  line           INTEGER NOT NULL,
  col            INTEGER NOT NULL,
  end_line       INTEGER NOT NULL,
  kind           TEXT NOT NULL,
  type           TEXT,
  type_qualified TEXT,
  template       TEXT,
  function       TEXT NOT NULL,
  is_test        INTEGER NOT NULL,
  via            TEXT,
  conditions     TEXT,
  wraps          TEXT
);
CREATE UNIQUE INDEX site_rows_by_digest ON site_rows(digest);
CREATE INDEX site_rows_by_error ON site_rows(error_id);
CREATE INDEX site_rows_by_file_name ON site_rows(substr(path, length(rtrim(path, replace(path, '/', ''))) + 1));
CREATE TABLE revision_sites(
  revision_id INTEGER NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
  site_id     INTEGER NOT NULL,
  seq         INTEGER NOT NULL,
  PRIMARY KEY(revision_id, site_id)
) WITHOUT ROWID;
CREATE INDEX revision_sites_by_site ON revision_sites(site_id);
INSERT OR IGNORE INTO site_rows(digest, error_id, path, line, col, end_line, kind, type, type_qualified, template,
                                function, is_test, via, conditions, wraps)
  SELECT errdex_digest(error_id, path, line, col, end_line, kind, type, type_qualified, template, function, is_test,
                       via, conditions, wraps),
         error_id, path, line, col, end_line, kind, type, type_qualified, template, function, is_test, via, conditions,
         wraps
  FROM sites ORDER BY id;
INSERT OR IGNORE INTO revision_sites(revision_id, site_id, seq)
  SELECT s.revision_id, r.id, s.id FROM sites s JOIN site_rows r ON r.digest = errdex_digest(s.error_id, s.path, s.line,
    s.col, s.end_line, s.kind, s.type, s.type_qualified, s.template, s.function, s.is_test, s.via, s.conditions, s.wraps);
DROP TABLE sites;
CREATE VIEW sites AS
  SELECT r.id AS id, m.revision_id AS revision_id, m.seq AS seq, r.error_id AS error_id, r.path AS path, r.line AS line, r.col AS col,
         r.end_line AS end_line, r.kind AS kind, r.type AS type, r.type_qualified AS type_qualified,
         r.template AS template, r.function AS function, r.is_test AS is_test, r.via AS via,
         r.conditions AS conditions, r.wraps AS wraps
  FROM revision_sites m JOIN site_rows r ON r.id = m.site_id;
CREATE TABLE class_rows(
  id             INTEGER PRIMARY KEY,
  digest         INTEGER NOT NULL,
  qualified_name TEXT NOT NULL,
  path           TEXT NOT NULL,
  line           INTEGER NOT NULL,
  bases          TEXT NOT NULL,
  docstring      TEXT NOT NULL,
  message        TEXT,
  message_from   TEXT
);
CREATE UNIQUE INDEX class_rows_by_digest ON class_rows(digest);
CREATE INDEX class_rows_by_name ON class_rows(qualified_name);
CREATE TABLE revision_classes(
  revision_id INTEGER NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
  class_id    INTEGER NOT NULL,
  PRIMARY KEY(revision_id, class_id)
) WITHOUT ROWID;
CREATE INDEX revision_classes_by_class ON revision_classes(class_id);
INSERT OR IGNORE INTO class_rows(digest, qualified_name, path, line, bases, docstring, message, message_from)
  SELECT errdex_digest(qualified_name, path, line, bases, docstring, message, message_from),
         qualified_name, path, line, bases, docstring, message, message_from
  FROM classes;
INSERT OR IGNORE INTO revision_classes(revision_id, class_id)
  SELECT c.revision_id, r.id FROM classes c JOIN class_rows r ON r.digest = errdex_digest(c.qualified_name, c.path,
    c.line, c.bases, c.docstring, c.message, c.message_from);
DROP TABLE classes;
CREATE VIEW classes AS
  SELECT m.revision_id AS revision_id, r.qualified_name AS qualified_name, r.path AS path, r.line AS line,
         r.bases AS bases, r.docstring AS docstring, r.message AS message, r.message_from AS message_from
  FROM revision_classes m JOIN class_rows r ON r.id = m.class_id;
)sql",
    // 9: how directly each site is reached from the public API (docs/analysis.md, "Reach"): the calls on its
    // shortest path from a public function and how many public functions reach it; null without the
    // analysis or when no public function reaches it. Twins that nothing in a paste separates are ranked by it.
    // The view `sites` shows them too.
    R"sql(
ALTER TABLE site_rows ADD COLUMN reach_calls INTEGER;
ALTER TABLE site_rows ADD COLUMN reach_entries INTEGER;
DROP VIEW sites;
CREATE VIEW sites AS
  SELECT r.id AS id, m.revision_id AS revision_id, m.seq AS seq, r.error_id AS error_id, r.path AS path, r.line AS line, r.col AS col,
         r.end_line AS end_line, r.kind AS kind, r.type AS type, r.type_qualified AS type_qualified,
         r.template AS template, r.function AS function, r.is_test AS is_test, r.via AS via,
         r.conditions AS conditions, r.wraps AS wraps, r.reach_calls AS reach_calls, r.reach_entries AS reach_entries
  FROM revision_sites m JOIN site_rows r ON r.id = m.site_id;
)sql",
    // 10: the other texts a class may render (docs/extraction.md, "Class messages": the other returns of its
    // `__str__`, the branches of its names), a JSON list; null when none. The view `classes` shows them.
    R"sql(
ALTER TABLE class_rows ADD COLUMN message_alternatives TEXT;
DROP VIEW classes;
CREATE VIEW classes AS
  SELECT m.revision_id AS revision_id, r.qualified_name AS qualified_name, r.path AS path, r.line AS line,
         r.bases AS bases, r.docstring AS docstring, r.message AS message, r.message_from AS message_from,
         r.message_alternatives AS message_alternatives
  FROM revision_classes m JOIN class_rows r ON r.id = m.class_id;
)sql",
    // 11: for twins, the names of the public functions that reach each site (SiteRow::reach_via); the view
    // `sites` shows them.
    R"sql(
ALTER TABLE site_rows ADD COLUMN reach_via TEXT;
DROP VIEW sites;
CREATE VIEW sites AS
  SELECT r.id AS id, m.revision_id AS revision_id, m.seq AS seq, r.error_id AS error_id, r.path AS path, r.line AS line, r.col AS col,
         r.end_line AS end_line, r.kind AS kind, r.type AS type, r.type_qualified AS type_qualified,
         r.template AS template, r.function AS function, r.is_test AS is_test, r.via AS via,
         r.conditions AS conditions, r.wraps AS wraps, r.reach_calls AS reach_calls, r.reach_entries AS reach_entries,
         r.reach_via AS reach_via
  FROM revision_sites m JOIN site_rows r ON r.id = m.site_id;
)sql",
    // 12: the other texts a site's message may be (docs/extraction.md, "Messages chosen among several texts"),
    // a JSON list, null when none, and whether more combinations were left out; the view `sites` shows them.
    R"sql(
ALTER TABLE site_rows ADD COLUMN message_alternatives TEXT;
ALTER TABLE site_rows ADD COLUMN alternatives_capped INTEGER NOT NULL DEFAULT 0;
DROP VIEW sites;
CREATE VIEW sites AS
  SELECT r.id AS id, m.revision_id AS revision_id, m.seq AS seq, r.error_id AS error_id, r.path AS path, r.line AS line, r.col AS col,
         r.end_line AS end_line, r.kind AS kind, r.type AS type, r.type_qualified AS type_qualified,
         r.template AS template, r.function AS function, r.is_test AS is_test, r.via AS via,
         r.conditions AS conditions, r.wraps AS wraps, r.reach_calls AS reach_calls, r.reach_entries AS reach_entries,
         r.reach_via AS reach_via, r.message_alternatives AS message_alternatives,
         r.alternatives_capped AS alternatives_capped
  FROM revision_sites m JOIN site_rows r ON r.id = m.site_id;
)sql",
    // 13: the texts of its exception class that a raise can render when its arguments rule others out
    // (SiteRow::class_texts, a JSON list; docs/extraction.md, "Class texts chosen by the raise's arguments");
    // the view `sites` shows them.
    R"sql(
ALTER TABLE site_rows ADD COLUMN class_texts TEXT;
DROP VIEW sites;
CREATE VIEW sites AS
  SELECT r.id AS id, m.revision_id AS revision_id, m.seq AS seq, r.error_id AS error_id, r.path AS path, r.line AS line, r.col AS col,
         r.end_line AS end_line, r.kind AS kind, r.type AS type, r.type_qualified AS type_qualified,
         r.template AS template, r.function AS function, r.is_test AS is_test, r.via AS via,
         r.conditions AS conditions, r.wraps AS wraps, r.reach_calls AS reach_calls, r.reach_entries AS reach_entries,
         r.reach_via AS reach_via, r.message_alternatives AS message_alternatives,
         r.alternatives_capped AS alternatives_capped, r.class_texts AS class_texts
  FROM revision_sites m JOIN site_rows r ON r.id = m.site_id;
)sql",
    // 14: the texts exception handlers print for a class (ClassRow::printed; docs/extraction.md, "Texts printed by
    // exception handlers"), a JSON list of [template, path, line, function, handler_line, handler_function]; null
    // when none. The view `classes` shows them.
    R"sql(
ALTER TABLE class_rows ADD COLUMN printed_texts TEXT;
DROP VIEW classes;
CREATE VIEW classes AS
  SELECT m.revision_id AS revision_id, r.qualified_name AS qualified_name, r.path AS path, r.line AS line,
         r.bases AS bases, r.docstring AS docstring, r.message AS message, r.message_from AS message_from,
         r.message_alternatives AS message_alternatives, r.printed_texts AS printed_texts
  FROM revision_classes m JOIN class_rows r ON r.id = m.class_id;
)sql",
    // 15: the raise of the error that a test's expecting block reaches nearest in the call graph
    // (ErrorTestRow::site_path, site_line; docs/analysis.md, "Tests that provoke an error"); null when the test was
    // linked without the call graph.
    R"sql(
ALTER TABLE error_tests ADD COLUMN site_path TEXT;
ALTER TABLE error_tests ADD COLUMN site_line INTEGER;
)sql",
};

// What a migration does beyond its SQL, in the same transaction (null: nothing).
using MigrationStep = void (*)(SqliteDb&);
const MigrationStep kMigrationSteps[] = {nullptr, nullptr, nullptr,          nullptr, nullptr,
                                         nullptr, nullptr, DropOldBlobCache, nullptr, nullptr,
                                         nullptr, nullptr, nullptr,          nullptr, nullptr};

}  // namespace

int SchemaVersion(SqliteDb& db) {
  Statement version(db, "PRAGMA user_version");
  return version.Step() ? static_cast<int>(version.Int(0)) : 0;
}

void MigrateSchema(SqliteDb& db) {
  constexpr int kCount = static_cast<int>(sizeof(kMigrations) / sizeof(kMigrations[0]));
  static_assert(kCount == kSchemaVersion);
  static_assert(sizeof(kMigrationSteps) / sizeof(kMigrationSteps[0]) == kCount);
  int current = SchemaVersion(db);
  if (current > kSchemaVersion) {
    throw SqliteError("catalog schema version " + std::to_string(current) + " is newer than this errdex (" +
                      std::to_string(kSchemaVersion) + "); upgrade errdex");
  }
  for (int v = current + 1; v <= kSchemaVersion; ++v) {
    Transaction tx(db);
    if (SchemaVersion(db) >= v) continue;  // another process migrated meanwhile
    db.Exec(kMigrations[v - 1]);
    if (kMigrationSteps[v - 1] != nullptr) kMigrationSteps[v - 1](db);
    db.Exec("PRAGMA user_version = " + std::to_string(v));
    tx.Commit();
  }
}

}  // namespace errdex
