// Where the body of a generator function runs for its caller (docs/analysis.md, "Triggers"): calling a
// function whose body holds `yield` only makes the generator; its body runs where the generator is iterated.
// A call path's frame cites that line, and a caller that only makes the generator (hands it on, stores or
// returns it) is no frame of a path to a raise in the generator's body.
//
// Functions over the flow records of one file (flow_program.h); they keep no state.
#pragma once

#include <vector>

#include "analysis/flow_program.h"

namespace errdex {

// Whether STATEMENTS (the statements of one function scope of P, its own: not those of nested scopes) hold a
// `yield` or `yield from`.
bool HoldsYield(const FlowProgram& p, const std::vector<int>& statements);

// The line at which a function (its STATEMENTS in P, in order) runs the generator one of CALLS (call
// expressions of those statements) makes: the call's own line when it is iterated there (the iterable of a
// `for` or of a comprehension's `for`, an argument of a builtin or method that iterates it at once:
// python/callable_apis.h, `list(x)`, `"".join(x)`; a `*` unpacking or the value of an unpacking assignment
// `a, b = gen()`; `yield from`), else the line of the first later statement that so iterates the name the
// call's value is assigned to (`g = gen(...)` ... `for x in g:`); -1 when it runs none of them.
int GeneratorRunLine(const FlowProgram& p, const std::vector<int>& statements, const std::vector<int>& calls);

}  // namespace errdex
