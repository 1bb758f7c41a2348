#include "python/helper_definitions.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "python/python_fields.h"
#include "python/python_template_builder.h"

namespace errdex {

namespace {

// The parameter of SCOPE whose value TYPE raises, or -1: TYPE is the parameter (`raise error_class(msg)`), or a
// local whose last binding before POS looks the parameter up with itself as the default
// (`error = _condition_map.get(condition, condition)`).
int ClassParameter(const PythonFileModel& model, const std::string& type, int scope, uint32_t pos) {
  const std::vector<std::string>& params = model.scopes[static_cast<size_t>(scope)].parameters;
  auto index_of = [&](std::string_view name) {
    auto it = std::find(params.begin(), params.end(), name);
    return it == params.end() ? -1 : static_cast<int>(it - params.begin());
  };
  const std::vector<Binding>* list = model.BindingsOf(scope, type);
  if (list == nullptr) return index_of(type);
  const Binding* last = nullptr;
  for (const Binding& b : *list) {
    if (b.end <= pos) last = &b;
  }
  if (last == nullptr || last->is_augmented || !Is(last->value, "call")) return -1;
  TSNode function = ts_node_child_by_field_name(last->value, "function", 8);
  TSNode attribute = ts_node_is_null(function) || !Is(function, "attribute")
                         ? TSNode{}
                         : ts_node_child_by_field_name(function, "attribute", 9);
  if (ts_node_is_null(attribute) || model.Text(attribute) != "get") return -1;
  CallArguments args = SplitArguments(model, ts_node_child_by_field_name(last->value, "arguments", 9));
  if (args.has_splat || args.positional.size() != 2 || !args.keywords.empty()) return -1;
  if (!Is(args.positional[0], "identifier") || !Is(args.positional[1], "identifier") ||
      model.Text(args.positional[0]) != model.Text(args.positional[1])) {
    return -1;
  }
  return index_of(model.Text(args.positional[1]));
}

}  // namespace

void NoteRaisingHelper(const PythonFileModel& model, const Site& site, int scope, uint32_t pos, FileFacts* facts) {
  // `def _warn(msg): warnings.warn(msg, DeprecationWarning)` hands its callers' text to a warning the same way.
  if ((site.kind != "raise" && site.kind != "warn") || !site.template_text || scope <= 0) return;
  const Scope& s = model.scopes[static_cast<size_t>(scope)];
  if (s.kind != Scope::kFunction) return;
  std::vector<TemplatePart> parts = ParseRenderedTemplate(*site.template_text);
  if (parts.size() != 1 || !parts[0].placeholder) return;
  for (size_t i = 0; i < s.parameters.size(); ++i) {
    if (s.parameters[i] != parts[0].text) continue;
    RaisingHelper helper;
    helper.function = s.qualname;
    helper.name = s.name;
    helper.is_method = s.parent > 0 && model.scopes[static_cast<size_t>(s.parent)].kind == Scope::kClass;
    helper.param_index = static_cast<int>(i);
    helper.param = s.parameters[i];
    helper.line = site.line;
    helper.col = site.col;
    if (site.kind == "raise" && site.type) {
      const int type_param = ClassParameter(model, *site.type, scope, pos);
      if (type_param >= 0 && static_cast<size_t>(type_param) != i) {
        helper.type_param_index = type_param;
        helper.type_param = s.parameters[static_cast<size_t>(type_param)];
      }
    }
    facts->raising_helpers.push_back(std::move(helper));
    return;
  }
}

void NoteCallableInstanceHelpers(const PythonFileModel& model, TSNode root, FileFacts* facts) {
  std::unordered_map<std::string, size_t> call_helpers;  // class name -> its `__call__` helper
  for (size_t i = 0; i < facts->raising_helpers.size(); ++i) {
    const RaisingHelper& h = facts->raising_helpers[i];
    const size_t dot = h.function.find('.');
    if (h.is_method && h.name == "__call__" && dot != std::string::npos && dot == h.function.rfind('.')) {
      call_helpers.emplace(h.function.substr(0, dot), i);
    }
  }
  if (call_helpers.empty()) return;
  const uint32_t n = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode statement = ts_node_named_child(root, i);
    if (!Is(statement, "expression_statement") || ts_node_named_child_count(statement) != 1) continue;
    TSNode assignment = ts_node_named_child(statement, 0);
    if (!Is(assignment, "assignment")) continue;
    TSNode left = ts_node_child_by_field_name(assignment, "left", 4);
    TSNode right = ts_node_child_by_field_name(assignment, "right", 5);
    if (ts_node_is_null(left) || ts_node_is_null(right) || !Is(left, "identifier") || !Is(right, "call")) continue;
    TSNode called = ts_node_child_by_field_name(right, "function", 8);
    TSNode arguments = ts_node_child_by_field_name(right, "arguments", 9);
    if (ts_node_is_null(called) || !Is(called, "identifier") || ts_node_is_null(arguments) ||
        ts_node_named_child_count(arguments) != 0) {
      continue;
    }
    auto helper = call_helpers.find(std::string(model.Text(called)));
    if (helper == call_helpers.end()) continue;
    RaisingHelper alias = facts->raising_helpers[helper->second];
    if (alias.param_index < 1) continue;
    // Called by the instance's name, as a function (`fail(msg)`, `pytest.fail(msg)`): `self` is bound already.
    alias.name = std::string(model.Text(left));
    alias.is_method = false;
    alias.param_index -= 1;
    if (alias.type_param_index >= 0) alias.type_param_index -= 1;
    facts->raising_helpers.push_back(std::move(alias));
  }
}

}  // namespace errdex
