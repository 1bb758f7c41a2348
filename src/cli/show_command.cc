// `errdex show ID [--db FILE] [--format text|json]`
#include <iostream>

#include "catalog/catalog.h"
#include "cli/commands.h"
#include "report/error_report.h"

namespace errdex {

void RegisterShowCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("show", "Show one error: its message, sites, source and class");
  struct Options {
    std::string id, db, format = "text";
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("ID", o->id, "Error id (16 hex digits)")->required();
  cmd->add_option("--db", o->db, "Catalog file (default: $ERRDEX_DB, else ./errdex.db)");
  cmd->add_option("--format", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->callback([o] {
    try {
      auto catalog = Catalog::Open(o->db.empty() ? DefaultCatalogPath() : o->db, /*read_only=*/true);
      std::optional<nlohmann::json> report = ErrorReportJson(*catalog, o->id);
      if (!report) {
        std::cerr << "errdex: no error with id '" << o->id << "' in the catalog\n";
        SetCommandExitCode(1);
        return;
      }
      std::cout << (o->format == "json" ? DumpJson(*report, 2) + "\n" : ErrorReportText(*report));
    } catch (const SqliteError& e) {
      std::cerr << "errdex: " << e.what() << "\n";
      SetCommandExitCode(1);
    }
  });
}

}  // namespace errdex
