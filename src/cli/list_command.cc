// `errdex list [--db FILE] [--repo R] [--rev REV] [--format jsonl|table]`
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "cli/commands.h"
#include "report/error_report.h"

namespace errdex {

namespace {

std::string OneLine(std::string text, size_t width) {
  for (char& c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  if (text.size() > width) text = text.substr(0, width - 3) + "...";
  return text;
}

}  // namespace

void RegisterListCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("list", "List the error sites of the catalog");
  struct Options {
    std::string db, repo, rev, type, path, format = "jsonl";
    int64_t limit = -1;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("--db", o->db, "Catalog file (default: $ERRDEX_DB, else ./errdex.db)");
  cmd->add_option("--repo", o->repo, "Only this repository (OWNER/NAME)");
  cmd->add_option("--rev", o->rev, "A commit (or prefix), or 'all' (default: the latest revision of each repository)");
  cmd->add_option("--type", o->type, "Only sites raising this type (as written or qualified)");
  cmd->add_option("--path", o->path, "Only sites in files under this path prefix");
  cmd->add_option("--limit", o->limit, "At most this many sites");
  cmd->add_option("--format", o->format, "jsonl, table or ids (error ids, one per line)")
      ->check(CLI::IsMember({"jsonl", "table", "ids"}));
  cmd->callback([o] {
    try {
      auto catalog = Catalog::Open(o->db.empty() ? DefaultCatalogPath() : o->db, /*read_only=*/true);
      SiteFilter filter;
      if (!o->repo.empty()) filter.repo = o->repo;
      filter.rev = o->rev;
      if (!o->type.empty()) filter.type = o->type;
      if (!o->path.empty()) filter.path = o->path;
      filter.limit = o->limit;
      const auto dump = [](const nlohmann::json& j) {
        return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      };
      catalog->ListSites(filter, [&](const SiteRow& s) {
        if (o->format == "jsonl") {
          std::cout << dump(SiteToJson(s)) << '\n';
        } else if (o->format == "ids") {
          std::cout << s.error_id << '\n';
        } else {
          std::cout << fmt::format("{}  {:<7}  {:<28}  {:<40}  {}\n", s.error_id, s.kind,
                                   OneLine(s.type.value_or("-"), 28),
                                   OneLine(s.path + ":" + std::to_string(s.line), 40),
                                   OneLine(s.template_text ? *s.template_text : "-", 80));
        }
      });
    } catch (const SqliteError& e) {
      std::cerr << "errdex: " << e.what() << "\n";
      SetCommandExitCode(1);
    }
  });
}

}  // namespace errdex
