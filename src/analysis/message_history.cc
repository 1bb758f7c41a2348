#include "analysis/message_history.h"

#include <algorithm>

#include "extract/template.h"

namespace errdex {

namespace {

// Characters a Python string literal holds as they are: no quotes, backslashes or control characters.
bool IsPlain(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ' ' || c == ',' ||
         c == '.' || c == ':' || c == ';' || c == '-' || c == '_' || c == '(' || c == ')' || c == '`' || c == '/' ||
         c == '=' || c == '!' || c == '?' || c == '\'' || c == '"' || c == '<' || c == '>' || c == '[' || c == ']' ||
         c == '*' || c == '+' || c == '#' || c == '@' || c == '&' || c == '|' || c == '~';
}

// The runs of plain characters of TEXT at least MIN bytes long, longest first.
std::vector<std::string> PlainRuns(const std::string& text, size_t min) {
  std::vector<std::string> runs;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || !IsPlain(static_cast<unsigned char>(text[i]))) {
      if (i - start >= min) runs.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  std::stable_sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  return runs;
}

}  // namespace

std::vector<std::string> MessageNeedles(const std::string& template_text) {
  // Runs of kNeedleBytes or more; a message without one gets its runs of kShortNeedleBytes or more.
  std::vector<std::string> runs;
  for (size_t min : {kNeedleBytes, kShortNeedleBytes}) {
    for (const TemplatePart& part : ParseRenderedTemplate(template_text)) {
      if (part.placeholder) continue;
      for (std::string& run : PlainRuns(part.text, min)) runs.push_back(std::move(run));
    }
    if (!runs.empty()) break;
  }
  std::stable_sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  // The start and the end of the longest run (a run may span two source literals joined by the parser),
  // then the start of the next one.
  std::vector<std::string> needles;
  auto add = [&needles](std::string n) {
    if (needles.size() < kNeedlesPerError && std::find(needles.begin(), needles.end(), n) == needles.end()) {
      needles.push_back(std::move(n));
    }
  };
  for (const std::string& run : runs) {
    const size_t n = std::min(run.size(), kNeedleBytes);
    add(run.substr(0, n));
    add(run.substr(run.size() - n));
  }
  return needles;
}

std::unordered_map<std::string, nlohmann::json> MessageHistory(const std::string& git_path, const std::string& commit,
                                                               const std::vector<MessageOfError>& messages,
                                                               const HistoryLimits& limits, std::string* error,
                                                               HistoryStats* stats) {
  std::vector<HistoryNeedle> needles;
  std::vector<size_t> owner;  // index into MESSAGES of each needle
  for (size_t i = 0; i < messages.size(); ++i) {
    for (std::string& n : MessageNeedles(messages[i].template_text)) {
      needles.push_back({messages[i].path, std::move(n)});
      owner.push_back(i);
    }
  }
  std::unordered_map<std::string, nlohmann::json> out;
  if (needles.empty()) return out;
  std::string failure;
  std::vector<std::optional<IntroducingCommit>> found =
      FindIntroducingCommits(git_path, commit, needles, limits, &failure, stats);
  if (found.size() != needles.size()) {
    *error = failure.empty() ? "history: no result" : failure;
    return out;
  }
  // Per message, the newest introducing commit among its needles: the whole message exists from then on.
  std::vector<const IntroducingCommit*> best(messages.size(), nullptr);
  for (size_t k = 0; k < needles.size(); ++k) {
    if (!found[k]) continue;
    const IntroducingCommit*& b = best[owner[k]];
    if (b == nullptr || found[k]->committed_at > b->committed_at) b = &*found[k];
  }
  for (size_t i = 0; i < messages.size(); ++i) {
    if (best[i] == nullptr) continue;
    const IntroducingCommit& c = *best[i];
    out[messages[i].error_id] = {{"commit", c.commit},   {"committed_at", c.committed_at}, {"author", c.author},
                                 {"summary", c.summary}, {"bounded", c.bounded},           {"path", messages[i].path}};
  }
  return out;
}

}  // namespace errdex
