// Stage 5 of an index run (pipeline/index_run.h): tests that provoke errors (docs/analysis.md), the
// raises-tests of test files, linked by type and pattern when the calls of their expecting block reach
// the error's raise in the call graph.
#include <algorithm>
#include <unordered_map>

#include "analysis/code_model.h"
#include "analysis/site_paths.h"
#include "analysis/test_links.h"
#include "pipeline/index_run.h"
#include "python/raises_apis.h"

namespace errdex {
namespace {

// A test that expects a message it writes as an expression extraction cannot read (`match="^" + expr`,
// `assert_raises_message(E, "%s ..." % name, f)`) has a pattern whose text is unknown (`match` is ""): it is
// not a test without a pattern, and its type alone must not stand in for it.
bool PatternUnknown(const RaisesTest& t) {
  if (!t.match.empty()) return false;
  if (t.kind.find("message") != std::string::npos || t.kind.find("Regex") != std::string::npos ||
      t.kind.find("Message") != std::string::npos) {
    return true;
  }
  const size_t header_end = t.code.find(":\n");
  return t.code.substr(0, header_end).find("match=") != std::string::npos;
}

// A raise a block must reach: its target (SitePaths::TestTarget) and the site it stands for (the first of the
// error's sites with that target).
struct RaiseTarget {
  SitePaths::Target target;
  const SiteRow* site = nullptr;
};

// The nearest of TARGETS' raises from BLOCK: how many calls (GraphTriggers::Distance to the target's node, plus
// its calls from there to the raise; -1 when BLOCK reaches none) and its site (the first such in the error's
// order). Distance reads the block's reach, searched once for the raise: one lookup per target.
struct Nearest {
  int distance = -1;
  const SiteRow* site = nullptr;
};
Nearest NearestTarget(const GraphTriggers& triggers, const GraphTriggers::Block& block,
                      const std::vector<RaiseTarget>& targets, int raised, bool certain_only) {
  Nearest best;
  for (const RaiseTarget& t : targets) {
    const int d = triggers.Distance(block, t.target.node, raised, certain_only);
    if (d >= 0 && (best.distance < 0 || d + t.target.calls < best.distance)) best = {d + t.target.calls, t.site};
  }
  return best;
}

}  // namespace

void LinkTests(IndexRun& run) {
  const PythonModuleIndex& modules = *run.modules;
  ErrorTestLinker linker([&modules](const std::string& type) { return modules.TypeAndBases(type); });
  GraphTriggers* triggers = run.triggers.get();
  // What a block must reach to provoke each error (its sites outside tests): the raising functions, or the
  // functions that supply a helper's message (SitePaths::TestTarget), with the calls from there to the raise.
  SitePaths site_paths(*run.model, triggers);
  // And what each error's raise is for the calls that catch it (GraphTriggers::RaisedType): its first site's type.
  struct ErrorTargets {
    int raised = GraphTriggers::kNothingCaught;
    std::vector<RaiseTarget> targets;
  };
  std::unordered_map<std::string, ErrorTargets> raising;
  for (const SiteRow& s : run.data.sites) {
    // Examples and documentation use the code: what they raise is not what the tests provoke.
    if (s.is_test || IsAuxiliaryPath(s.path)) continue;
    linker.AddCodeSite(s.error_id, s.type_qualified, s.type, s.template_text);
    if (triggers == nullptr) continue;
    const SitePaths::Target target = site_paths.TestTarget(s);
    auto [error, first] = raising.try_emplace(s.error_id);
    if (first) error->second.raised = triggers->RaisedType(s.type_qualified.value_or(""), s.kind);
    std::vector<RaiseTarget>& targets = error->second.targets;
    auto same = [&](const RaiseTarget& t) { return t.target.node == target.node && t.target.calls == target.calls; };
    if (target.node != GraphTriggers::kNoNode && std::none_of(targets.begin(), targets.end(), same)) {
      targets.push_back({target, &s});
    }
  }
  for (const FileWork& w : run.work) {
    const std::string& path = w.entry->path;
    if (w.facts.raises_tests.empty() || !IsTestPath(path) || IsAuxiliaryPath(path)) continue;
    // Calls of the test framework's own API (line, called name; "" for a `with` line), sorted.
    std::vector<std::pair<int, std::string>> framework_calls;
    for (const CallFact& c : w.facts.calls) {
      if (!IsTestFrameworkCall(c.callee)) continue;
      const size_t dot = c.callee.rfind('.');
      const bool with_line = c.code.compare(0, 5, "with ") == 0 || c.code.compare(0, 11, "async with ") == 0;
      framework_calls.emplace_back(c.line, with_line ? std::string() : c.callee.substr(dot + 1));
    }
    std::sort(framework_calls.begin(), framework_calls.end());
    framework_calls.erase(std::unique(framework_calls.begin(), framework_calls.end()), framework_calls.end());
    for (const RaisesTest& t : w.facts.raises_tests) {
      const std::optional<std::string> resolved = modules.Resolve(path, t.type);
      std::vector<std::string> ids;
      std::unordered_map<std::string, const SiteRow*> reached;  // error id -> its site the block reaches nearest
      if (triggers == nullptr) {
        ids = linker.Link(t.type, resolved, t.match);
      } else if (!PatternUnknown(t)) {
        GraphTriggers::Block block;
        block.node = triggers->NodeOf(path, t.function, t.line);
        block.first = t.line;
        block.last = t.line + static_cast<int>(std::count(t.code.begin(), t.code.end(), '\n'));
        if (t.code.size() + 64 >= kMaxRaisesTestCodeBytes && block.node != GraphTriggers::kNoNode) {
          // The statement's text was cut: its block may go on to the end of the test function.
          block.last = std::max(block.last, triggers->graph().nodes[block.node].end_line);
        }
        block.call_form = t.kind.size() > 5 && t.kind.compare(t.kind.size() - 5, 5, "_call") == 0;
        if (!block.call_form) {
          auto lo = std::lower_bound(framework_calls.begin(), framework_calls.end(),
                                     std::make_pair(block.first + 1, std::string()));
          auto hi = std::lower_bound(framework_calls.begin(), framework_calls.end(),
                                     std::make_pair(block.last + 1, std::string()));
          block.framework_calls.assign(lo, hi);
        }
        ids = linker.LinkReached(t.type, resolved, t.match, [&](const std::string& id) {
          auto it = raising.find(id);
          if (it == raising.end()) return -1;
          // Without a pattern, the type alone says which error: only a reach the graph is sure of.
          const Nearest nearest =
              NearestTarget(*triggers, block, it->second.targets, it->second.raised, t.match.empty());
          reached[id] = nearest.site;
          return nearest.distance;
        });
      }
      for (size_t i = 0; i < ids.size(); ++i) {
        auto it = reached.find(ids[i]);  // LinkReached asked the distance of every id it links
        const SiteRow* site = it == reached.end() ? nullptr : it->second;
        run.data.error_tests.push_back({std::move(ids[i]), path, t.line, t.function, t.kind, t.type, t.match, t.code,
                                        site != nullptr ? site->path : std::string(),
                                        site != nullptr ? site->line : 0});
      }
    }
  }
}

}  // namespace errdex
