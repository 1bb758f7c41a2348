#include "python/class_definitions.h"

#include <algorithm>
#include <array>
#include <unordered_set>

#include "python/definition_parts.h"
#include "python/python_fields.h"
#include "python/raised_value.h"

namespace errdex {

namespace {

// The return statements of a function body in source order, through compound statements but not into
// nested definitions. Depth is bounded: the tree is already bounded, this keeps recursion small.
void CollectReturns(const std::vector<TSNode>& statements, int depth, std::vector<TSNode>* out) {
  if (depth > 32) return;
  for (TSNode st : statements) {
    if (Is(st, "return_statement")) {
      out->push_back(st);
    } else if (Is(st, "function_definition") || Is(st, "class_definition") || Is(st, "decorated_definition")) {
      continue;
    } else if (Is(st, "if_statement") || Is(st, "elif_clause") || Is(st, "else_clause") || Is(st, "try_statement") ||
               Is(st, "except_clause") || Is(st, "finally_clause") || Is(st, "with_statement") ||
               Is(st, "for_statement") || Is(st, "while_statement") || Is(st, "block") || Is(st, "match_statement") ||
               Is(st, "case_clause")) {
      CollectReturns(NamedChildren(st), depth + 1, out);
    }
  }
}

// TEMPLATES among CLS's alternatives: those that are not its message nor already there, at most
// kMaxClassMessageAlternatives.
void AddAlternatives(const std::vector<Template>& templates, ClassDef* cls) {
  for (const Template& t : templates) {
    if (cls->alternatives.size() >= kMaxClassMessageAlternatives) return;
    std::string text = t.Render();
    if (text == cls->message ||
        std::find(cls->alternatives.begin(), cls->alternatives.end(), text) != cls->alternatives.end()) {
      continue;
    }
    cls->alternatives.push_back(std::move(text));
  }
}

// The methods besides `__init__` whose text users see (docs/extraction.md, "Class messages"): `__str__`,
// click's `format_message` (what `ClickException.show` prints), pytest's `formatrepr` (its reports of a
// failed fixture lookup) and a `message` property or method — and what those return of the class's other
// methods (`return self.generate_message()`).
constexpr std::array<const char*, 4> kRenderingMethods{"__str__", "format_message", "formatrepr", "message"};

}  // namespace

void ClassDefinitions::Read(int i, FileFacts* facts) {
  const Scope& scope = model_.scopes[static_cast<size_t>(i)];
  TSNode body = ts_node_child_by_field_name(scope.node, "body", 4);
  bool nested_in_function = false;
  for (int p = scope.parent; p > 0; p = model_.scopes[p].parent) {
    if (model_.scopes[p].kind != Scope::kClass) nested_in_function = true;
  }
  if (nested_in_function) return;
  ClassDef cls;
  cls.qualname = scope.qualname;
  cls.line = static_cast<int>(ts_node_start_point(scope.node).row) + 1;
  TSNode bases = ts_node_child_by_field_name(scope.node, "superclasses", 12);
  if (!ts_node_is_null(bases)) {
    for (TSNode b : NamedChildren(bases)) {
      if (!Is(b, "keyword_argument") && !Is(b, "list_splat") && !Is(b, "dictionary_splat")) {
        cls.bases.emplace_back(model_.Text(b));
      }
    }
  }
  TSNode doc{};
  if (!ts_node_is_null(body)) {
    BodyStatements(body, &doc);
    std::string value;
    if (!ts_node_is_null(doc) && builder_.LiteralValue(doc, &value)) cls.docstring = CleanDoc(value);
  }
  FindClassMessage(i, &cls);
  facts->classes.push_back(std::move(cls));
}

void ClassDefinitions::FindClassMessage(int class_scope, ClassDef* cls) {
  // Methods defined directly in the class body; a later definition replaces an earlier one.
  std::unordered_map<std::string, int> methods;
  for (int j = class_scope + 1; j < static_cast<int>(model_.scopes.size()); ++j) {
    const Scope& s = model_.scopes[j];
    if (s.parent == class_scope && s.kind == Scope::kFunction) methods[s.name] = j;
  }
  builder_.set_assembled_lists(true);
  pending_conditions_.clear();
  FindOwnMessage(methods, cls);
  AddRenderedTexts(methods, cls);
  builder_.set_assembled_lists(false);
  if (auto init = methods.find("__init__"); init != methods.end() && !pending_conditions_.empty()) {
    choices_->Keep(*cls, init->second, pending_conditions_);
  }
}

// Every text the rendering methods of the class may return, at most kMaxClassMessageAlternatives: each
// return's alternatives; a return of `self.NAME` or `self.NAME()` (NAME a method) takes NAME's texts; a return
// of a call of a capitalized class (`FixtureLookupErrorRepr(fspath, lineno, tblines, msg, self.argname)`)
// takes the texts of its positional arguments. The first text found becomes the message of a class that has
// none (`message_from` the rendering method).
void ClassDefinitions::AddRenderedTexts(const std::unordered_map<std::string, int>& methods, ClassDef* cls) {
  std::vector<int> todo;
  std::vector<std::string> from;
  for (const char* name : kRenderingMethods) {
    auto it = methods.find(name);
    if (it == methods.end()) continue;
    todo.push_back(it->second);
    from.emplace_back(name);
  }
  std::unordered_set<int> seen;
  std::vector<Template> texts;
  for (size_t k = 0; k < todo.size() && k < 16; ++k) {
    if (!seen.insert(todo[k]).second) continue;
    const int method = todo[k];
    TSNode body = ts_node_child_by_field_name(model_.scopes[static_cast<size_t>(method)].node, "body", 4);
    if (ts_node_is_null(body)) continue;
    std::vector<TSNode> returns;
    CollectReturns(BodyStatements(body, nullptr), 0, &returns);
    for (TSNode st : returns) {
      std::vector<TSNode> v = NamedChildren(st);
      if (v.size() != 1) continue;
      TSNode value = Unparenthesize(v[0]);
      const uint32_t at = ts_node_start_byte(st);
      if (const int called = SelfMethod(methods, value); called >= 0) {
        todo.push_back(called);
        from.push_back(from[k]);
        continue;
      }
      std::vector<TSNode> sources{value};
      if (Is(value, "call") && NamesAClass(model_, ts_node_child_by_field_name(value, "function", 8))) {
        sources = SplitArguments(model_, ts_node_child_by_field_name(value, "arguments", 9)).positional;
        if (sources.size() > 5) sources.resize(5);
      }
      for (TSNode source : sources) {
        for (Template& t : builder_.BuildAlternatives(source, method, at, kMaxClassMessageAlternatives)) {
          if (cls->message.empty()) {
            cls->message = t.Render();
            cls->message_from = from[k];
          } else {
            texts.push_back(std::move(t));
          }
        }
      }
    }
  }
  AddAlternatives(texts, cls);
}

// The method of the class that VALUE returns: `self.NAME` or `self.NAME()` without arguments; else -1.
int ClassDefinitions::SelfMethod(const std::unordered_map<std::string, int>& methods, TSNode value) const {
  if (Is(value, "call")) {
    TSNode args = ts_node_child_by_field_name(value, "arguments", 9);
    if (ts_node_is_null(args) || ts_node_named_child_count(args) != 0) return -1;
    value = ts_node_child_by_field_name(value, "function", 8);
  }
  if (ts_node_is_null(value) || !Is(value, "attribute")) return -1;
  TSNode object = ts_node_child_by_field_name(value, "object", 6);
  TSNode attribute = ts_node_child_by_field_name(value, "attribute", 9);
  if (ts_node_is_null(object) || ts_node_is_null(attribute) || model_.Text(object) != "self") return -1;
  auto it = methods.find(std::string(model_.Text(attribute)));
  return it == methods.end() ? -1 : it->second;
}

void ClassDefinitions::FindOwnMessage(const std::unordered_map<std::string, int>& methods, ClassDef* cls) {
  auto body_of = [&](int scope) {
    TSNode body = ts_node_child_by_field_name(model_.scopes[scope].node, "body", 4);
    return ts_node_is_null(body) ? std::vector<TSNode>() : BodyStatements(body, nullptr);
  };
  // `__str__` / `format_message`: the last `return EXPR` with literal text, in nested blocks too
  // (`if self.returncode < 0: return "... died ..."` / `else: return "... returned ..."`).
  for (const char* name : {"__str__", "format_message"}) {
    auto it = methods.find(name);
    if (it == methods.end()) continue;
    std::vector<TSNode> returns;
    CollectReturns(body_of(it->second), 0, &returns);
    for (auto st = returns.rbegin(); st != returns.rend(); ++st) {
      std::vector<TSNode> value = NamedChildren(*st);
      if (value.size() != 1) continue;
      Template t = builder_.Build(value[0], it->second, ts_node_start_byte(*st));
      if (!t.HasLiteralText()) t = PropertyText(methods, value[0]);
      if (t.HasLiteralText()) {
        cls->message = t.Render();
        cls->message_from = name;
        // The other texts it may render: every return's, each with the alternatives of its branches.
        for (TSNode other : returns) {
          std::vector<TSNode> v = NamedChildren(other);
          if (v.size() != 1) continue;
          AddAlternatives(
              builder_.BuildAlternatives(v[0], it->second, ts_node_start_byte(other), kMaxClassMessageAlternatives),
              cls);
        }
        return;
      }
    }
  }
  // `__init__` handing a text to its base: `super().__init__(TEXT, ...)` or `Base.__init__(self, TEXT)`.
  auto init = methods.find("__init__");
  if (init == methods.end()) return;
  for (TSNode st : body_of(init->second)) {
    if (!Is(st, "expression_statement")) continue;
    std::vector<TSNode> exprs = NamedChildren(st);
    if (exprs.size() != 1 || !Is(exprs[0], "call")) continue;
    TSNode function = ts_node_child_by_field_name(exprs[0], "function", 8);
    if (ts_node_is_null(function) || !Is(function, "attribute")) continue;
    TSNode attribute = ts_node_child_by_field_name(function, "attribute", 9);
    TSNode object = ts_node_child_by_field_name(function, "object", 6);
    if (ts_node_is_null(attribute) || model_.Text(attribute) != "__init__" || ts_node_is_null(object)) continue;
    const bool via_super = Is(object, "call") && model_.Text(object).rfind("super(", 0) == 0;
    CallArguments args = SplitArguments(model_, ts_node_child_by_field_name(exprs[0], "arguments", 9));
    size_t first = via_super ? 0 : 1;  // `Base.__init__(self, ...)` passes self first
    if (args.positional.size() <= first && args.keywords.empty()) continue;
    Template t;
    if (args.positional.size() > first)
      t = builder_.Build(args.positional[first], init->second, ts_node_start_byte(st));
    if (!t.HasLiteralText()) {
      // `RequestError.__init__(self, pool, url, message)`: the base's own message, with these arguments.
      const std::string base =
          via_super ? (cls->bases.empty() ? std::string() : cls->bases.front()) : std::string(model_.Text(object));
      t = ComposeBaseMessage(base, args, first, init->second, ts_node_start_byte(st));
    }
    // Else a later argument with literal text (`InterpolationError.__init__(self, option, section, msg)`), or
    // an argument that is a parameter with a default text (`def __init__(self, message="Invalid file")`).
    for (size_t k = first; !t.HasLiteralText() && k < args.positional.size() && k < first + 4; ++k) {
      t = builder_.Build(args.positional[k], init->second, ts_node_start_byte(st));
      if (!t.HasLiteralText()) t = ParameterDefault(init->second, args.positional[k]);
    }
    if (t.HasLiteralText()) {
      cls->message = t.Render();
      cls->message_from = "__init__";
      if (args.positional.size() > first) {
        // Each text with the conditions of the branches that build it (class_text_conditions.h).
        std::vector<std::vector<PythonTemplateBuilder::Step>> steps;
        std::vector<Template> texts =
            builder_.BuildAlternatives(args.positional[first], init->second, ts_node_start_byte(st),
                                       kMaxClassMessageAlternatives, nullptr, &steps);
        std::vector<std::vector<Condition>> conditions = ConditionsOfSteps(source_, root_, steps);
        for (size_t k = 0; k < texts.size() && k < conditions.size(); ++k) {
          if (!conditions[k].empty()) pending_conditions_.emplace_back(texts[k].Render(), std::move(conditions[k]));
        }
        AddAlternatives(texts, cls);
      }
      init_messages_[cls->qualname] = {cls->message, model_.scopes[init->second].parameters};
      return;
    }
  }
}

// `return self.message` where `message` is a property (or method) of the class whose last return has text:
// the message is that text (`@property def message(self): return f"the property says {self.x}"`).
Template ClassDefinitions::PropertyText(const std::unordered_map<std::string, int>& methods, TSNode value) {
  const int method = SelfMethod(methods, Unparenthesize(value));
  if (method < 0) return Template{};
  TSNode body = ts_node_child_by_field_name(model_.scopes[static_cast<size_t>(method)].node, "body", 4);
  if (ts_node_is_null(body)) return Template{};
  std::vector<TSNode> returns;
  CollectReturns(BodyStatements(body, nullptr), 0, &returns);
  for (auto st = returns.rbegin(); st != returns.rend(); ++st) {
    std::vector<TSNode> inner = NamedChildren(*st);
    if (inner.size() != 1) continue;
    Template t = builder_.Build(inner[0], method, ts_node_start_byte(*st));
    if (t.HasLiteralText()) return t;
  }
  return Template{};
}

// `def __init__(self, message="Invalid file"): ValueError.__init__(self, message)`: the text a parameter
// holds when the caller passes none — the message of `raise InvalidFileException()` (a site passing its
// own text is matched by that text first, docs/matching.md).
Template ClassDefinitions::ParameterDefault(int function_scope, TSNode argument) {
  if (!Is(argument, "identifier")) return Template{};
  TSNode parameters =
      ts_node_child_by_field_name(model_.scopes[static_cast<size_t>(function_scope)].node, "parameters", 10);
  if (ts_node_is_null(parameters)) return Template{};
  for (TSNode p : NamedChildren(parameters)) {
    if (!Is(p, "default_parameter") && !Is(p, "typed_default_parameter")) continue;
    TSNode name = ts_node_child_by_field_name(p, "name", 4);
    TSNode value = ts_node_child_by_field_name(p, "value", 5);
    if (ts_node_is_null(name) || ts_node_is_null(value) || model_.Text(name) != model_.Text(argument)) continue;
    std::string text;
    if (!builder_.LiteralValue(value, &text) || text.empty()) return Template{};
    return Template::Literal(std::move(text));
  }
  return Template{};
}

Template ClassDefinitions::ComposeBaseMessage(const std::string& base_name, const CallArguments& args, size_t first,
                                              int scope, uint32_t at) {
  const auto base = init_messages_.find(base_name);
  if (base == init_messages_.end() || base->second.parameters.empty()) return Template();
  const std::vector<std::string>& params = base->second.parameters;  // "self" first
  std::unordered_map<std::string, TSNode> argument_of;
  for (size_t k = first; k < args.leading_positional && k < args.positional.size(); ++k) {
    const size_t param = k - first + 1;
    if (param >= params.size() || params[param].empty() || params[param][0] == '*') break;
    argument_of[params[param]] = args.positional[k];
  }
  for (const auto& [name, node] : args.keywords) argument_of.emplace(name, node);
  Template out;
  for (const TemplatePart& part : ParseRenderedTemplate(base->second.message)) {
    const auto arg = part.placeholder ? argument_of.find(part.text) : argument_of.end();
    if (!part.placeholder) {
      out.AppendLiteral(part.text);
    } else if (arg != argument_of.end()) {
      out.Append(builder_.Build(arg->second, scope, at));
    } else {
      out.AppendPlaceholder(part.text);
    }
  }
  return out;
}

}  // namespace errdex
