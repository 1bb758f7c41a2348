#include "web/site_data.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "catalog/permalink.h"

namespace errdex::web {

namespace {

nlohmann::json Nullable(const std::optional<std::string>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

struct RepoErrorEntry {
  std::string id;
  std::optional<std::string> type, type_qualified, template_text;
  std::string kind, path, function, module;
  int line = 0;
  bool is_test = false;
  int sites = 0;
};

// The type shown for an error: as written, else qualified, else "(re-raise)".
std::string ShownType(const RepoErrorEntry& e) {
  if (e.type && !e.type->empty()) return *e.type;
  if (e.type_qualified && !e.type_qualified->empty()) return *e.type_qualified;
  return "(re-raise)";
}

}  // namespace

nlohmann::json ReposJson(Catalog& catalog) {
  Statement s(catalog.db(),
              "SELECT r.name, r.url, v.commit_sha, v.committed_at, v.indexed_at, v.files, v.sites, "
              "(SELECT count(*) FROM revisions WHERE repo_id = r.id), "
              "(SELECT count(DISTINCT error_id) FROM sites WHERE revision_id = v.id) "
              "FROM repositories r JOIN revisions v ON v.id = (SELECT max(id) FROM revisions WHERE repo_id = r.id) "
              "ORDER BY r.name");
  nlohmann::json list = nlohmann::json::array();
  while (s.Step()) {
    list.push_back({{"name", s.Text(0)},
                    {"url", Nullable(s.OptionalText(1))},
                    {"rev", Nullable(s.OptionalText(2))},
                    {"committed_at", Nullable(s.OptionalText(3))},
                    {"indexed_at", s.Text(4)},
                    {"revisions", s.Int(7)},
                    {"files", s.Int(5)},
                    {"errors", s.Int(8)},
                    {"sites", s.Int(6)}});
  }
  return {{"repositories", std::move(list)}};
}

bool RepositoryExists(Catalog& catalog, const std::string& name) {
  Statement s(catalog.db(), "SELECT 1 FROM repositories WHERE name = ?1");
  s.Bind(1, name);
  return s.Step();
}

std::optional<nlohmann::json> RepoErrorsJson(Catalog& catalog, const RepoErrorsQuery& query) {
  std::optional<std::string> url, rev, committed_at;
  int64_t revision_id = 0;
  {
    Statement s(
        catalog.db(),
        "SELECT r.url, v.id, v.commit_sha, v.committed_at FROM repositories r "
        "LEFT JOIN revisions v ON v.id = (SELECT max(id) FROM revisions WHERE repo_id = r.id) WHERE r.name = ?1");
    s.Bind(1, query.repo);
    if (!s.Step()) return std::nullopt;
    url = s.OptionalText(0);
    revision_id = s.IsNull(1) ? 0 : s.Int(1);
    rev = s.OptionalText(2);
    committed_at = s.OptionalText(3);
  }
  // One entry per error: its first site (by path and line) in the latest revision.
  std::vector<RepoErrorEntry> entries;
  {
    Statement s(catalog.db(),
                "SELECT s.error_id, e.type, e.type_qualified, e.template, s.kind, s.path, s.line, s.function, "
                "s.is_test, coalesce(f.module, '') FROM sites s JOIN errors e ON e.id = s.error_id "
                "LEFT JOIN files f ON f.revision_id = s.revision_id AND f.path = s.path "
                "WHERE s.revision_id = ?1 ORDER BY s.path, s.line, s.col");
    s.Bind(1, revision_id);
    std::unordered_map<std::string, size_t> index;
    while (s.Step()) {
      std::string id = s.Text(0);
      auto [it, inserted] = index.emplace(id, entries.size());
      if (!inserted) {
        ++entries[it->second].sites;
        continue;
      }
      RepoErrorEntry e;
      e.id = std::move(id);
      e.type = s.OptionalText(1);
      e.type_qualified = s.OptionalText(2);
      e.template_text = s.OptionalText(3);
      e.kind = s.Text(4);
      e.path = s.Text(5);
      e.line = static_cast<int>(s.Int(6));
      e.function = s.Text(7);
      e.is_test = s.Int(8) != 0;
      e.module = s.Text(9);
      e.sites = 1;
      entries.push_back(std::move(e));
    }
  }
  std::stable_sort(entries.begin(), entries.end(), [](const RepoErrorEntry& a, const RepoErrorEntry& b) {
    if (a.module != b.module) return a.module < b.module;
    const std::string ta = ShownType(a), tb = ShownType(b);
    if (ta != tb) return ta < tb;
    const std::string& ma = a.template_text ? *a.template_text : std::string();
    const std::string& mb = b.template_text ? *b.template_text : std::string();
    if (ma != mb) return ma < mb;
    return a.id < b.id;
  });
  std::map<std::string, int> type_counts;
  for (const RepoErrorEntry& e : entries) ++type_counts[ShownType(e)];

  const std::string needle = query.q ? Lower(*query.q) : std::string();
  std::vector<const RepoErrorEntry*> selected;
  for (const RepoErrorEntry& e : entries) {
    if (query.type && !query.type->empty() && ShownType(e) != *query.type &&
        (!e.type_qualified || *e.type_qualified != *query.type)) {
      continue;
    }
    if (!needle.empty()) {
      std::string hay = Lower(e.template_text.value_or("") + "\n" + ShownType(e) + "\n" +
                              e.type_qualified.value_or("") + "\n" + e.path + "\n" + e.function + "\n" + e.module);
      if (hay.find(needle) == std::string::npos) continue;
    }
    selected.push_back(&e);
  }
  const int total = static_cast<int>(selected.size());
  const int pages = std::max(1, (total + kRepoPageSize - 1) / kRepoPageSize);
  nlohmann::json errors = nlohmann::json::array();
  const size_t first = static_cast<size_t>(query.page - 1) * kRepoPageSize;
  for (size_t i = first; i < selected.size() && i < first + kRepoPageSize; ++i) {
    const RepoErrorEntry& e = *selected[i];
    errors.push_back({{"id", e.id},
                      {"type", Nullable(e.type)},
                      {"type_qualified", Nullable(e.type_qualified)},
                      {"template", Nullable(e.template_text)},
                      {"kind", e.kind},
                      {"module", e.module},
                      {"path", e.path},
                      {"line", e.line},
                      {"function", e.function},
                      {"is_test", e.is_test},
                      {"sites", e.sites},
                      {"permalink", Nullable(Permalink(url, rev, e.path, e.line))}});
  }
  nlohmann::json types = nlohmann::json::array();
  for (const auto& [type, count] : type_counts) types.push_back({{"type", type}, {"count", count}});
  return nlohmann::json{{"repo", query.repo},           {"url", Nullable(url)},
                        {"rev", Nullable(rev)},         {"committed_at", Nullable(committed_at)},
                        {"type", Nullable(query.type)}, {"q", Nullable(query.q)},
                        {"page", query.page},           {"pages", pages},
                        {"page_size", kRepoPageSize},   {"total", total},
                        {"types", std::move(types)},    {"errors", std::move(errors)}};
}

nlohmann::json SearchIndexJson(Catalog& catalog) {
  Statement s(catalog.db(),
              "SELECT s.error_id, r.name, coalesce(e.type, e.type_qualified), e.template, s.path, s.line "
              "FROM sites s JOIN revisions v ON v.id = s.revision_id JOIN repositories r ON r.id = v.repo_id "
              "JOIN errors e ON e.id = s.error_id "
              "WHERE v.id = (SELECT max(id) FROM revisions WHERE repo_id = v.repo_id) "
              "ORDER BY r.name, s.path, s.line, s.col");
  nlohmann::json rows = nlohmann::json::array();
  std::unordered_map<std::string, bool> seen;
  while (s.Step()) {
    std::string id = s.Text(0);
    if (!seen.emplace(id, true).second) continue;
    rows.push_back(
        {std::move(id), s.Text(1), Nullable(s.OptionalText(2)), Nullable(s.OptionalText(3)), s.Text(4), s.Int(5)});
  }
  return {{"fields", {"id", "repo", "type", "template", "path", "line"}}, {"errors", std::move(rows)}};
}

std::vector<std::string> AllErrorIds(Catalog& catalog) {
  Statement s(catalog.db(), "SELECT id FROM errors ORDER BY id");
  std::vector<std::string> out;
  while (s.Step()) out.push_back(s.Text(0));
  return out;
}

}  // namespace errdex::web
