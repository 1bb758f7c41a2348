#include "match/error_words.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "extract/template.h"
#include "match/words.h"

namespace errdex {
namespace {

std::vector<std::string> Tokens(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view t : FtsTokens(text)) out.emplace_back(t);
  return out;
}

}  // namespace

std::string ErrorWordsText(std::string_view rendered_template, std::string_view type) {
  std::string out;
  for (const TemplatePart& part : ParseRenderedTemplate(rendered_template)) {
    if (part.placeholder) continue;
    for (const std::string& token : Tokens(part.text)) out += token + " ";
  }
  size_t dot = type.rfind('.');
  out += type.substr(dot == std::string_view::npos ? 0 : dot + 1);
  return out;
}

std::vector<std::string> SimilarErrors(MatcherTables& tables, std::string_view text, int limit) {
  // The longest distinct tokens, at most 32: enough to rank, bounded for hostile input.
  std::vector<std::string> tokens = Tokens(text.substr(0, 4096));
  std::set<std::string> distinct;
  for (std::string& t : tokens) {
    if (t.size() >= 2 && t.size() <= 64) distinct.insert(std::move(t));
  }
  std::vector<std::string> chosen(distinct.begin(), distinct.end());
  std::stable_sort(chosen.begin(), chosen.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  if (chosen.size() > 32) chosen.resize(32);
  if (chosen.empty()) return {};
  std::string query;
  for (const std::string& token : chosen) {
    if (!query.empty()) query += " OR ";
    query += '"' + token + '"';  // tokens hold no quote: they are letters and digits
  }
  return tables.SearchWords(query, limit);
}

}  // namespace errdex
