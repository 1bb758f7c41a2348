// The catalog's matcher: every error's anchor (src/match/anchor.h) compiled into one Hyperscan database,
// and which errors each anchor stands for. `errdex index` rebuilds it in the transaction that changes the
// errors, so it is never stale; `explain` and `scan` load it without compiling (docs/matching.md).
//
// Threading: a loaded ErrorMatcher is immutable; share it, with one LiteralMatcher::Scratch per thread.
// Ownership: it owns its database and its in-memory anchor table.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/matcher_tables.h"
#include "match/literal_matcher.h"

namespace errdex {

class ErrorMatcher {
 public:
  // Rebuilds the stored matcher and the word index from the catalog's errors. Call inside a write
  // transaction. Throws on SQLite or Hyperscan failure.
  static void Rebuild(MatcherTables& tables);

  // The persisted matcher. When the catalog has none (written by an older errdex) or its database does
  // not run on this CPU, builds one in memory and says so in NOTE. WITH_ANCHOR_TABLE loads the whole
  // anchor → errors table into memory (scan); otherwise ErrorsOf queries it (explain).
  static std::unique_ptr<ErrorMatcher> Load(MatcherTables& tables, bool with_anchor_table, std::string* note);

  const LiteralMatcher& literals() const { return *literals_; }

  // Errors whose anchor is pattern PATTERN.
  std::vector<std::string> ErrorsOf(MatcherTables& tables, uint32_t pattern) const;
  // The same from the in-memory table (loaded with WITH_ANCHOR_TABLE); empty otherwise.
  const std::vector<std::string>& ErrorsOfLoaded(uint32_t pattern) const;

  // Classes whose message's anchor is pattern PATTERN.
  std::vector<ClassMessageRef> ClassesOf(MatcherTables& tables, uint32_t pattern) const;

  // Distinct errors, and classes with their own message, whose anchor occurs in TEXT.
  struct Found {
    std::vector<std::string> errors;
    std::vector<ClassMessageRef> classes;
  };
  Found Candidates(MatcherTables& tables, std::string_view text) const;

 private:
  ErrorMatcher() = default;
  std::unique_ptr<LiteralMatcher> literals_;
  std::vector<std::vector<std::string>> errors_of_pattern_;       // when loaded or built in memory
  std::vector<std::vector<ClassMessageRef>> classes_of_pattern_;  // when built in memory
};

}  // namespace errdex
