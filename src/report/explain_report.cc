#include "report/explain_report.h"

#include <fmt/format.h>

#include <sstream>

#include "catalog/permalink.h"

namespace errdex {
namespace {

constexpr int kContextLines = 3;

nlohmann::json Nullable(const std::optional<std::string>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

}  // namespace

std::string EscapeControls(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\n' && c != '\t') || u == 0x7f) {
      out += fmt::format("\\x{:02x}", u);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

nlohmann::json SiteSummaryJson(const SiteRow& s) {
  return {{"repo", s.repo},         {"rev", Nullable(s.commit ? s.commit : s.version)},
          {"path", s.path},         {"line", s.line},
          {"function", s.function}, {"permalink", Nullable(Permalink(s.url, s.commit, s.path, s.line))}};
}

namespace {

// Across versions (match/version_step.h): only when the match went through an older revision.
void AddVersionFields(const ExplainMatch::Versions& v, nlohmann::json* out) {
  auto optional = [](const std::string& text) { return text.empty() ? nlohmann::json() : nlohmann::json(text); };
  if (v.matched_revision.empty() && v.probable_version.empty()) return;
  (*out)["matched_revision"] = optional(v.matched_revision);
  (*out)["matched_template"] = optional(v.matched_template);
  (*out)["matched_error_id"] = optional(v.matched_error_id);
  (*out)["removed_in"] = optional(v.removed_in);
  (*out)["probable_version"] = optional(v.probable_version);
  (*out)["lineage"] = v.lineage;
}

}  // namespace

nlohmann::json ExplainMatchJson(const ExplainMatch& m) {
  nlohmann::json bindings = nlohmann::json::object();
  for (const auto& [name, value] : m.bindings) {
    std::string key = name;
    for (int n = 2; bindings.contains(key); ++n) key = fmt::format("{} ({})", name, n);
    bindings[key] = value;
  }
  nlohmann::json out = {{"id", m.error_id},
                        {"type", m.type.empty() ? nlohmann::json() : nlohmann::json(m.type)},
                        {"template", m.template_text.empty() ? nlohmann::json() : nlohmann::json(m.template_text)},
                        {"score", m.score},
                        {"bindings", std::move(bindings)},
                        {"site", SiteSummaryJson(m.site)},
                        {"why", m.why}};
  if (!m.matched_alternative.empty()) out["matched_alternative"] = m.matched_alternative;
  AddVersionFields(m.versions, &out);
  return out;
}

nlohmann::json ExplanationJson(const Explanation& e) {
  nlohmann::json matches = nlohmann::json::array();
  for (const ExplainMatch& m : e.matches) matches.push_back(ExplainMatchJson(m));
  nlohmann::json out = {{"input_kind", e.input_kind},
                        {"type", e.type.empty() ? nlohmann::json() : nlohmann::json(e.type)},
                        {"message", e.message},
                        {"route", e.route.empty() ? nlohmann::json() : nlohmann::json(e.route)},
                        {"matches", std::move(matches)}};
  if (!e.note.empty()) out["note"] = e.note;
  if (!e.chain.empty()) {
    nlohmann::json chain = nlohmann::json::array();
    for (const ExplainMatch& m : e.chain) chain.push_back(ExplainMatchJson(m));
    out["chain"] = std::move(chain);
  }
  if (e.matches.empty()) {
    nlohmann::json closest = nlohmann::json::array();
    for (const ExplainMatch& m : e.closest) closest.push_back(ExplainMatchJson(m));
    out["closest"] = std::move(closest);
  }
  return out;
}

std::string ExplanationText(Catalog& catalog, const Explanation& e) {
  std::ostringstream out;
  std::string shown = e.type.empty() ? e.message : e.type + (e.message.empty() ? "" : ": " + e.message);
  if (shown.size() > 600) shown = shown.substr(0, 600) + "…";
  out << "Input (" << (e.input_kind.empty() ? "empty" : e.input_kind) << "): " << EscapeControls(shown) << "\n\n";
  if (!e.note.empty()) out << "Note: " << EscapeControls(e.note) << ".\n\n";
  const bool matched = !e.matches.empty();
  const std::vector<ExplainMatch>& list = matched ? e.matches : e.closest;
  if (!matched) {
    out << "No error of the catalog matches this input.";
    out << (list.empty() ? "\n" : " The closest candidates, which are NOT matches:\n\n");
  }
  for (size_t i = 0; i < list.size(); ++i) {
    const ExplainMatch& m = list[i];
    const SiteRow& s = m.site;
    std::string kind;
    switch (m.kind) {
      case ExplainMatch::Kind::kExact:
        kind = "match";
        break;
      case ExplainMatch::Kind::kPinnedByFrame:
        kind = "match by traceback";
        break;
      case ExplainMatch::Kind::kClassMessage:
        kind = "match by the exception class's message";
        break;
      case ExplainMatch::Kind::kByType:
        kind = "match by type";
        break;
      case ExplainMatch::Kind::kApproximate:
        kind = "approximate match";
        break;
      case ExplainMatch::Kind::kClosest:
        kind = "closest candidate";
        break;
    }
    out << fmt::format("{}. {} · {} · score {:.2f} · {}\n", i + 1, m.type.empty() ? "(re-raise)" : m.type, kind,
                       m.score, m.error_id);
    // A site choosing its message among several texts: the one matched (docs/matching.md).
    const std::string& shown_text = m.matched_alternative.empty() ? m.template_text : m.matched_alternative;
    out << "   " << EscapeControls(shown_text.empty() ? "(no message at the site)" : shown_text)
        << (m.matched_alternative.empty() ? "" : "   (one of the texts the site chooses among)") << "\n";
    std::string rev = s.commit ? s.commit->substr(0, 10) : s.version ? *s.version : "work tree";
    out << fmt::format("   raised at {}:{} in {} ({} @ {})\n", s.path, s.line, s.function, s.repo, rev);
    if (auto link = Permalink(s.url, s.commit, s.path, s.line)) out << "   " << *link << "\n";
    if (s.via) out << "   message written at " << *s.via << "\n";
    for (const auto& [name, value] : m.bindings) {
      out << "   " << EscapeControls(name) << " = " << EscapeControls(value) << "\n";
    }
    for (const std::string& why : m.why) out << "   - " << EscapeControls(why) << "\n";
    if (i == 0 && matched && s.blob_id) {
      if (auto snippet = catalog.FindSnippet(*s.blob_id, s.line, s.col)) {
        std::istringstream lines(snippet->text);
        std::string line;
        int n = snippet->start_line;
        out << "\n";
        while (std::getline(lines, line)) {
          // A few lines of context: the whole snippet is for `show`.
          if (n >= s.line - kContextLines && n <= s.end_line + kContextLines) {
            out << fmt::format("   {} {:>5} | {}\n", n >= s.line && n <= s.end_line ? ">" : " ", n,
                               EscapeControls(line));
          }
          ++n;
        }
      }
    }
    out << "\n";
  }
  if (!e.chain.empty()) out << "Other links of the chain, outermost first:\n";
  for (const ExplainMatch& m : e.chain) {
    out << fmt::format("   {} at {}:{} in {} ({})\n", m.type.empty() ? "(re-raise)" : m.type, m.site.path, m.site.line,
                       m.site.function, m.site.repo);
    for (const auto& [name, value] : m.bindings)
      out << "     " << EscapeControls(name) << " = " << EscapeControls(value) << "\n";
  }
  return out.str();
}

}  // namespace errdex
