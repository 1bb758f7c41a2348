#include "match/anchor.h"

#include <cctype>
#include <cmath>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace errdex {

std::vector<std::string> ChooseAnchors(const std::vector<AlignableTemplate>& templates) {
  std::unordered_map<std::string_view, uint32_t> document_frequency;
  for (const AlignableTemplate& t : templates) {
    std::unordered_set<std::string_view> seen;
    for (const TemplatePart& part : t.parts) {
      if (part.placeholder) continue;
      for (std::string_view word : MatchWords(part.text)) {
        if (seen.insert(word).second) ++document_frequency[word];
      }
    }
  }
  const double n = static_cast<double>(templates.size()) + 1.0;
  auto idf = [&](std::string_view word) {
    auto it = document_frequency.find(word);
    double df = it == document_frequency.end() ? 1.0 : it->second;
    return std::log(n / df);
  };

  std::vector<std::string> anchors(templates.size());
  for (size_t t = 0; t < templates.size(); ++t) {
    double best_score = -1;
    std::string_view best;
    for (const TemplatePart& part : templates[t].parts) {
      if (part.placeholder) continue;
      std::string_view piece = part.text;
      // Windows of whole space-separated tokens, at most kMaxAnchorBytes (a longer single token is cut).
      std::vector<std::pair<size_t, size_t>> tokens;  // [begin, end)
      for (size_t i = 0; i < piece.size();) {
        while (i < piece.size() && piece[i] == ' ') ++i;
        size_t start = i;
        while (i < piece.size() && piece[i] != ' ') ++i;
        if (i > start) tokens.emplace_back(start, i);
      }
      for (size_t first = 0; first < tokens.size(); ++first) {
        double score = 0;
        for (size_t last = first; last < tokens.size(); ++last) {
          size_t begin = tokens[first].first;
          size_t end = std::min(tokens[last].second, begin + kMaxAnchorBytes);
          if (last > first && tokens[last].second - begin > kMaxAnchorBytes) break;
          std::string_view window = piece.substr(begin, end - begin);
          // Cutting a long token must not split a UTF-8 sequence.
          while (!window.empty() && (static_cast<unsigned char>(window.back()) & 0xC0) == 0x80) window.remove_suffix(1);
          if (!window.empty() && static_cast<unsigned char>(window.back()) >= 0xC0) window.remove_suffix(1);
          score = 0;
          bool has_word = false;
          for (std::string_view word : MatchWords(window)) {
            score += idf(word);
            if (word.size() >= 3) has_word = true;
          }
          if (!has_word || window.size() < kMinAnchorBytes) continue;
          score += 0.02 * static_cast<double>(window.size());
          if (score > best_score) {
            best_score = score;
            best = window;
          }
        }
      }
    }
    anchors[t] = std::string(best);
  }
  return anchors;
}

}  // namespace errdex
