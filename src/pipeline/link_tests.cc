// Stage 5 of an index run (pipeline/index_run.h): tests that provoke errors (docs/analysis.md), the
// raises-tests of test files, linked by type and pattern.
#include "analysis/test_links.h"
#include "pipeline/index_run.h"

namespace errdex {

void LinkTests(IndexRun& run) {
  const PythonModuleIndex& modules = *run.modules;
  ErrorTestLinker linker([&modules](const std::string& type) { return modules.TypeAndBases(type); });
  for (const SiteRow& s : run.data.sites) {
    if (!s.is_test) linker.AddCodeSite(s.error_id, s.type_qualified, s.type, s.template_text);
  }
  for (const FileWork& w : run.work) {
    const std::string& path = w.entry->path;
    if (w.facts.raises_tests.empty() || !IsTestPath(path)) continue;
    for (const RaisesTest& t : w.facts.raises_tests) {
      for (std::string& id : linker.Link(t.type, modules.Resolve(path, t.type), t.match)) {
        run.data.error_tests.push_back({std::move(id), path, t.line, t.function, t.kind, t.type, t.match, t.code});
      }
    }
  }
}

}  // namespace errdex
