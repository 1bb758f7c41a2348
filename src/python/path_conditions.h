// The path condition of statements in one parsed Python file (docs/analysis.md): for each target node,
// the compound statements around it up to its function, class, lambda or module scope (`if`/`elif`
// with the negation of earlier branches, `else`, `while`, `for`, loop `else`, `with`, `except`, `try`
// `else`, `finally`, `match`/`case`), and the earlier `if`s of every enclosing block whose branch leaves
// early (`return`, `raise`, `continue`, `break`).
//
// Each condition also says what its header reads (condition_reads.h), as of the site's scopes.
//
// Cost: one walk down the tree that visits only the ancestors of targets and their siblings; the early
// exits of a block are listed once and shared by every target inside it. Bounded per target by
// kMaxConditionsPerSite.
//
// Lifetime: borrows the source and the tree; not thread-safe (one per Extract() call).
#pragma once

#include <tree_sitter/api.h>

#include <string_view>
#include <unordered_map>
#include <vector>

#include "extract/file_facts.h"
#include "python/condition_reads.h"

namespace errdex {

class PathConditions {
 public:
  PathConditions(std::string_view source, TSNode root) : source_(source), root_(root), reads_(source) {}

  // The conditions of each node of TARGETS (nodes of the tree), outermost first; (*out)[i] is for
  // TARGETS[i]. A target that is not found in the tree gets none.
  void Compute(const std::vector<TSNode>& targets, std::vector<std::vector<Condition>>* out);

 private:
  struct EarlyExit {
    uint32_t start = 0;  // of the `if` statement in its block
    Condition condition;
  };
  std::vector<Condition> ConditionsOf(const std::vector<TSNode>& path);
  void Step(TSNode parent, TSNode child, std::vector<Condition>* out);
  const std::vector<EarlyExit>& EarlyExitsOf(TSNode container);
  Condition Header(const char* kind, TSNode node, bool negated);

  std::string_view source_;
  TSNode root_;
  std::unordered_map<const void*, std::vector<EarlyExit>> early_exits_;  // by block node id
  ConditionReads reads_;
  std::vector<TSNode> scopes_;  // the function, class and lambda nodes around the current target
};

}  // namespace errdex
