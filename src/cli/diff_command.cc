// `errdex diff REV_A REV_B [--repo OWNER/NAME] [--db FILE] [--format text|json]`
#include <iostream>

#include "catalog/catalog.h"
#include "cli/commands.h"
#include "report/error_report.h"
#include "report/version_diff.h"

namespace errdex {

void RegisterDiffCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("diff", "Errors added, removed, reworded and moved between two indexed revisions");
  struct Options {
    std::string from, to, repo, db, format = "text";
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("REV_A", o->from, "Older revision: a release label or a commit prefix")->required();
  cmd->add_option("REV_B", o->to, "Newer revision: a release label or a commit prefix")->required();
  cmd->add_option("--repo", o->repo, "Repository OWNER/NAME (default: the catalog's only one)");
  cmd->add_option("--db", o->db, "Catalog file (default: $ERRDEX_DB, else ./errdex.db)");
  cmd->add_option("--format", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->callback([o] {
    try {
      auto catalog = Catalog::Open(o->db.empty() ? DefaultCatalogPath() : o->db, /*read_only=*/true);
      VersionDiff diff;
      std::string error;
      if (!DiffRevisions(*catalog, o->repo, o->from, o->to, &diff, &error)) {
        std::cerr << "errdex: " << error << "\n";
        SetCommandExitCode(1);
        return;
      }
      std::cout << (o->format == "json" ? DumpJson(VersionDiffJson(diff), 2) + "\n" : VersionDiffText(diff));
    } catch (const SqliteError& e) {
      std::cerr << "errdex: " << e.what() << "\n";
      SetCommandExitCode(1);
    }
  });
}

}  // namespace errdex
