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

std::set<std::string> Stems(std::string_view text) {
  std::set<std::string> out;
  for (std::string_view w : MatchWords(text)) {
    if (out.size() >= kMaxWords) break;
    if (w.size() >= kMinWordBytes) out.insert(Stem(w));
  }
  return out;
}

}  // namespace

LooseSimilarity CompareLoosely(const AlignableTemplate& tmpl, std::string_view message) {
  std::set<std::string> theirs;
  for (const TemplatePart& p : tmpl.parts) {
    if (p.placeholder) continue;
    for (const std::string& s : Stems(p.text)) theirs.insert(s);
  }
  const std::set<std::string> ours = Stems(message);
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
