// Tests of the triggers read from the call graph (src/analysis/graph_triggers.h) on a small package
// extracted for real: a re-exported public class, private helpers, and tests with expecting blocks.
#include "analysis/graph_triggers.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "python/python_module_index.h"
#include "testing/test_extractor.h"

namespace errdex {
namespace {

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

Repo Package() {
  return Repo({{"pkg/__init__.py", "from pkg.api import Client\n__all__ = ['Client']\n"},
               {"pkg/api.py",
                "from pkg._impl import check\n"
                "class Client:\n"
                "    def get(self, n):\n"
                "        return _fetch(n)\n"
                "    def _internal(self):\n"
                "        check(0)\n"
                "def _fetch(n):\n"
                "    return check(n)\n"},
               {"pkg/_impl.py", "def check(n):\n    if n < 0:\n        raise ValueError('negative')\n    return n\n"},
               {"tests/test_api.py",
                "import pytest\n"
                "from pkg import Client\n"
                "from pkg._impl import check\n"
                "def test_get():\n"
                "    with pytest.raises(ValueError):\n"
                "        Client().get(-1)\n"
                "def test_call_form():\n"
                "    pytest.raises(ValueError, check, -1)\n"
                "def test_nothing():\n"
                "    with pytest.raises(ValueError):\n"
                "        pass\n"}});
}

TEST(GraphTriggersTest, PathsRunFromTheExportedApiWithTheCallLines) {
  Repo repo = Package();
  const GraphTriggers::NodeId check = repo.triggers->NodeOf("pkg/_impl.py", "check", 3);
  ASSERT_NE(check, GraphTriggers::kNoNode);
  const std::vector<CallPath>& paths = repo.triggers->PathsTo(check);
  ASSERT_EQ(paths.size(), 1u);  // Client._internal and _fetch are private; the test is no entry
  const std::vector<CallFrame>& f = paths[0].frames;
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].path + ":" + std::to_string(f[0].line) + " " + f[0].function + " | " + f[0].code,
            "pkg/api.py:4 Client.get | return _fetch(n)");
  EXPECT_EQ(f[1].path + ":" + std::to_string(f[1].line) + " " + f[1].function + " | " + f[1].code,
            "pkg/api.py:8 _fetch | return check(n)");
  EXPECT_EQ(f[2].path + ":" + std::to_string(f[2].line) + " " + f[2].function, "pkg/_impl.py:0 check");
  EXPECT_TRUE(paths[0].certain);
  // A public function is its own first path.
  const GraphTriggers::NodeId get = repo.triggers->NodeOf("pkg/api.py", "Client.get", 4);
  ASSERT_FALSE(repo.triggers->PathsTo(get).empty());
  EXPECT_EQ(repo.triggers->PathsTo(get)[0].frames.size(), 1u);
}

TEST(GraphTriggersTest, ABlockReachesWhatItsCallsReach) {
  Repo repo = Package();
  const std::vector<GraphTriggers::NodeId> check = {repo.triggers->NodeOf("pkg/_impl.py", "check", 3)};
  const std::vector<GraphTriggers::NodeId> internal = {repo.triggers->NodeOf("pkg/api.py", "Client._internal", 6)};
  auto block = [&](const std::string& test, int first, int last, bool call_form) {
    return GraphTriggers::Block{repo.triggers->NodeOf("tests/test_api.py", test, first), first, last, call_form};
  };
  EXPECT_TRUE(repo.triggers->Reaches(block("test_get", 5, 6, false), check));
  // Client().get(-1) calls Client.get, which calls _fetch, which calls check: three calls from the block.
  EXPECT_EQ(repo.triggers->Distance(block("test_get", 5, 6, false), check), 3);
  EXPECT_FALSE(repo.triggers->Reaches(block("test_get", 5, 6, false), internal));
  // pytest.raises(ValueError, check, -1): pytest calls what it is handed.
  EXPECT_TRUE(repo.triggers->Reaches(block("test_call_form", 8, 8, true), check));
  EXPECT_FALSE(repo.triggers->Reaches(block("test_nothing", 10, 11, false), check));
}

}  // namespace
}  // namespace errdex
