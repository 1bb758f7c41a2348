// Triggers read from the call graph of the revision (analysis/call_graph.h; docs/analysis.md, "Triggers"):
// the call paths from the public API to a raising function, and what the calls inside a test's
// expecting block (pytest.raises, assertRaises, expect_raises...) reach.
//
// Public entries are the code model's (CodeModel::IsPublic: what the package exports, never tests,
// examples, docs, benchmarks or scripts). A path runs from the entry to the raising function with the
// line and code of each call on the way; paths whose every edge is resolved come first, then those that
// go through a "possible" edge or a call through a parameter of the entry, or through a parameter the entry
// fills with a value the graph does not know (`**kwargs`: the callee is what the user passes); shortest
// first within each; each entry once. A path never takes a call into a function whose
// argument cannot give the value the function's next call is resolved through (CallGraph::unpassed).
//
// Ownership: borrows the graph and the model, which must outlive it. Threading: immutable after
// construction except for the memos of PathsTo and PublicReachers; one thread at a time.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "analysis/call_feasibility.h"
#include "analysis/call_graph.h"
#include "analysis/call_paths.h"
#include "analysis/code_model.h"

namespace errdex {

class GraphTriggers {
 public:
  using NodeId = uint32_t;
  static constexpr NodeId kNoNode = UINT32_MAX;
  static constexpr uint32_t kNoEdge = UINT32_MAX;

  GraphTriggers(const CallGraph& graph, const CodeModel& model);

  // The node of the function a scope name (Site::function, RaisesTest::function) of the file at PATH runs
  // in, holding LINE (a property's getter and setter, or `@overload` stubs, share a name); a lambda or a
  // class body falls back to the function around it (CodeModel::ScopeOf). kNoNode when none.
  NodeId NodeOf(const std::string& path, const std::string& scope, int line) const;

  // Call paths from the public API to the function of NODE, in the shape of PublicCallPaths
  // (analysis/call_paths.h): the last frame is the raising function with line 0 and code "" (the caller
  // fills in the raise). A public function gives its own one-frame path first. Memoized per (node, bounds).
  const std::vector<CallPath>& PathsTo(NodeId node, int max_depth = 6, size_t max_paths = 5);
  // The same for the raise SITE of NODE's function: a call into NODE whose arguments make SITE's path
  // conditions decidably false (CallFeasibility) is not followed, so a path through it is not given.
  // A call inside a `try` of its caller that catches SITE's exception (CallGraph::catch_sets; RaisedTypeOf) is
  // not followed either: the error does not escape through it.
  const std::vector<CallPath>& PathsTo(NodeId node, const Site& site, int max_depth = 6, size_t max_paths = 5);
  // How many public functions reach NODE's function within MAX_DEPTH calls, counting those that reach it
  // through another public function too (a public `get` calling the public `request` that reaches it: both),
  // at most MAX_COUNT; NODE itself counts when it is public. With SITE, the calls into NODE that cannot
  // reach SITE (as for PathsTo) are not followed. Every edge kind that a path may take is followed. With
  // REACHERS, the public functions counted are appended to it. With SITE, a call that catches its exception is
  // not followed (as for PathsTo).
  int PublicReachers(NodeId node, const Site* site, int max_depth, size_t max_count,
                     std::vector<NodeId>* reachers = nullptr);

  // A site whose message one caller supplies (SiteRow::via; docs/analysis.md, "Messages supplied by a
  // caller"): the raise of a helper that raises or warns what it is handed, reached through the supplying
  // call at LINE of the function CALLER. Its paths and reach go through that call: the searches go up from
  // CALLER, and below it the calls CHAIN lead to the raising function RAISE (the helper, or a derived helper
  // and then the helper).
  struct Supplied {
    NodeId caller = kNoNode, raise = kNoNode;
    int line = 0;
    // Graph edges from CALLER's call at LINE down to RAISE, in order; empty when the graph resolves no such
    // chain (the call is then cited as calling RAISE directly).
    std::vector<uint32_t> chain;
    bool reaches = true;  // false: a call of the chain catches the raise, or its arguments make it impossible
    bool certain = true;  // every call of the chain is certain
    int calls() const { return chain.empty() ? 1 : static_cast<int>(chain.size()); }
  };
  // The supplied site's chain: the shortest one (at most kMaxSuppliedCalls calls) from a call of CALLER on
  // LINE to RAISE. RAISED (RaisedType) and SITE (the helper's raise, may be null) decide whether it reaches.
  Supplied SuppliedBy(NodeId caller, int line, NodeId raise, const Site* site, int raised);
  // Call paths of a supplied site, in the shape of PathsTo: entry → … → CALLER (citing the supplying call) →
  // the chain's functions → the raising function (line 0). CALLER public: its own path first. Bounds include
  // the chain's calls. Memoized.
  const std::vector<CallPath>& PathsTo(const Supplied& supplied, int raised, int max_depth = 6, size_t max_paths = 5);
  // PublicReachers of a supplied site: the public functions that reach CALLER within MAX_DEPTH less the
  // chain's calls (CALLER itself when public).
  int PublicReachers(const Supplied& supplied, int raised, int max_depth, size_t max_count,
                     std::vector<NodeId>* reachers = nullptr);

  // The module-level statements (class bodies included: the graph gives their calls to the module) whose
  // resolved call runs the function of NODE, in the graph's edge order: what runs it at import time.
  struct ImportTimeCall {
    std::string path;
    int line = 0;
    std::string code;  // the call's line (CallFact::code)
  };
  std::vector<ImportTimeCall> ImportTimeCallers(NodeId node) const;

  // The expecting block of a test: the statement at lines [FIRST, LAST] of the function of NODE. With
  // CALL_FORM (`assert_raises(E, f, *args)`), only the functions it hands over count (the helper it calls
  // is the expectation, not the code under test); otherwise the calls of the body (lines after FIRST).
  struct Block {
    NodeId node = kNoNode;
    int first = 0, last = 0;
    bool call_form = false;
    // Calls of the block to the test framework's own API (python/raises_apis.h, IsTestFrameworkCall: a
    // nested `pytest.warns(...)`, `self.assertEqual(...)`), as (line, called name), sorted: they are the
    // test's checks, not the code under test, and are not followed (a `with` form only). The called name
    // "" stands for every call of the line (a `with` line of such a call: its context managers too).
    std::vector<std::pair<int, std::string>> framework_calls;
  };
  // How many calls from BLOCK the nearest of TARGETS is (1: the block calls it), or -1 when the block does
  // not reach any: the block's own calls (resolved or "possible"), then resolved edges only, breadth first,
  // within kMaxReachVisited functions. The reaches of the last block asked are kept (one per set of raises
  // that the calls met catch alike).
  // RAISED (RaisedType): a call that catches the targets' exception is not followed.
  // CERTAIN_ONLY (a test without a pattern, docs/analysis.md "Tests that provoke an error"): beyond the block's
  // own calls, only edges whose callee the graph knows for this call (CertainReachEdge).
  int Distance(const Block& block, const std::vector<NodeId>& targets, int raised = kNothingCaught,
               bool certain_only = false) const;
  bool Reaches(const Block& block, const std::vector<NodeId>& targets, int raised = kNothingCaught) const {
    return Distance(block, targets, raised) >= 0;
  }
  // Distance to the one target TARGET.
  int Distance(const Block& block, NodeId target, int raised = kNothingCaught, bool certain_only = false) const;

  // Caught by a caller (docs/analysis.md, "Raises caught by a caller"): which calls of the graph catch a raise
  // of QUALIFIED_TYPE (a resolved type as PythonModuleIndex::Resolve gives it, "" when it did not resolve) at a
  // site of KIND ("raise", "reraise", "assert", "warn"). A call catches it when one of its enclosing `try`
  // blocks names the type or one of its bases (PythonModuleIndex::TypeAndBases), or catches everything (a
  // bare `except:`, `BaseException`; `Exception` for every type not known to derive from BaseException
  // only); an unresolved type is caught only by those. A warning is never caught. The answer is an id for the
  // searches (the types that the same calls catch share one), kNothingCaught when no call catches it.
  static constexpr int kNothingCaught = -1;
  int RaisedType(const std::string& qualified_type, const std::string& kind);
  // The same for SITE of the file at PATH (its type resolved in that file).
  int RaisedTypeOf(const std::string& path, const Site& site);
  // Whether the call of graph edge EDGE catches the raise RAISED.
  bool Catches(uint32_t edge, int raised) const {
    return raised >= 0 && caught_[static_cast<size_t>(raised)][graph_.edges[edge].catches] != 0;
  }

  const CallGraph& graph() const { return graph_; }

 private:
  std::string CallCode(const std::string& path, int line) const;
  // The calls into NODE whose arguments make SITE's path conditions decidably false (sorted edge indices).
  // Memoized per (NODE, SITE's address): SITE must outlive the object.
  const std::vector<uint32_t>& CallsThatCannotReach(NodeId node, const Site& site);
  // PublicReachers' breadth-first search up the callers, EXCLUDED calls into NODE not followed.
  std::vector<NodeId> SearchPublicReachers(NodeId node, const std::vector<uint32_t>& excluded, int raised,
                                           int max_depth, size_t max_count) const;
  bool FrameworkCall(const Block& block, const CallGraphEdge& e) const;
  // Whether a reach over only certain edges follows E beyond a block's own calls (which it always follows): not
  // a "possible" or "callback" edge, nor a call through a parameter of its caller (CallGraphEdge::parameter).
  static bool CertainReachEdge(const CallGraphEdge& e);
  // A step of Search: the way from a caller toward the start.
  struct Step {
    NodeId toward = kNoNode;
    uint32_t edge = 0;
    bool certain = true;
    int line = 0;  // where the caller runs the callee's body (the edge's line, or a generator's iteration)
  };
  std::vector<Step> steps_;  // Search's steps per node, valid where step_stamp_ is its stamp
  std::vector<uint32_t> step_stamp_;
  uint32_t search_stamp_ = 0;
  // EXCLUDED: edges into START that are not followed (sorted).
  // A middle frame's call: through edges other than those into START, a caller whose call makes the `if`
  // tests guarding the callee's next call decidably false is not followed (CallFeasibility::ImpossibleThrough).
  // RAISED: calls that catch it are not followed (RaisedType).
  // ONWARD (kNoEdge when none): START's own next call, of a path that goes on below START (a supplied site's
  // chain): the checks of a middle frame apply to the calls into START too.
  void Search(NodeId start, bool certain_only, int max_depth, size_t max_paths, const std::vector<uint32_t>& excluded,
              int raised, uint32_t onward, uint32_t entries, std::vector<CallPath>* out);
  // Per node: the stamp (ENTRIES of Search) of the last Paths that gave a path from it.
  std::vector<uint32_t> entry_stamp_;
  uint32_t entries_stamp_ = 0;
  std::vector<CallPath> Paths(NodeId node, int max_depth, size_t max_paths, const std::vector<uint32_t>& excluded,
                              int raised, uint32_t onward = kNoEdge);
  // Whether the call of edge INTO cannot pass its callee the value that edge FROM (the callee's next call)
  // is resolved through (CallGraph::unpassed): a path does not take INTO then FROM.
  bool Unpassed(uint32_t into, uint32_t from) const;
  // Whether what INTO passes for that parameter is not known (CallGraph::unknown_passes).
  bool UnknownPass(uint32_t into, uint32_t from) const;
  // Whether EDGE's call cannot reach its callee's line MIDDLE_LINE (memoized).
  bool ImpossibleThrough(uint32_t edge, int middle_line);
  // The line at which EDGE's caller runs its callee's body (CallFeasibility::BodyRunLine): the edge's line,
  // a generator's iteration, or -1 when the caller only makes the generator (memoized).
  int BodyRunLine(uint32_t edge);
  // An implicit edge from a `with` to the `__exit__` (`__aexit__`) it runs: checked for the receiver's state.
  bool WithExit(const CallGraphEdge& e) const;

  const CallGraph& graph_;
  const CodeModel& model_;
  std::vector<CodeModel::FunctionId> function_of_;  // per node: the model's function, kNone when none
  std::vector<char> is_entry_;                      // per node: a public function of the model
  std::vector<char> is_barrier_;                    // per node: module-level code or a test file's function
  // Edges by callee (for paths) and by caller (for reach): offsets into edge index lists.
  std::vector<uint32_t> in_begin_, in_edges_, out_begin_, out_edges_;
  // Per edge: followed by Distance beyond a block's own calls (kReachFollowed), and certain there (kReachCertain).
  static constexpr uint8_t kReachFollowed = 1, kReachCertain = 2;
  // Per entry of out_edges_, what SearchReach reads of its edge, side by side: the reach visits most of the
  // graph for each block, and reading the edges through out_edges_ missed the cache at each step.
  struct ReachStep {
    NodeId callee = 0;
    uint32_t catches = 0;
    uint8_t flags = 0;
  };
  std::vector<ReachStep> out_steps_;
  std::unordered_map<std::string, std::vector<NodeId>> nodes_by_scope_;  // "path\0qualname" -> nodes
  std::map<std::tuple<NodeId, int, size_t>, std::vector<CallPath>> memo_;
  std::map<std::tuple<NodeId, int, size_t, std::vector<uint32_t>, int>, std::vector<CallPath>> excluded_memo_;
  std::map<std::tuple<NodeId, int, size_t, std::vector<uint32_t>, int>, std::vector<NodeId>> reachers_memo_;
  // Per catch set of the graph: its `try` blocks, innermost first, each a list of clauses in order.
  struct Clause {
    bool all = false, exception = false, reraises = false;
    std::vector<std::string> names;  // qualified names of the classes it takes, sorted
  };
  std::vector<std::vector<std::vector<Clause>>> catch_tries_;
  // Per raise id: per catch set, whether it catches the raise (1). Raise ids by (kind class, type).
  std::vector<std::vector<char>> caught_;
  std::map<std::vector<char>, int> caught_ids_;
  std::unordered_map<std::string, int> raised_ids_;
  std::map<std::pair<NodeId, const Site*>, std::vector<uint32_t>> cannot_reach_memo_;
  // PathsTo(Supplied) by (caller, line, chain, raised, bounds).
  std::map<std::tuple<NodeId, int, std::vector<uint32_t>, int, int, size_t>, std::vector<CallPath>> supplied_memo_;
  CallFeasibility feasibility_;
  std::unordered_map<uint64_t, bool> through_memo_;  // (edge, middle line) -> ImpossibleThrough
  std::unordered_map<uint32_t, int> run_lines_;      // edge -> BodyRunLine
  mutable std::unordered_map<std::string, std::unordered_map<int, std::string>> call_codes_;  // path -> line -> code
  // Distance's searches from one block: the reach for one raise, and the catch sets of the calls it examined
  // (CallGraphEdge::catches, 0 left out). Another raise that those sets catch alike (RaisedType) takes
  // the very same steps, so it has the same reach: one search per block serves every such raise.
  struct Reach {
    std::vector<uint32_t> seen;  // per node: the stamp of the search that visited it
    std::vector<int> depth;      // per node seen with this reach's stamp: calls from the block
    uint32_t stamp = 0;
    std::vector<int> raised;    // the raises this reach is known to serve (the first is the one searched)
    std::vector<uint32_t> met;  // the catch sets met
  };
  // The reach of LAST_BLOCK_ that serves RAISED, searched when none of those kept does.
  const Reach& ReachFor(const Block& block, int raised, bool certain_only) const;
  // The calls from the block to TARGET in REACH, or -1 when REACH did not see it.
  static int DepthIn(const Reach& reach, NodeId target);
  void SearchReach(const Block& block, int raised, bool certain_only, Reach* reach) const;
  // Whether the catch sets SETS catch raises A and B alike.
  bool CatchAlike(int a, int b, const std::vector<uint32_t>& sets) const;
  bool CaughtBy(int raised, uint32_t set) const {
    return raised >= 0 && caught_[static_cast<size_t>(raised)][set] != 0;
  }
  mutable std::vector<Reach> reaches_;  // the first reaches_used_ are last_block_'s (kMaxReachesKept slots)
  mutable size_t reaches_used_ = 0;
  mutable size_t next_reach_ = 0;  // the slot a new reach of a block takes once all are used
  mutable uint32_t stamp_ = 0;
  mutable std::vector<uint32_t> met_mark_;   // per catch set: the stamp of the last search that met it
  mutable std::vector<NodeId> reach_queue_;  // SearchReach's breadth-first queue, kept for its capacity
  mutable Block last_block_;                 // the block whose reaches reaches_ holds
  mutable bool last_certain_only_ = false;   // whether those searches followed certain edges only
  mutable bool have_block_ = false;
  static constexpr size_t kMaxReachesKept = 8;
};

// Functions examined at most by one Reaches.
inline constexpr size_t kMaxReachVisited = 20000;

// Calls at most from a supplying call to the raise of its helper (GraphTriggers::SuppliedBy): the helper, or a
// derived helper and then the helper (docs/extraction.md, "Raising helpers"), and one more.
inline constexpr int kMaxSuppliedCalls = 3;

}  // namespace errdex
