// errdex: turns a project's source code into an error knowledge base. See README.md and docs/.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"errdex: an error knowledge base built from source code"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("errdex ") + ERRDEX_VERSION);
  errdex::RegisterCommands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return errdex::CommandExitCode();
}
