#include "cli/commands.h"

#include <cstdlib>

namespace errdex {

namespace {
int g_exit_code = 0;
}  // namespace

int CommandExitCode() { return g_exit_code; }
void SetCommandExitCode(int code) { g_exit_code = code; }

std::string DefaultCatalogPath() {
  const char* env = std::getenv("ERRDEX_DB");
  return env != nullptr && *env != '\0' ? env : "errdex.db";
}

void RegisterCommands(CLI::App& app) {
  RegisterIndexCommand(app);
  RegisterListCommand(app);
  RegisterShowCommand(app);
  RegisterExplainCommand(app);
  RegisterScanCommand(app);
  RegisterServeCommand(app);
  RegisterExportCommand(app);
  RegisterDiffCommand(app);
  RegisterExtractCommand(app);
  RegisterCallgraphCommand(app);
}

}  // namespace errdex
