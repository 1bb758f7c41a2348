// The listings of catalog/listings.h: the reads behind the web pages and the static export.
#include "catalog/catalog.h"

namespace errdex {

std::vector<RepositorySummary> Catalog::RepositorySummaries() {
  Statement s(*db_,
              "SELECT r.name, r.url, ifnull(v.commit_sha, v.version), v.committed_at, v.indexed_at, v.files, v.sites, "
              "(SELECT count(*) FROM revisions WHERE repo_id = r.id), "
              "(SELECT count(DISTINCT error_id) FROM sites WHERE revision_id = v.id), v.kind "
              "FROM repositories r JOIN revisions v ON v.id = (SELECT max(id) FROM revisions WHERE repo_id = r.id) "
              "ORDER BY r.name");
  std::vector<RepositorySummary> out;
  while (s.Step()) {
    RepositorySummary r;
    r.name = s.Text(0);
    r.url = s.OptionalText(1);
    r.rev = s.OptionalText(2);
    r.committed_at = s.OptionalText(3);
    r.indexed_at = s.Text(4);
    r.files = s.Int(5);
    r.sites = s.Int(6);
    r.revisions = s.Int(7);
    r.errors = s.Int(8);
    r.kind = s.Text(9);
    out.push_back(std::move(r));
  }
  return out;
}

bool Catalog::HasRepository(const std::string& name) {
  BorrowedStatement s = Prepared("SELECT 1 FROM repositories WHERE name = ?1");
  s.Bind(1, name);
  return s.Step();
}

std::optional<LatestRevision> Catalog::LatestRevisionOf(const std::string& repo) {
  BorrowedStatement s = Prepared(
      "SELECT r.url, v.id, ifnull(v.commit_sha, v.version), v.committed_at FROM repositories r "
      "LEFT JOIN revisions v ON v.id = (SELECT max(id) FROM revisions WHERE repo_id = r.id) WHERE r.name = ?1");
  s.Bind(1, repo);
  if (!s.Step()) return std::nullopt;
  LatestRevision out;
  out.url = s.OptionalText(0);
  out.revision_id = s.IsNull(1) ? 0 : s.Int(1);
  out.rev = s.OptionalText(2);
  out.committed_at = s.OptionalText(3);
  return out;
}

std::vector<ListedSite> Catalog::ListedSitesOfRevision(int64_t revision_id) {
  Statement s(*db_,
              "SELECT s.error_id, e.type, e.type_qualified, e.template, s.kind, s.path, s.line, s.function, "
              "s.is_test, coalesce(f.module, '') FROM sites s JOIN errors e ON e.id = s.error_id "
              "LEFT JOIN files f ON f.revision_id = s.revision_id AND f.path = s.path "
              "WHERE s.revision_id = ?1 ORDER BY s.path, s.line, s.col, s.seq");
  s.Bind(1, revision_id);
  std::vector<ListedSite> out;
  while (s.Step()) {
    ListedSite e;
    e.error_id = s.Text(0);
    e.type = s.OptionalText(1);
    e.type_qualified = s.OptionalText(2);
    e.template_text = s.OptionalText(3);
    e.kind = s.Text(4);
    e.path = s.Text(5);
    e.line = static_cast<int>(s.Int(6));
    e.function = s.Text(7);
    e.is_test = s.Int(8) != 0;
    e.module = s.Text(9);
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<LatestSite> Catalog::SitesOfLatestRevisions() {
  Statement s(*db_,
              "SELECT s.error_id, r.name, coalesce(e.type, e.type_qualified), e.template, s.path, s.line "
              "FROM sites s JOIN revisions v ON v.id = s.revision_id JOIN repositories r ON r.id = v.repo_id "
              "JOIN errors e ON e.id = s.error_id "
              "WHERE v.id IN (SELECT max(id) FROM revisions GROUP BY repo_id) "
              "ORDER BY r.name, s.path, s.line, s.col, s.seq");
  std::vector<LatestSite> out;
  while (s.Step()) out.push_back({s.Text(0), s.Text(1), s.OptionalText(2), s.OptionalText(3), s.Text(4), s.Int(5)});
  return out;
}

std::vector<std::string> Catalog::AllErrorIds() {
  Statement s(*db_, "SELECT id FROM errors ORDER BY id");
  std::vector<std::string> out;
  while (s.Step()) out.push_back(s.Text(0));
  return out;
}

}  // namespace errdex
