// What the header of a path condition reads (docs/analysis.md, "Where the state comes from"): the
// attributes (`obj.name`, `getattr(obj, "name")`, `hasattr(obj, "name")`) and the bare names that are not
// bound in the site's function (module globals), in source order, deduplicated.
//
// A bare name is left out when it is a builtin, `self` or `cls`, bound by the header itself (loop, `with`
// and `except` targets, case captures, walrus targets, comprehension variables, lambda parameters), or
// bound in the site's innermost scope or an enclosing function or lambda (parameters, assignment, loop,
// `with`, `except`, import, walrus, `del` and `nonlocal` targets, nested definitions) unless that scope
// declares it `global`. At module level every name is a global. The called name of a call (`isinstance`,
// the `m` of `obj.m(...)`) is not a read; its object and its arguments are read.
//
// Cost: the header's expression is walked once (at most kMaxVisits nodes); the names bound in a scope
// are listed once per scope (a walk of its body that skips nested definitions) and shared.
//
// Lifetime: borrows the source and the tree; not thread-safe (one per Extract() call).
#pragma once

#include <tree_sitter/api.h>

#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "extract/file_facts.h"

namespace errdex {

inline constexpr size_t kMaxReadsPerCondition = 32;
inline constexpr size_t kMaxReadTargetBytes = 256;

class ConditionReads {
 public:
  explicit ConditionReads(std::string_view source) : source_(source) {}

  // The reads of the header of the compound statement NODE (an if/elif/while/for/with/match statement,
  // an except or case clause; others read nothing). SCOPES are the function, class and lambda nodes
  // around the site, outermost first; empty at module level.
  std::vector<StateRead> Of(TSNode node, const std::vector<TSNode>& scopes);

 private:
  struct Locals {
    std::unordered_set<std::string_view> bound;
    std::unordered_set<std::string_view> globals;  // declared `global`: not local despite a binding
  };
  struct Walk {
    std::unordered_set<std::string_view> bound;  // names bound by the header itself
    const std::vector<TSNode>* scopes = nullptr;
    std::vector<StateRead>* out = nullptr;
    size_t visits = 0;
  };
  static constexpr size_t kMaxVisits = 4096;
  static constexpr int kMaxDepth = 64;

  const Locals& LocalsOf(TSNode scope);
  bool HasWalrus(TSNode node);  // whether NODE's text holds `:=`
  void Read(TSNode node, int depth, Walk* walk);
  void ReadName(std::string_view name, Walk* walk);
  void Add(Walk* walk, const char* kind, std::string_view target, std::string_view name);
  std::string_view Text(TSNode node) const;

  std::string_view source_;
  std::unordered_map<const void*, Locals> locals_;  // by scope node id
  std::vector<uint32_t> walruses_;                  // byte offsets of every `:=`, listed on first use
  bool walrus_listed_ = false;
};

// Adds to OUT the names a binding target binds (`a`, `a, (b, *c)`, `[a, b]`); attributes and
// subscripts bind none.
void TargetNames(TSNode target, std::string_view source, int depth, std::unordered_set<std::string_view>* out);

}  // namespace errdex
