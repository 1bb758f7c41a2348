#include "match/loose_similarity.h"

#include <set>
#include <string>

#include "match/words.h"

namespace errdex {
namespace {

constexpr size_t kMinWordBytes = 3;
constexpr size_t kMaxWords = 512;  // bounds the work on hostile input

// The word lower-cased without a plural or past ending: `Supported`, `supports` → `support`.
std::string Stem(std::string_view word) {
  std::string w(word);
  for (char& c : w) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  const auto strip = [&](std::string_view ending, size_t min_size) {
    if (w.size() >= min_size && w.ends_with(ending)) {
      w.resize(w.size() - ending.size());
      return true;
    }
    return false;
  };
  if (!strip("ing", 6) && !strip("ed", 5) && !strip("es", 5) && !w.ends_with("ss")) strip("s", 4);
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
