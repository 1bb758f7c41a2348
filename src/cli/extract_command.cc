// `errdex extract FILE...`: the facts of single files as JSON lines, without a catalog. For debugging
// extraction rules and for scripts.
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "extract/file_facts_json.h"
#include "python/python_extractor.h"

namespace errdex {

void RegisterExtractCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("extract", "Print the error sites of Python files as JSON (no catalog)");
  auto files = std::make_shared<std::vector<std::string>>();
  cmd->add_option("FILE", *files, "Python files")->required();
  cmd->callback([files] {
    std::string error;
    auto extractor = PythonExtractor::Create(&error);
    if (!extractor) {
      std::cerr << "errdex: " << error << "\n";
      SetCommandExitCode(1);
      return;
    }
    for (const std::string& path : *files) {
      std::ifstream in(path, std::ios::binary);
      if (!in) {
        std::cerr << "errdex: cannot read " << path << "\n";
        SetCommandExitCode(1);
        continue;
      }
      std::stringstream buffer;
      buffer << in.rdbuf();
      nlohmann::json out = FileFactsToJson(extractor->Extract(buffer.str(), ExtractOptions()));
      out["path"] = path;
      std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    }
  });
}

}  // namespace errdex
