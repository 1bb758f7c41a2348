// A module's `__all__` (FileFacts::has_all, all_names; docs/extraction.md, "Program facts"): the names its
// module-level assignments (`__all__ = [...]`, `__all__ += [...]`) and calls (`__all__.append("x")`,
// `__all__.extend([...])`) give it. A `__all__` with a part that is not a literal is not known.
//
// Lifetime: copies what it keeps; the model and builder it is handed are read during the call only. Not
// thread-safe (one per Extract() call).
#pragma once

#include <tree_sitter/api.h>

#include <string>
#include <vector>

#include "extract/file_facts.h"
#include "python/python_file_model.h"
#include "python/python_template_builder.h"

namespace errdex {

class ModuleAll {
 public:
  // A module-level assignment STATEMENT to the single TARGET: when TARGET is `__all__`, its literal names are
  // FACTS->all_names (added to them for `+=`).
  void Note(const PythonFileModel& model, PythonTemplateBuilder& builder, TSNode statement, TSNode target,
            FileFacts* facts);
  // A module-level call CALL of CALLEE (as written): `__all__.append` and `__all__.extend` add names, applied
  // by Finish after the assignments, whatever the order of reading.
  void NoteCall(const PythonFileModel& model, PythonTemplateBuilder& builder, TSNode call, const std::string& callee);
  // After every assignment and call: FACTS without `__all__` when a part is not known, else with the additions.
  void Finish(FileFacts* facts);

 private:
  std::vector<std::string> all_additions_;
  bool all_unknown_ = false;
};

}  // namespace errdex
