#include "match/twin_order.h"

#include <fmt/format.h>

#include <algorithm>

#include "match/type_agreement.h"

namespace errdex {

bool MoreDirectlyReached(const SiteRow& a, const SiteRow& b) {
  if (a.reach_calls.has_value() != b.reach_calls.has_value()) return a.reach_calls.has_value();
  if (!a.reach_calls) return false;
  if (a.reach_entries != b.reach_entries) return a.reach_entries > b.reach_entries;
  return *a.reach_calls < *b.reach_calls;
}

bool InModuleOfPastedType(const SiteRow& site, std::string_view pasted_type) {
  const size_t last_dot = pasted_type.rfind('.');
  if (last_dot == std::string_view::npos || site.path.size() < 4 || !site.path.ends_with(".py")) return false;
  std::string module = site.path.substr(0, site.path.size() - 3);
  if (module.ends_with("/__init__")) module.resize(module.size() - 9);
  for (char& c : module) c = c == '/' ? '.' : c;
  std::string_view pasted_module = pasted_type.substr(0, last_dot);
  // The site's module ends with the pasted one (a catalog's paths may start below the package root, `src/`),
  // its first component in the same family (`_queue` for `queue`).
  const size_t pasted_dot = pasted_module.find('.');
  const std::string_view pasted_top = pasted_module.substr(0, pasted_dot);
  const std::string_view pasted_rest = pasted_dot == std::string_view::npos ? "" : pasted_module.substr(pasted_dot);
  std::string_view have = module;
  if (!have.ends_with(pasted_rest)) return false;
  have.remove_suffix(pasted_rest.size());  // "…/queue" for "_queue", "src._pytest" for "_pytest"
  const size_t dot = have.rfind('.');
  return SameModuleFamily(dot == std::string_view::npos ? have : have.substr(dot + 1), pasted_top);
}

std::vector<std::string> CalledNames(const std::vector<TracebackFrame>& frames) {
  static constexpr size_t kMaxNames = 32;
  std::vector<std::string> names;
  auto is_name_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;
  };
  for (const TracebackFrame& f : frames) {
    const std::string& code = f.code;
    for (size_t i = 0; i < code.size() && names.size() < kMaxNames; ++i) {
      if (code[i] != '(' || i == 0 || !is_name_char(code[i - 1])) continue;
      size_t start = i;
      while (start > 0 && is_name_char(code[start - 1])) --start;
      if (code[start] >= '0' && code[start] <= '9') continue;
      std::string name = code.substr(start, i - start);
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
    }
  }
  return names;
}

std::string ReachedThrough(const SiteRow& site, const std::vector<std::string>& called) {
  if (!site.reach_via || called.empty()) return "";
  std::string_view via = *site.reach_via;
  for (const std::string& name : called) {
    for (size_t start = 0; start < via.size();) {
      size_t end = via.find(' ', start);
      if (end == std::string_view::npos) end = via.size();
      if (via.substr(start, end - start) == name) return name;
      start = end + 1;
    }
  }
  return "";
}

std::string DescribeReach(const SiteRow& site) {
  if (!site.reach_calls) return "";
  std::string nearest = *site.reach_calls == 0 ? std::string("its own function is public")
                                               : fmt::format("the nearest {} call{} away", *site.reach_calls,
                                                             *site.reach_calls == 1 ? "" : "s");
  return fmt::format("reached from {} public function{}, {}", site.reach_entries, site.reach_entries == 1 ? "" : "s",
                     nearest);
}

}  // namespace errdex
