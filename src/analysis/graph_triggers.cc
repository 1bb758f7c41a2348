#include "analysis/graph_triggers.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <string_view>
#include <unordered_set>

#include "source/source.h"

namespace errdex {

namespace {

std::string ScopeKey(const std::string& path, const std::string& qualname) {
  std::string key = path;
  key += '\0';
  key += qualname;
  return key;
}

// The edges a call path may take, indexed by callee for the searches up the callers: not a callable handed
// to a test's callee (`argument`), nor one a library stores to run later, from elsewhere (`registered`:
// `atexit.register(f)`).
bool IsPathEdge(const CallGraphEdge& e) { return e.kind != "argument" && e.kind != "registered"; }

}  // namespace

GraphTriggers::GraphTriggers(const CallGraph& graph, const CodeModel& model)
    : graph_(graph), model_(model), feasibility_(model) {
  const size_t n = graph.nodes.size();
  function_of_.assign(n, CodeModel::kNone);
  is_entry_.assign(n, 0);
  is_barrier_.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const CallGraphNode& node = graph.nodes[i];
    if (node.path.empty()) continue;
    nodes_by_scope_[ScopeKey(node.path, node.qualname)].push_back(static_cast<NodeId>(i));
    const CodeModel::FunctionId f = node.kind == "lambda" ? CodeModel::kNone : model.Find(node.path, node.qualname);
    function_of_[i] = f;
    if (f != CodeModel::kNone) {
      const CodeModel::Function& fn = model.function(f);
      is_barrier_[i] = fn.is_module_scope || fn.is_test;
      is_entry_[i] = !is_barrier_[i] && model.IsPublic(f);
    } else {
      is_barrier_[i] = node.kind == "module" || IsTestPath(node.path);
    }
  }
  // Edge indices grouped by callee and by caller (counting sort: the graph's edges are already ordered).
  in_begin_.assign(n + 1, 0);
  out_begin_.assign(n + 1, 0);
  for (const CallGraphEdge& e : graph.edges) {
    if (IsPathEdge(e)) ++in_begin_[e.callee + 1];
    ++out_begin_[e.caller + 1];
  }
  for (size_t i = 0; i < n; ++i) {
    in_begin_[i + 1] += in_begin_[i];
    out_begin_[i + 1] += out_begin_[i];
  }
  in_edges_.resize(in_begin_[n]);
  out_edges_.resize(out_begin_[n]);
  std::vector<uint32_t> in_fill(in_begin_.begin(), in_begin_.end() - 1);
  std::vector<uint32_t> out_fill(out_begin_.begin(), out_begin_.end() - 1);
  for (size_t i = 0; i < graph.edges.size(); ++i) {
    const CallGraphEdge& e = graph.edges[i];
    if (IsPathEdge(e)) in_edges_[in_fill[e.callee]++] = static_cast<uint32_t>(i);
    out_edges_[out_fill[e.caller]++] = static_cast<uint32_t>(i);
  }
  // What Distance asks of every edge beyond a block's own calls, read once here: comparing the kinds' strings
  // in its inner loop was a fifth of the test links' time.
  out_steps_.resize(out_edges_.size());
  for (size_t k = 0; k < out_edges_.size(); ++k) {
    const CallGraphEdge& e = graph.edges[out_edges_[k]];
    const bool followed = e.kind != "possible" && e.kind != "argument" && e.kind != "registered";
    const auto flags =
        static_cast<uint8_t>((followed ? kReachFollowed : 0) | (CertainReachEdge(e) ? kReachCertain : 0));
    out_steps_[k] = ReachStep{e.callee, e.catches, flags};
  }
  // The catch sets' classes by qualified name, as PythonModuleIndex names a site's type.
  for (const CatchSet& set : graph.catch_sets) {
    std::vector<std::vector<Clause>>& tries = catch_tries_.emplace_back();
    for (const std::vector<CatchClause>& clauses : set.tries) {
      std::vector<Clause>& out = tries.emplace_back();
      for (const CatchClause& c : clauses) {
        Clause clause{c.all, false, c.reraises, c.names};
        for (const auto& [path, qualname] : c.classes) {
          clause.names.push_back(model.index().ModuleOf(path) + "." + qualname);
        }
        std::sort(clause.names.begin(), clause.names.end());
        clause.exception = std::binary_search(clause.names.begin(), clause.names.end(), "builtins.Exception");
        out.push_back(std::move(clause));
      }
    }
  }
}

int GraphTriggers::RaisedType(const std::string& type, const std::string& kind) {
  if (kind == "warn") return kNothingCaught;
  const std::string qualified_type = kind == "assert" && type.empty() ? "builtins.AssertionError" : type;
  auto [it, inserted] = raised_ids_.try_emplace(qualified_type, kNothingCaught);
  if (!inserted) return it->second;
  std::vector<std::string> chain;
  if (!qualified_type.empty()) chain = model_.index().TypeAndBases(qualified_type);
  std::sort(chain.begin(), chain.end());
  auto in_chain = [&](const std::string& name) { return std::binary_search(chain.begin(), chain.end(), name); };
  // `except Exception` catches all but the classes known to derive from BaseException alone (pytest's outcomes).
  const bool exception = !in_chain("builtins.BaseException") || in_chain("builtins.Exception");
  // Python runs the first clause of a `try` that matches; a re-raising one passes the raise to the next `try` out.
  auto matches = [&](const Clause& c) {
    if (c.all || (c.exception && exception)) return true;
    if (chain.empty() && c.reraises) return true;  // an unknown type may be one that the clause passes on
    for (const std::string& name : c.names) {
      if (!chain.empty() && in_chain(name)) return true;
    }
    return false;
  };
  std::vector<char> caught(catch_tries_.size(), 0);
  bool any = false;
  for (size_t s = 1; s < catch_tries_.size(); ++s) {
    for (const std::vector<Clause>& clauses : catch_tries_[s]) {
      auto first = std::find_if(clauses.begin(), clauses.end(), matches);
      if (first == clauses.end() || first->reraises) continue;
      caught[s] = 1;
      break;
    }
    any = any || caught[s];
  }
  if (!any) return it->second;
  auto [id, added] = caught_ids_.try_emplace(std::move(caught), static_cast<int>(caught_.size()));
  if (added) caught_.push_back(id->first);
  it->second = id->second;
  return it->second;
}

int GraphTriggers::RaisedTypeOf(const std::string& path, const Site& site) {
  std::string qualified;
  if (site.type) qualified = model_.index().Resolve(path, *site.type).value_or("");
  return RaisedType(qualified, site.kind);
}

GraphTriggers::NodeId GraphTriggers::NodeOf(const std::string& path, const std::string& scope, int line) const {
  auto pick = [&](const std::string& qualname) -> NodeId {
    auto it = nodes_by_scope_.find(ScopeKey(path, qualname));
    if (it == nodes_by_scope_.end()) return kNoNode;
    NodeId best = kNoNode;
    for (NodeId id : it->second) {
      const CallGraphNode& node = graph_.nodes[id];
      const bool holds = node.kind == "module" || (node.line <= line && line <= node.end_line);
      if (holds && (best == kNoNode || node.line > graph_.nodes[best].line)) best = id;
    }
    return best != kNoNode ? best : it->second.front();
  };
  NodeId found = pick(scope);
  if (found != kNoNode) return found;
  const CodeModel::FunctionId f = model_.ScopeOf(path, scope);
  if (f == CodeModel::kNone) return kNoNode;
  return pick(model_.function(f).qualname);
}

std::vector<GraphTriggers::ImportTimeCall> GraphTriggers::ImportTimeCallers(NodeId node) const {
  std::vector<ImportTimeCall> out;
  if (node >= graph_.nodes.size()) return out;
  for (uint32_t k = in_begin_[node]; k < in_begin_[node + 1]; ++k) {
    const CallGraphEdge& e = graph_.edges[in_edges_[k]];
    const CallGraphNode& caller = graph_.nodes[e.caller];
    if (e.kind != "call" || caller.kind != "module") continue;
    out.push_back(ImportTimeCall{caller.path, e.line, CallCode(caller.path, e.line)});
  }
  return out;
}

std::string GraphTriggers::CallCode(const std::string& path, int line) const {
  auto [codes, inserted] = call_codes_.try_emplace(path);
  if (inserted) {
    const CodeModel::File* file = model_.FileAt(path);
    if (file != nullptr && file->facts != nullptr) {
      for (const CallFact& c : file->facts->calls) codes->second.try_emplace(c.line, c.code);
    }
  }
  auto it = codes->second.find(line);
  return it == codes->second.end() ? std::string() : it->second;
}

void GraphTriggers::Search(NodeId start, bool certain_only, int max_depth, size_t max_paths,
                           const std::vector<uint32_t>& excluded, int raised, uint32_t onward, uint32_t entries,
                           std::vector<CallPath>* out) {
  // The steps of this search: per node, its step when step_stamp_ holds this search's stamp.
  if (steps_.size() != graph_.nodes.size()) {
    steps_.assign(graph_.nodes.size(), Step{});
    step_stamp_.assign(graph_.nodes.size(), 0);
  }
  const uint32_t stamp = ++search_stamp_;
  size_t stepped = 0;
  auto has_step = [&](NodeId n) { return step_stamp_[n] == stamp; };
  auto add_step = [&](NodeId n, const Step& step) {
    step_stamp_[n] = stamp;
    steps_[n] = step;
    ++stepped;
  };
  add_step(start, Step{});
  std::deque<std::pair<NodeId, int>> queue = {{start, 0}};
  size_t examined = 0;
  while (!queue.empty() && out->size() < max_paths) {
    auto [node, depth] = queue.front();
    queue.pop_front();
    const bool node_certain = steps_[node].certain;
    // The function's own next call on the way to the raise, when it has one.
    const uint32_t next = node != start ? steps_[node].edge : onward;
    for (uint32_t k = in_begin_[node]; k < in_begin_[node + 1]; ++k) {
      if (++examined > kMaxVisitedEdges || out->size() >= max_paths) return;
      if (node == start && std::binary_search(excluded.begin(), excluded.end(), in_edges_[k])) continue;
      if (Catches(in_edges_[k], raised)) continue;  // the error does not escape through that call
      const CallGraphEdge& e = graph_.edges[in_edges_[k]];
      const NodeId caller = e.caller;
      // A function handed to an external callee is only presumed called: such a path is not certain. Nor is
      // a call through a parameter of the entry: the callee is what the user passes (docs/analysis.md).
      const bool possible =
          e.kind == "possible" || e.kind == "callback" ||
          (is_entry_[caller] != 0 && (e.parameter >= 0 || (next != kNoEdge && UnknownPass(in_edges_[k], next))));
      if (certain_only && possible) continue;
      if (is_barrier_[caller] || has_step(caller)) continue;
      if (next != kNoEdge && Unpassed(in_edges_[k], next)) continue;
      if (next != kNoEdge && ImpossibleThrough(in_edges_[k], graph_.edges[next].line)) continue;
      const int run_line = BodyRunLine(in_edges_[k]);
      if (run_line < 0) continue;  // the caller only makes the generator: its body runs elsewhere
      if (stepped >= kMaxVisitedFunctions) return;
      const bool certain = node_certain && !possible;
      add_step(caller, Step{node, in_edges_[k], certain, run_line});
      if (is_entry_[caller]) {
        if (entry_stamp_[caller] == entries) continue;
        entry_stamp_[caller] = entries;
        CallPath path;
        path.certain = certain;
        for (NodeId f = caller; f != start;) {
          const Step& s = steps_[f];
          const CallGraphNode& fn = graph_.nodes[f];
          path.frames.push_back(CallFrame{fn.path, s.line, fn.qualname, CallCode(fn.path, s.line)});
          f = s.toward;
        }
        path.frames.push_back(CallFrame{graph_.nodes[start].path, 0, graph_.nodes[start].qualname, ""});
        out->push_back(std::move(path));
        continue;  // a public caller ends the search along this way
      }
      if (depth + 1 < max_depth) queue.emplace_back(caller, depth + 1);
    }
  }
}

std::vector<CallPath> GraphTriggers::Paths(NodeId node, int max_depth, size_t max_paths,
                                           const std::vector<uint32_t>& excluded, int raised, uint32_t onward) {
  std::vector<CallPath> out;
  if (node != kNoNode && node < graph_.nodes.size() && graph_.nodes[node].kind != "module" && max_paths > 0 &&
      max_depth >= 0) {
    // The entries given so far, stamped (a fresh array per search cost a pass over every node).
    if (entry_stamp_.size() != graph_.nodes.size()) entry_stamp_.assign(graph_.nodes.size(), 0);
    const uint32_t entries = ++entries_stamp_;
    if (is_entry_[node]) {
      out.push_back(CallPath{{CallFrame{graph_.nodes[node].path, 0, graph_.nodes[node].qualname, ""}}, true});
      entry_stamp_[node] = entries;
    }
    if (max_depth == 0) return out;  // no call: the function itself, when public
    Search(node, /*certain_only=*/true, max_depth, max_paths, excluded, raised, onward, entries, &out);
    const size_t certain = out.size();
    Search(node, /*certain_only=*/false, max_depth, max_paths, excluded, raised, onward, entries, &out);
    std::stable_partition(out.begin() + static_cast<std::ptrdiff_t>(certain), out.end(),
                          [](const CallPath& p) { return p.certain; });
  }
  return out;
}

const std::vector<CallPath>& GraphTriggers::PathsTo(NodeId node, int max_depth, size_t max_paths) {
  auto key = std::make_tuple(node, max_depth, max_paths);
  auto found = memo_.find(key);
  if (found != memo_.end()) return found->second;
  return memo_.emplace(std::move(key), Paths(node, max_depth, max_paths, {}, kNothingCaught)).first->second;
}

const std::vector<uint32_t>& GraphTriggers::CallsThatCannotReach(NodeId node, const Site& site) {
  // Asked for each site by the call paths, the reach and the analysis: checked once per (node, site).
  auto memo_key = std::make_pair(node, &site);
  if (auto it = cannot_reach_memo_.find(memo_key); it != cannot_reach_memo_.end()) return it->second;
  std::vector<uint32_t>& excluded = cannot_reach_memo_[memo_key];
  if (node != kNoNode && node < graph_.nodes.size() && (!site.conditions.empty() || site.kind == "assert")) {
    const CallGraphNode& callee = graph_.nodes[node];
    // The callee's side is checked once for all its calls (and most often decides that none is impossible).
    std::optional<CallFeasibility::CalleeCheck> check;
    for (uint32_t k = in_begin_[node]; k < in_begin_[node + 1]; ++k) {
      const CallGraphEdge& e = graph_.edges[in_edges_[k]];
      if (e.kind != "call" && e.kind != "possible" && !WithExit(e)) continue;
      const CallGraphNode& caller = graph_.nodes[e.caller];
      if (caller.path.empty() || caller.kind != "function" || is_barrier_[e.caller]) continue;
      if (!check) check = feasibility_.CheckCallee({callee.path, callee.qualname}, site);
      if (check->target == nullptr) break;
      if (feasibility_.Impossible(*check, {caller.path, caller.qualname}, e.line,
                                  /*trust_annotations=*/!is_entry_[e.caller])) {
        excluded.push_back(in_edges_[k]);
      }
    }
  }
  std::sort(excluded.begin(), excluded.end());
  return excluded;
}

int GraphTriggers::PublicReachers(NodeId node, const Site* site, int max_depth, size_t max_count,
                                  std::vector<NodeId>* reachers) {
  if (node == kNoNode || node >= graph_.nodes.size() || graph_.nodes[node].kind == "module") return 0;
  std::vector<uint32_t> excluded;
  int raised = kNothingCaught;
  if (site != nullptr) {
    excluded = CallsThatCannotReach(node, *site);
    raised = RaisedTypeOf(graph_.nodes[node].path, *site);
  }
  // The sites of one function share the search unless their conditions exclude different calls, or calls catch
  // their exceptions differently.
  auto key = std::make_tuple(node, max_depth, max_count, std::move(excluded), raised);
  auto found = reachers_memo_.find(key);
  if (found == reachers_memo_.end()) {
    found =
        reachers_memo_.emplace(key, SearchPublicReachers(node, std::get<3>(key), raised, max_depth, max_count)).first;
  }
  if (reachers != nullptr) reachers->insert(reachers->end(), found->second.begin(), found->second.end());
  return static_cast<int>(found->second.size());
}

std::vector<GraphTriggers::NodeId> GraphTriggers::SearchPublicReachers(NodeId node,
                                                                       const std::vector<uint32_t>& excluded,
                                                                       int raised, int max_depth,
                                                                       size_t max_count) const {
  std::vector<NodeId> out;
  std::unordered_set<NodeId> seen = {node};
  std::deque<std::pair<NodeId, int>> queue = {{node, 0}};
  size_t examined = 0;
  if (is_entry_[node]) out.push_back(node);
  while (!queue.empty() && out.size() < max_count) {
    auto [callee, depth] = queue.front();
    queue.pop_front();
    if (depth >= max_depth) continue;
    for (uint32_t k = in_begin_[callee]; k < in_begin_[callee + 1] && out.size() < max_count; ++k) {
      if (++examined > kMaxVisitedEdges) return out;
      if (callee == node && std::binary_search(excluded.begin(), excluded.end(), in_edges_[k])) continue;
      if (Catches(in_edges_[k], raised)) continue;
      const NodeId caller = graph_.edges[in_edges_[k]].caller;
      if (is_barrier_[caller] || !seen.insert(caller).second) continue;
      if (seen.size() >= kMaxVisitedFunctions) return out;
      if (is_entry_[caller]) out.push_back(caller);
      queue.emplace_back(caller, depth + 1);
    }
  }
  return out;
}

const std::vector<CallPath>& GraphTriggers::PathsTo(NodeId node, const Site& site, int max_depth, size_t max_paths) {
  std::vector<uint32_t> excluded = CallsThatCannotReach(node, site);
  const int raised = node < graph_.nodes.size() ? RaisedTypeOf(graph_.nodes[node].path, site) : kNothingCaught;
  if (excluded.empty() && raised == kNothingCaught) return PathsTo(node, max_depth, max_paths);
  auto key = std::make_tuple(node, max_depth, max_paths, std::move(excluded), raised);
  auto found = excluded_memo_.find(key);
  if (found != excluded_memo_.end()) return found->second;
  std::vector<CallPath> paths = Paths(node, max_depth, max_paths, std::get<3>(key), raised);
  return excluded_memo_.emplace(std::move(key), std::move(paths)).first->second;
}

GraphTriggers::Supplied GraphTriggers::SuppliedBy(NodeId caller, int line, NodeId raise, const Site* site, int raised) {
  Supplied out;
  out.caller = caller;
  out.line = line;
  out.raise = raise;
  if (caller >= graph_.nodes.size() || raise >= graph_.nodes.size()) {
    out.reaches = false;
    return out;
  }
  // Breadth first down from the calls of the supplying line: the shortest chain to the raising function.
  std::unordered_map<NodeId, uint32_t> reached_by = {{caller, kNoEdge}};
  std::deque<std::pair<NodeId, int>> queue = {{caller, 0}};
  while (!queue.empty() && !reached_by.count(raise)) {
    auto [node, depth] = queue.front();
    queue.pop_front();
    if (depth >= kMaxSuppliedCalls) continue;
    for (uint32_t k = out_begin_[node]; k < out_begin_[node + 1]; ++k) {
      const CallGraphEdge& e = graph_.edges[out_edges_[k]];
      if (!IsPathEdge(e) || (node == caller && e.line != line)) continue;
      if (reached_by.try_emplace(e.callee, out_edges_[k]).second) queue.emplace_back(e.callee, depth + 1);
    }
  }
  if (raise != caller && reached_by.count(raise)) {
    for (NodeId n = raise; n != caller; n = graph_.edges[reached_by[n]].caller) out.chain.push_back(reached_by[n]);
    std::reverse(out.chain.begin(), out.chain.end());
  }
  // The raise must escape each call of the chain, and each call must be able to reach the next.
  for (size_t i = 0; i < out.chain.size(); ++i) {
    const uint32_t edge = out.chain[i];
    const std::string& kind = graph_.edges[edge].kind;
    out.certain = out.certain && kind != "possible" && kind != "callback";
    if (Catches(edge, raised)) out.reaches = false;
    if (i + 1 < out.chain.size() &&
        (Unpassed(edge, out.chain[i + 1]) || ImpossibleThrough(edge, graph_.edges[out.chain[i + 1]].line))) {
      out.reaches = false;
    }
  }
  if (site != nullptr && !out.chain.empty()) {
    const std::vector<uint32_t>& impossible = CallsThatCannotReach(raise, *site);
    if (std::binary_search(impossible.begin(), impossible.end(), out.chain.back())) out.reaches = false;
  }
  return out;
}

const std::vector<CallPath>& GraphTriggers::PathsTo(const Supplied& supplied, int raised, int max_depth,
                                                    size_t max_paths) {
  auto key = std::make_tuple(supplied.caller, supplied.line, supplied.chain, raised, max_depth, max_paths);
  auto found = supplied_memo_.find(key);
  if (found != supplied_memo_.end()) return found->second;
  std::vector<CallPath> out;
  const int above = max_depth - supplied.calls();
  if (supplied.reaches && supplied.caller < graph_.nodes.size() && supplied.raise < graph_.nodes.size() && above >= 0) {
    const uint32_t onward = supplied.chain.empty() ? kNoEdge : supplied.chain.front();
    out = Paths(supplied.caller, above, max_paths, {}, raised, onward);
    const CallGraphNode& caller = graph_.nodes[supplied.caller];
    const CallGraphNode& raise = graph_.nodes[supplied.raise];
    for (CallPath& p : out) {
      // The search ends at the supplying function; the path goes on through its call to the raise.
      p.frames.back() = CallFrame{caller.path, supplied.line, caller.qualname, CallCode(caller.path, supplied.line)};
      for (size_t i = 1; i < supplied.chain.size(); ++i) {
        const CallGraphEdge& e = graph_.edges[supplied.chain[i]];
        const CallGraphNode& fn = graph_.nodes[e.caller];
        p.frames.push_back(CallFrame{fn.path, e.line, fn.qualname, CallCode(fn.path, e.line)});
      }
      p.frames.push_back(CallFrame{raise.path, 0, raise.qualname, ""});
      p.certain = p.certain && supplied.certain;
    }
    std::stable_partition(out.begin(), out.end(), [](const CallPath& p) { return p.certain; });
  }
  return supplied_memo_.emplace(std::move(key), std::move(out)).first->second;
}

int GraphTriggers::PublicReachers(const Supplied& supplied, int raised, int max_depth, size_t max_count,
                                  std::vector<NodeId>* reachers) {
  const int above = max_depth - supplied.calls();
  if (!supplied.reaches || supplied.caller >= graph_.nodes.size() || above < 0 ||
      graph_.nodes[supplied.caller].kind == "module") {
    return 0;
  }
  auto key = std::make_tuple(supplied.caller, above, max_count, std::vector<uint32_t>(), raised);
  auto found = reachers_memo_.find(key);
  if (found == reachers_memo_.end()) {
    found = reachers_memo_.emplace(key, SearchPublicReachers(supplied.caller, {}, raised, above, max_count)).first;
  }
  if (reachers != nullptr) reachers->insert(reachers->end(), found->second.begin(), found->second.end());
  return static_cast<int>(found->second.size());
}

bool GraphTriggers::WithExit(const CallGraphEdge& e) const {
  if (e.kind != "implicit") return false;
  const std::string& q = graph_.nodes[e.callee].qualname;
  auto ends = [&](std::string_view tail) {
    return q.size() > tail.size() && std::string_view(q).substr(q.size() - tail.size()) == tail;
  };
  return ends(".__exit__") || ends(".__aexit__");
}

int GraphTriggers::BodyRunLine(uint32_t edge) {
  const CallGraphEdge& e = graph_.edges[edge];
  if (e.kind != "call" && e.kind != "possible") return e.line;  // `for x in obj` runs a generator `__iter__` there
  auto [it, inserted] = run_lines_.try_emplace(edge, e.line);
  if (inserted) {
    const CallGraphNode& caller = graph_.nodes[e.caller];
    const CallGraphNode& callee = graph_.nodes[e.callee];
    if (!caller.path.empty() && !callee.path.empty() && caller.kind == "function" && callee.kind == "function") {
      it->second =
          feasibility_.BodyRunLine({caller.path, caller.qualname}, e.line, {callee.path, callee.qualname}, callee.line);
    }
  }
  return it->second;
}

bool GraphTriggers::ImpossibleThrough(uint32_t edge, int middle_line) {
  const CallGraphEdge& e = graph_.edges[edge];
  if (e.kind != "call" && e.kind != "possible" && !WithExit(e)) return false;
  const CallGraphNode& caller = graph_.nodes[e.caller];
  const CallGraphNode& middle = graph_.nodes[e.callee];
  if (caller.path.empty() || caller.kind != "function" || middle.kind != "function") return false;
  const uint64_t key = (static_cast<uint64_t>(edge) << 32) | static_cast<uint32_t>(middle_line);
  auto [it, inserted] = through_memo_.try_emplace(key, false);
  if (inserted) {
    it->second = feasibility_.ImpossibleThrough({caller.path, caller.qualname}, e.line, {middle.path, middle.qualname},
                                                middle_line,
                                                /*trust_annotations=*/!is_entry_[e.caller]);
  }
  return it->second;
}

bool GraphTriggers::Unpassed(uint32_t into, uint32_t from) const {
  if (graph_.edges[from].parameter < 0) return false;
  return std::binary_search(graph_.unpassed.begin(), graph_.unpassed.end(), std::make_pair(into, from));
}

bool GraphTriggers::UnknownPass(uint32_t into, uint32_t from) const {
  if (graph_.edges[from].parameter < 0) return false;
  return std::binary_search(graph_.unknown_passes.begin(), graph_.unknown_passes.end(), std::make_pair(into, from));
}

bool GraphTriggers::CertainReachEdge(const CallGraphEdge& e) {
  // (The test's own calls, which Distance always follows, name what they call — `tw.markup(...)` on a fixture,
  // by method name or through the test's parameter — and hand over what they hand: the test's evidence.)
  // Beyond them, a callable handed to a library is only presumed called, a method found by its name alone may
  // be another class's, and a call through a parameter takes the values of every caller of its function, not
  // only those on the way from the test.
  return e.kind != "possible" && e.kind != "callback" && e.parameter < 0;
}

bool GraphTriggers::FrameworkCall(const Block& block, const CallGraphEdge& e) const {
  auto it = std::lower_bound(block.framework_calls.begin(), block.framework_calls.end(),
                             std::make_pair(e.line, std::string()));
  for (; it != block.framework_calls.end() && it->first == e.line; ++it) {
    if (it->second.empty()) return true;
    const std::string& q = graph_.nodes[e.callee].qualname;
    const size_t dot = q.rfind('.');
    if ((dot == std::string::npos ? q : q.substr(dot + 1)) == it->second) return true;
  }
  return false;
}

int GraphTriggers::Distance(const Block& block, const std::vector<NodeId>& targets, int raised,
                            bool certain_only) const {
  if (block.node == kNoNode || targets.empty()) return -1;
  const Reach& reach = ReachFor(block, raised, certain_only);
  int nearest = -1;
  for (NodeId t : targets) {
    const int d = DepthIn(reach, t);
    if (d >= 0 && (nearest < 0 || d < nearest)) nearest = d;
  }
  return nearest;
}

int GraphTriggers::Distance(const Block& block, NodeId target, int raised, bool certain_only) const {
  if (block.node == kNoNode) return -1;
  return DepthIn(ReachFor(block, raised, certain_only), target);
}

int GraphTriggers::DepthIn(const Reach& reach, NodeId target) {
  return target < reach.seen.size() && reach.seen[target] == reach.stamp ? reach.depth[target] : -1;
}

bool GraphTriggers::CatchAlike(int a, int b, const std::vector<uint32_t>& sets) const {
  for (uint32_t set : sets) {
    if (CaughtBy(a, set) != CaughtBy(b, set)) return false;
  }
  return true;
}

const GraphTriggers::Reach& GraphTriggers::ReachFor(const Block& block, int raised, bool certain_only) const {
  // The errors asked about one block are asked one after another: its reaches are kept until another block.
  if (!have_block_ || block.node != last_block_.node || block.first != last_block_.first ||
      block.last != last_block_.last || block.call_form != last_block_.call_form ||
      block.framework_calls != last_block_.framework_calls || certain_only != last_certain_only_) {
    have_block_ = true;
    last_block_ = block;
    last_certain_only_ = certain_only;
    reaches_used_ = 0;  // the slots keep their arrays for the next block's searches
    next_reach_ = 0;
  }
  const auto kept = reaches_.begin() + static_cast<std::ptrdiff_t>(reaches_used_);
  for (auto r = reaches_.begin(); r != kept; ++r) {
    if (std::find(r->raised.begin(), r->raised.end(), raised) != r->raised.end()) return *r;
  }
  for (auto r = reaches_.begin(); r != kept; ++r) {
    if (CatchAlike(r->raised.front(), raised, r->met)) {
      r->raised.push_back(raised);
      return *r;
    }
  }
  if (reaches_.size() < kMaxReachesKept) reaches_.resize(kMaxReachesKept);
  Reach* reach = nullptr;
  if (reaches_used_ < kMaxReachesKept) {
    reach = &reaches_[reaches_used_++];
  } else {
    reach = &reaches_[next_reach_];  // more ways of catching than slots: the oldest search goes
    next_reach_ = (next_reach_ + 1) % kMaxReachesKept;
  }
  SearchReach(block, raised, certain_only, reach);
  return *reach;
}

void GraphTriggers::SearchReach(const Block& block, int raised, bool certain_only, Reach* reach) const {
  if (reach->seen.size() != graph_.nodes.size()) {
    reach->seen.assign(graph_.nodes.size(), 0);
    reach->depth.assign(graph_.nodes.size(), 0);
  }
  if (met_mark_.size() != graph_.catch_sets.size()) met_mark_.assign(graph_.catch_sets.size(), 0);
  reach->stamp = ++stamp_;
  reach->raised.assign(1, raised);
  reach->met.clear();
  std::vector<uint32_t>& seen = reach->seen;
  std::vector<int>& depth = reach->depth;
  const uint32_t stamp = reach->stamp;
  std::vector<NodeId>& queue = reach_queue_;
  queue.clear();
  auto visit = [&](NodeId n, int d) {
    if (seen[n] == stamp) return;
    seen[n] = stamp;
    depth[n] = d;
    queue.push_back(n);
  };
  // Every call whose catch sets decide a step is noted: a raise those sets catch alike takes the same steps.
  auto caught = [&](uint32_t set) {
    if (set == 0) return false;
    if (met_mark_[set] != stamp) {
      met_mark_[set] = stamp;
      reach->met.push_back(set);
    }
    return CaughtBy(raised, set);
  };
  for (uint32_t k = out_begin_[block.node]; k < out_begin_[block.node + 1]; ++k) {
    const CallGraphEdge& e = graph_.edges[out_edges_[k]];
    // The test's own calls may be "possible" (by method name): the type and the pattern still have to fit.
    if (block.call_form) {
      // The statement calls the expecting helper; the code under test is what it hands over.
      if (e.line < block.first || e.line > block.last || (e.kind != "argument" && e.kind != "callback")) continue;
    } else if (e.line <= block.first || e.line > block.last || e.kind == "registered" || FrameworkCall(block, e)) {
      continue;  // the `with` line itself calls the expecting helper; nested checks are the test's own
    }
    if (caught(e.catches)) continue;
    visit(e.callee, 1);
  }
  // Breadth first over a vector: the queue only grows, each node is pushed once.
  size_t head = 0;
  const uint8_t need = certain_only ? (kReachFollowed | kReachCertain) : kReachFollowed;
  while (head < queue.size() && head < kMaxReachVisited) {
    const NodeId n = queue[head++];
    const int next_depth = depth[n] + 1;
    const ReachStep* step = out_steps_.data() + out_begin_[n];
    const ReachStep* end = out_steps_.data() + out_begin_[n + 1];
    for (; step != end; ++step) {
      if ((step->flags & need) != need) continue;
      if (caught(step->catches)) continue;
      visit(step->callee, next_depth);
    }
  }
  // Left in the queue: seen, not expanded (the bound cut the search there).
}

}  // namespace errdex
