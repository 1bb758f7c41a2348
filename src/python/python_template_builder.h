// Reconstructs a message template from a Python expression (docs/extraction.md, "Templates"): string
// literals of every kind, f-strings, `%`, `.format()`, `+`, `str.join`, names bound earlier and
// helper functions of the same module. What cannot be known statically becomes a placeholder.
//
// Lifetime: borrows the model, which must outlive the builder. Not thread-safe.
#pragma once

#include <tree_sitter/api.h>

#include <map>
#include <string>
#include <vector>

#include "extract/template.h"
#include "python/python_file_model.h"

namespace errdex {

class PythonTemplateBuilder {
 public:
  explicit PythonTemplateBuilder(const PythonFileModel& model) : model_(model) {}

  // The template of EXPR, evaluated in SCOPE with names resolved as of byte position POS.
  Template Build(TSNode expr, int scope, uint32_t pos) { return Build(expr, scope, pos, 0); }

  // What one alternative took: a binding's value chosen or a list change kept (RAN), a later binding passed
  // over or a list change left out (not RAN), with the position USE of the name they were chosen for. The
  // conditions of a text follow from them (docs/extraction.md, "Class texts chosen by the raise's arguments").
  struct Step {
    TSNode node;
    bool ran = true;
    uint32_t use = 0;
  };
  // The templates EXPR may render, at most MAX, each with literal text, distinct, Build's own first when it
  // has literal text (docs/extraction.md, "Class messages"): a name bound in several branches gives one
  // alternative per binding that may reach POS (the last binding whose block holds POS, and every later
  // one), an f-string field that is a bound name takes the name's alternatives, and `A if C else B` is a
  // placeholder, A or B. With set_assembled_lists, `*NAME` (a list NAME assembles, unpacked into the
  // exception's arguments) is each of its items. Every combination is tried, at most kMaxAlternativeRuns
  // builds; *CAPPED (when given) tells whether some were left untried or their texts left out for MAX.
  // With STEPS (when given): one entry per template returned, the steps each one took.
  std::vector<Template> BuildAlternatives(TSNode expr, int scope, uint32_t pos, size_t max, bool* capped = nullptr,
                                          std::vector<std::vector<Step>>* steps = nullptr);

  // The decoded value of a string literal without placeholders (docstrings); false when EXPR is not one.
  bool LiteralValue(TSNode expr, std::string* value);

  // Whether `SEP.join(NAME)` reads the list NAME assembles in its scope (docs/extraction.md, "Class
  // messages": a display, then `append`/`extend`/`insert(0, ...)`/`+=` before the join). On for the texts a
  // class renders only; a site's template keeps rule 6 (any other join is a placeholder).
  void set_assembled_lists(bool on) { assembled_lists_ = on; }

 private:
  static constexpr int kMaxAlternativeRuns = 32;
  // BuildAlternatives' state: the option taken at each choice point (keyed by the node's start byte) and
  // the points met in the current build that were not chosen yet, with their number of options.
  struct Choices {
    std::map<uint32_t, int> chosen;
    std::vector<std::pair<uint32_t, int>> met;
    std::vector<Step> steps;
  };
  // The option of choice point KEY among OPTIONS: 0 (what Build does) outside BuildAlternatives.
  int Choose(uint32_t key, int options);
  Template ConditionalAlternative(TSNode expr, int scope, uint32_t pos, int depth);
  // `*NAME` among alternatives: one of the items of the list NAME assembles; a placeholder when not known.
  Template SplatAlternative(TSNode expr, int scope, uint32_t pos, int depth);
  Template StringWithNames(TSNode string_node, int scope, uint32_t pos, int depth);
  static constexpr int kMaxDepth = 16;

  static constexpr size_t kMaxTemplateBytes = 16 * 1024;

  Template Build(TSNode expr, int scope, uint32_t pos, int depth);
  Template BuildExpression(TSNode expr, int scope, uint32_t pos, int depth);
  Template String(TSNode string_node);
  bool AppendSelfDocumenting(TSNode interpolation, Template* out);
  static Template Stripped(Template text, bool leading, bool trailing);
  Template Name(TSNode name, int scope, uint32_t pos, int depth);
  Template Percent(TSNode expr, TSNode left, TSNode right, int scope, uint32_t pos, int depth);
  Template Call(TSNode call, int scope, uint32_t pos, int depth);
  Template Format(TSNode call, const Template& fmt, TSNode args);
  Template Join(TSNode call, TSNode separator, TSNode args, int scope, uint32_t pos, int depth);
  // The items of the list NAME holds at POS (see set_assembled_lists); false when it is not known.
  bool ListItems(TSNode name, int scope, uint32_t pos, int depth, std::vector<Template>* items);
  // Appends to ITEMS the items of a list or tuple display, or of a name holding a list; false when unknown.
  bool AppendListValue(TSNode value, int scope, uint32_t pos, int depth, std::vector<Template>* items);
  // The binding of LIST (a name's bindings) that Name would take at POS: the last plain one, or among
  // alternatives one of those that may reach POS (choice point KEY); -1 when none. STOP: bindings before POS.
  int PickBinding(const std::vector<Binding>& list, uint32_t pos, uint32_t key, int* stop);
  Template Helper(const HelperFunction& helper, TSNode args, int scope, uint32_t pos, int depth);
  Template Placeholder(TSNode expr) const;
  // The binding a free name of SCOPE takes (rule 7: enclosing functions, then the module), and its scope.
  const Binding* FreeBinding(int scope, std::string_view name, int* bound_scope) const;
  TSNode BoundValue(TSNode name, int scope, uint32_t pos, int* bound_scope, uint32_t* at) const;
  Template Lookup(TSNode expr, int scope, uint32_t pos, int depth);

  const PythonFileModel& model_;
  Choices* choices_ = nullptr;
  bool assembled_lists_ = false;
};

// Named children of NODE, extras (comments, line continuations) excluded.
std::vector<TSNode> NamedChildren(TSNode node);

// The identifier nodes that name the parameters of a `parameters` (or lambda parameters) node, in
// order: plain, defaulted, typed, `*args` and `**kwargs` alike.
std::vector<TSNode> ParameterNameNodes(TSNode parameters);

// NODE without enclosing parentheses: `((a))` -> `a`. Source text of an expression, as CPython's
// ast positions give it, never includes redundant parentheses.
TSNode Unparenthesize(TSNode node);

// Positional and keyword arguments of an argument_list.
struct CallArguments {
  std::vector<TSNode> positional;              // in order, excluding splats
  std::vector<TSNode> positional_with_splats;  // in order, `*args` included
  std::vector<std::pair<std::string, TSNode>> keywords;
  bool has_splat = false;         // *args or **kwargs present
  size_t leading_positional = 0;  // positional arguments before the first *args: their index is known
};
CallArguments SplitArguments(const PythonFileModel& model, TSNode argument_list);

}  // namespace errdex
