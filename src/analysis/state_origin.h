// Where the state comes from (docs/analysis.md, "Where the state comes from"): for each attribute and global name a
// site's conditions read (Condition::reads), every place of the repository that writes it, ranked by
// closeness to the site, and for each writer the module-level statements that install it at import
// time (`torch.compile = _capture_compile_kwargs(torch.compile)` installs the writes made inside
// `_capture_compile_kwargs.<locals>._capture`).
//
// Types are not inferred: an attribute read `obj.name` matches every write of an attribute `name` on any
// object that is not a module; the ranking (the site's class and its bases through `self`/`cls`, then
// the site's module, its package, the rest of the code, test files last) puts the likely ones first.
//
// The statements that call a writer at import time come from the call graph when there is one (TRIGGERS:
// module-level code and class bodies with a resolved call of it), else from the code model's own call index.
//
// Threading: without TRIGGERS, StateOriginsOf is thread-safe (the model is immutable); with TRIGGERS, one
// thread at a time (its caches). Results own their strings.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "analysis/code_model.h"
#include "analysis/graph_triggers.h"
#include "extract/file_facts.h"

namespace errdex {

// Reads with more candidate writers than this list none (StateOrigin::more says how many there were).
inline constexpr size_t kMaxWritersPerRead = 50;
// Module-level installs reported per writer.
inline constexpr size_t kMaxInstallsPerWriter = 8;

// A module-level statement that installs a writer (runs at import time): a call of the writer's function
// (or of a function it is nested in), or a decorator naming it.
struct ImportTimeInstall {
  std::string path;
  int line = 0;
  std::string code;  // the module-level statement: the StateWrite on that line (its code) when there is
                     // one, else the call's line (CallFact::code), or "@decorator" for a decorator
};

struct StateWriter {
  std::string path;
  int line = 0;
  std::string function;  // StateWrite::function: the scope that writes, "<module>" at module level
  std::string code;      // StateWrite::code
  std::string kind;      // StateWrite::kind: "assign", "augassign", "annassign", "setattr", "delete"
  std::vector<ImportTimeInstall> installed_by;  // empty for a module-level writer (it runs at import)
};

struct StateOrigin {
  StateRead read;
  int condition_line = 0;            // the line of the first condition that reads it
  std::vector<StateWriter> writers;  // best first, at most max_writers
  size_t more = 0;                   // writers left out (all of them when over kMaxWritersPerRead)
};

// The origins of what CONDITIONS (of a site in scope SITE_FUNCTION of the file at SITE_PATH) read, one
// per distinct (kind, target, name), in the order the conditions and their reads come. Reads with no
// writer in the repository are left out, as are reads of names that denote a module, class or function
// and reads of modules outside the repository that the repository never writes (`sys.version_info`).
std::vector<StateOrigin> StateOriginsOf(const CodeModel& model, const std::string& site_path,
                                        const std::string& site_function, const std::vector<Condition>& conditions,
                                        size_t max_writers = 8, const GraphTriggers* triggers = nullptr);

}  // namespace errdex
