#include "catalog/matcher_tables.h"

#include <set>

#include "catalog/stored_lists.h"

namespace errdex {

std::vector<MatcherTables::ErrorTemplate> MatcherTables::ErrorTemplates() {
  std::vector<ErrorTemplate> out;
  Statement s(db_,
              "SELECT id, template, coalesce(type_qualified, type, '') FROM errors WHERE template IS NOT NULL "
              "ORDER BY id");
  while (s.Step()) out.push_back({s.Text(0), s.Text(1), s.Text(2)});
  return out;
}

std::vector<MatcherTables::ErrorTemplate> MatcherTables::ErrorAlternatives() {
  std::vector<ErrorTemplate> out;
  Statement s(
      db_,
      "SELECT DISTINCT r.error_id, r.message_alternatives, coalesce(e.type_qualified, e.type, '') FROM site_rows r "
      "JOIN errors e ON e.id = r.error_id WHERE r.message_alternatives IS NOT NULL ORDER BY 1, 2");
  std::string error;
  std::set<std::string> texts;  // of ERROR
  while (s.Step()) {
    if (s.Text(0) != error) {
      error = s.Text(0);
      texts.clear();
    }
    for (std::string& a : StoredStrings(s.Text(1))) {
      if (texts.size() >= kMaxErrorAlternatives || !texts.insert(a).second) continue;
      out.push_back({error, std::move(a), s.Text(2)});
    }
  }
  return out;
}

std::vector<MatcherTables::ClassMessage> MatcherTables::ClassMessages() {
  std::vector<ClassMessage> out;
  Statement s(db_,
              "SELECT DISTINCT v.repo_id, c.qualified_name, c.message, coalesce(c.message_alternatives, ''), "
              "coalesce(c.printed_texts, '') FROM classes c JOIN revisions v ON v.id = c.revision_id "
              "WHERE c.message IS NOT NULL OR c.printed_texts IS NOT NULL ORDER BY 1, 2");
  while (s.Step()) {
    if (!s.IsNull(2)) out.push_back({{s.Int(0), s.Text(1)}, s.Text(2)});
    for (std::string& a : StoredStrings(s.Text(3))) out.push_back({{s.Int(0), s.Text(1)}, std::move(a)});
    // What handlers print for the class stands for it too.
    for (PrintedText& p : StoredPrintedTexts(s.Text(4))) {
      out.push_back({{s.Int(0), s.Text(1)}, std::move(p.template_text)});
    }
  }
  return out;
}

void MatcherTables::ReplaceMatcher(const std::string& hs_database, int64_t errors,
                                   const std::vector<std::vector<std::string>>& errors_of_pattern,
                                   const std::vector<std::vector<ClassMessageRef>>& classes_of_pattern,
                                   const std::string& built_at) {
  db_.Exec("DELETE FROM matcher; DELETE FROM matcher_anchors; DELETE FROM matcher_class_anchors;");
  Statement(db_, "INSERT INTO matcher(id, hs_database, errors, anchors, built_at) VALUES(1, ?1, ?2, ?3, ?4)")
      .BindBlob(1, hs_database)
      .Bind(2, errors)
      .Bind(3, static_cast<int64_t>(errors_of_pattern.size()))
      .Bind(4, built_at)
      .Run();
  Statement anchor(db_, "INSERT INTO matcher_anchors(pattern, error_id) VALUES(?1, ?2)");
  for (size_t p = 0; p < errors_of_pattern.size(); ++p) {
    for (const std::string& id : errors_of_pattern[p]) {
      anchor.Bind(1, static_cast<int64_t>(p)).Bind(2, id);
      anchor.Run();
    }
  }
  Statement class_anchor(db_,
                         "INSERT OR IGNORE INTO matcher_class_anchors(pattern, repo_id, qualified_name) "
                         "VALUES(?1, ?2, ?3)");
  for (size_t p = 0; p < classes_of_pattern.size(); ++p) {
    for (const ClassMessageRef& ref : classes_of_pattern[p]) {
      class_anchor.Bind(1, static_cast<int64_t>(p)).Bind(2, ref.repo_id).Bind(3, ref.qualified_name);
      class_anchor.Run();
    }
  }
}

std::optional<std::string> MatcherTables::StoredDatabase() {
  Statement s(db_, "SELECT hs_database FROM matcher WHERE id = 1");
  if (!s.Step()) return std::nullopt;
  return s.Blob(0);
}

void MatcherTables::ForEachErrorAnchor(const std::function<void(uint32_t, std::string)>& visit) {
  Statement s(db_, "SELECT pattern, error_id FROM matcher_anchors ORDER BY pattern");
  while (s.Step()) visit(static_cast<uint32_t>(s.Int(0)), s.Text(1));
}

std::vector<std::string> MatcherTables::ErrorsOfPattern(uint32_t pattern) {
  std::vector<std::string> out;
  Statement s(db_, "SELECT error_id FROM matcher_anchors WHERE pattern = ?1");
  s.Bind(1, int64_t{pattern});
  while (s.Step()) out.push_back(s.Text(0));
  return out;
}

std::vector<ClassMessageRef> MatcherTables::ClassesOfPattern(uint32_t pattern) {
  std::vector<ClassMessageRef> out;
  Statement s(db_, "SELECT repo_id, qualified_name FROM matcher_class_anchors WHERE pattern = ?1");
  s.Bind(1, int64_t{pattern});
  while (s.Step()) out.push_back({s.Int(0), s.Text(1)});
  return out;
}

void MatcherTables::UpdateWordIndex(const std::function<std::string(const ErrorTemplate&)>& words_of) {
  db_.Exec("DELETE FROM error_words WHERE error_id NOT IN (SELECT id FROM errors)");
  Statement words(db_, "INSERT INTO error_words(words, error_id) VALUES(?1, ?2)");
  Statement errors(db_,
                   "SELECT id, template, coalesce(type_qualified, type, '') FROM errors "
                   "WHERE id NOT IN (SELECT error_id FROM error_words)");
  while (errors.Step()) {
    const ErrorTemplate error{errors.Text(0), errors.Text(1), errors.Text(2)};
    words.Bind(1, words_of(error)).Bind(2, error.id);
    words.Run();
  }
}

std::vector<std::string> MatcherTables::SearchWords(const std::string& query, int64_t limit) {
  std::vector<std::string> out;
  try {
    Statement s(db_, "SELECT error_id FROM error_words WHERE error_words MATCH ?1 ORDER BY rank LIMIT ?2");
    s.Bind(1, query).Bind(2, limit);
    while (s.Step()) out.push_back(s.Text(0));
  } catch (const SqliteError&) {
    return {};  // a catalog without the word index (older errdex): no approximate candidates
  }
  return out;
}

}  // namespace errdex
