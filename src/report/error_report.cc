#include "report/error_report.h"

#include <fmt/format.h>

#include <sstream>

#include "catalog/permalink.h"

namespace errdex {

namespace {

nlohmann::json Nullable(const std::optional<std::string>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

// The source lines around the site, stored with its blob.
nlohmann::json SnippetOf(Catalog& catalog, const SiteRow& site) {
  if (!site.blob_id) return nullptr;
  std::optional<Catalog::Snippet> snippet = catalog.FindSnippet(*site.blob_id, site.line, site.col);
  if (!snippet) return nullptr;
  return {{"path", site.path}, {"start_line", snippet->start_line}, {"line", site.line}, {"end_line", site.end_line},
          {"text", snippet->text}};
}

}  // namespace

std::string DumpJson(const nlohmann::json& json, int indent) {
  return json.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

nlohmann::json SiteToJson(const SiteRow& s) {
  return {{"id", s.error_id},
          {"repo", s.repo},
          {"rev", Nullable(s.commit)},
          {"path", s.path},
          {"line", s.line},
          {"col", s.col},
          {"end_line", s.end_line},
          {"kind", s.kind},
          {"type", Nullable(s.type)},
          {"type_qualified", Nullable(s.type_qualified)},
          {"template", Nullable(s.template_text)},
          {"function", s.function},
          {"is_test", s.is_test},
          {"permalink", Nullable(Permalink(s.url, s.commit, s.path, s.line))},
          {"via", Nullable(s.via)}};
}

std::optional<nlohmann::json> ErrorReportJson(Catalog& catalog, const std::string& id) {
  std::optional<ErrorRow> error = catalog.FindError(id);
  if (!error) return std::nullopt;
  std::vector<SiteRow> sites = catalog.SitesOfError(id);
  nlohmann::json site_list = nlohmann::json::array();
  for (const SiteRow& s : sites) {
    nlohmann::json j = SiteToJson(s);
    j.erase("id");
    j.erase("repo");
    site_list.push_back(std::move(j));
  }
  // The site to show: in the latest revision, code before tests.
  nlohmann::json snippet = nullptr;
  for (int pass = 0; pass < 2 && snippet.is_null(); ++pass) {
    for (const SiteRow& s : sites) {
      if (pass == 0 && s.is_test) continue;
      snippet = SnippetOf(catalog, s);
      if (!snippet.is_null()) break;
    }
  }
  nlohmann::json exception_class = nullptr;
  if (error->type_qualified) {
    if (auto cls = catalog.FindClass(error->repo, *error->type_qualified)) {
      exception_class = {{"qualified_name", cls->qualified_name}, {"path", cls->path}, {"line", cls->line},
                         {"bases", cls->bases}, {"docstring", cls->docstring}};
    } else if (error->type_qualified->rfind("builtins.", 0) == 0) {
      exception_class = {{"qualified_name", *error->type_qualified}, {"builtin", true}};
    }
  }
  nlohmann::json revisions = nlohmann::json::array();
  for (const RevisionRow& r : catalog.RevisionsOfError(id)) {
    revisions.push_back({{"rev", Nullable(r.commit)}, {"indexed_at", r.indexed_at},
                         {"committed_at", Nullable(r.committed_at)}, {"source", r.source}});
  }
  std::string kind = sites.empty() ? "raise" : sites.front().kind;
  return nlohmann::json{{"id", error->id},
                        {"repo", error->repo},
                        {"url", Nullable(error->url)},
                        {"kind", kind},
                        {"type", Nullable(error->type)},
                        {"type_qualified", Nullable(error->type_qualified)},
                        {"template", Nullable(error->template_text)},
                        {"normalized_template", Nullable(error->normalized)},
                        {"sites", site_list},
                        {"snippet", snippet},
                        {"exception_class", exception_class},
                        {"revisions", revisions}};
}

std::string ErrorReportText(const nlohmann::json& r) {
  auto str = [](const nlohmann::json& v, const char* fallback = "") {
    return v.is_string() ? v.get<std::string>() : std::string(fallback);
  };
  std::ostringstream out;
  out << str(r["repo"]) << " · " << (str(r["kind"]) == "warn" ? "warning" : "error") << " · "
      << str(r["type"], "(re-raised)") << "\n\n";
  out << "  " << str(r["template"], "(no message)") << "\n\n";
  out << "id        " << str(r["id"]) << "\n";
  out << "type      " << str(r["type"], "-");
  if (r["type_qualified"].is_string()) out << "  (" << str(r["type_qualified"]) << ")";
  out << "\n";
  const nlohmann::json& sites = r["sites"];
  for (size_t i = 0; i < sites.size(); ++i) {
    const nlohmann::json& s = sites[i];
    std::string rev = s["rev"].is_string() ? str(s["rev"]).substr(0, 10) : "work tree";
    out << (i == 0 ? "raised at " : "          ") << str(s["path"]) << ":" << s["line"].get<int>() << " in "
        << str(s["function"]) << " [" << rev << "]" << (s["is_test"].get<bool>() ? " (test)" : "") << "\n";
    if (s["permalink"].is_string()) out << "          " << str(s["permalink"]) << "\n";
  }
  const nlohmann::json& cls = r["exception_class"];
  if (cls.is_object() && cls.contains("path")) {
    out << "class     " << str(cls["qualified_name"]) << " at " << str(cls["path"]) << ":"
        << cls["line"].get<int>();
    if (!cls["bases"].empty()) {
      out << " (";
      for (size_t i = 0; i < cls["bases"].size(); ++i) out << (i ? ", " : "") << str(cls["bases"][i]);
      out << ")";
    }
    out << "\n";
    std::string doc = str(cls["docstring"]);
    if (!doc.empty()) out << "          " << doc.substr(0, doc.find('\n')) << "\n";
  }
  const nlohmann::json& snippet = r["snippet"];
  if (snippet.is_object()) {
    out << "\nSource " << str(snippet["path"]) << ":" << snippet["line"].get<int>() << "\n\n";
    std::istringstream lines(str(snippet["text"]));
    std::string line;
    int n = snippet["start_line"].get<int>();
    const int first = snippet["line"].get<int>(), last = snippet["end_line"].get<int>();
    while (std::getline(lines, line)) {
      out << fmt::format("{} {:>5} | {}\n", n >= first && n <= last ? ">" : " ", n, line);
      ++n;
    }
  }
  return out.str();
}

}  // namespace errdex
