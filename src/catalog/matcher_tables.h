// The tables that the matcher (src/match/error_matcher.h) keeps in the catalog: its serialized Hyperscan
// database and anchor tables (matcher, matcher_anchors, matcher_class_anchors) and the word index of
// approximate matching (error_words, FTS5). Typed reads and writes, so that every SQL statement stays in
// the catalog; the schema is catalog/schema.cc's, the format docs/catalog.md's.
//
// Ownership and threading: borrows the catalog's database, which must outlive it; belongs to the thread
// that owns the catalog. Reads of an older catalog without these tables throw SqliteError (callers fall
// back to an in-memory matcher).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "catalog/sqlite_db.h"

namespace errdex {

// A class whose own rendering is a message (`__str__`), in repository REPO_ID.
struct ClassMessageRef {
  int64_t repo_id = 0;
  std::string qualified_name;
};

class MatcherTables {
 public:
  explicit MatcherTables(SqliteDb& db) : db_(db) {}

  struct ErrorTemplate {
    std::string id;
    std::string template_text;
    std::string type;  // qualified when resolved, else as written, else ""
  };
  // Every error that has a template, by id.
  std::vector<ErrorTemplate> ErrorTemplates();

  // Every other text an error's sites may render (SiteRow::message_alternatives), by error id, each once per
  // error (whatever the revisions), at most kMaxErrorAlternatives per error.
  static constexpr size_t kMaxErrorAlternatives = 16;
  std::vector<ErrorTemplate> ErrorAlternatives();

  struct ClassMessage {
    ClassMessageRef ref;
    std::string message;
  };
  // Every class's own message, each of its alternatives (ClassRow::alternatives) and each text a handler prints
  // for it (ClassRow::printed), once per repository and class (whatever the revisions), by repository and name.
  std::vector<ClassMessage> ClassMessages();

  // The stored matcher: replaces the Hyperscan database and the anchor tables. ERRORS_OF_PATTERN[p] and
  // CLASSES_OF_PATTERN[p] are what pattern p's anchor stands for.
  void ReplaceMatcher(const std::string& hs_database, int64_t errors,
                      const std::vector<std::vector<std::string>>& errors_of_pattern,
                      const std::vector<std::vector<ClassMessageRef>>& classes_of_pattern, const std::string& built_at);
  // The stored Hyperscan database; nullopt when none was stored yet.
  std::optional<std::string> StoredDatabase();
  // Every (pattern, error id) of the stored anchor table, by pattern.
  void ForEachErrorAnchor(const std::function<void(uint32_t pattern, std::string error_id)>& visit);
  std::vector<std::string> ErrorsOfPattern(uint32_t pattern);
  std::vector<ClassMessageRef> ClassesOfPattern(uint32_t pattern);

  // The word index: drops the rows of errors that are gone, then gives WORDS_OF the errors that have no
  // row yet (an error's words follow from its id, so only new errors need one) and stores its answer.
  void UpdateWordIndex(const std::function<std::string(const ErrorTemplate&)>& words_of);
  // Error ids whose words best match the FTS5 query QUERY (bm25 rank), at most LIMIT. Empty for a catalog
  // without the word index.
  std::vector<std::string> SearchWords(const std::string& query, int64_t limit);

 private:
  SqliteDb& db_;
};

}  // namespace errdex
