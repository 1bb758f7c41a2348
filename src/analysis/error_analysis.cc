#include "analysis/error_analysis.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <map>
#include <tuple>
#include <unordered_map>

#include "analysis/advice.h"
#include "analysis/doc_mentions.h"
#include "analysis/meaning_summary.h"
#include "analysis/site_paths.h"
#include "analysis/state_origin.h"
#include "extract/template.h"

namespace errdex {

namespace {

constexpr int kMaxCallDepth = 6;
constexpr size_t kMaxCallPaths = 5;
constexpr size_t kMaxWritersShown = 8;
constexpr size_t kMaxDocMentions = 3;
constexpr size_t kMinPhraseBytes = 12;
constexpr size_t kMaxDefinitionsOfDocumentedName = 3;

// CHANGELOG.md, CHANGES.rst, HISTORY.txt, NEWS...: they name functions for what changed, not how to use them.
bool IsChangelog(const std::string& path) {
  std::string name = path.substr(path.rfind('/') + 1);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* prefix : {"changelog", "changes", "history", "news", "release"}) {
    if (name.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

using Json = nlohmann::json;

// The source line LINE of a site's snippet, trimmed; "" when the snippet does not hold it.
std::string SnippetLine(const Site& site, int line) {
  if (line < site.snippet_start) return "";
  size_t pos = 0;
  for (int n = site.snippet_start; n < line; ++n) {
    pos = site.snippet.find('\n', pos);
    if (pos == std::string::npos) return "";
    ++pos;
  }
  std::string text = site.snippet.substr(pos, site.snippet.find('\n', pos) - pos);
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  text = text.substr(first);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.pop_back();
  return text;
}

Json ReadJson(const StateRead& read) { return {{"kind", read.kind}, {"target", read.target}, {"name", read.name}}; }

Json StateJson(const CodeModel& model, const std::vector<StateOrigin>& origins, const std::string& path,
               const Site& site) {
  Json out = Json::array();
  for (const StateOrigin& o : origins) {
    std::string code;
    for (const Condition& c : site.conditions) {
      if (c.line == o.condition_line) {
        code = c.code;
        break;
      }
    }
    Json writers = Json::array();
    for (const StateWriter& w : o.writers) {
      Json installs = Json::array();
      for (const ImportTimeInstall& i : w.installed_by) {
        installs.push_back({{"path", i.path}, {"line", i.line}, {"code", i.code}});
      }
      const CodeModel::File* file = model.FileAt(w.path);
      writers.push_back({{"path", w.path},
                         {"line", w.line},
                         {"function", w.function},
                         {"code", w.code},
                         {"kind", w.kind},
                         {"is_test", file != nullptr && file->is_test},
                         {"installed_by", std::move(installs)}});
    }
    out.push_back({{"read", ReadJson(o.read)},
                   {"path", path},
                   {"line", o.condition_line},
                   {"function", site.function},
                   {"code", code},
                   {"writers", std::move(writers)},
                   {"more", o.more}});
  }
  return out;
}

// The literal pieces of a template worth looking for in documentation.
std::vector<std::string> Phrases(const std::optional<std::string>& template_text) {
  std::vector<std::string> out;
  if (!template_text) return out;
  // Sentence by sentence, without the final punctuation: documentation quotes a message in parts.
  for (const TemplatePart& part : ParseRenderedTemplate(*template_text)) {
    if (part.placeholder) continue;
    for (std::string sentence : SplitSentences(part.text)) {
      while (!sentence.empty() && (sentence.back() == '.' || sentence.back() == '!' || sentence.back() == '?' ||
                                   sentence.back() == ':' || sentence.back() == ' ')) {
        sentence.pop_back();
      }
      if (sentence.size() >= kMinPhraseBytes) out.push_back(std::move(sentence));
    }
  }
  return out;
}

// The definition of the site's function that holds the site: with `@overload` stubs or a property's
// getter and setter, several definitions share a qualname.
const FunctionDef* DefinitionAround(const AnalysisInput& input, const SiteRow& row) {
  const CodeModel::File* file = input.model->FileAt(row.path);
  if (file == nullptr || file->facts == nullptr) return nullptr;
  const FunctionDef* found = nullptr;
  for (const FunctionDef& def : file->facts->functions) {
    if (def.qualname == row.function && def.line <= row.line && row.line <= def.end_line) found = &def;
  }
  return found;
}

// The call paths an error keeps (docs/analysis.md, "Call paths an error keeps"): its certain paths when it has
// one; the uncertain ones (through a call resolved by name, or a callee the user passes) only when it has no
// certain path, marked as such. Hand grading found uncertain paths right 3 times in 7, certain ones 25 in 28.
std::vector<CallPath> KeptPaths(const std::vector<CallPath>& paths) {
  if (std::none_of(paths.begin(), paths.end(), [](const CallPath& p) { return p.certain; })) return paths;
  std::vector<CallPath> out;
  std::copy_if(paths.begin(), paths.end(), std::back_inserter(out), [](const CallPath& p) { return p.certain; });
  return out;
}

std::string LastComponent(const std::string& qualname) {
  const size_t dot = qualname.rfind('.');
  return dot == std::string::npos ? qualname : qualname.substr(dot + 1);
}

}  // namespace

std::vector<const SiteRow*> PrimarySites(const std::vector<SiteRow>& sites) {
  std::vector<const SiteRow*> out;
  std::unordered_map<std::string, size_t> index;
  for (const SiteRow& s : sites) {
    if (s.is_test) continue;
    auto [it, inserted] = index.try_emplace(s.error_id, out.size());
    if (inserted) {
      out.push_back(&s);
    } else if (std::tie(s.path, s.line) < std::tie(out[it->second]->path, out[it->second]->line)) {
      out[it->second] = &s;
    }
  }
  return out;
}

std::vector<ErrorAnalysisRow> AnalyzeErrors(const AnalysisInput& input) {
  // Sites of the facts by (path, line, col): conditions and snippets live there.
  const std::map<std::tuple<std::string_view, int, int>, const Site*> facts_sites = SitesByPlace(input.files);
  std::vector<const SiteRow*> primary = PrimarySites(*input.sites);
  std::unordered_map<std::string, size_t> tests;
  if (input.error_tests != nullptr) {
    for (const ErrorTestRow& t : *input.error_tests) ++tests[t.error_id];
  }
  std::unordered_map<std::string, const ClassRow*> classes;
  if (input.classes != nullptr) {
    for (const ClassRow& c : *input.classes) classes.emplace(c.qualified_name, &c);
  }
  // Documentation passages, one scan for all errors.
  std::vector<std::vector<Mention>> mentions;
  if (input.docs != nullptr) {
    std::vector<MentionQuery> queries;
    queries.reserve(primary.size());
    for (const SiteRow* row : primary) {
      // A function is looked for by name only when it is public: documentation speaks of the API.
      // A name defined more than kMaxDefinitionsOfDocumentedName times (hooks, `launch`) says nothing.
      const CodeModel::FunctionId f = input.model->Find(row->path, row->function);
      const bool documented_name =
          f != CodeModel::kNone && input.model->IsPublic(f) &&
          input.model->FunctionsNamed(input.model->function(f).name).size() <= kMaxDefinitionsOfDocumentedName;
      queries.push_back({Phrases(row->template_text), documented_name ? LastComponent(row->function) : ""});
    }
    mentions = input.docs->Find(queries, kMaxDocMentions + 1);
  }
  SitePaths paths(*input.model, input.triggers);
  std::vector<ErrorAnalysisRow> rows;
  rows.reserve(primary.size());
  for (size_t n = 0; n < primary.size(); ++n) {
    const SiteRow& row = *primary[n];
    const std::string& id = row.error_id;
    auto found = facts_sites.find({row.path, row.line, row.col});
    if (found == facts_sites.end()) continue;
    const Site& site = *found->second;
    ErrorAnalysisRow out;
    out.error_id = id;
    Json analysis = Json::object();

    // Meaning: the raising function's docstring.
    SummaryFacts summary;
    summary.function = row.function;
    summary.type = row.type.value_or("");
    summary.kind = row.kind;
    summary.conditions = site.conditions;
    summary.tests = tests[id];
    Json function = nullptr;
    if (const FunctionDef* def = DefinitionAround(input, row); def != nullptr) {
      summary.function_doc = DocstringSummary(def->docstring);
      function = {{"path", row.path}, {"line", def->line}, {"function", row.function}, {"docstring", def->docstring}};
    }
    if (row.type_qualified) {
      if (auto c = classes.find(*row.type_qualified); c != classes.end()) {
        summary.class_doc = DocstringSummary(c->second->docstring);
      }
    }

    // Where the state comes from.
    Json state = StateJson(
        *input.model,
        StateOriginsOf(*input.model, row.path, row.function, site.conditions, kMaxWritersShown, input.triggers),
        row.path, site);

    // Call paths from the public API; the last frame is the raise itself.
    Json call_paths = Json::array();
    // A site whose message a caller supplies is reached through that caller (site_paths.h).
    const std::vector<CallPath> found_paths = KeptPaths(paths.Paths(row, &site, kMaxCallDepth, kMaxCallPaths));
    for (const CallPath& p : found_paths) {
      Json frames = Json::array();
      for (size_t i = 0; i < p.frames.size(); ++i) {
        const CallFrame& f = p.frames[i];
        const bool last = i + 1 == p.frames.size();
        frames.push_back({{"path", f.path},
                          {"line", last ? row.line : f.line},
                          {"function", f.function},
                          {"code", last ? SnippetLine(site, row.line) : f.code}});
      }
      if (!p.frames.empty() && p.certain) {  // related errors by entry point: certain paths only
        const CallFrame& entry = p.frames.front();
        const std::string qualified = input.modules->ModuleOf(entry.path) + "." + entry.function;
        if (std::find(out.entry_points.begin(), out.entry_points.end(), qualified) == out.entry_points.end()) {
          out.entry_points.push_back(qualified);
        }
      }
      call_paths.push_back({{"certain", p.certain}, {"frames", std::move(frames)}});
    }

    // Solutions: the message's own advice, then documentation that mentions the message or the function
    // (the raising function's own docstring says nothing new).
    Json solutions = Json::array();
    if (row.template_text) {
      for (std::string& advice : AdviceInMessage(*row.template_text)) {
        summary.advice.push_back(advice);
        solutions.push_back({{"kind", "advice"}, {"text", std::move(advice)}, {"path", row.path}, {"line", row.line}});
      }
    }
    if (n < mentions.size()) {
      size_t shown = 0, by_name = 0;
      for (const Mention& m : mentions[n]) {
        if (shown >= kMaxDocMentions) break;
        // By name: one passage of a documentation file (docstrings cross-reference names all the time).
        if (m.kind == "function" && (by_name > 0 || m.path.ends_with(".py") || IsChangelog(m.path))) continue;
        if (m.kind == "function") ++by_name;
        if (function.is_object() && m.path == row.path && m.line >= function["line"].get<int>() &&
            m.line <= site.line) {
          continue;
        }
        solutions.push_back({{"kind", "docs"},
                             {"path", m.path},
                             {"line", m.line},
                             {"passage", m.passage},
                             {"matched", m.matched},
                             {"mentions", m.kind}});
        ++shown;
      }
    }
    Json history = nullptr;
    if (auto h = input.history.find(id); h != input.history.end()) history = h->second;

    summary.state = state;
    summary.call_paths = call_paths;
    analysis["meaning"] = {{"summary", ComposeSummary(summary)}, {"function", std::move(function)}};
    analysis["state"] = std::move(state);
    analysis["call_paths"] = std::move(call_paths);
    analysis["solutions"] = std::move(solutions);
    analysis["history"] = std::move(history);
    out.analysis = analysis.dump(-1, ' ', false, Json::error_handler_t::replace);
    rows.push_back(std::move(out));
  }
  return rows;
}

}  // namespace errdex
