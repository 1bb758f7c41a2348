#include "report/error_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>
#include <vector>

#include "catalog/permalink.h"
#include "extract/template.h"
#include "match/error_words.h"
#include "match/words.h"
#include "report/error_history.h"
#include "report/error_versions.h"
#include "report/wrapped_report.h"

namespace errdex {

namespace {

nlohmann::json Nullable(const std::optional<std::string>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

// The source lines around the site, stored with its blob.
nlohmann::json SnippetOf(Catalog& catalog, const SiteRow& site) {
  if (!site.blob_id) return nullptr;
  std::optional<Catalog::Snippet> snippet = catalog.FindSnippet(*site.blob_id, site.line, site.col);
  if (!snippet) return nullptr;
  return {{"path", site.path},
          {"start_line", snippet->start_line},
          {"line", site.line},
          {"end_line", site.end_line},
          {"text", snippet->text}};
}

// The site an error's page shows: in the latest revision, code before tests.
const SiteRow* ShownSite(const std::vector<SiteRow>& sites) {
  if (sites.empty()) return nullptr;
  for (const SiteRow& s : sites) {
    if (!s.is_test && s.revision_id == sites.front().revision_id) return &s;
  }
  return &sites.front();
}

// The explanation (docs/analysis.md): the path condition of the site shown and the tests that provoke
// the error, from their tables, merged with the stored analysis of the site's revision (meaning, state,
// call paths, solutions, history). Every fact pointing into code has path and line.
nlohmann::json ExplanationOf(Catalog& catalog, const std::string& id, const SiteRow* shown,
                             const nlohmann::json& exception_class) {
  nlohmann::json conditions = nlohmann::json::array();
  nlohmann::json tests = nlohmann::json::array();
  nlohmann::json analysis = nlohmann::json::object();
  if (shown != nullptr) {
    for (const Condition& c : catalog.ConditionsOfSite(shown->revision_id, shown->path, shown->line, shown->col)) {
      conditions.push_back({{"path", shown->path},
                            {"line", c.line},
                            {"function", shown->function},
                            {"code", c.code},
                            {"kind", c.kind},
                            {"negated", c.negated}});
    }
    for (const ErrorTestRow& t : catalog.TestsOfError(id, shown->revision_id)) {
      tests.push_back({{"path", t.path},
                       {"line", t.line},
                       {"function", t.function},
                       {"code", t.code},
                       {"kind", t.kind},
                       {"type", t.type},
                       {"match", t.match}});
      // The raise the test's block reaches (one of the error's sites), when the call graph linked it.
      if (!t.site_path.empty()) tests.back()["reaches"] = {{"path", t.site_path}, {"line", t.site_line}};
    }
    if (std::optional<std::string> stored = catalog.AnalysisOfError(id, shown->revision_id)) {
      analysis = nlohmann::json::parse(*stored, nullptr, false);
      if (!analysis.is_object()) analysis = nlohmann::json::object();
    }
  }
  auto part = [&analysis](const char* key, nlohmann::json fallback) {
    auto it = analysis.find(key);
    return it != analysis.end() && !it->is_null() ? *it : fallback;
  };
  nlohmann::json meaning = part("meaning", nlohmann::json::object());
  if (meaning.is_object()) meaning["exception_class"] = exception_class;
  return {{"meaning", std::move(meaning)},
          {"conditions", std::move(conditions)},
          {"state", part("state", nlohmann::json::array())},
          {"triggers", {{"call_paths", part("call_paths", nlohmann::json::array())}, {"tests", std::move(tests)}}},
          {"solutions", part("solutions", nlohmann::json::array())},
          {"history", part("history", nullptr)}};
}

constexpr int64_t kMaxRelatedPerReason = 4;
// Word-index candidates read for "similar message" (the index ranks them; most of the best are kept).
constexpr int kSimilarCandidates = 12;

// Two messages are similar when they share at least 2 distinct words of 3 letters or more outside
// placeholders, and those make 40% or more of the shorter one's words: "bad value" is not similar to
// "Expecting value".
const std::set<std::string> kCommonWords = {
    "the",   "and",      "for",     "are",   "was",   "were", "that", "this",   "with",  "not",    "you",
    "your",  "can",      "but",     "has",   "have",  "had",  "from", "should", "must",  "been",   "being",
    "will",  "would",    "could",   "there", "which", "when", "than", "then",   "only",  "also",   "into",
    "its",   "any",      "all",     "one",   "make",  "sure", "use",  "used",   "using", "please", "got",
    "found", "expected", "instead", "does",  "did",   "may",  "more", "such",   "other"};

bool SharesEnoughWords(const std::string& a, const std::string& b) {
  auto words = [](const std::string& templ) {
    std::set<std::string> out;
    for (const TemplatePart& part : ParseRenderedTemplate(templ)) {
      if (part.placeholder) continue;
      for (std::string_view w : FtsTokens(part.text)) {
        if (w.size() < 3) continue;
        std::string word(w);
        for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (kCommonWords.count(word) == 0) out.insert(std::move(word));
      }
    }
    return out;
  };
  const std::set<std::string> wa = words(a), wb = words(b);
  size_t shared = 0;
  for (const std::string& w : wa) shared += wb.count(w);
  const size_t smaller = std::min(wa.size(), wb.size());
  return shared >= 2 && shared * 5 >= smaller * 2;
}
constexpr size_t kMaxRelated = 10;

// Errors related to ERROR, best first, each with its reason (docs/analysis.md, "Related errors"): raised
// in the same function, in another method of the same class, reachable from the same public entry point,
// or with a similar message in the same repository.
nlohmann::json RelatedOf(Catalog& catalog, const ErrorRow& error, const SiteRow* shown) {
  std::vector<std::pair<std::string, std::string>> found;  // id, reason
  std::set<std::string> seen = {error.id};
  auto add = [&](const std::string& other, std::string reason) {
    if (found.size() < kMaxRelated && seen.insert(other).second) found.emplace_back(other, std::move(reason));
  };
  if (shown != nullptr) {
    for (const std::string& other :
         catalog.ErrorsInScope(shown->revision_id, shown->path, shown->function, "", kMaxRelatedPerReason + 1)) {
      add(other, "raised in the same function, " + shown->function);
    }
    const size_t dot = shown->function.rfind('.');
    const bool is_method = dot != std::string::npos && shown->function.find("<locals>") == std::string::npos;
    if (is_method) {
      const std::string cls = shown->function.substr(0, dot);
      for (const std::string& other :
           catalog.ErrorsInScope(shown->revision_id, shown->path, "", cls + ".", kMaxRelatedPerReason + 2)) {
        add(other, "raised in another method of " + cls);
      }
    }
    size_t shared = 0;
    for (const auto& [other, entry] : catalog.ErrorsSharingEntryPoints(error.id, shown->revision_id, 40)) {
      if (shared >= static_cast<size_t>(kMaxRelatedPerReason)) break;
      if (seen.count(other) == 0) ++shared;
      add(other, "also reachable from " + entry);
    }
  }
  if (error.template_text) {
    size_t similar = 0;
    for (const std::string& other : SimilarErrors(catalog.matcher_tables(), *error.template_text, kSimilarCandidates)) {
      if (similar >= static_cast<size_t>(kMaxRelatedPerReason) || found.size() >= kMaxRelated) break;
      std::optional<ErrorRow> row = catalog.FindError(other);
      // A message without literal text (`raise self.value`) is similar to nothing.
      if (!row || row->repo != error.repo || seen.count(other) != 0 || !row->template_text ||
          row->template_text->find_first_not_of("{}") == std::string::npos) {
        continue;
      }
      if (!SharesEnoughWords(*error.template_text, *row->template_text)) continue;
      ++similar;
      add(other, "similar message");
    }
  }
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [other, reason] : found) {
    std::optional<ErrorRow> row = catalog.FindError(other);
    if (!row) continue;
    out.push_back({{"id", row->id},
                   {"type", Nullable(row->type)},
                   {"template", Nullable(row->template_text)},
                   {"reason", reason}});
  }
  return out;
}

// Repository text for a terminal: control characters other than newline and tab are shown escaped.
std::string ForTerminal(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\n' && c != '\t') || u == 0x7f) {
      out += fmt::format("\\x{:02x}", u);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// TEXT wrapped at WIDTH columns (bytes; good enough for terminals), each line starting with INDENT and
// ending with a newline. Existing line breaks are kept.
std::string Wrap(const std::string& text, const std::string& indent, size_t width) {
  std::string out;
  std::istringstream paragraphs(text);
  for (std::string paragraph; std::getline(paragraphs, paragraph);) {
    std::istringstream words(paragraph);
    std::string line;
    for (std::string word; words >> word;) {
      if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) {
        out += indent + line + "\n";
        line.clear();
      }
      line += (line.empty() ? "" : " ") + word;
    }
    out += indent + line + "\n";
  }
  return out;
}

// "if x is None:" → "x is None"; the keyword and the colon of a header dropped.
std::string HeaderCondition(std::string code) {
  if (!code.empty() && code.back() == ':') code.pop_back();
  for (const char* keyword : {"if ", "elif ", "while ", "case "}) {
    const std::string k = keyword;
    if (code.rfind(k, 0) == 0) return code.substr(k.size());
  }
  return code;
}

// One condition as code, continuation lines indented by INDENT (plus their own indentation relative to
// each other).
std::string RenderCondition(const nlohmann::json& c, const std::string& indent) {
  const std::string code = c["code"].get<std::string>();
  const std::string kind = c["kind"].get<std::string>();
  std::string text;
  if (c["negated"].get<bool>()) {
    text = kind == "case" ? "not matched by: " + code : "not (" + HeaderCondition(code) + ")";
    if (kind == "early_exit") text += "    # the `if` here leaves early";
  } else {
    text = code;
    if (kind == "early_exit") text = HeaderCondition(code) + "    # the `else` of this `if` leaves early";
    if (kind == "loop_else") text += "    # the loop ended without break";
    if (kind == "try_else") text += "    # the try block raised nothing";
  }
  std::vector<std::string> lines;
  std::istringstream in(ForTerminal(text));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  size_t common = std::string::npos;
  for (size_t i = 1; i < lines.size(); ++i) {
    const size_t first = lines[i].find_first_not_of(" \t");
    if (first != std::string::npos) common = std::min(common, first);
  }
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i == 0) {
      out += lines[i];
      continue;
    }
    const bool dedent = common != std::string::npos && lines[i].size() >= common;
    out += "\n" + indent + "    " + (dedent ? lines[i].substr(common) : lines[i]);
  }
  return out;
}

}  // namespace

std::string DumpJson(const nlohmann::json& json, int indent) {
  return json.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

nlohmann::json SiteToJson(const SiteRow& s) {
  return {{"id", s.error_id},
          {"repo", s.repo},
          {"rev", Nullable(s.commit ? s.commit : s.version)},
          {"path", s.path},
          {"line", s.line},
          {"col", s.col},
          {"end_line", s.end_line},
          {"kind", s.kind},
          {"type", Nullable(s.type)},
          {"type_qualified", Nullable(s.type_qualified)},
          {"template", Nullable(s.template_text)},
          {"function", s.function},
          {"is_test", s.is_test},
          {"permalink", Nullable(Permalink(s.url, s.commit, s.path, s.line))},
          {"via", Nullable(s.via)}};
}

std::optional<nlohmann::json> ErrorReportJson(Catalog& catalog, const std::string& id) {
  std::optional<ErrorRow> error = catalog.FindError(id);
  if (!error) return std::nullopt;
  std::vector<SiteRow> sites = catalog.SitesOfError(id);
  nlohmann::json site_list = nlohmann::json::array();
  for (const SiteRow& s : sites) {
    nlohmann::json j = SiteToJson(s);
    j.erase("id");
    j.erase("repo");
    site_list.push_back(std::move(j));
  }
  // The site to show: in the latest revision, code before tests.
  nlohmann::json snippet = nullptr;
  for (int pass = 0; pass < 2 && snippet.is_null(); ++pass) {
    for (const SiteRow& s : sites) {
      if (pass == 0 && s.is_test) continue;
      snippet = SnippetOf(catalog, s);
      if (!snippet.is_null()) break;
    }
  }
  nlohmann::json exception_class = nullptr;
  if (error->type_qualified) {
    if (auto cls = catalog.FindClass(error->repo, *error->type_qualified)) {
      exception_class = {{"qualified_name", cls->qualified_name},
                         {"path", cls->path},
                         {"line", cls->line},
                         {"bases", cls->bases},
                         {"docstring", cls->docstring}};
    } else if (error->type_qualified->rfind("builtins.", 0) == 0) {
      exception_class = {{"qualified_name", *error->type_qualified}, {"builtin", true}};
    }
  }
  nlohmann::json revisions = nlohmann::json::array();
  for (const RevisionRow& r : catalog.RevisionsOfError(id)) {
    revisions.push_back({{"rev", Nullable(r.commit ? r.commit : r.version)},
                         {"kind", r.kind},
                         {"indexed_at", r.indexed_at},
                         {"committed_at", Nullable(r.committed_at)},
                         {"source", r.source}});
  }
  std::string kind = sites.empty() ? "raise" : sites.front().kind;
  const SiteRow* shown = ShownSite(sites);
  nlohmann::json explanation = ExplanationOf(catalog, id, shown, exception_class);
  nlohmann::json versions = ErrorVersionsJson(catalog, *error);
  // The indexed revisions first, then the git walk (report/error_history.h).
  explanation["history"] = ErrorHistoryJson(id, explanation["history"], versions);
  nlohmann::json related = RelatedOf(catalog, *error, shown);
  return nlohmann::json{{"id", error->id},
                        {"repo", error->repo},
                        {"url", Nullable(error->url)},
                        {"kind", kind},
                        {"type", Nullable(error->type)},
                        {"type_qualified", Nullable(error->type_qualified)},
                        {"template", Nullable(error->template_text)},
                        {"normalized_template", Nullable(error->normalized)},
                        {"sites", site_list},
                        {"snippet", snippet},
                        {"exception_class", exception_class},
                        {"explanation", explanation},
                        {"related", related},
                        {"wraps", WrappedErrorsOf(catalog, sites)},
                        {"revisions", revisions},
                        {"versions", std::move(versions)}};
}

namespace {

std::string Str(const nlohmann::json& v, const char* fallback = "") {
  return v.is_string() ? v.get<std::string>() : std::string(fallback);
}

// "path:line" of a fact.
std::string FactAt(const nlohmann::json& fact) {
  return Str(fact["path"]) + ":" + (fact["line"].is_number() ? std::to_string(fact["line"].get<int>()) : "?");
}

void TextMeaning(const nlohmann::json& explanation, std::ostringstream& out) {
  if (explanation["meaning"].is_object()) {
    const nlohmann::json& meaning = explanation["meaning"];
    if (meaning.contains("summary") && !Str(meaning["summary"]).empty()) {
      out << "What it means\n" << Wrap(ForTerminal(Str(meaning["summary"])), "  ", 100) << "\n";
    }
    if (meaning.contains("function") && meaning["function"].is_object()) {
      const nlohmann::json& f = meaning["function"];
      if (!Str(f["docstring"]).empty()) {
        out << "  " << ForTerminal(Str(f["function"])) << " (" << FactAt(f) << "):\n"
            << Wrap("\u201c" + ForTerminal(Str(f["docstring"])) + "\u201d", "    ", 100);
      }
    }
    out << "\n";
  }
}

void TextSitesAndClass(const nlohmann::json& r, std::ostringstream& out) {
  out << "id        " << Str(r["id"]) << "\n";
  out << "type      " << Str(r["type"], "-");
  if (r["type_qualified"].is_string()) out << "  (" << Str(r["type_qualified"]) << ")";
  out << "\n";
  const nlohmann::json& sites = r["sites"];
  for (size_t i = 0; i < sites.size(); ++i) {
    const nlohmann::json& s = sites[i];
    std::string rev = s["rev"].is_string() ? Str(s["rev"]).substr(0, 10) : "work tree";
    out << (i == 0 ? "raised at " : "          ") << Str(s["path"]) << ":" << s["line"].get<int>() << " in "
        << Str(s["function"]) << " [" << rev << "]" << (s["is_test"].get<bool>() ? " (test)" : "") << "\n";
    if (s["permalink"].is_string()) out << "          " << Str(s["permalink"]) << "\n";
  }
  const nlohmann::json& cls = r["exception_class"];
  if (cls.is_object() && cls.contains("path")) {
    out << "class     " << Str(cls["qualified_name"]) << " at " << Str(cls["path"]) << ":" << cls["line"].get<int>();
    if (!cls["bases"].empty()) {
      out << " (";
      for (size_t i = 0; i < cls["bases"].size(); ++i) out << (i ? ", " : "") << Str(cls["bases"][i]);
      out << ")";
    }
    out << "\n";
    std::string doc = Str(cls["docstring"]);
    if (!doc.empty()) out << "          " << doc.substr(0, doc.find('\n')) << "\n";
  }
}

void TextSnippet(const nlohmann::json& r, std::ostringstream& out) {
  const nlohmann::json& snippet = r["snippet"];
  if (snippet.is_object()) {
    out << "\nSource " << Str(snippet["path"]) << ":" << snippet["line"].get<int>() << "\n\n";
    std::istringstream lines(Str(snippet["text"]));
    std::string line;
    int n = snippet["start_line"].get<int>();
    const int first = snippet["line"].get<int>(), last = snippet["end_line"].get<int>();
    while (std::getline(lines, line)) {
      out << fmt::format("{} {:>5} | {}\n", n >= first && n <= last ? ">" : " ", n, line);
      ++n;
    }
  }
}

void TextSolutions(const nlohmann::json& explanation, std::ostringstream& out) {
  const nlohmann::json& solutions = explanation["solutions"];
  const nlohmann::json& history = explanation["history"];
  if ((solutions.is_array() && !solutions.empty()) || history.is_object()) out << "\nSolutions\n";
  if (solutions.is_array()) {
    int n = 0;
    for (const nlohmann::json& sol : solutions) {
      const std::string kind = Str(sol["kind"]);
      const std::string text = ForTerminal(Str(sol.contains("text") ? sol["text"] : sol["passage"]));
      out << "  " << ++n << ". " << (kind == "advice" ? "The message says:" : "Documented at " + FactAt(sol) + ":")
          << "\n"
          << Wrap(text, "     ", 100);
    }
  }
  if (history.is_object() && history.contains("wording_since") && history["wording_since"].is_string()) {
    const std::string since = ForTerminal(Str(history["wording_since"]));
    out << "  Worded like this "
        << (history.value("reaches_oldest", false) ? "in every indexed release since " : "since ") << since << "\n";
    for (const nlohmann::json& e : history.value("earlier", nlohmann::json::array())) {
      out << "    before: \"" << ForTerminal(Str(e["template"])) << "\" (" << ForTerminal(Str(e["from"]))
          << (Str(e["from"]) == Str(e["to"]) ? "" : " to " + ForTerminal(Str(e["to"]))) << ", at "
          << ForTerminal(Str(e["path"])) << ":" << (e["line"].is_number() ? e["line"].get<int64_t>() : 0) << ")\n";
    }
  }
  if (history.is_object() && history.contains("commit") && history["commit"].is_string()) {
    out << "  Introduced " << (history["bounded"].is_boolean() && history["bounded"].get<bool>() ? "before " : "in ")
        << Str(history["commit"]).substr(0, 10) << " (" << Str(history["committed_at"]) << ", "
        << ForTerminal(Str(history["author"])) << "): " << ForTerminal(Str(history["summary"])) << "\n";
  }
}

void TextConditionsAndState(const nlohmann::json& explanation, std::ostringstream& out) {
  const nlohmann::json& conditions = explanation["conditions"];
  out << "\nWhen it happens\n";
  if (conditions.empty()) {
    out << "  unconditionally, whenever its function runs\n";
  } else {
    out << "  when every condition below holds, outermost first:\n";
  }
  for (const nlohmann::json& c : conditions) {
    std::string where = FactAt(c);
    out << "  " << where << "  " << RenderCondition(c, std::string(4 + where.size(), ' ')) << "\n";
  }
  const nlohmann::json& state = explanation["state"];
  if (state.is_array() && !state.empty()) {
    out << "\nWhere the state comes from\n";
    for (const nlohmann::json& origin : state) {
      const nlohmann::json& read = origin["read"];
      const std::string target = Str(read["target"]);
      out << "  " << ForTerminal(target.empty() ? Str(read["name"]) : target + "." + Str(read["name"])) << " (read at "
          << FactAt(origin) << ")";
      const int64_t more = origin["more"].is_number() ? origin["more"].get<int64_t>() : 0;
      if (origin["writers"].empty()) {
        out << (more > 0 ? ": written at " + std::to_string(more) + " places, too many to say which"
                         : std::string(": written nowhere in the repository"));
      }
      out << "\n";
      for (const nlohmann::json& w : origin["writers"]) {
        out << "    written at " << FactAt(w) << " in " << ForTerminal(Str(w["function"])) << ": "
            << ForTerminal(Str(w["code"]).substr(0, Str(w["code"]).find('\n'))) << "\n";
        for (const nlohmann::json& i : w["installed_by"]) {
          out << "      installed at import time by " << FactAt(i) << ": "
              << ForTerminal(Str(i["code"]).substr(0, Str(i["code"]).find('\n'))) << "\n";
        }
      }
      if (more > 0 && !origin["writers"].empty()) out << "    and " << more << " more writers\n";
    }
  }
}

void TextTriggers(const nlohmann::json& explanation, std::ostringstream& out) {
  const nlohmann::json& paths = explanation["triggers"]["call_paths"];
  if (paths.is_array() && !paths.empty()) {
    out << "\nReached from the public API\n";
    for (const nlohmann::json& path : paths) {
      const bool certain = !path["certain"].is_boolean() || path["certain"].get<bool>();
      std::string chain;
      for (const nlohmann::json& f : path["frames"])
        chain += (chain.empty() ? "" : " → ") + ForTerminal(Str(f["function"]));
      out << "  " << chain << (certain ? "" : "  (through calls resolved by name only)") << "\n";
      for (const nlohmann::json& f : path["frames"]) {
        out << "      " << FactAt(f) << "  " << ForTerminal(Str(f["code"])) << "\n";
      }
    }
  }
  const nlohmann::json& tests = explanation["triggers"]["tests"];
  out << "\nReproduced by tests\n";
  if (tests.empty()) out << "  none found among the repository's tests\n";
  for (const nlohmann::json& t : tests) {
    out << "  " << FactAt(t) << " in " << ForTerminal(Str(t["function"])) << "  (" << Str(t["kind"]) << " "
        << ForTerminal(Str(t["type"]));
    if (!Str(t["match"]).empty()) out << ", match " << DumpJson(nlohmann::json(Str(t["match"])));
    out << ")";
    if (t.contains("reaches") && t["reaches"].is_object()) out << "  reaches " << ForTerminal(FactAt(t["reaches"]));
    out << "\n";
    std::istringstream lines(ForTerminal(Str(t["code"])));
    std::string line;
    while (std::getline(lines, line)) out << "      " << line << "\n";
  }
}

void TextWraps(const nlohmann::json& r, std::ostringstream& out) {
  if (r.contains("wraps") && r["wraps"].is_array() && !r["wraps"].empty()) {
    out << "\nWhat it wraps\n";
    for (const nlohmann::json& w : r["wraps"]) {
      out << "  raised while handling " << ForTerminal(Str(w["type"])) << " at " << ForTerminal(Str(w["at"]))
          << (w.value("passes", false) ? ", which it is given" : "") << "\n";
      for (const nlohmann::json& raised : w["raised_at"]) {
        out << "    " << Str(raised["id"]) << "  raised at " << ForTerminal(Str(raised["path"])) << ":"
            << raised.value("line", 0) << " in " << ForTerminal(Str(raised["function"])) << " ("
            << ForTerminal(Str(raised["repo"])) << " @ " << ForTerminal(Str(raised["rev"], "-")) << ")\n";
      }
    }
  }
}

void TextRelated(const nlohmann::json& r, std::ostringstream& out) {
  if (r.contains("related") && r["related"].is_array() && !r["related"].empty()) {
    out << "\nRelated errors\n";
    for (const nlohmann::json& rel : r["related"]) {
      out << "  " << Str(rel["id"]) << "  " << ForTerminal(Str(rel["type"], "-")) << ": "
          << ForTerminal(Str(rel["template"], "(no message)").substr(0, 80)) << "  [" << ForTerminal(Str(rel["reason"]))
          << "]\n";
    }
  }
}

}  // namespace

std::string ErrorReportText(const nlohmann::json& r) {
  std::ostringstream out;
  out << Str(r["repo"]) << " · " << (Str(r["kind"]) == "warn" ? "warning" : "error") << " · "
      << Str(r["type"], "(re-raised)") << "\n\n";
  out << "  " << Str(r["template"], "(no message)") << "\n\n";
  if (r.contains("versions")) out << ForTerminal(ErrorVersionsText(r.at("versions")));
  const nlohmann::json* explanation =
      r.contains("explanation") && r["explanation"].is_object() ? &r["explanation"] : nullptr;
  if (explanation != nullptr) TextMeaning(*explanation, out);
  TextSitesAndClass(r, out);
  TextSnippet(r, out);
  if (explanation != nullptr) {
    TextSolutions(*explanation, out);
    TextConditionsAndState(*explanation, out);
    TextTriggers(*explanation, out);
  }
  TextWraps(r, out);
  TextRelated(r, out);
  return out.str();
}

}  // namespace errdex
