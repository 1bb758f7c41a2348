// `errdex explain [TEXT|-] [--db FILE] [--top K] [--format text|json]`
#include <unistd.h>

#include <iostream>
#include <iterator>

#include "catalog/catalog.h"
#include "cli/commands.h"
#include "match/error_matcher.h"
#include "match/explainer.h"
#include "report/error_report.h"
#include "report/explain_report.h"

namespace errdex {
namespace {

// A paste is at most this large; the rest is ignored (tracebacks keep their end, where the error is).
constexpr size_t kMaxPasteBytes = size_t{16} << 20;

std::string ReadStandardInput() {
  std::string text;
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, stdin)) > 0) {
    text.append(buffer, n);
    if (text.size() > 2 * kMaxPasteBytes) text.erase(0, text.size() - kMaxPasteBytes);
  }
  if (text.size() > kMaxPasteBytes) text.erase(0, text.size() - kMaxPasteBytes);
  return text;
}

}  // namespace

void RegisterExplainCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("explain", "Find the raise site of a pasted error message, traceback or log excerpt");
  struct Options {
    std::vector<std::string> text;
    std::string db, format = "text";
    int top = 5;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("TEXT", o->text,
                  "The error text (several arguments are joined by spaces); - or none: standard input");
  cmd->add_option("--db", o->db, "Catalog file (default: $ERRDEX_DB, else ./errdex.db)");
  cmd->add_option("--top", o->top, "At most this many matches")->check(CLI::Range(1, 100));
  cmd->add_option("--format", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->callback([o] {
    std::string paste;
    if (o->text.empty() || (o->text.size() == 1 && o->text[0] == "-")) {
      if (o->text.empty() && isatty(STDIN_FILENO)) {
        std::cerr << "errdex explain: give the error text as an argument, or - to read it from standard input\n";
        SetCommandExitCode(2);
        return;
      }
      paste = ReadStandardInput();
    } else {
      for (size_t i = 0; i < o->text.size(); ++i) paste += (i ? " " : "") + o->text[i];
    }
    std::unique_ptr<Catalog> catalog;
    try {
      catalog = Catalog::Open(o->db.empty() ? DefaultCatalogPath() : o->db, /*read_only=*/true);
    } catch (const SqliteError& e) {
      std::cerr << "errdex: " << e.what() << "\n";
      SetCommandExitCode(2);
      return;
    }
    try {
      std::string note;
      auto matcher = ErrorMatcher::Load(catalog->matcher_tables(), /*with_anchor_table=*/false, &note);
      if (!note.empty()) std::cerr << "errdex: " << note << "\n";
      Explanation explanation = Explainer(*catalog, *matcher).Explain(paste, o->top);
      if (o->format == "json") {
        std::cout << DumpJson(ExplanationJson(explanation), 2) << "\n";
      } else {
        std::cout << ExplanationText(*catalog, explanation);
      }
      SetCommandExitCode(explanation.matches.empty() ? 1 : 0);
    } catch (const std::exception& e) {
      std::cerr << "errdex: " << e.what() << "\n";
      SetCommandExitCode(2);
    }
  });
}

}  // namespace errdex
