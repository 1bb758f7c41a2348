// The data-flow facts of one Python file that the call-graph resolver needs (docs/callgraph.md, "Flow
// facts"): scopes, parameters with annotations and defaults, assignments with their right-hand sides,
// returns and yields, `with` items, `for` targets, decorators, bases, imports and every expression whose
// calls matter, written as a compact line-based text (one record per line, expressions in prefix form)
// so that it is cached with the rest of the file's facts by blob id.
//
// Lifetime: reads the tree and the source only during the call. Thread-safe (no shared state).
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace errdex {

// Flow text larger than this is cut at a record boundary (the file's facts then say flow_truncated).
inline constexpr size_t kMaxFlowBytes = 8 * 1024 * 1024;

// Walks the module ROOT of SOURCE and returns its flow records (docs/callgraph.md). *truncated is set
// when kMaxFlowBytes was reached.
std::string ExtractPythonFlowFacts(TSNode root, std::string_view source, bool* truncated);

}  // namespace errdex
