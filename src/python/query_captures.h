// What one run of the Python query (python_query.h) over a parsed file captures, sorted by role for the jobs
// that read it (docs/extraction.md): the sites (raise, assert, warn calls), scopes (added to the file's
// model as they are found), bindings, imports, message calls, expecting `with` statements, syntax errors,
// and the program facts' calls, writes, `global` statements and decorated definitions.
//
// Lifetime: the nodes are nodes of the parsed tree; QueryCaptures must not outlive the tree. Threading:
// CollectCaptures uses a query cursor of its own per thread; one QueryCaptures per Extract() call.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "python/python_file_model.h"
#include "python/python_query.h"

namespace errdex {

// A raise or assert statement, or a call that may be a `warnings.warn` site (CALL_* its callee's parts).
struct RawSite {
  python_query::Role role;
  TSNode node;
  TSNode call_module{}, call_attr{}, call_name{};
};

struct PendingBinding {
  TSNode statement, name, value;
  bool augmented;
};

struct PendingImport {
  TSNode from, module, name, alias, wildcard;
};

// A call statement (or an assignment or return of a call) by NAME, on RECEIVER (null for a plain name).
struct PendingCall {
  TSNode statement, name, receiver;
};

struct QueryCaptures {
  std::vector<RawSite> raw_sites;
  std::vector<PendingBinding> bindings;
  std::vector<PendingImport> imports;
  std::vector<PendingCall> calls;
  std::vector<TSNode> withs;                           // with statements that may expect an exception
  std::vector<std::pair<TSNode, TSNode>> model_calls;  // (call, callee)
  std::vector<TSNode> state;                           // assignments and del statements
  std::vector<TSNode> globals;                         // `global` statements
  std::unordered_map<const void*, TSNode> decorated;   // decorated definition by definition id
  std::vector<std::pair<uint32_t, uint32_t>> errors;   // ERROR node ranges, in the order found
};

// Runs QUERY over the tree ROOT of MODEL's source: adds the scopes found to MODEL->scopes (unfinished) and the
// rest to *OUT, matches in the cursor's order.
void CollectCaptures(TSNode root, const PythonQuery& query, PythonFileModel* model, QueryCaptures* out);

}  // namespace errdex
