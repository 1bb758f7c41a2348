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
  nlohmann::json list = nlohmann::json::array();
  for (const RepositorySummary& r : catalog.RepositorySummaries()) {
    list.push_back({{"name", r.name},
                    {"url", Nullable(r.url)},
                    {"rev", Nullable(r.rev)},
                    {"kind", r.kind},
                    {"committed_at", Nullable(r.committed_at)},
                    {"indexed_at", r.indexed_at},
                    {"revisions", r.revisions},
                    {"files", r.files},
                    {"errors", r.errors},
                    {"sites", r.sites}});
  }
  return {{"repositories", std::move(list)}};
}

std::optional<nlohmann::json> RepoErrorsJson(Catalog& catalog, const RepoErrorsQuery& query) {
  const std::optional<LatestRevision> latest = catalog.LatestRevisionOf(query.repo);
  if (!latest) return std::nullopt;
  const std::optional<std::string>& url = latest->url;
  const std::optional<std::string>& rev = latest->rev;
  const std::optional<std::string>& committed_at = latest->committed_at;
  // One entry per error: its first site (by path and line) in the latest revision.
  std::vector<RepoErrorEntry> entries;
  {
    std::unordered_map<std::string, size_t> index;
    for (ListedSite& site : catalog.ListedSitesOfRevision(latest->revision_id)) {
      auto [it, inserted] = index.emplace(site.error_id, entries.size());
      if (!inserted) {
        ++entries[it->second].sites;
        continue;
      }
      RepoErrorEntry e;
      e.id = std::move(site.error_id);
      e.type = std::move(site.type);
      e.type_qualified = std::move(site.type_qualified);
      e.template_text = std::move(site.template_text);
      e.kind = std::move(site.kind);
      e.path = std::move(site.path);
      e.line = site.line;
      e.function = std::move(site.function);
      e.is_test = site.is_test;
      e.module = std::move(site.module);
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
  nlohmann::json rows = nlohmann::json::array();
  std::unordered_map<std::string, bool> seen;
  for (LatestSite& site : catalog.SitesOfLatestRevisions()) {
    if (!seen.emplace(site.error_id, true).second) continue;
    rows.push_back({std::move(site.error_id), std::move(site.repo), Nullable(site.type), Nullable(site.template_text),
                    std::move(site.path), site.line});
  }
  return {{"fields", {"id", "repo", "type", "template", "path", "line"}}, {"errors", std::move(rows)}};
}

}  // namespace errdex::web
