#include "python/module_all.h"

#include "python/python_fields.h"

namespace errdex {

void ModuleAll::Note(const PythonFileModel& model, PythonTemplateBuilder& builder, TSNode statement, TSNode target,
                     FileFacts* facts) {
  if (!Is(target, "identifier") || model.Text(target) != "__all__") return;
  const bool augmented = Is(statement, "augmented_assignment");
  if (augmented) {
    TSNode op = FieldOf(statement, PythonFields().operator_);
    if (ts_node_is_null(op) || model.Text(op) != "+=") return;
  }
  TSNode value = FieldOf(statement, PythonFields().right);
  if (ts_node_is_null(value)) return;
  value = Unparenthesize(value);
  if (!Is(value, "list") && !Is(value, "tuple") && !Is(value, "expression_list")) {
    all_unknown_ = true;  // `__all__ = base.__all__ + [...]`, `__all__ += other.__all__`
    return;
  }
  if (!augmented) facts->all_names.clear();
  facts->has_all = true;
  for (TSNode element : NamedChildren(value)) {
    std::string name;
    if (!builder.LiteralValue(element, &name)) {
      all_unknown_ = true;
    } else if (facts->all_names.size() < kMaxStateWritesPerFile) {
      facts->all_names.push_back(std::move(name));
    }
  }
}

void ModuleAll::NoteCall(const PythonFileModel& model, PythonTemplateBuilder& builder, TSNode call,
                         const std::string& callee) {
  if (callee != "__all__.append" && callee != "__all__.extend") return;
  CallArguments args = SplitArguments(model, FieldOf(call, PythonFields().arguments));
  if (args.leading_positional != 1) {
    all_unknown_ = true;
    return;
  }
  std::vector<TSNode> elements = {args.positional[0]};
  if (callee == "__all__.extend") {
    TSNode value = Unparenthesize(args.positional[0]);
    if (!Is(value, "list") && !Is(value, "tuple")) {
      all_unknown_ = true;  // `__all__.extend(os._get_exports_list(_socket))`
      return;
    }
    elements = NamedChildren(value);
  }
  for (TSNode element : elements) {
    std::string name;
    if (!builder.LiteralValue(element, &name)) {
      all_unknown_ = true;
      return;
    }
    if (all_additions_.size() < kMaxStateWritesPerFile) all_additions_.push_back(std::move(name));
  }
}

// A `__all__` with a part that is not a literal is not known: the file then has none (has_all false), so
// that every public name counts (docs/extraction.md) rather than the literal part only.
void ModuleAll::Finish(FileFacts* facts) {
  if (all_unknown_) {
    facts->has_all = false;
    facts->all_names.clear();
    return;
  }
  if (!facts->has_all) return;
  for (std::string& name : all_additions_) {
    if (facts->all_names.size() >= kMaxStateWritesPerFile) break;
    facts->all_names.push_back(std::move(name));
  }
}

}  // namespace errdex
