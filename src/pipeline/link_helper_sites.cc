// Stage 4 of an index run (pipeline/index_run.h): calls of raising helpers (`ctx.fail("...")`) are sites of
// their own: the helper's raise with the caller's message, when the call can reach the helper.
#include <string_view>
#include <unordered_set>

#include "pipeline/index_run.h"
#include "pipeline/site_rows.h"
#include "python/raising_helpers.h"

namespace errdex {
namespace {

// Whether the call of H reaches the helper's function: `os.remove(...)` or `items.add(...)` do not reach a
// `remove` or `add` method of the repository (CodeModel::Resolve: library calls and builtin-type methods).
bool CallReachesHelper(const IndexRun& run, const HelperCallSite& h, const std::string& call_path,
                       const std::string& reach_path) {
  CallFact call;
  call.function = h.call->function;
  call.callee = h.call->receiver.empty() ? h.call->name : h.call->receiver + "." + h.call->name;
  call.line = h.call->line;
  call.col = h.call->col;
  for (const CodeModel::Target& t : run.model->Resolve(call_path, call)) {
    const CodeModel::Function& fn = run.model->function(t.function);
    if (fn.path == reach_path && fn.qualname == h.reach_function) return true;
  }
  // A callable instance (`fail = _Fail()`, raising in `_Fail.__call__`): the code model resolves functions and
  // classes, not instances; the call reaches it when it names the instance of the helper's module.
  constexpr std::string_view kCall = ".__call__";
  const std::string& fn = h.reach_function;
  if (fn.size() > kCall.size() && fn.compare(fn.size() - kCall.size(), kCall.size(), kCall) == 0) {
    if (call_path == reach_path && call.callee == h.call->name) return true;
    const std::optional<std::string> named = run.modules->AbsoluteName(call_path, call.callee);
    return named && *named == run.modules->ModuleOf(reach_path) + "." + h.call->name;
  }
  return false;
}

}  // namespace

void LinkHelperSites(IndexRun& run) {
  std::vector<FileFactsRef> file_refs;
  file_refs.reserve(run.work.size());
  for (const FileWork& w : run.work) file_refs.push_back({w.entry->path, &w.facts});
  // A helper whose exception class writes its own message (`ObjectNotExecutableError(target)` renders
  // "Not an executable object: {target}") does not raise the text it is handed: no site for those calls.
  std::unordered_set<std::string> classes_with_message;
  for (const ClassRow& c : run.data.classes) {
    if (!c.message.empty()) classes_with_message.insert(c.qualified_name);
  }
  for (const HelperCallSite& h : LinkRaisingHelpers(file_refs)) {
    const std::string& helper_path = file_refs[h.helper_file].path;
    if (h.raise->type) {
      const std::optional<std::string> type = run.modules->Resolve(helper_path, *h.raise->type);
      if (type && classes_with_message.count(*type) != 0) continue;
    }
    const std::string& call_path = file_refs[h.call_file].path;
    if (!CallReachesHelper(run, h, call_path, file_refs[h.reach_file].path)) continue;
    AddSiteRow(run, helper_path, *h.raise, h.template_text, IsTestPath(helper_path) || IsTestPath(call_path),
               call_path + ":" + std::to_string(h.call->line) + " in " + h.call->function, h.instance_type, call_path);
  }
}

}  // namespace errdex
