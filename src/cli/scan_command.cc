// `errdex scan LOG... [--db FILE] [--format jsonl|text]`
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <unordered_map>

#include "catalog/catalog.h"
#include "cli/commands.h"
#include "match/error_matcher.h"
#include "match/log_scanner.h"
#include "report/error_report.h"
#include "report/explain_report.h"

namespace errdex {
namespace {

struct ErrorInfo {
  nlohmann::json site;  // {"repo", "rev", "path", "line", "function", "permalink"}
  nlohmann::json type, template_text;
  int64_t count = 0, first_line = 0, last_line = 0;
  std::string first_log;
};

// Site, type and template of an error, looked up once per error.
class ErrorInfos {
 public:
  explicit ErrorInfos(Catalog& catalog) : catalog_(catalog) {}
  ErrorInfo& Get(const std::string& id) {
    auto it = infos_.find(id);
    if (it != infos_.end()) return it->second;
    ErrorInfo info;
    std::vector<SiteRow> sites = catalog_.SitesOfError(id);
    if (!sites.empty()) {
      const SiteRow& s = sites.front();
      info.site = SiteSummaryJson(s);
      std::optional<std::string> type = s.type_qualified ? s.type_qualified : s.type;
      info.type = type ? nlohmann::json(*type) : nlohmann::json();
      info.template_text = s.template_text ? nlohmann::json(*s.template_text) : nlohmann::json();
    }
    return infos_.emplace(id, std::move(info)).first->second;
  }
  std::unordered_map<std::string, ErrorInfo>& all() { return infos_; }

 private:
  Catalog& catalog_;
  std::unordered_map<std::string, ErrorInfo> infos_;
};

}  // namespace

void RegisterScanCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("scan", "Attribute the error lines and tracebacks of logs to the catalog's errors");
  struct Options {
    std::vector<std::string> logs;
    std::string db, format = "jsonl";
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("LOG", o->logs, "Log files; - for standard input")->required();
  cmd->add_option("--db", o->db, "Catalog file (default: $ERRDEX_DB, else ./errdex.db)");
  cmd->add_option("--format", o->format, "jsonl (one object per finding) or text (a triage summary)")
      ->check(CLI::IsMember({"jsonl", "text"}));
  cmd->callback([o] {
    std::unique_ptr<Catalog> catalog;
    std::unique_ptr<ErrorMatcher> matcher;
    try {
      catalog = Catalog::Open(o->db.empty() ? DefaultCatalogPath() : o->db, /*read_only=*/true);
      std::string note;
      matcher = ErrorMatcher::Load(catalog->matcher_tables(), /*with_anchor_table=*/true, &note);
      if (!note.empty()) std::cerr << "errdex: " << note << "\n";
    } catch (const std::exception& e) {
      std::cerr << "errdex: " << e.what() << "\n";
      SetCommandExitCode(2);
      return;
    }
    ErrorInfos infos(*catalog);
    const bool jsonl = o->format == "jsonl";
    std::string current_log;
    int64_t findings = 0;
    auto on_finding = [&](const ScanFinding& f) {
      ++findings;
      ErrorInfo& info = infos.Get(f.error_id);
      if (jsonl) {
        nlohmann::json j = {{"line", f.line},    {"id", f.error_id},
                            {"type", info.type}, {"template", info.template_text},
                            {"score", f.score},  {"site", info.site}};
        if (o->logs.size() > 1) j["log"] = current_log;
        std::cout << DumpJson(j) << "\n";
      } else {
        if (info.count++ == 0) {
          info.first_line = f.line;
          info.first_log = current_log;
        }
        info.last_line = f.line;
      }
    };
    bool failed = false;
    int64_t total_lines = 0;
    std::vector<char> buffer(size_t{1} << 20);
    for (const std::string& log : o->logs) {
      current_log = log;
      FILE* file = log == "-" ? stdin : std::fopen(log.c_str(), "rb");
      if (!file) {
        std::cerr << "errdex: cannot read " << log << ": " << std::strerror(errno) << "\n";
        failed = true;
        continue;
      }
      LogScanner scanner(*catalog, *matcher, on_finding);
      size_t n;
      while ((n = std::fread(buffer.data(), 1, buffer.size(), file)) > 0) scanner.Feed({buffer.data(), n});
      if (std::ferror(file)) {
        std::cerr << "errdex: error reading " << log << "\n";
        failed = true;
      }
      scanner.Finish();
      total_lines += scanner.lines();
      if (file != stdin) std::fclose(file);
    }
    if (!jsonl) {
      std::vector<std::pair<const std::string*, const ErrorInfo*>> order;
      for (const auto& [id, info] : infos.all()) order.emplace_back(&id, &info);
      std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        if (a.second->count != b.second->count) return a.second->count > b.second->count;
        return a.second->first_line < b.second->first_line;
      });
      std::cout << findings << " error lines in " << total_lines << " lines, " << order.size()
                << " distinct errors\n\n";
      for (const auto& [id, info] : order) {
        std::string type = info->type.is_string() ? info->type.get<std::string>() : "(re-raise)";
        std::string tmpl = info->template_text.is_string() ? info->template_text.get<std::string>() : "";
        std::cout << fmt::format("{:>7}×  {}  {}\n", info->count, *id, type);
        std::cout << "         " << EscapeControls(tmpl) << "\n";
        std::cout << fmt::format("         lines {}–{}{}\n", info->first_line, info->last_line,
                                 o->logs.size() > 1 ? " (first in " + info->first_log + ")" : "");
        if (info->site.is_object()) {
          std::cout << fmt::format("         raised at {}:{} in {}\n", info->site["path"].get<std::string>(),
                                   info->site["line"].get<int>(), info->site["function"].get<std::string>());
          if (info->site["permalink"].is_string()) {
            std::cout << "         " << info->site["permalink"].get<std::string>() << "\n";
          }
        }
        std::cout << "\n";
      }
    }
    SetCommandExitCode(failed ? 1 : 0);
  });
}

}  // namespace errdex
