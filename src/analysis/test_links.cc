#include "analysis/test_links.h"

#include <algorithm>

namespace errdex {

std::string LastName(const std::string& type) {
  const size_t dot = type.rfind('.');
  return dot == std::string::npos ? type : type.substr(dot + 1);
}

void ErrorTestLinker::AddCodeSite(const std::string& id, const std::optional<std::string>& type_qualified,
                                  const std::optional<std::string>& type,
                                  const std::optional<std::string>& template_text) {
  memo_.clear();  // answers given so far did not know this site
  fits_memo_.clear();
  auto [it, inserted] = index_.try_emplace(id, errors_.size());
  if (inserted) {
    Error e;
    e.id = id;
    e.template_text = template_text;
    e.type_qualified = type_qualified;
    errors_.push_back(std::move(e));
    const size_t i = it->second;
    if (type_qualified) {
      for (const std::string& t : type_and_bases_(*type_qualified)) by_type_[t].push_back(i);
      by_exact_type_[*type_qualified].push_back(i);
      by_last_name_[LastName(*type_qualified)].push_back(i);
    } else if (type && !type->empty()) {
      by_last_name_[LastName(*type)].push_back(i);
      unresolved_by_last_name_[LastName(*type)].push_back(i);
    }
  }
  errors_[it->second].sites += 1;
}

namespace {

// Names too generic to compare by their last component: `fail.Exception` and `skip.Exception` are different
// classes (pytest's Failed and Skipped) that only share the last name of their attribute.
bool GenericLastName(const std::string& name) {
  return name == "Exception" || name == "BaseException" || name == "Error" || name == "Warning";
}

}  // namespace

std::vector<size_t> ErrorTestLinker::Candidates(const std::string& type, const std::optional<std::string>& resolved,
                                                bool subclasses) const {
  std::vector<size_t> out;
  auto add = [&](const std::unordered_map<std::string, std::vector<size_t>>& map, const std::string& key) {
    auto it = map.find(key);
    if (it != map.end()) out.insert(out.end(), it->second.begin(), it->second.end());
  };
  const bool by_name = !GenericLastName(LastName(type));
  if (resolved) {
    add(subclasses ? by_type_ : by_exact_type_, *resolved);
    if (by_name) add(unresolved_by_last_name_, LastName(type));
  } else if (by_name) {
    add(by_last_name_, LastName(type));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> ErrorTestLinker::Link(const std::string& type, const std::optional<std::string>& resolved,
                                               const std::string& match) {
  std::string key = type;
  key += '\0';
  key += resolved.value_or("\x01");
  key += '\0';
  key += match;
  auto cached = memo_.find(key);
  if (cached != memo_.end()) return cached->second;
  std::vector<std::string> out = LinkUncached(type, resolved, match);
  memo_.emplace(std::move(key), out);
  return out;
}

std::vector<std::string> ErrorTestLinker::LinkUncached(const std::string& type,
                                                       const std::optional<std::string>& resolved,
                                                       const std::string& match) {
  std::vector<std::string> out;
  if (type.empty()) return out;
  // Without a pattern, only the type itself: a test expecting a base class says nothing about which
  // of its subclasses it provokes.
  const std::vector<size_t> candidates = Candidates(type, resolved, /*subclasses=*/!match.empty());
  if (candidates.empty()) return out;
  if (match.empty()) {
    int sites = 0;
    for (size_t i : candidates) sites += errors_[i].sites;
    if (sites > kMaxSitesWithoutPattern) return out;
    for (size_t i : candidates) out.push_back(errors_[i].id);
    return out;
  }
  std::vector<size_t> fits = PatternFits(candidates, resolved, match);
  // When the pattern fits an error of the very type the test names, that is the one it provokes, not a
  // subclass's error whose message happens to fit as well (`pytest.raises(RuntimeError, match="not
  // supported")` is not about a NotImplementedError saying "... not supported").
  const bool exact =
      std::any_of(fits.begin(), fits.end(), [&](size_t i) { return errors_[i].type_qualified == resolved; });
  for (size_t i : fits) {
    if (!exact || errors_[i].type_qualified == resolved) out.push_back(errors_[i].id);
  }
  return out;
}

std::vector<size_t> ErrorTestLinker::PatternFits(const std::vector<size_t>& candidates,
                                                 const std::optional<std::string>& resolved, const std::string& match) {
  std::vector<size_t> fits;
  // `expect_raises_message(Exception, "hi")` tests the test helper, not the code: with a catch-all type a
  // short pattern ("hi" is in "this") would fit hundreds of messages.
  if (resolved && (*resolved == "builtins.Exception" || *resolved == "builtins.BaseException") &&
      match.size() < kMinCatchAllPatternBytes) {
    return fits;
  }
  const RaisesPattern pattern(match);
  // The pattern searched in each template's text first; only when it fits none does the alignment through
  // placeholders run (a pattern that spells out a value): it is the costly step, and the weaker evidence.
  int step = 0;
  for (; step < 2 && fits.empty(); ++step) {
    for (size_t i : candidates) {
      Error& e = errors_[i];
      if (!e.template_text) continue;
      if (!e.target) e.target = std::make_unique<PatternTarget>(PreparePatternTarget(*e.template_text));
      if (step == 0 ? pattern.MatchesText(*e.target) : pattern.MatchesThroughPlaceholders(*e.target)) fits.push_back(i);
    }
  }
  if (step < 2 || fits.size() < 2) return fits;
  // Through placeholders: of several errors of one type, the ones the pattern's text covers most.
  std::vector<int> coverage(fits.size());
  std::unordered_map<std::string, int> best;  // by resolved type ("" when unresolved)
  for (size_t k = 0; k < fits.size(); ++k) {
    coverage[k] = pattern.Coverage(*errors_[fits[k]].target);
    int& b = best.try_emplace(errors_[fits[k]].type_qualified.value_or(""), -1).first->second;
    b = std::max(b, coverage[k]);
  }
  std::vector<size_t> specific;
  for (size_t k = 0; k < fits.size(); ++k) {
    if (coverage[k] >= best[errors_[fits[k]].type_qualified.value_or("")]) specific.push_back(fits[k]);
  }
  return specific;
}

std::vector<std::string> ErrorTestLinker::LinkReached(const std::string& type,
                                                      const std::optional<std::string>& resolved,
                                                      const std::string& match,
                                                      const std::function<int(const std::string&)>& distance) {
  std::vector<std::string> out;
  if (type.empty()) return out;
  const std::vector<size_t> candidates = Candidates(type, resolved, /*subclasses=*/!match.empty());
  if (candidates.empty()) return out;
  if (match.empty()) {
    // The type itself: the graph tells which of its errors the block reaches, and the nearest ones are what
    // the block's own calls raise (`parse(x)` raising its own UsageError, not one raised deeper on another
    // way); when several are that near (the three SyntaxErrors of one tokenizer), the test says nothing
    // about which one it provokes.
    int nearest = -1;
    std::vector<std::pair<int, size_t>> reached;
    for (size_t i : candidates) {
      const int d = distance(errors_[i].id);
      if (d < 0) continue;
      reached.emplace_back(d, i);
      if (nearest < 0 || d < nearest) nearest = d;
    }
    for (const auto& [d, i] : reached) {
      if (d == nearest) out.push_back(errors_[i].id);
    }
    if (out.size() > kMaxNearestWithoutPattern || nearest > kMaxDistanceWithoutPattern) out.clear();
    return out;
  }
  // A block that reaches none of the candidates links nothing: the pattern is not asked (it is the costly
  // step). The fit is over every candidate, reached or not: a more specific template that fits decides even
  // when the graph missed the way to it (ThroughPlaceholdersTheMostSpecificTemplateOfATypeLinks).
  std::vector<size_t> reached;  // sorted, as CANDIDATES are
  for (size_t i : candidates) {
    if (distance(errors_[i].id) >= 0) reached.push_back(i);
  }
  if (reached.empty()) return out;
  std::string key = type;
  key += '\0';
  key += resolved.value_or("\x01");
  key += '\0';
  key += match;
  auto cached = fits_memo_.find(key);
  if (cached == fits_memo_.end()) cached = fits_memo_.emplace(key, PatternFits(candidates, resolved, match)).first;
  std::vector<size_t> fits;
  for (size_t i : cached->second) {
    if (std::binary_search(reached.begin(), reached.end(), i)) fits.push_back(i);
  }
  const bool exact =
      std::any_of(fits.begin(), fits.end(), [&](size_t i) { return errors_[i].type_qualified == resolved; });
  for (size_t i : fits) {
    if (!exact || errors_[i].type_qualified == resolved) out.push_back(errors_[i].id);
  }
  return out;
}

}  // namespace errdex
