// The subcommands of the errdex binary. Each command file registers its subcommand with CLI11; the
// callback runs the command and records its exit code.
#pragma once

#include <CLI/CLI.hpp>

namespace errdex {

void RegisterCommands(CLI::App& app);

// Exit code of the command that ran: 0 success, 1 failure (message on stderr), 2 bad usage.
int CommandExitCode();
void SetCommandExitCode(int code);

// Catalog path: --db, else $ERRDEX_DB, else ./errdex.db.
std::string DefaultCatalogPath();

void RegisterExtractCommand(CLI::App& app);
void RegisterIndexCommand(CLI::App& app);
void RegisterListCommand(CLI::App& app);
void RegisterShowCommand(CLI::App& app);
void RegisterExplainCommand(CLI::App& app);
void RegisterScanCommand(CLI::App& app);
void RegisterServeCommand(CLI::App& app);
void RegisterExportCommand(CLI::App& app);
void RegisterCallgraphCommand(CLI::App& app);
void RegisterDiffCommand(CLI::App& app);

}  // namespace errdex
