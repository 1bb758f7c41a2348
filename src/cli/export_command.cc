// `errdex export --out DIR [--db FILE]`: the site as static files (docs/web.md), byte for byte what
// `errdex serve` answers for the same paths.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "catalog/catalog.h"
#include "catalog/version_store.h"
#include "cli/commands.h"
#include "web/html.h"
#include "web/router.h"
#include "web/site_data.h"
#include "web/site_paths.h"

namespace errdex {

namespace {

struct Exporter {
  std::filesystem::path out;
  web::Router& site;
  int64_t files = 0, bytes = 0, failures = 0;

  // Writes the answer to GET TARGET (a path as a browser sends it) to FILE under OUT.
  void Write(const std::string& target, const std::string& file) {
    web::WebResponse response = site.Get(target, {});
    if (response.status != 200) {
      std::cerr << "errdex export: " << target << " answered " << response.status << ", not written\n";
      ++failures;
      return;
    }
    const std::filesystem::path path = out / file;
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    std::ofstream stream(path, std::ios::binary | std::ios::trunc);
    stream.write(response.body.data(), static_cast<std::streamsize>(response.body.size()));
    stream.close();
    if (!stream) {
      std::cerr << "errdex export: cannot write " << path.string() << "\n";
      ++failures;
      return;
    }
    ++files;
    bytes += static_cast<int64_t>(response.body.size());
  }
};

}  // namespace

void RegisterExportCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("export", "Write the error pages, the JSON and a search index as a static site");
  struct Options {
    std::string out, db;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("--out", o->out, "Directory to write the site into (created; files in it are replaced)")->required();
  cmd->add_option("--db", o->db, "Catalog file (default: $ERRDEX_DB, else ./errdex.db)");
  cmd->callback([o] {
    try {
      auto catalog = Catalog::Open(o->db.empty() ? DefaultCatalogPath() : o->db, /*read_only=*/true);
      std::error_code ec;
      std::filesystem::create_directories(o->out, ec);
      if (!std::filesystem::is_directory(o->out)) {
        std::cerr << "errdex export: cannot create directory " << o->out << "\n";
        SetCommandExitCode(1);
        return;
      }
      web::Router site(*catalog, nullptr);  // no search on a static site: no matcher needed
      Exporter exporter{o->out, site};
      exporter.Write("/", "index.html");
      exporter.Write("/static/errdex.css", "static/errdex.css");
      exporter.Write("/static/errdex.js", "static/errdex.js");
      exporter.Write("/api/openapi.json", "api/openapi.json");
      exporter.Write("/api/repos.json", "api/repos.json");
      exporter.Write("/api/search-index.json", "api/search-index.json");
      const nlohmann::json repos = web::ReposJson(*catalog);
      int64_t repositories = 0, diffs = 0;
      for (const nlohmann::json& r : repos["repositories"]) {
        const std::string name = r["name"].get<std::string>();
        std::optional<nlohmann::json> first = web::RepoErrorsJson(*catalog, {name, std::nullopt, std::nullopt, 1});
        const int pages = first ? (*first)["pages"].get<int>() : 1;
        for (int page = 1; page <= pages; ++page) {
          exporter.Write("/" + web::RepoHref("", name, page), web::RepoPagePath(name, page));
        }
        // The diff of each pair of consecutive indexed revisions (releases), page and JSON.
        const std::vector<VersionedRevision> ordered = OrderedRevisions(*catalog, name);
        for (size_t i = 1; i < ordered.size(); ++i) {
          const std::string& from = ordered[i - 1].label;
          const std::string& to = ordered[i].label;
          exporter.Write("/" + web::DiffHref("", name, from, to), web::DiffPagePath(name, from, to));
          exporter.Write("/" + web::PercentEncode(web::DiffJsonPath(name, from, to), /*keep_slash=*/true),
                         web::DiffJsonPath(name, from, to));
          ++diffs;
        }
        ++repositories;
      }
      int64_t errors = 0;
      for (const std::string& id : catalog->AllErrorIds()) {
        if (!web::IsErrorId(id)) {
          std::cerr << "errdex export: skipping malformed error id in the catalog\n";
          ++exporter.failures;
          continue;
        }
        exporter.Write("/" + web::ErrorPagePath(id), web::ErrorPagePath(id));
        exporter.Write("/" + web::ErrorJsonPath(id), web::ErrorJsonPath(id));
        ++errors;
      }
      fmt::print(
          "exported {} errors of {} repositories ({} diffs of consecutive revisions) into {}: {} files, {:.1f} MB\n",
          errors, repositories, diffs, o->out, exporter.files, static_cast<double>(exporter.bytes) / 1e6);
      SetCommandExitCode(exporter.failures == 0 ? 0 : 1);
    } catch (const std::exception& e) {
      std::cerr << "errdex: " << e.what() << "\n";
      SetCommandExitCode(1);
    }
  });
}

}  // namespace errdex
