#include "match/error_matcher.h"

#include <chrono>
#include <ctime>
#include <map>
#include <set>

#include "match/anchor.h"
#include "match/error_words.h"
#include "match/template_alignment.h"
#include "util/utc_time.h"

namespace errdex {
namespace {

struct Built {
  std::vector<std::string> anchors;                         // pattern id → literal
  std::vector<std::vector<std::string>> errors_of_pattern;  // pattern id → error ids
  std::vector<std::vector<ClassMessageRef>> classes_of_pattern;
  size_t errors = 0;
};

Built BuildAnchors(MatcherTables& tables) {
  std::vector<std::string> ids;
  std::vector<AlignableTemplate> templates;
  for (MatcherTables::ErrorTemplate& e : tables.ErrorTemplates()) {
    ids.push_back(std::move(e.id));
    templates.push_back(PrepareTemplate(e.template_text));
  }
  const size_t distinct_errors = ids.size();
  // The other texts a site may render (a message chosen among several, docs/matching.md) stand for its error.
  for (MatcherTables::ErrorTemplate& e : tables.ErrorAlternatives()) {
    ids.push_back(std::move(e.id));
    templates.push_back(PrepareTemplate(e.template_text));
  }
  const size_t error_count = ids.size();
  // Classes' own messages, once per repository and class (whatever the revisions).
  std::vector<ClassMessageRef> classes;
  for (MatcherTables::ClassMessage& c : tables.ClassMessages()) {
    // A text of several lines is also found by its first line: a paste often keeps only that one (pytest's
    // `E       fixture 'x' not found` above the `>` lines of the same report; docs/matching.md).
    if (size_t nl = c.message.find('\n'); nl != std::string::npos && nl > 0) {
      classes.push_back(c.ref);
      templates.push_back(PrepareTemplate(c.message.substr(0, nl)));
    }
    classes.push_back(std::move(c.ref));
    templates.push_back(PrepareTemplate(c.message));
  }
  std::vector<std::string> anchors = ChooseAnchors(templates);
  Built built;
  built.errors = distinct_errors;
  std::map<std::string, uint32_t> pattern_of;           // identical anchors share a pattern
  std::set<std::pair<uint32_t, std::string>> anchored;  // (pattern, error) pairs stored
  for (size_t i = 0; i < templates.size(); ++i) {
    if (anchors[i].empty()) continue;
    auto [it, inserted] = pattern_of.emplace(anchors[i], static_cast<uint32_t>(built.anchors.size()));
    if (inserted) {
      built.anchors.push_back(anchors[i]);
      built.errors_of_pattern.emplace_back();
      built.classes_of_pattern.emplace_back();
    }
    if (i < error_count) {
      // An error's other texts may share an anchor with its template or with each other: once per pattern.
      if (anchored.emplace(it->second, ids[i]).second) {
        built.errors_of_pattern[it->second].push_back(ids[i]);
      }
    } else {
      built.classes_of_pattern[it->second].push_back(classes[i - error_count]);
    }
  }
  return built;
}

}  // namespace

void ErrorMatcher::Rebuild(MatcherTables& tables) {
  Built built = BuildAnchors(tables);
  std::unique_ptr<LiteralMatcher> literals = LiteralMatcher::Build(built.anchors);
  tables.ReplaceMatcher(literals->Serialize(), static_cast<int64_t>(built.errors), built.errors_of_pattern,
                        built.classes_of_pattern, NowUtc());
  // The word index changes only where errors come and go (an error's words follow from its id: type and
  // normalized template), so an index run touches only its own repository's rows.
  // An error's other texts (a message chosen among several) add their words: a reworded paste of one of them
  // finds the error by its words too.
  std::map<std::string, std::string> other_texts;
  for (const MatcherTables::ErrorTemplate& e : tables.ErrorAlternatives()) other_texts[e.id] += "\n" + e.template_text;
  tables.UpdateWordIndex([&other_texts](const MatcherTables::ErrorTemplate& e) {
    auto it = other_texts.find(e.id);
    return ErrorWordsText(it == other_texts.end() ? e.template_text : e.template_text + it->second, e.type);
  });
}

std::unique_ptr<ErrorMatcher> ErrorMatcher::Load(MatcherTables& tables, bool with_anchor_table, std::string* note) {
  std::unique_ptr<ErrorMatcher> matcher(new ErrorMatcher());
  bool persisted = false;
  try {
    if (std::optional<std::string> stored = tables.StoredDatabase()) {
      matcher->literals_ = LiteralMatcher::Deserialize(*stored);
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
      auto& errors_of_pattern = matcher->errors_of_pattern_;
      tables.ForEachErrorAnchor([&errors_of_pattern](uint32_t pattern, std::string id) {
        if (pattern >= errors_of_pattern.size()) errors_of_pattern.resize(size_t{pattern} + 1);
        errors_of_pattern[pattern].push_back(std::move(id));
      });
    }
    return matcher;
  }
  Built built = BuildAnchors(tables);
  matcher->literals_ = LiteralMatcher::Build(built.anchors);
  matcher->errors_of_pattern_ = std::move(built.errors_of_pattern);
  matcher->classes_of_pattern_ = std::move(built.classes_of_pattern);
  return matcher;
}

std::vector<std::string> ErrorMatcher::ErrorsOf(MatcherTables& tables, uint32_t pattern) const {
  if (!errors_of_pattern_.empty()) return ErrorsOfLoaded(pattern);
  return tables.ErrorsOfPattern(pattern);
}

const std::vector<std::string>& ErrorMatcher::ErrorsOfLoaded(uint32_t pattern) const {
  static const std::vector<std::string> kNone;
  return pattern < errors_of_pattern_.size() ? errors_of_pattern_[pattern] : kNone;
}

ErrorMatcher::Found ErrorMatcher::Candidates(MatcherTables& tables, std::string_view text) const {
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
    for (std::string& id : ErrorsOf(tables, p)) {
      if (seen.insert(id).second) out.errors.push_back(std::move(id));
    }
    for (ClassMessageRef& ref : ClassesOf(tables, p)) {
      if (seen_classes.emplace(ref.repo_id, ref.qualified_name).second) out.classes.push_back(std::move(ref));
    }
  }
  return out;
}

std::vector<ClassMessageRef> ErrorMatcher::ClassesOf(MatcherTables& tables, uint32_t pattern) const {
  if (!errors_of_pattern_.empty() || !classes_of_pattern_.empty()) {
    return pattern < classes_of_pattern_.size() ? classes_of_pattern_[pattern] : std::vector<ClassMessageRef>();
  }
  return tables.ClassesOfPattern(pattern);
}

}  // namespace errdex
