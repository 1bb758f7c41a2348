#include "match/type_candidates.h"

#include <algorithm>
#include <set>

#include "match/type_agreement.h"
#include "python/python_builtins.h"

namespace errdex {
namespace {

constexpr int64_t kMaxClassesNamed = 8;
constexpr int kMaxBaseDepth = 4;

// CLS and its repository ancestors (qualified), nearest first; builtins are left out.
std::vector<std::string> ClassAndBases(Catalog& catalog, const std::string& repo, const ClassRow& cls) {
  std::vector<std::string> out{cls.qualified_name};
  std::set<std::string> seen{cls.qualified_name};
  std::vector<std::string> frontier = cls.bases;
  for (int depth = 0; depth < kMaxBaseDepth && !frontier.empty(); ++depth) {
    std::vector<std::string> next;
    for (const std::string& base : frontier) {
      if (!seen.insert(base).second) continue;
      std::optional<ClassRow> row = catalog.FindClass(repo, base);
      if (!row) continue;
      out.push_back(base);
      next.insert(next.end(), row->bases.begin(), row->bases.end());
    }
    frontier = std::move(next);
  }
  return out;
}

}  // namespace

std::vector<std::string> ErrorsRaisingPastedType(Catalog& catalog, std::string_view pasted_type, size_t limit) {
  std::vector<std::string> out;
  std::string last(LastComponent(pasted_type));
  if (last.empty() || BuiltinExceptionBase(last) != nullptr) return out;
  std::set<std::string> seen;
  auto add = [&](const SiteRow& s) {
    if (out.size() < limit && seen.insert(s.error_id).second) out.push_back(s.error_id);
  };
  std::vector<std::pair<std::string, ClassRow>> classes = catalog.ClassesNamed(last, kMaxClassesNamed);
  // A qualified paste that names one of them exactly picks it (older versions move classes: else all).
  for (size_t i = 0; i < classes.size(); ++i) {
    if (classes[i].second.qualified_name == pasted_type) {
      classes = {classes[i]};
      break;
    }
  }
  for (const auto& [repo, cls] : classes) {
    // Library sites first, whichever class of the hierarchy they raise: test suites raise these classes
    // by the dozen.
    std::vector<SiteRow> sites =
        catalog.SitesRaising(repo, ClassAndBases(catalog, repo, cls), static_cast<int64_t>(limit * 4));
    std::stable_partition(sites.begin(), sites.end(), [](const SiteRow& s) { return !s.is_test; });
    for (const SiteRow& s : sites) add(s);
  }
  SiteFilter filter;
  filter.type = last;  // written bare where the class did not resolve
  filter.limit = static_cast<int64_t>(limit);
  catalog.ListSites(filter, add);
  return out;
}

}  // namespace errdex
