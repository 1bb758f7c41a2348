#include "analysis/call_paths.h"

#include <algorithm>
#include <cstddef>
#include <deque>
#include <unordered_map>
#include <unordered_set>

namespace errdex {

namespace {

using FunctionId = CodeModel::FunctionId;

struct Step {
  FunctionId toward = CodeModel::kNone;     // the next function on the way to the raise
  const CodeModel::Caller* edge = nullptr;  // the call this function makes to `toward`
  bool certain = true;                      // every call from here to the raise is certain
};

// One breadth-first search backwards from START. With CERTAIN_ONLY, possible calls are not followed.
// Appends paths to OUT for entries not yet in ENTRIES, until OUT holds MAX_PATHS.
void Search(const CodeModel& model, FunctionId start, const std::string& start_qualname, bool certain_only,
            int max_depth, size_t max_paths, std::unordered_set<FunctionId>* entries, std::vector<CallPath>* out) {
  std::unordered_map<FunctionId, Step> steps;
  steps.emplace(start, Step{});
  std::deque<std::pair<FunctionId, int>> queue = {{start, 0}};
  size_t edges = 0;
  while (!queue.empty() && out->size() < max_paths) {
    auto [node, depth] = queue.front();
    queue.pop_front();
    bool node_certain = steps[node].certain;
    for (const CodeModel::Caller& c : model.Callers(node)) {
      if (++edges > kMaxVisitedEdges || out->size() >= max_paths) return;
      if (certain_only && !c.certain) continue;
      const CodeModel::Function& caller = model.function(c.caller);
      if (caller.is_module_scope || caller.is_test) continue;
      if (steps.count(c.caller)) continue;
      if (steps.size() >= kMaxVisitedFunctions) return;
      bool certain = node_certain && c.certain;
      steps.emplace(c.caller, Step{node, &c, certain});
      if (model.IsPublic(c.caller)) {
        if (!entries->insert(c.caller).second) continue;
        CallPath path;
        path.certain = certain;
        for (FunctionId f = c.caller; f != start;) {
          const Step& s = steps[f];
          const CodeModel::Function& fn = model.function(f);
          path.frames.push_back(CallFrame{fn.path, s.edge->call->line, fn.qualname, s.edge->call->code});
          f = s.toward;
        }
        path.frames.push_back(CallFrame{model.function(start).path, 0, start_qualname, ""});
        out->push_back(std::move(path));
        continue;  // a public caller ends the search along this way
      }
      if (depth + 1 < max_depth) queue.emplace_back(c.caller, depth + 1);
    }
  }
}

}  // namespace

std::vector<CallPath> PublicCallPaths(const CodeModel& model, const std::string& path,
                                      const std::string& function_qualname, int max_depth, size_t max_paths) {
  std::vector<CallPath> out;
  if (max_paths == 0 || max_depth < 0) return out;
  FunctionId start = model.ScopeOf(path, function_qualname);
  if (start == CodeModel::kNone || model.function(start).is_module_scope) return out;
  std::unordered_set<FunctionId> entries;
  if (model.IsPublic(start)) {
    // Public itself: the one-frame path first, then the other public functions that lead to it (a user
    // who called `Workbench.setup` meets the error of `unwrap_tuned` too).
    out.push_back(CallPath{{CallFrame{path, 0, function_qualname, ""}}, true});
    entries.insert(start);
  }
  Search(model, start, function_qualname, /*certain_only=*/true, max_depth, max_paths, &entries, &out);
  size_t certain = out.size();
  Search(model, start, function_qualname, /*certain_only=*/false, max_depth, max_paths, &entries, &out);
  // The second search may find, through a possible call, an entry the first did not reach; any
  // all-certain path it finds (a bound cut the first search) still belongs with the certain ones.
  std::stable_partition(out.begin() + static_cast<std::ptrdiff_t>(certain), out.end(),
                        [](const CallPath& p) { return p.certain; });
  return out;
}

const std::vector<CallPath>& CallPathFinder::Find(const std::string& path, const std::string& function_qualname,
                                                  int max_depth, size_t max_paths) {
  auto key = std::make_tuple(path, function_qualname, max_depth, max_paths);
  auto it = memo_.find(key);
  if (it != memo_.end()) return it->second;
  return memo_.emplace(std::move(key), PublicCallPaths(model_, path, function_qualname, max_depth, max_paths))
      .first->second;
}

}  // namespace errdex
