#include "analysis/lineage.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "extract/template.h"

namespace errdex {

namespace {

std::string LastComponent(const std::string& dotted) {
  const size_t dot = dotted.rfind('.');
  return dot == std::string::npos ? dotted : dotted.substr(dot + 1);
}

std::vector<std::string> SplitDots(const std::string& dotted) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= dotted.size()) {
    const size_t dot = dotted.find('.', start);
    out.push_back(dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return out;
}

// The same module under a moved package: the dotted names end alike in at least two components, and
// differ in at most their first one ("pytorch_lightning.trainer.x" and "lightning.pytorch.trainer.x").
bool SameModuleMoved(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  const std::vector<std::string> x = SplitDots(a), y = SplitDots(b);
  size_t common = 0;
  while (common < x.size() && common < y.size() && x[x.size() - 1 - common] == y[y.size() - 1 - common]) ++common;
  return common >= 2 && common + 1 >= std::min(x.size(), y.size());
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::vector<std::string> Words(const std::string& text) {
  std::vector<std::string> out;
  std::string word;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!word.empty()) {
      out.push_back(std::move(word));
      word.clear();
    }
    if (c == '{') out.emplace_back("{}");
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

struct Candidate {
  size_t from = 0, to = 0;
  double score = 0;
};

// How likely OLD became NEW (0: not a link). RENAMES maps old paths to new ones.
double LinkScore(const LineageSite& o, const LineageSite& n, const std::map<std::string, std::string>& renames) {
  auto renamed = renames.find(o.path);
  const std::string& mapped = renamed == renames.end() ? o.path : renamed->second;
  double loc = 0;
  if (mapped == n.path) {
    loc = 1;
  } else if (SameModuleMoved(o.module, n.module)) {
    loc = 0.9;
  } else if (BaseName(o.path) == BaseName(n.path)) {
    loc = 0.4;
  }
  double fn = 0;
  if (o.function == n.function) {
    fn = 1;
  } else if (LastComponent(o.function) == LastComponent(n.function)) {
    fn = 0.6;
  }
  const bool same_type = o.type == n.type;
  const bool both_silent = o.normalized.empty() && n.normalized.empty();
  const double words = both_silent ? 0 : TemplateSimilarity(o.normalized, n.normalized);
  const bool same_place = loc >= 0.9 && fn == 1;
  const bool same_ordinal = same_place && o.ordinal == n.ordinal;
  // The same message and type, wherever it went (a moved package also changes the qualified type, and
  // so the error id).
  if (same_type && !o.normalized.empty() && o.normalized == n.normalized) return 0.7 + 0.15 * loc + 0.15 * fn;
  if (same_type && words >= 0.5 && (loc >= 0.9 || fn == 1)) {
    const double score = 0.45 * words + 0.3 * loc + 0.15 * fn + (same_ordinal ? 0.1 : 0);
    return score >= 0.6 ? score : 0;
  }
  // Reworded beyond recognition, or silent on both sides: the same raise of the same function.
  if (same_type && same_ordinal && (words >= 0.2 || both_silent)) return 0.5 + 0.2 * words;
  // The type changed, the message and place did not.
  if (!same_type && same_place && words >= 0.8) return 0.5 + 0.2 * words;
  return 0;
}

std::string Changes(const LineageSite& o, const LineageSite& n) {
  std::string out;
  auto add = [&out](std::string_view change) {
    if (!out.empty()) out.push_back(',');
    out.append(change);
  };
  if (o.normalized != n.normalized) add("reworded");
  if (o.path != n.path) add("moved");
  if (o.function != n.function) add("renamed");
  if (o.type != n.type) add("retyped");
  return out;
}

}  // namespace

double TemplateSimilarity(const std::string& a, const std::string& b) {
  std::vector<std::string> x = Words(a), y = Words(b);
  if (x.empty() && y.empty()) return a == b ? 1 : 0;
  if (x.size() > 200) x.resize(200);
  if (y.size() > 200) y.resize(200);
  std::unordered_map<std::string, int> counts;
  for (const std::string& w : x) counts[w] += 1;
  size_t common = 0;
  for (const std::string& w : y) {
    auto it = counts.find(w);
    if (it != counts.end() && it->second > 0) {
      it->second -= 1;
      common += 1;
    }
  }
  return 2.0 * static_cast<double>(common) / static_cast<double>(x.size() + y.size());
}

std::vector<LineageSite> LineageSitesOf(const std::vector<SiteRow>& sites,
                                        const std::map<std::string, std::string>& module_of) {
  std::vector<const SiteRow*> code;
  for (const SiteRow& s : sites) {
    if (!s.is_test) code.push_back(&s);
  }
  std::sort(code.begin(), code.end(), [](const SiteRow* a, const SiteRow* b) {
    if (a->path != b->path) return a->path < b->path;
    if (a->line != b->line) return a->line < b->line;
    return a->col < b->col;
  });
  std::map<std::pair<std::string, std::string>, int> raises_in_function;
  std::unordered_set<std::string> seen;
  std::vector<LineageSite> out;
  for (const SiteRow* s : code) {
    const int ordinal = raises_in_function[{s->path, s->function}]++;
    if (!seen.insert(s->error_id).second) continue;
    LineageSite site;
    site.error_id = s->error_id;
    site.path = s->path;
    auto module = module_of.find(s->path);
    if (module != module_of.end()) site.module = module->second;
    site.function = s->function;
    site.type = LastComponent(s->type_qualified ? *s->type_qualified : s->type.value_or(""));
    if (s->template_text) site.normalized = NormalizeTemplate(*s->template_text);
    site.line = s->line;
    site.ordinal = ordinal;
    out.push_back(std::move(site));
  }
  return out;
}

std::vector<LineageLink> MatchLineage(const std::vector<LineageSite>& old_sites,
                                      const std::vector<LineageSite>& new_sites,
                                      const std::map<std::string, std::string>& renames) {
  std::vector<LineageLink> links;
  std::unordered_map<std::string, size_t> new_by_id;
  for (size_t k = 0; k < new_sites.size(); ++k) new_by_id.emplace(new_sites[k].error_id, k);
  std::vector<bool> old_linked(old_sites.size(), false), new_linked(new_sites.size(), false);
  for (size_t k = 0; k < old_sites.size(); ++k) {
    auto it = new_by_id.find(old_sites[k].error_id);
    if (it == new_by_id.end() || new_linked[it->second]) continue;
    old_linked[k] = new_linked[it->second] = true;
    links.push_back({k, it->second, Changes(old_sites[k], new_sites[it->second]), 1.0});
  }
  // The rest, compared within buckets: same type, or same function name.
  std::unordered_map<std::string, std::vector<size_t>> by_type, by_function;
  for (size_t k = 0; k < new_sites.size(); ++k) {
    if (new_linked[k]) continue;
    by_type[new_sites[k].type].push_back(k);
    by_function[LastComponent(new_sites[k].function)].push_back(k);
  }
  std::vector<Candidate> candidates;
  for (size_t k = 0; k < old_sites.size(); ++k) {
    if (old_linked[k]) continue;
    std::unordered_set<size_t> tried;
    for (const auto* bucket : {&by_type, &by_function}) {
      const std::string key = bucket == &by_type ? old_sites[k].type : LastComponent(old_sites[k].function);
      auto it = bucket->find(key);
      if (it == bucket->end()) continue;
      size_t budget = 5000;  // bounded per error, whatever the size of the bucket
      for (size_t j : it->second) {
        if (budget-- == 0) break;
        if (!tried.insert(j).second) continue;
        const double score = LinkScore(old_sites[k], new_sites[j], renames);
        if (score > 0) candidates.push_back({k, j, score});
      }
    }
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.from != b.from ? a.from < b.from : a.to < b.to;
  });
  for (const Candidate& c : candidates) {
    if (old_linked[c.from] || new_linked[c.to]) continue;
    old_linked[c.from] = new_linked[c.to] = true;
    links.push_back({c.from, c.to, Changes(old_sites[c.from], new_sites[c.to]), std::min(1.0, c.score)});
  }
  for (size_t k = 0; k < old_sites.size(); ++k) {
    if (!old_linked[k]) links.push_back({k, std::nullopt, "removed", 1.0});
  }
  for (size_t k = 0; k < new_sites.size(); ++k) {
    if (!new_linked[k]) links.push_back({std::nullopt, k, "added", 1.0});
  }
  return links;
}

}  // namespace errdex
