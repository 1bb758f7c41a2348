#include "python/error_regions.h"

#include <algorithm>

namespace errdex {

void ErrorRegions::Set(std::vector<std::pair<uint32_t, uint32_t>> ranges) {
  errors_ = std::move(ranges);
  std::sort(errors_.begin(), errors_.end());
}

int64_t ErrorRegions::RegionStart(uint32_t start, uint32_t end) const {
  // Regions nest: walk back from the last one starting at or before START to the first that contains.
  auto it = std::upper_bound(errors_.begin(), errors_.end(), std::make_pair(start, UINT32_MAX));
  while (it != errors_.begin()) {
    --it;
    if (it->second >= end) return it->first;
  }
  return -1;
}

bool ErrorRegions::Between(uint32_t from, uint32_t to) const {
  auto it = std::lower_bound(errors_.begin(), errors_.end(), std::make_pair(from, uint32_t{0}));
  return it != errors_.end() && it->first < to;
}

int ErrorRegions::SoundScope(const PythonFileModel& model, TSNode root, TSNode node, int* budget) const {
  const uint32_t start = ts_node_start_byte(node);
  const uint32_t end = ts_node_end_byte(node);
  // A statement whose own subtree parsed cleanly is kept even when error recovery wrapped its
  // surroundings in an ERROR node (tree-sitter's indentation scanner trips on rare valid code).
  if (ts_node_has_error(node)) return -1;
  const int scope = model.ScopeAt(start, end);
  if (const int64_t region = RegionStart(start, end); region >= 0) {
    // The definitions around a statement in an error region may be broken: keep it only when a
    // definition inside the region encloses it, so that its qualified name is sound.
    if (scope == 0 || model.scopes[static_cast<size_t>(scope)].start < region) return -1;
  } else if (Between(model.scopes[static_cast<size_t>(scope)].start, start)) {
    // Error recovery before the statement in the same scope can re-parent it (`if x` without its colon
    // swallows the next `def`): keep it only when no statement around it, up to its scope, has errors.
    // ts_node_parent walks from the root, so the number of such checks per file is bounded.
    if (--*budget < 0) return -1;
    const TSNode scope_node = model.scopes[static_cast<size_t>(scope)].node;
    for (TSNode n = ts_node_parent(node); !ts_node_is_null(n) && !ts_node_eq(n, root); n = ts_node_parent(n)) {
      if (scope != 0 && ts_node_eq(n, scope_node)) break;
      if (ts_node_has_error(n)) return -1;
    }
  }
  return scope;
}

}  // namespace errdex
