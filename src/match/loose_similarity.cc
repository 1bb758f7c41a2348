#include "match/loose_similarity.h"

#include <set>
#include <string>

#include "match/words.h"

namespace errdex {
namespace {

constexpr size_t kMinWordBytes = 3;
constexpr size_t kMaxWords = 512;  // bounds the work on hostile input

// The word lower-cased without a plural or past ending and a final `e` (a light Porter-like step):
// `Supported`, `supports` → `support`; `archives`, `archived`, `archive` → `archiv`; `proxies`, `proxy` →
// `proxy`; `logged` → `log`.
std::string Stem(std::string_view word) {
  std::string w(word);
  for (char& c : w) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  const auto ends = [&](std::string_view e) { return w.size() > e.size() + 1 && w.ends_with(e); };
  const auto cut = [&](size_t n) { w.resize(w.size() - n); };
  if (ends("ies") && w.size() >= 5) {
    cut(3);
    w += 'y';
  } else if (ends("sses") || ends("xes") || ends("zes") || ends("ches") || ends("shes")) {
    cut(2);
  } else if (ends("s") && !ends("ss") && w.size() >= 4) {
    cut(1);
  }
  bool suffix = false;
  if (ends("ed") && w.size() >= 5) {
    cut(2);
    suffix = true;
  } else if (ends("ing") && w.size() >= 6) {
    cut(3);
    suffix = true;
  }
  // `logg` → `log`, `stopp` → `stop`: a consonant doubled before the ending.
  if (suffix && w.size() >= 3 && w.back() == w[w.size() - 2] && w.back() != 'l' && w.back() != 's' &&
      std::string_view("aeiou").find(w.back()) == std::string_view::npos) {
    cut(1);
  }
  if (w.size() >= 4 && w.back() == 'e') cut(1);
  return w;
}

// A run of non-space bytes that is a value rather than wording: a URL, a path, a number, an id or a hash
// (any digit). A placeholder holds such text (`{response.url}`, `{status}`, a request id appended by a
// helper), so its words say nothing of the wording: `https://huggingface.co/cakiki/arxiv_taxonomy/...` in a
// message is no more like a template than any other URL.
bool IsValue(std::string_view chunk) {
  if (chunk.find("://") != std::string_view::npos) return true;
  size_t separators = 0;
  for (char c : chunk) {
    if (c >= '0' && c <= '9') return true;
    if (c == '/' || c == '\\') ++separators;
  }
  return separators >= 2 || (!chunk.empty() && (chunk.front() == '/' || chunk.front() == '\\'));
}

// The stems of TEXT's wording: its words of three letters or more outside values, into OUT.
void AddStems(std::string_view text, std::set<std::string>& out) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  for (size_t at = 0; at < text.size() && out.size() < kMaxWords;) {
    while (at < text.size() && space(text[at])) ++at;
    size_t end = at;
    while (end < text.size() && !space(text[end])) ++end;
    std::string_view chunk = text.substr(at, end - at);
    at = end;
    if (IsValue(chunk)) continue;
    for (std::string_view w : MatchWords(chunk)) {
      if (out.size() >= kMaxWords) break;
      if (w.size() >= kMinWordBytes) out.insert(Stem(w));
    }
  }
}

}  // namespace

LooseSimilarity CompareLoosely(const AlignableTemplate& tmpl, std::string_view message) {
  std::set<std::string> theirs;
  for (const TemplatePart& p : tmpl.parts) {
    if (p.placeholder) continue;
    AddStems(p.text, theirs);
  }
  std::set<std::string> ours;
  AddStems(message, ours);
  LooseSimilarity out;
  size_t our_bytes = 0, their_bytes = 0;
  for (const std::string& w : ours) {
    our_bytes += w.size();
    if (theirs.count(w)) {
      ++out.shared_words;
      out.shared_bytes += w.size();
    }
  }
  for (const std::string& w : theirs) their_bytes += w.size();
  if (our_bytes > 0) out.message_share = static_cast<double>(out.shared_bytes) / static_cast<double>(our_bytes);
  if (their_bytes > 0) out.template_share = static_cast<double>(out.shared_bytes) / static_cast<double>(their_bytes);
  return out;
}

}  // namespace errdex
