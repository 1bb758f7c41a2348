// Triggers (docs/analysis.md, "Triggers: call paths"): the shortest chains of calls from the public API of the
// repository to a function that raises, found by a reverse breadth-first search over
// CodeModel::Callers.
//
// A path's frames run from the public entry point to the raising function:
//   frames[0]       the entry: a public function (CodeModel::IsPublic), with the call it makes
//                   (path, line and code of that call, function = the entry's qualname);
//   frames[i]       each function in between, with the call it makes towards the raise;
//   frames.back()   the raising function itself: path and function as asked, line 0 and code "" —
//                   the caller fills in the raise's own line and code.
// A raising function that is itself public gives the one-frame path [frames.back()] first, followed by
// the paths from other public functions that call it.
//
// Order: paths whose every call is resolved with certainty first, then those with at least one
// "possible" call (certain = false); shortest first within each; each entry point at most once.
// Bounds: at most max_depth calls per path (frames ≤ max_depth + 1), max_paths paths, kMaxVisited
// functions and kMaxEdges call edges examined per search. Callers in test files and module-level code
// are not followed (tests are linked by docs/analysis.md; import-time calls are not API entries).
//
// Threading: PublicCallPaths is thread-safe (the model is immutable). A CallPathFinder memoizes results
// and belongs to one thread.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/code_model.h"

namespace errdex {

inline constexpr size_t kMaxVisitedFunctions = 2000;
inline constexpr size_t kMaxVisitedEdges = 50000;

struct CallFrame {
  std::string path;
  int line = 0;
  std::string function;  // qualified scope name of the frame's function
  std::string code;      // the call's source line (CallFact::code); "" for the last frame
};

struct CallPath {
  std::vector<CallFrame> frames;
  bool certain = true;  // every call on the path was resolved with certainty
};

// The call paths from the public API to FUNCTION_QUALNAME of the file at PATH (a scope name as in
// Site::function; a lambda or class body is searched from its enclosing function). Empty when the
// function is unknown, is module-level code, or no public caller is found within the bounds.
std::vector<CallPath> PublicCallPaths(const CodeModel& model, const std::string& path,
                                      const std::string& function_qualname, int max_depth = 6, size_t max_paths = 5);

// PublicCallPaths with a memo per (path, function, bounds): the indexer asks once per error, and the
// errors of one function share the answer. Borrows MODEL, which must outlive it.
class CallPathFinder {
 public:
  explicit CallPathFinder(const CodeModel& model) : model_(model) {}
  const std::vector<CallPath>& Find(const std::string& path, const std::string& function_qualname, int max_depth = 6,
                                    size_t max_paths = 5);

 private:
  const CodeModel& model_;
  std::map<std::tuple<std::string, std::string, int, size_t>, std::vector<CallPath>> memo_;
};

}  // namespace errdex
