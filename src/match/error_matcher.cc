#include "match/error_matcher.h"

#include <chrono>
#include <ctime>
#include <map>
#include <set>

#include "match/anchor.h"
#include "match/error_words.h"
#include "match/template_alignment.h"

namespace errdex {
namespace {

struct Built {
  std::vector<std::string> anchors;                         // pattern id → literal
  std::vector<std::vector<std::string>> errors_of_pattern;  // pattern id → error ids
  std::vector<std::vector<ClassMessageRef>> classes_of_pattern;
  size_t errors = 0;
};

Built BuildAnchors(SqliteDb& db) {
  std::vector<std::string> ids;
  std::vector<AlignableTemplate> templates;
  Statement s(db, "SELECT id, template FROM errors WHERE template IS NOT NULL ORDER BY id");
  while (s.Step()) {
    ids.push_back(s.Text(0));
    templates.push_back(PrepareTemplate(s.Text(1)));
  }
  const size_t error_count = ids.size();
  // Classes' own messages, once per repository and class (whatever the revisions).
  std::vector<ClassMessageRef> classes;
  Statement c(db,
              "SELECT DISTINCT v.repo_id, c.qualified_name, c.message FROM classes c JOIN revisions v "
              "ON v.id = c.revision_id WHERE c.message IS NOT NULL ORDER BY 1, 2");
  while (c.Step()) {
    classes.push_back({c.Int(0), c.Text(1)});
    templates.push_back(PrepareTemplate(c.Text(2)));
  }
  std::vector<std::string> anchors = ChooseAnchors(templates);
  Built built;
  built.errors = error_count;
  std::map<std::string, uint32_t> pattern_of;  // identical anchors share a pattern
  for (size_t i = 0; i < templates.size(); ++i) {
    if (anchors[i].empty()) continue;
    auto [it, inserted] = pattern_of.emplace(anchors[i], static_cast<uint32_t>(built.anchors.size()));
    if (inserted) {
      built.anchors.push_back(anchors[i]);
      built.errors_of_pattern.emplace_back();
      built.classes_of_pattern.emplace_back();
    }
    if (i < error_count) {
      built.errors_of_pattern[it->second].push_back(ids[i]);
    } else {
      built.classes_of_pattern[it->second].push_back(classes[i - error_count]);
    }
  }
  return built;
}

std::string NowUtc() {
  std::time_t now = std::time(nullptr);
  char buffer[32];
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

}  // namespace

void ErrorMatcher::Rebuild(SqliteDb& db) {
  Built built = BuildAnchors(db);
  std::unique_ptr<LiteralMatcher> literals = LiteralMatcher::Build(built.anchors);
  db.Exec("DELETE FROM matcher; DELETE FROM matcher_anchors; DELETE FROM matcher_class_anchors;");
  Statement(db, "INSERT INTO matcher(id, hs_database, errors, anchors, built_at) VALUES(1, ?1, ?2, ?3, ?4)")
      .BindBlob(1, literals->Serialize())
      .Bind(2, static_cast<int64_t>(built.errors))
      .Bind(3, static_cast<int64_t>(built.anchors.size()))
      .Bind(4, NowUtc())
      .Run();
  Statement anchor(db, "INSERT INTO matcher_anchors(pattern, error_id) VALUES(?1, ?2)");
  for (size_t p = 0; p < built.errors_of_pattern.size(); ++p) {
    for (const std::string& id : built.errors_of_pattern[p]) {
      anchor.Bind(1, static_cast<int64_t>(p)).Bind(2, id);
      anchor.Run();
    }
  }
  Statement class_anchor(db,
                         "INSERT OR IGNORE INTO matcher_class_anchors(pattern, repo_id, qualified_name) "
                         "VALUES(?1, ?2, ?3)");
  for (size_t p = 0; p < built.classes_of_pattern.size(); ++p) {
    for (const ClassMessageRef& ref : built.classes_of_pattern[p]) {
      class_anchor.Bind(1, static_cast<int64_t>(p)).Bind(2, ref.repo_id).Bind(3, ref.qualified_name);
      class_anchor.Run();
    }
  }
  // The word index changes only where errors come and go (an error's words follow from its id: type and
  // normalized template), so an index run touches only its own repository's rows.
  db.Exec("DELETE FROM error_words WHERE error_id NOT IN (SELECT id FROM errors)");
  Statement words(db, "INSERT INTO error_words(words, error_id) VALUES(?1, ?2)");
  Statement errors(db,
                   "SELECT id, template, coalesce(type_qualified, type, '') FROM errors "
                   "WHERE id NOT IN (SELECT error_id FROM error_words)");
  while (errors.Step()) {
    words.Bind(1, ErrorWordsText(errors.Text(1), errors.Text(2))).Bind(2, errors.Text(0));
    words.Run();
  }
}

std::unique_ptr<ErrorMatcher> ErrorMatcher::Load(SqliteDb& db, bool with_anchor_table, std::string* note) {
  std::unique_ptr<ErrorMatcher> matcher(new ErrorMatcher());
  bool persisted = false;
  try {
    Statement s(db, "SELECT hs_database FROM matcher WHERE id = 1");
    if (s.Step()) {
      matcher->literals_ = LiteralMatcher::Deserialize(s.Blob(0));
      persisted = true;
      if (!matcher->literals_ && note) *note = "the catalog's matcher does not run on this CPU; rebuilt in memory";
    } else if (note) {
      *note = "the catalog has no matcher yet; built in memory (run errdex index to store one)";
    }
  } catch (const SqliteError&) {
    if (note) *note = "the catalog predates the matcher; built in memory (run errdex index to store one)";
  }
  if (persisted && matcher->literals_) {
    if (with_anchor_table) {
      Statement s(db, "SELECT pattern, error_id FROM matcher_anchors ORDER BY pattern");
      while (s.Step()) {
        auto pattern = static_cast<size_t>(s.Int(0));
        if (pattern >= matcher->errors_of_pattern_.size()) matcher->errors_of_pattern_.resize(pattern + 1);
        matcher->errors_of_pattern_[pattern].push_back(s.Text(1));
      }
    }
    return matcher;
  }
  Built built = BuildAnchors(db);
  matcher->literals_ = LiteralMatcher::Build(built.anchors);
  matcher->errors_of_pattern_ = std::move(built.errors_of_pattern);
  matcher->classes_of_pattern_ = std::move(built.classes_of_pattern);
  return matcher;
}

std::vector<std::string> ErrorMatcher::ErrorsOf(SqliteDb& db, uint32_t pattern) const {
  if (!errors_of_pattern_.empty()) return ErrorsOfLoaded(pattern);
  std::vector<std::string> out;
  Statement s(db, "SELECT error_id FROM matcher_anchors WHERE pattern = ?1");
  s.Bind(1, int64_t{pattern});
  while (s.Step()) out.push_back(s.Text(0));
  return out;
}

const std::vector<std::string>& ErrorMatcher::ErrorsOfLoaded(uint32_t pattern) const {
  static const std::vector<std::string> kNone;
  return pattern < errors_of_pattern_.size() ? errors_of_pattern_[pattern] : kNone;
}

ErrorMatcher::Found ErrorMatcher::Candidates(SqliteDb& db, std::string_view text) const {
  std::set<uint32_t> patterns;
  LiteralMatcher::Scratch scratch(*literals_);
  literals_->Scan(text, scratch, [&](uint32_t id, size_t) {
    patterns.insert(id);
    return true;
  });
  Found out;
  std::set<std::string> seen;
  std::set<std::pair<int64_t, std::string>> seen_classes;
  for (uint32_t p : patterns) {
    for (std::string& id : ErrorsOf(db, p)) {
      if (seen.insert(id).second) out.errors.push_back(std::move(id));
    }
    for (ClassMessageRef& ref : ClassesOf(db, p)) {
      if (seen_classes.emplace(ref.repo_id, ref.qualified_name).second) out.classes.push_back(std::move(ref));
    }
  }
  return out;
}

std::vector<ClassMessageRef> ErrorMatcher::ClassesOf(SqliteDb& db, uint32_t pattern) const {
  if (!errors_of_pattern_.empty() || !classes_of_pattern_.empty()) {
    return pattern < classes_of_pattern_.size() ? classes_of_pattern_[pattern] : std::vector<ClassMessageRef>();
  }
  std::vector<ClassMessageRef> out;
  Statement s(db, "SELECT repo_id, qualified_name FROM matcher_class_anchors WHERE pattern = ?1");
  s.Bind(1, int64_t{pattern});
  while (s.Step()) out.push_back({s.Int(0), s.Text(1)});
  return out;
}

}  // namespace errdex
