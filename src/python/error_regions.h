// The ERROR regions of one parsed Python file (tree-sitter's error recovery), and what they leave sound: a
// statement is read only where its position in the tree, and so its scope, can be trusted.
//
// Lifetime: holds byte ranges only; SoundScope reads the model and tree it is given. Not thread-safe
// (one per Extract() call).
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "python/python_file_model.h"

namespace errdex {

class ErrorRegions {
 public:
  // Sets the ERROR node ranges (start, end) of the file, in any order.
  void Set(std::vector<std::pair<uint32_t, uint32_t>> ranges);

  // Start of the innermost ERROR region containing [start, end), or -1.
  int64_t RegionStart(uint32_t start, uint32_t end) const;
  // True when an ERROR region starts in [from, to).
  bool Between(uint32_t from, uint32_t to) const;

  // The scope of NODE (in MODEL, whose tree is ROOT) when its position in the tree is sound (as for sites),
  // else -1; BUDGET bounds the ancestor walks it may do.
  int SoundScope(const PythonFileModel& model, TSNode root, TSNode node, int* budget) const;

  // The ancestor walks one budget allows per file.
  static constexpr int kMaxAncestorChecks = 2000;

 private:
  std::vector<std::pair<uint32_t, uint32_t>> errors_;  // sorted by start
};

}  // namespace errdex
