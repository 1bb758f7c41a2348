// Raising helpers across a revision: a call `self.fail("... {x}")` in one file hands its message to
// `def fail(self, message): raise UsageError(message, self)` in another. Each such call is a site of its
// own: raised at the helper's raise, with the caller's message, reached through the call
// (docs/extraction.md, "Raising helpers").
//
// Threading: a pure function of its arguments. Ownership: results point into FILES, which must outlive them.
#pragma once

#include <string>
#include <vector>

#include "extract/file_facts.h"

namespace errdex {

struct HelperCallSite {
  size_t helper_file = 0;       // index into FILES of the helper's file
  const Site* raise = nullptr;  // the helper's raise site
  size_t call_file = 0;         // index into FILES of the calling file
  const MessageCall* call = nullptr;
  std::string template_text;  // the message the call hands over
  // The class raised, as written in the calling file: of the instance the call hands over (`Warning("text")`),
  // or the class it passes to a helper whose class is a parameter (`_raise_error(DivisionByZero, "x / 0")`).
  std::string instance_type;
  // The function the call must reach: the helper's own (raise's) function, or for a derived helper — a
  // function handing its parameter, in an instance, to a helper — that function, defined in FILES[reach_file].
  size_t reach_file = 0;
  std::string reach_function;
};

struct FileFactsRef {
  std::string path;
  const FileFacts* facts = nullptr;
};

// Resolution is by name: a call `obj.name(...)` may reach any method `name` that raises its parameter,
// `name(...)` any function; `self.name(...)` prefers a helper of the caller's class and then of its
// file. At most kMaxHelpersPerCall helpers per call.
std::vector<HelperCallSite> LinkRaisingHelpers(const std::vector<FileFactsRef>& files);

inline constexpr size_t kMaxHelpersPerCall = 3;

}  // namespace errdex
