// The value a literal of the flow records (docs/callgraph.md, "Flow records") has for the feasibility check of
// call paths (python/condition_truth.h): `None`, `True`, `False`, an integer, a plain string, an empty or
// non-empty list or dict, a comprehension or generator, a lambda. Anything else is kUnknown, for the caller
// to decide (a call, a name).
//
// Stateless; thread-safe as long as PROGRAM is not changed.
#pragma once

#include "analysis/flow_program.h"
#include "python/condition_truth.h"

namespace errdex {

// The value of expression EXPR of PROGRAM (-1: none) when it is a literal; kUnknown otherwise. An empty list
// or dict literal is kEmpty (false, not None); `[x]` and a comprehension (`L 1 (G ...)`, which may be empty
// at run time but is never None) are kNotNone.
KnownValue LiteralValue(const FlowProgram& program, int expr);

}  // namespace errdex
