#include "catalog/version_store.h"

#include <algorithm>

namespace errdex {

// The catalog's database, for the statements of this file (a friend of Catalog).
struct VersionStoreAccess {
  static SqliteDb& Db(Catalog& catalog) { return *catalog.db_; }
};

namespace {

constexpr const char* kVersionedColumns =
    "v.id, r.name, v.commit_sha, l.label, ifnull(v.committed_at, ''), v.source "
    "FROM revisions v JOIN repositories r ON r.id = v.repo_id LEFT JOIN revision_labels l ON l.revision_id = v.id ";

VersionedRevision ReadVersioned(Statement& s) {
  VersionedRevision v;
  v.id = s.Int(0);
  v.repo = s.Text(1);
  v.commit = s.Text(2);
  const std::optional<std::string> label = s.OptionalText(3);
  v.tagged = label.has_value();
  v.label = label ? *label : v.commit.substr(0, 12);
  v.committed_at = s.Text(4);
  v.source = s.Text(5);
  return v;
}

LineageRow ReadLineage(Statement& s) {
  return {s.Int(0), s.Int(1), s.OptionalText(2), s.OptionalText(3), s.Text(4), static_cast<int>(s.Int(5))};
}

constexpr const char* kLineageColumns =
    "SELECT from_revision_id, to_revision_id, from_error_id, to_error_id, changes, confidence FROM error_lineage ";

}  // namespace

void SetRevisionLabel(Catalog& catalog, int64_t revision_id, const std::string& label) {
  Statement(VersionStoreAccess::Db(catalog),
            "INSERT OR REPLACE INTO revision_labels(revision_id, label) VALUES(?1, ?2)")
      .Bind(1, revision_id)
      .Bind(2, label)
      .Run();
}

std::vector<VersionedRevision> OrderedRevisions(Catalog& catalog, const std::string& repo) {
  Statement s(VersionStoreAccess::Db(catalog),
              std::string("SELECT ") + kVersionedColumns +
                  "WHERE r.name = ?1 AND v.commit_sha IS NOT NULL ORDER BY v.committed_at, v.id");
  s.Bind(1, repo);
  std::vector<VersionedRevision> out;
  while (s.Step()) out.push_back(ReadVersioned(s));
  return out;
}

std::optional<VersionedRevision> FindVersionedRevision(Catalog& catalog, const std::string& repo,
                                                       const std::string& commit_or_label) {
  if (commit_or_label.empty()) return std::nullopt;
  Statement s(VersionStoreAccess::Db(catalog),
              std::string("SELECT ") + kVersionedColumns +
                  "WHERE r.name = ?1 AND v.commit_sha IS NOT NULL AND (l.label = ?2 OR "
                  "substr(v.commit_sha, 1, length(?2)) = ?2) ORDER BY (l.label = ?2) DESC, v.id DESC");
  s.Bind(1, repo).Bind(2, commit_or_label);
  if (!s.Step()) return std::nullopt;
  return ReadVersioned(s);
}

std::vector<SiteRow> SitesOfRevision(Catalog& catalog, int64_t revision_id) {
  Statement s(VersionStoreAccess::Db(catalog),
              "SELECT error_id, path, line, col, type, type_qualified, template, function, is_test FROM sites "
              "WHERE revision_id = ?1 ORDER BY path, line, seq");
  s.Bind(1, revision_id);
  std::vector<SiteRow> out;
  while (s.Step()) {
    SiteRow row;
    row.error_id = s.Text(0);
    row.path = s.Text(1);
    row.line = static_cast<int>(s.Int(2));
    row.col = static_cast<int>(s.Int(3));
    row.type = s.OptionalText(4);
    row.type_qualified = s.OptionalText(5);
    row.template_text = s.OptionalText(6);
    row.function = s.Text(7);
    row.is_test = s.Int(8) != 0;
    row.revision_id = revision_id;
    out.push_back(std::move(row));
  }
  return out;
}

std::map<std::string, std::string> ModulesOfRevision(Catalog& catalog, int64_t revision_id) {
  Statement s(VersionStoreAccess::Db(catalog), "SELECT path, module FROM files WHERE revision_id = ?1");
  s.Bind(1, revision_id);
  std::map<std::string, std::string> out;
  while (s.Step()) out.emplace(s.Text(0), s.Text(1));
  return out;
}

void WriteLineage(Catalog& catalog, const std::string& repo, int64_t from_revision, int64_t to_revision,
                  const std::vector<LineageRow>& rows, const std::vector<std::pair<int64_t, int64_t>>& neighbours) {
  SqliteDb& db = VersionStoreAccess::Db(catalog);
  Transaction tx(db);
  int64_t repo_id = 0;
  {
    Statement s(db, "SELECT id FROM repositories WHERE name = ?1");
    s.Bind(1, repo);
    if (!s.Step()) return;
    repo_id = s.Int(0);
  }
  // Links between revisions that another one now sits between.
  {
    Statement pairs(db, "SELECT DISTINCT from_revision_id, to_revision_id FROM error_lineage WHERE repo_id = ?1");
    pairs.Bind(1, repo_id);
    std::vector<std::pair<int64_t, int64_t>> stale;
    while (pairs.Step()) {
      const std::pair<int64_t, int64_t> pair{pairs.Int(0), pairs.Int(1)};
      if (std::find(neighbours.begin(), neighbours.end(), pair) == neighbours.end()) stale.push_back(pair);
    }
    Statement drop(db, "DELETE FROM error_lineage WHERE from_revision_id = ?1 AND to_revision_id = ?2");
    for (const auto& [from, to] : stale) {
      drop.Bind(1, from).Bind(2, to);
      drop.Run();
    }
  }
  Statement(db, "DELETE FROM error_lineage WHERE from_revision_id = ?1 AND to_revision_id = ?2")
      .Bind(1, from_revision)
      .Bind(2, to_revision)
      .Run();
  Statement insert(db,
                   "INSERT INTO error_lineage(repo_id, from_revision_id, to_revision_id, from_error_id, to_error_id, "
                   "changes, confidence) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
  for (const LineageRow& row : rows) {
    insert.Bind(1, repo_id).Bind(2, from_revision).Bind(3, to_revision).Bind(4, row.from_error);
    insert.Bind(5, row.to_error).Bind(6, row.changes).Bind(7, int64_t{row.confidence});
    insert.Run();
  }
  tx.Commit();
}

bool HasLineage(Catalog& catalog, int64_t from_revision, int64_t to_revision) {
  Statement s(VersionStoreAccess::Db(catalog),
              "SELECT 1 FROM error_lineage WHERE from_revision_id = ?1 AND to_revision_id = ?2 LIMIT 1");
  s.Bind(1, from_revision).Bind(2, to_revision);
  return s.Step();
}

std::vector<LineageRow> LineageBetween(Catalog& catalog, int64_t from_revision, int64_t to_revision) {
  Statement s(VersionStoreAccess::Db(catalog),
              std::string(kLineageColumns) + "WHERE from_revision_id = ?1 AND to_revision_id = ?2 ORDER BY rowid");
  s.Bind(1, from_revision).Bind(2, to_revision);
  std::vector<LineageRow> out;
  while (s.Step()) out.push_back(ReadLineage(s));
  return out;
}

std::optional<LineageRow> LineageFrom(Catalog& catalog, const std::string& error_id, int64_t revision_id) {
  Statement s(VersionStoreAccess::Db(catalog),
              std::string(kLineageColumns) + "WHERE from_error_id = ?1 AND from_revision_id = ?2 LIMIT 1");
  s.Bind(1, error_id).Bind(2, revision_id);
  if (!s.Step()) return std::nullopt;
  return ReadLineage(s);
}

std::optional<LineageRow> LineageTo(Catalog& catalog, const std::string& error_id, int64_t revision_id) {
  Statement s(VersionStoreAccess::Db(catalog),
              std::string(kLineageColumns) + "WHERE to_error_id = ?1 AND to_revision_id = ?2 LIMIT 1");
  s.Bind(1, error_id).Bind(2, revision_id);
  if (!s.Step()) return std::nullopt;
  return ReadLineage(s);
}

std::vector<int64_t> RevisionIdsOfError(Catalog& catalog, const std::string& error_id) {
  Statement s(VersionStoreAccess::Db(catalog), "SELECT DISTINCT revision_id FROM sites WHERE error_id = ?1");
  s.Bind(1, error_id);
  std::vector<int64_t> out;
  while (s.Step()) out.push_back(s.Int(0));
  return out;
}

void MakeLatestRevision(Catalog& catalog, int64_t revision_id) {
  SqliteDb& db = VersionStoreAccess::Db(catalog);
  Transaction tx(db);
  int64_t top = 0;
  {
    Statement s(db, "SELECT max(id) FROM revisions");
    if (s.Step()) top = s.Int(0);
  }
  if (top == revision_id) return;
  const int64_t fresh = top + 1;
  // Every column that refers to a revision, read from the schema so that tables added later follow.
  std::vector<std::pair<std::string, std::string>> references;
  {
    Statement s(db,
                "SELECT m.name, p.\"from\" FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) p "
                "WHERE m.type = 'table' AND p.\"table\" = 'revisions'");
    while (s.Step()) references.emplace_back(s.Text(0), s.Text(1));
  }
  db.Exec("PRAGMA defer_foreign_keys = ON");
  Statement(db, "UPDATE revisions SET id = ?1 WHERE id = ?2").Bind(1, fresh).Bind(2, revision_id).Run();
  for (const auto& [table, column] : references) {
    Statement(db, "UPDATE \"" + table + "\" SET \"" + column + "\" = ?1 WHERE \"" + column + "\" = ?2")
        .Bind(1, fresh)
        .Bind(2, revision_id)
        .Run();
  }
  tx.Commit();
}

}  // namespace errdex
