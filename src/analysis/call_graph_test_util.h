// The call graph of small programs written for a test (tests only): each source extracted by the test
// extractor and resolved together, with its edges by PyCG name. Header-only; one per test.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/call_graph.h"
#include "testing/test_extractor.h"

namespace errdex::call_graph_test {

using Edges = std::set<std::pair<std::string, std::string>>;

struct Built {
  CallGraph graph;
  Edges edges;                               // resolved edges (no "possible"), by PyCG name
  Edges possible;                            // "possible" edges
  std::map<std::string, std::string> kinds;  // "caller->callee" -> kind
};

// SOURCES: (path, text) of each file of the program.
inline Built Build(const std::vector<std::pair<std::string, std::string>>& sources) {
  std::vector<FileFacts> facts;
  facts.reserve(sources.size());
  for (const auto& [path, text] : sources)
    facts.push_back(testing_util::TestExtractor().Extract(text, ExtractOptions()));
  std::vector<CallGraphFile> files;
  for (size_t i = 0; i < sources.size(); ++i) files.push_back({sources[i].first, &facts[i]});
  Built b;
  b.graph = BuildCallGraph(files);
  for (const CallGraphEdge& e : b.graph.edges) {
    const std::string from = b.graph.nodes[e.caller].name, to = b.graph.nodes[e.callee].name;
    (e.kind == "possible" ? b.possible : b.edges).insert({from, to});
    b.kinds[from + "->" + to] = e.kind;
  }
  return b;
}

}  // namespace errdex::call_graph_test
