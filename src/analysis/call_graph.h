// The call graph of a whole revision (docs/callgraph.md): a flow-insensitive, context-insensitive
// points-to analysis over the flow facts of every Python file (python/python_flow_facts.h), in the
// manner of PyCG's assignment graph. Values are functions, lambdas, classes, instances of classes,
// modules, external names (by import path) and builtins; they flow through assignments, parameters,
// returns, attributes (of modules, classes and instances, resolved along the MRO), containers, `with`
// items, `for` loops and decorators until nothing changes. A call whose callee resolves to nothing is
// kept as unresolved, with "possible" edges to the project's methods of that name when there are few;
// nothing else is guessed.
//
// Deterministic (same files, same graph). Not thread-safe during Build; the result is a plain value.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "extract/file_facts.h"

namespace errdex {

struct CallGraphFile {
  std::string path;          // relative to the source root, '/'-separated ("pkg/api.py")
  const FileFacts* facts{};  // borrowed for the duration of BuildCallGraph
};

struct CallGraphNode {
  // PyCG's name: "pkg.api.Session.get", "pkg.api" for module-level code, "pkg.api.f.<lambda1>",
  // "<builtin>.len", external names by import path ("requests.get").
  std::string name;
  std::string kind;      // "module", "function", "lambda", "class", "external", "builtin"
  std::string path;      // file of a project node, "" otherwise
  std::string qualname;  // like FileFacts function qualnames ("Session.get", "f.<locals>.g"); "<module>"
  int line = 0;          // of the definition (project nodes)
  int end_line = 0;      // last line of the definition (project nodes; a module's is 0)
};

struct CallGraphEdge {
  uint32_t caller = 0, callee = 0;  // indices into CallGraph::nodes
  int line = 0;                     // 1-based line of the call (of the statement for implicit calls)
  // "call" (resolved), "implicit" (a property, a decorator, a dunder, __iter__/__enter__ run by syntax),
  // "callback" (a function handed to an external or builtin callee), "argument" (in a test file, a function,
  // a class's __init__ or an instance's __call__ handed as an argument to a callee, which may call it later:
  // not a call, and left out of PyCG's format), "possible" (an unresolved call whose method name names few
  // project methods).
  std::string kind;
  // A "call" or "implicit" edge whose callee came through this parameter of the caller (its index in the
  // definition, `self` counted): the called name, or the receiver of the called method, is the parameter or
  // an attribute read from it (`fn(x)`, `attribute.is_equal(x)`, `options.engine.connect()`), and no other
  // call of the line reaches the callee. -1 otherwise (docs/callgraph.md, "Values through a parameter").
  int parameter = -1;
  uint32_t catches = 0;  // index into CallGraph::catch_sets: what the call's enclosing `try` blocks catch
};

// One `except` clause around a call (or a `with contextlib.suppress(...)`; docs/callgraph.md, "Caught
// exceptions").
struct CatchClause {
  bool all = false;       // a bare `except:` or `except BaseException`, or a re-raising clause of unknown types
  bool reraises = false;  // the clause raises again what it takes (`raise`, `raise X from e`)
  // Builtin classes ("builtins.KeyError", "builtins.Exception") and external classes by import path
  // ("requests.exceptions.HTTPError"); sorted, unique.
  std::vector<std::string> names;
  // Project classes as (path, qualname); sorted, unique.
  std::vector<std::pair<std::string, std::string>> classes;
  bool operator<(const CatchClause& o) const {
    return std::tie(all, reraises, names, classes) < std::tie(o.all, o.reraises, o.names, o.classes);
  }
};

// The handlers around one call: the `try` blocks of its caller whose body holds it, innermost first, each with
// its clauses in order (Python runs the first clause that matches; a re-raising one passes the raise on to
// the next `try` out). Empty: nothing is caught.
struct CatchSet {
  std::vector<std::vector<CatchClause>> tries;
  bool operator<(const CatchSet& o) const { return tries < o.tries; }
};

struct UnresolvedCall {
  uint32_t caller = 0;
  std::string name;  // the called name or attribute ("get"), "" for other expressions
  int line = 0;
};

struct CallGraphStats {
  int rounds = 0;           // worklist sweeps run
  int64_t evaluations = 0;  // statements evaluated (each statement once per sweep at most)
  int64_t statements = 0;   // flow statements of the program
  bool capped = false;      // the round limit stopped the iteration before a fixpoint
  int runs = 0;             // resolutions run (a new one when variables newly exceeded max_values)
  int64_t saturated = 0;    // variables that exceed max_values and hold nothing
};

struct CallGraph {
  std::vector<CallGraphNode> nodes;  // project nodes first, in file order, then others by name
  std::vector<CallGraphEdge> edges;  // sorted by (caller, line, callee), deduplicated
  std::vector<UnresolvedCall> unresolved;
  // Pairs (INTO, FROM) of edge indices, sorted: FROM is resolved through a parameter of its caller, INTO is a
  // call of that caller whose argument for the parameter has known values, and none of them gives FROM's
  // callee (the callee reached the parameter from other callers: a path does not take INTO then FROM).
  std::vector<std::pair<uint32_t, uint32_t>> unpassed;
  // Pairs (INTO, FROM) as above where what INTO passes for the parameter is not known (a `*args` or
  // `**kwargs` splat that may fill it, no values, or an external value): when INTO's caller is the entry of a
  // path, the value is the user's and the path is uncertain. Sorted.
  std::vector<std::pair<uint32_t, uint32_t>> unknown_passes;
  std::vector<CatchSet> catch_sets = {CatchSet{}};  // [0] catches nothing; each set once
  CallGraphStats stats;
};

struct CallGraphOptions {
  int max_rounds = 100;     // sweeps of the worklist at most
  size_t max_values = 24;   // values per variable at most: a variable that would hold more holds none
  int max_runs = 4;         // resolutions at most (the last one may leave saturated variables' values behind)
  size_t max_possible = 3;  // "possible" edges only when at most this many methods carry the name
  // false: the resolution's working memory (every variable's values and readers) is left to the process exit
  // (util/left_to_exit.h), not freed one block at a time (IndexOptions::free_memory).
  bool free_memory = true;
};

CallGraph BuildCallGraph(const std::vector<CallGraphFile>& files, const CallGraphOptions& options = {});

// The module name of a file path: "pkg/api.py" -> "pkg.api", "pkg/__init__.py" -> "pkg".
std::string ModuleNameOfPath(const std::string& path);

}  // namespace errdex
