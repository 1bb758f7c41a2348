#include "match/twin_order.h"

#include <fmt/format.h>

namespace errdex {

bool MoreDirectlyReached(const SiteRow& a, const SiteRow& b) {
  if (a.reach_calls.has_value() != b.reach_calls.has_value()) return a.reach_calls.has_value();
  if (!a.reach_calls) return false;
  if (*a.reach_calls != *b.reach_calls) return *a.reach_calls < *b.reach_calls;
  return a.reach_entries > b.reach_entries;
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
