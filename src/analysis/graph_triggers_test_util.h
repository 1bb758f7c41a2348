// A small program extracted for real, with its code model, call graph and triggers, for the tests of the
// analysis that reads the graph (tests only). Header-only. Files under "tests/" are test files.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "analysis/call_graph.h"
#include "analysis/code_model.h"
#include "analysis/graph_triggers.h"
#include "python/python_module_index.h"
#include "testing/test_extractor.h"

namespace errdex::graph_triggers_test {

struct Repo {
  std::vector<std::pair<std::string, std::string>> sources;
  std::vector<FileFacts> facts;
  std::unique_ptr<PythonModuleIndex> index;
  std::unique_ptr<CodeModel> model;
  CallGraph graph;
  std::unique_ptr<GraphTriggers> triggers;

  explicit Repo(std::vector<std::pair<std::string, std::string>> files) : sources(std::move(files)) {
    facts.reserve(sources.size());
    for (const auto& [path, text] : sources)
      facts.push_back(testing_util::TestExtractor().Extract(text, ExtractOptions()));
    std::vector<PythonModuleIndex::FileRef> refs;
    std::vector<CodeModel::File> model_files;
    std::vector<CallGraphFile> graph_files;
    for (size_t i = 0; i < sources.size(); ++i) {
      refs.push_back({sources[i].first, &facts[i]});
      model_files.push_back({sources[i].first, &facts[i], sources[i].first.rfind("tests/", 0) == 0});
      graph_files.push_back({sources[i].first, &facts[i]});
    }
    index = std::make_unique<PythonModuleIndex>(refs);
    model = std::make_unique<CodeModel>(*index, model_files);
    graph = BuildCallGraph(graph_files);
    triggers = std::make_unique<GraphTriggers>(graph, *model);
  }
};

// The site of REPO's file PATH at LINE (a test failure, and the first site, when there is none).
inline const Site& SiteAt(const Repo& repo, const std::string& path, int line) {
  for (size_t i = 0; i < repo.sources.size(); ++i) {
    if (repo.sources[i].first != path) continue;
    for (const Site& s : repo.facts[i].sites) {
      if (s.line == line) return s;
    }
  }
  ADD_FAILURE() << "no site at " << path << ":" << line;
  return repo.facts[0].sites.front();
}

}  // namespace errdex::graph_triggers_test
