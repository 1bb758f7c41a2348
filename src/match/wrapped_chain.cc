#include "match/wrapped_chain.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "extract/template.h"
#include "match/type_agreement.h"
#include "python/installed_path.h"

namespace errdex {
namespace {

constexpr int64_t kMaxWrappingSites = 200;
constexpr size_t kMaxWrappedTypesJudged = 8;

// The same class, or (a re-export: `from lownet import MaxRetryError`) the same class name in the same
// top-level package.
bool SameClass(const std::string& wanted, const std::string& found) {
  if (wanted == found) return true;
  const size_t top = wanted.find('.');
  if (top == std::string::npos) return false;
  return found.rfind(wanted.substr(0, top + 1), 0) == 0 && LastComponent(found) == LastComponent(wanted);
}

struct Wrapping {
  SiteRow site;
  std::string name;                // the caught exception's name ("e")
  std::string expression;          // the placeholder as written ("e", "str(e)")
  std::vector<std::string> wraps;  // the qualified classes it catches
};

// SITE as a wrapping site whose message is only the caught exception, or nothing.
std::optional<Wrapping> AsWrapping(const SiteRow& site) {
  if (site.is_test || site.kind != "raise" || !site.wraps || !site.template_text) return std::nullopt;
  const nlohmann::json wraps = nlohmann::json::parse(*site.wraps, nullptr, /*allow_exceptions=*/false);
  if (!wraps.is_object() || !wraps.value("passes", false) || !wraps.contains("types") || !wraps["types"].is_array())
    return std::nullopt;
  Wrapping w{site, wraps.value("name", std::string()), "", {}};
  const std::vector<TemplatePart> parts = ParseRenderedTemplate(*site.template_text);
  if (w.name.empty() || parts.size() != 1 || !parts[0].placeholder) return std::nullopt;
  w.expression = parts[0].text;
  if (w.expression != w.name && w.expression != fmt::format("str({})", w.name)) return std::nullopt;
  for (const nlohmann::json& t : wraps["types"]) {
    // Only a qualified class names one class across distributions; "OSError" as written does not.
    if (t.is_string() && t.get<std::string>().find('.') != std::string::npos &&
        t.get<std::string>().rfind("builtins.", 0) != 0) {
      w.wraps.push_back(t.get<std::string>());
    }
  }
  if (w.wraps.empty()) return std::nullopt;
  return w;
}

// The wrapping sites raising TYPE in the latest revision of each repository, the likeliest first.
std::vector<Wrapping> WrappingSites(Catalog& catalog, const std::string& type, const std::string& origin_repository) {
  std::vector<Wrapping> out;
  SiteFilter filter;
  filter.type = type;
  filter.limit = kMaxWrappingSites;
  catalog.ListSites(filter, [&](const SiteRow& row) {
    if (!row.type_qualified || *row.type_qualified != type) return;
    if (std::optional<Wrapping> w = AsWrapping(row)) out.push_back(std::move(*w));
  });
  auto rank = [&](const Wrapping& w) {
    return std::make_pair(IsVendoredPath(w.site.path) ? 1 : 0, w.site.repo == origin_repository ? 0 : 1);
  };
  std::stable_sort(out.begin(), out.end(), [&](const Wrapping& a, const Wrapping& b) { return rank(a) < rank(b); });
  return out;
}

// True when INNER's text is its own class's: the site's template, or the message its class (or a base of
// it) renders. A class message credited to another class (the pasted name's class without a message of
// its own, which explain lets show a relative's text) explains the wrapped exception less well.
bool OwnText(Catalog& catalog, const ExplainMatch& inner) {
  if (inner.kind != ExplainMatch::Kind::kClassMessage) return true;
  std::vector<std::string> pending{inner.type};
  for (int hops = 0; !pending.empty() && hops < 16; ++hops) {
    const std::string name = pending.back();
    pending.pop_back();
    std::optional<ClassRow> cls = catalog.FindClass(inner.site.repo, name);
    if (!cls) continue;
    if (!cls->message.empty()) return cls->message == inner.template_text;
    pending.insert(pending.end(), cls->bases.begin(), cls->bases.end());
  }
  return false;
}

std::string RepositoryOf(const SiteRow& site) {
  if (site.version) return fmt::format("{} {}", site.repo, *site.version);
  if (site.commit) return fmt::format("{} {}", site.repo, site.commit->substr(0, 12));
  return site.repo;
}

}  // namespace

std::optional<WrappedChain> FindWrappedChain(Catalog& catalog, const PastedException& exception,
                                             const std::string& origin_repository, const JudgeException& judge) {
  if (exception.type.find('.') == std::string::npos || exception.message.empty()) return std::nullopt;
  std::map<std::string, std::optional<JudgedMatch>> judged;  // wrapped class -> its inner origin
  // The best pair: the inner origin that explains the text best; at equal evidence the likelier wrapping site.
  const Wrapping* best_wrapping = nullptr;
  std::string best_type;
  const JudgedMatch* best_inner = nullptr;
  std::tuple<bool, int, double> best_key{false, 0, 0.0};
  const std::vector<Wrapping> wrappings = WrappingSites(catalog, exception.type, origin_repository);
  for (const Wrapping& w : wrappings) {
    for (const std::string& wrapped : w.wraps) {
      auto found = judged.find(wrapped);
      if (found == judged.end()) {
        if (judged.size() >= kMaxWrappedTypesJudged) continue;
        PastedException inner = exception;
        inner.type = wrapped;
        inner.frames.clear();  // the frames are the wrapper's
        std::optional<JudgedMatch> best;
        for (JudgedMatch& m : judge(inner)) {
          if (m.tier >= 2 && SameClass(wrapped, m.match.type) && m.match.site.repo != w.site.repo) {
            best = std::move(m);
            break;
          }
        }
        found = judged.emplace(wrapped, std::move(best)).first;
      }
      const std::optional<JudgedMatch>& inner = found->second;
      if (!inner) continue;
      const std::tuple<bool, int, double> key{OwnText(catalog, inner->match), inner->tier, inner->match.score};
      if (best_inner == nullptr || key > best_key) {
        best_key = key;
        best_inner = &*inner;
        best_wrapping = &w;
        best_type = wrapped;
      }
    }
  }
  if (best_inner == nullptr) return std::nullopt;
  const Wrapping& w = *best_wrapping;
  const ExplainMatch& inner = best_inner->match;
  WrappedChain chain;
  chain.inner = inner;
  ExplainMatch& outer = chain.outer;
  outer.error_id = w.site.error_id;
  outer.type = exception.type;
  outer.template_text = *w.site.template_text;
  outer.score = inner.score;
  outer.kind = inner.kind;
  outer.bindings = {{w.expression, exception.message}};
  outer.site = w.site;
  outer.why.push_back(fmt::format(
      "wraps: {}:{} catches {} as {} and raises {} with it, so the message is the caught error's text, written by "
      "{} (the next link of the chain: {}:{})",
      w.site.path, w.site.line, best_type, w.name, exception.type, RepositoryOf(inner.site), inner.site.path,
      inner.site.line));
  chain.inner.why.insert(chain.inner.why.begin(), fmt::format("wrapped: raised here and caught by {} in {} ({}:{})",
                                                              w.name, RepositoryOf(w.site), w.site.path, w.site.line));
  return chain;
}

}  // namespace errdex
