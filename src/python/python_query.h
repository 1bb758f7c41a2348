// The compiled Python query (the query files src/python/queries/*.scm, embedded in the binary) and the
// meaning of its captures and predicates: which role each capture name plays for the extractor, the text
// predicates the C runtime leaves to its caller, and the node types at which some pattern starts.
//
// Ownership: a PythonQuery owns its TSQuery. Threading: built once (CompilePythonQuery), read-only
// afterwards; shared by every worker (a query cursor of its own per thread is the caller's).
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace errdex {

namespace python_query {

// The roles of the capture names used in src/python/queries/*.scm.
enum class Role {
  kNone,
  kSiteRaise,
  kSiteAssert,
  kSiteCall,
  kCallModule,
  kCallAttr,
  kCallName,
  kScopeFunction,
  kScopeClass,
  kScopeLambda,
  kScopeName,
  kAssign,
  kAugAssign,
  kAssignName,
  kAssignValue,
  kImport,
  kImportModule,
  kImportAlias,
  kImportFrom,
  kImportName,
  kImportWildcard,
  kSyntaxError,
  kMessageCall,
  kMessageCallName,
  kMessageCallReceiver,
  kExpectWith,
  kModelCall,
  kModelCallee,
  kModelWrite,
  kModelDelete,
  kModelGlobal,
  kModelDecorated,
};

// The role of the capture NAME ("site.raise"); kNone for a name the extractor does not read.
Role RoleOf(std::string_view name);

// `(#eq? @capture "text")` and `(#not-eq? ...)`: the C runtime leaves predicates to its caller.
struct TextPredicate {
  uint32_t capture = 0;
  std::string text;
  bool negate = false;
};

struct QueryTables {
  std::vector<Role> roles;                             // by capture id
  std::vector<std::vector<TextPredicate>> predicates;  // by pattern index
  // Node types at which some pattern starts, by symbol. Running the query only at such nodes (with a
  // start depth of 0) finds the same matches as running it over the whole tree, for less than half
  // the cost: the cursor's per-node work is the expensive part, and most nodes start no pattern.
  std::vector<bool> root_symbols;
  bool roots_known = false;  // false: some pattern's root could not be read; run over the whole tree
};

}  // namespace python_query

struct PythonQuery {
  TSQuery* query = nullptr;
  python_query::QueryTables tables;

  PythonQuery() = default;
  PythonQuery(const PythonQuery&) = delete;
  PythonQuery& operator=(const PythonQuery&) = delete;
  ~PythonQuery() {
    if (query != nullptr) ts_query_delete(query);
  }
};

// Compiles the embedded query files. Returns null and sets *ERROR when they do not compile (a broken query
// file is a build defect, reported with the file and offset) or use a predicate other than #eq?/#not-eq?.
std::unique_ptr<PythonQuery> CompilePythonQuery(std::string* error);

}  // namespace errdex
