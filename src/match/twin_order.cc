#include "match/twin_order.h"

#include <fmt/format.h>

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
  // Compare from the end: a catalog's paths may start below the package root (`src/`).
  auto family = [](std::string_view dotted) {
    const size_t dot = dotted.find('.');
    std::string out(AcceleratorFamily(dotted.substr(0, dot)));
    if (dot != std::string_view::npos) out += dotted.substr(dot);
    return out;
  };
  const std::string want = family(pasted_module);
  const std::string have = family(module);
  return have == want ||
         (have.size() > want.size() && have.ends_with(want) && have[have.size() - want.size() - 1] == '.');
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
