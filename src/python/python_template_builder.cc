#include "python/python_template_builder.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <deque>
#include <optional>
#include <set>

#include "python/python_fields.h"
#include "python/python_string.h"

namespace errdex {

namespace {

// Longest `{field}` or `%(key)s` looked for; keeps hostile text from making the scans quadratic.
constexpr size_t kMaxFieldLength = 1024;

bool IsStringNode(TSNode node) { return Is(node, "string") || Is(node, "concatenated_string"); }

// A `%` conversion specifier starting after the '%' at text[i]; returns its length or 0 when invalid.
// Sets *key for `%(key)s`.
size_t PercentSpecLength(std::string_view text, size_t i, std::string_view* key) {
  size_t j = i;
  if (j < text.size() && text[j] == '(') {
    size_t close = text.substr(0, std::min(text.size(), j + kMaxFieldLength)).find(')', j);
    if (close == std::string_view::npos) return 0;
    *key = text.substr(j + 1, close - j - 1);
    j = close + 1;
  }
  while (j < text.size() && std::strchr("#0- +", text[j]) != nullptr) ++j;
  while (j < text.size() && (text[j] == '*' || (text[j] >= '0' && text[j] <= '9'))) ++j;
  if (j < text.size() && text[j] == '.') {
    ++j;
    while (j < text.size() && (text[j] == '*' || (text[j] >= '0' && text[j] <= '9'))) ++j;
  }
  while (j < text.size() && std::strchr("hlL", text[j]) != nullptr) ++j;
  if (j < text.size() && std::strchr("diouxXeEfFgGcrsab", text[j]) != nullptr) return j + 1 - i;
  return 0;
}

// The block (or module) whose statement holds NODE; null when none is near.
TSNode BlockOf(TSNode node) {
  for (int up = 0; up < 8 && !ts_node_is_null(node); ++up) {
    TSNode parent = ts_node_parent(node);
    if (ts_node_is_null(parent)) return parent;
    if (Is(parent, "block") || Is(parent, "module")) return parent;
    node = parent;
  }
  return TSNode{};
}

bool BlockHolds(TSNode block, uint32_t pos) {
  return !ts_node_is_null(block) && ts_node_start_byte(block) <= pos && pos <= ts_node_end_byte(block);
}

bool SameNode(TSNode a, TSNode b) { return !ts_node_is_null(a) && !ts_node_is_null(b) && ts_node_eq(a, b); }

// Whether NODE lies in one arm of an `if` statement (its first block, an `elif` or the `else`) and POS in
// another arm of the same statement: arms exclude each other, so a binding there never reaches POS.
bool InOtherArm(TSNode node, uint32_t pos) {
  for (int up = 0; up < 64 && !ts_node_is_null(node); ++up) {
    TSNode parent = ts_node_parent(node);
    if (ts_node_is_null(parent)) return false;
    const bool arm = Is(node, "block") || Is(node, "elif_clause") || Is(node, "else_clause");
    if (arm && Is(parent, "if_statement") && ts_node_start_byte(parent) <= pos && pos < ts_node_end_byte(parent)) {
      if (pos < ts_node_start_byte(node) || pos >= ts_node_end_byte(node)) return true;
    }
    node = parent;
  }
  return false;
}

}  // namespace

TSNode Unparenthesize(TSNode node) {
  // Each step goes one level down the tree, so this ends; the nesting limit bounds its length.
  while (Is(node, "parenthesized_expression")) {
    std::vector<TSNode> inner = NamedChildren(node);
    if (inner.size() != 1) break;
    node = inner[0];
  }
  return node;
}

std::vector<TSNode> ParameterNameNodes(TSNode parameters) {
  std::vector<TSNode> names;
  if (ts_node_is_null(parameters)) return names;
  for (TSNode p : NamedChildren(parameters)) {
    TSNode target = p;
    if (Is(p, "default_parameter") || Is(p, "typed_default_parameter")) {
      target = FieldOf(p, PythonFields().name);
    } else if (Is(p, "typed_parameter")) {
      std::vector<TSNode> inner = NamedChildren(p);
      target = inner.empty() ? TSNode{} : inner[0];
    }
    if (ts_node_is_null(target)) continue;
    if (Is(target, "list_splat_pattern") || Is(target, "dictionary_splat_pattern")) {
      std::vector<TSNode> inner = NamedChildren(target);
      target = inner.empty() ? TSNode{} : inner[0];
    }
    if (!ts_node_is_null(target) && Is(target, "identifier")) names.push_back(target);
  }
  return names;
}

std::vector<TSNode> NamedChildren(TSNode node) {
  std::vector<TSNode> out;
  uint32_t n = ts_node_named_child_count(node);
  out.reserve(n);
  if (n <= 8) {
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts_node_named_child(node, i);
      if (!ts_node_is_extra(c)) out.push_back(c);  // comments and line continuations
    }
    return out;
  }
  // Many children (a block, a long list): ts_node_named_child(i) walks from the first child each time.
  TSTreeCursor cursor = ts_tree_cursor_new(node);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      TSNode c = ts_tree_cursor_current_node(&cursor);
      if (ts_node_is_named(c) && !ts_node_is_extra(c)) out.push_back(c);
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

CallArguments SplitArguments(const PythonFileModel& model, TSNode argument_list) {
  CallArguments args;
  if (ts_node_is_null(argument_list)) return args;
  if (Is(argument_list, "generator_expression")) {
    args.positional.push_back(argument_list);
    args.positional_with_splats.push_back(argument_list);
    args.leading_positional = 1;
    return args;
  }
  bool after_list_splat = false;
  for (TSNode c : NamedChildren(argument_list)) {
    if (Is(c, "keyword_argument")) {
      TSNode name = ts_node_child_by_field_name(c, "name", 4);
      TSNode value = ts_node_child_by_field_name(c, "value", 5);
      if (!ts_node_is_null(name) && !ts_node_is_null(value)) {
        args.keywords.emplace_back(std::string(model.Text(name)), value);
      }
    } else if (Is(c, "list_splat") || Is(c, "dictionary_splat")) {
      args.has_splat = true;
      if (Is(c, "list_splat")) {
        after_list_splat = true;
        args.positional_with_splats.push_back(c);
      }
    } else {
      args.positional.push_back(c);
      args.positional_with_splats.push_back(c);
      if (!after_list_splat) args.leading_positional = args.positional.size();
    }
  }
  return args;
}

Template PythonTemplateBuilder::Placeholder(TSNode expr) const {
  return Template::Placeholder(std::string(model_.Text(Unparenthesize(expr))));
}

Template PythonTemplateBuilder::Build(TSNode expr, int scope, uint32_t pos, int depth) {
  Template t = BuildExpression(expr, scope, pos, depth);
  // Names, helpers and format fields can repeat text (`b = a + a; c = b + b`, `"{0}{0}{0}".format(x)`):
  // what an expression builds stays within a few times its own source, so a small file cannot build
  // a huge template.
  const size_t source_bytes = ts_node_end_byte(expr) - ts_node_start_byte(expr);
  if (t.size() > std::max(kMaxTemplateBytes, 4 * source_bytes)) return Placeholder(expr);
  return t;
}

Template PythonTemplateBuilder::BuildExpression(TSNode expr, int scope, uint32_t pos, int depth) {
  expr = Unparenthesize(expr);
  if (depth > kMaxDepth) return Placeholder(expr);
  if (Is(expr, "string")) return choices_ ? StringWithNames(expr, scope, pos, depth) : String(expr);
  if (Is(expr, "concatenated_string")) {
    Template t;
    for (TSNode part : NamedChildren(expr)) {
      if (Is(part, "string")) t.Append(choices_ ? StringWithNames(part, scope, pos, depth) : String(part));
    }
    return t;
  }
  if (choices_ && Is(expr, "conditional_expression")) return ConditionalAlternative(expr, scope, pos, depth);
  if (choices_ && Is(expr, "list_splat")) return SplatAlternative(expr, scope, pos, depth);
  if (Is(expr, "identifier")) return Name(expr, scope, pos, depth);
  if (Is(expr, "binary_operator")) {
    TSNode left = ts_node_child_by_field_name(expr, "left", 4);
    TSNode op = ts_node_child_by_field_name(expr, "operator", 8);
    TSNode right = ts_node_child_by_field_name(expr, "right", 5);
    if (ts_node_is_null(left) || ts_node_is_null(op) || ts_node_is_null(right)) return Placeholder(expr);
    std::string_view op_text = model_.Text(op);
    if (op_text == "+") {
      Template t = Build(left, scope, pos, depth + 1);
      t.Append(Build(right, scope, pos, depth + 1));
      return t;
    }
    if (op_text == "%") return Percent(expr, left, right, scope, pos, depth);
    return Placeholder(expr);
  }
  if (Is(expr, "call")) return Call(expr, scope, pos, depth);
  if (Is(expr, "subscript") || Is(expr, "attribute")) return Lookup(expr, scope, pos, depth);
  return Placeholder(expr);
}

Template PythonTemplateBuilder::String(TSNode node) {
  // Children: string_start, then string_content / interpolation pieces, then string_end. Literal text is
  // taken from the bytes between the interpolations, so how the grammar splits content does not matter.
  uint32_t n = ts_node_child_count(node);
  if (n < 2) return Placeholder(node);
  TSNode start = ts_node_child(node, 0);
  TSNode end = ts_node_child(node, n - 1);
  if (!Is(start, "string_start") || !Is(end, "string_end")) return Placeholder(node);
  StringPrefix prefix = ParseStringPrefix(model_.Text(start));
  std::string_view src = model_.source();
  Template t;
  uint32_t cursor = ts_node_end_byte(start);
  const uint32_t body_end = ts_node_start_byte(end);
  for (uint32_t i = 1; i + 1 < n; ++i) {
    TSNode c = ts_node_child(node, i);
    if (!Is(c, "interpolation")) continue;
    uint32_t s = ts_node_start_byte(c), e = ts_node_end_byte(c);
    if (s > cursor) t.AppendLiteral(DecodeStringBody(src.substr(cursor, s - cursor), prefix));
    cursor = e;
    if (AppendSelfDocumenting(c, &t)) continue;
    // The placeholder keeps the inside of the replacement field as written: `{x!r:>10}` -> `x!r:>10`.
    if (e >= s + 2) t.AppendPlaceholder(std::string(src.substr(s + 1, e - s - 2)));
  }
  if (body_end > cursor) t.AppendLiteral(DecodeStringBody(src.substr(cursor, body_end - cursor), prefix));
  return t;
}

Template PythonTemplateBuilder::Stripped(Template text, bool leading, bool trailing) {
  constexpr std::string_view kSpace = " \t\n\r\f\v";
  std::vector<TemplatePart>& parts = text.mutable_parts();
  if (leading && !parts.empty() && !parts.front().placeholder) {
    std::string& first = parts.front().text;
    first.erase(0, std::min(first.size(), first.find_first_not_of(kSpace)));
  }
  if (trailing && !parts.empty() && !parts.back().placeholder) {
    std::string& last = parts.back().text;
    const size_t keep = last.find_last_not_of(kSpace);
    last.erase(keep == std::string::npos ? 0 : keep + 1);
  }
  std::erase_if(parts, [](const TemplatePart& p) { return !p.placeholder && p.text.empty(); });
  return text;
}

// `f"{margin=}"` renders `margin=0.5`: the expression's text, the `=` and the spaces around it as written are
// literal, then the value — by repr unless a conversion or a format spec says otherwise.
bool PythonTemplateBuilder::AppendSelfDocumenting(TSNode interpolation, Template* out) {
  std::vector<TSNode> inner = NamedChildren(interpolation);
  if (inner.empty()) return false;
  std::string_view src = model_.source();
  const uint32_t s = ts_node_start_byte(interpolation), e = ts_node_end_byte(interpolation);
  const uint32_t expr_start = ts_node_start_byte(inner[0]), expr_end = ts_node_end_byte(inner[0]);
  if (e < s + 2 || expr_start <= s || expr_end >= e) return false;
  auto space = [](char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; };
  uint32_t k = expr_end;
  while (k < e - 1 && space(src[k])) ++k;
  if (k >= e - 1 || src[k] != '=') return false;
  uint32_t literal_end = k + 1;
  while (literal_end < e - 1 && space(src[literal_end])) ++literal_end;
  out->AppendLiteral(src.substr(s + 1, literal_end - s - 1));
  std::string rest(src.substr(literal_end, e - 1 - literal_end));  // "", "!s", ":>5"
  out->AppendPlaceholder(std::string(src.substr(expr_start, expr_end - expr_start)) + (rest.empty() ? "!r" : rest));
  return true;
}

bool PythonTemplateBuilder::LiteralValue(TSNode expr, std::string* value) {
  expr = Unparenthesize(expr);
  if (!IsStringNode(expr)) return false;
  Template t = Build(expr, 0, 0, 0);
  value->clear();
  for (const TemplatePart& p : t.parts()) {
    if (p.placeholder) return false;
    value->append(p.text);
  }
  return true;
}

int PythonTemplateBuilder::Choose(uint32_t key, int options) {
  if (choices_ == nullptr || options <= 1) return 0;
  if (auto it = choices_->chosen.find(key); it != choices_->chosen.end()) return std::min(it->second, options - 1);
  for (const auto& [met, n] : choices_->met) {
    if (met == key) return 0;
  }
  choices_->met.emplace_back(key, options);
  return 0;
}

std::vector<Template> PythonTemplateBuilder::BuildAlternatives(TSNode expr, int scope, uint32_t pos, size_t max,
                                                               bool* capped, std::vector<std::vector<Step>>* steps) {
  std::vector<Template> out;
  std::set<std::string> rendered;
  if (capped) *capped = false;
  // Breadth first from the default choices: each build may meet new choice points; each combination is
  // queued once (points met before the one varied keep their default).
  std::deque<std::map<uint32_t, int>> todo(1);
  for (int run = 0; !todo.empty(); ++run) {
    if (run >= kMaxAlternativeRuns) {
      if (capped) *capped = true;
      break;
    }
    Choices choices;
    choices.chosen = std::move(todo.front());
    todo.pop_front();
    choices_ = &choices;
    Template t = Build(expr, scope, pos, 0);
    choices_ = nullptr;
    if (t.HasLiteralText() && rendered.insert(t.Render()).second) {
      if (out.size() >= max) {
        if (capped) *capped = true;
        break;
      }
      out.push_back(std::move(t));
      if (steps) steps->push_back(std::move(choices.steps));
    } else if (steps && t.HasLiteralText()) {
      // The same text by other choices: the conditions of one way do not hold for the other; none are kept.
      const std::string text = t.Render();
      for (size_t k = 0; k < out.size(); ++k) {
        if (out[k].Render() == text) (*steps)[k].clear();
      }
    }
    std::map<uint32_t, int> base = choices.chosen;
    for (const auto& [key, options] : choices.met) {
      for (int k = 1; k < options; ++k) {
        std::map<uint32_t, int> next = base;
        next[key] = k;
        todo.push_back(std::move(next));
      }
      base[key] = 0;
    }
  }
  return out;
}

// `A if C else B` among alternatives: a placeholder (as Build makes it), A or B.
Template PythonTemplateBuilder::ConditionalAlternative(TSNode expr, int scope, uint32_t pos, int depth) {
  std::vector<TSNode> parts = NamedChildren(expr);
  if (parts.size() != 3) return Placeholder(expr);
  switch (Choose(ts_node_start_byte(expr), 3)) {
    case 1:
      return Build(parts[0], scope, pos, depth + 1);
    case 2:
      return Build(parts[2], scope, pos, depth + 1);
    default:
      return Placeholder(expr);
  }
}

Template PythonTemplateBuilder::SplatAlternative(TSNode expr, int scope, uint32_t pos, int depth) {
  std::vector<TSNode> inner = NamedChildren(expr);
  std::vector<Template> items;
  if (!assembled_lists_ || inner.size() != 1 || !Is(Unparenthesize(inner[0]), "identifier") ||
      !ListItems(Unparenthesize(inner[0]), scope, pos, depth + 1, &items) || items.empty()) {
    return Placeholder(expr);
  }
  return items[static_cast<size_t>(Choose(ts_node_start_byte(expr), static_cast<int>(items.size())))];
}

// An f-string among alternatives: a field that is only a name bound in the scope (`f"{message} ({x})"`)
// takes the name's template, as `message + " (" + ...` would.
Template PythonTemplateBuilder::StringWithNames(TSNode node, int scope, uint32_t pos, int depth) {
  Template plain = String(node);
  const uint32_t n = ts_node_child_count(node);
  bool any = false;
  for (uint32_t i = 1; i + 1 < n && !any; ++i) any = Is(ts_node_child(node, i), "interpolation");
  if (!any) return plain;
  Template t;
  std::vector<TemplatePart> parts = plain.parts();
  // String() gives one placeholder per interpolation, in order (self-documenting fields give a literal and
  // a placeholder): walk both.
  size_t part = 0;
  for (uint32_t i = 1; i + 1 < n; ++i) {
    TSNode c = ts_node_child(node, i);
    if (!Is(c, "interpolation")) continue;
    while (part < parts.size() && !parts[part].placeholder) t.AppendLiteral(parts[part++].text);
    if (part >= parts.size()) return plain;
    std::vector<TSNode> inner = NamedChildren(c);
    const bool bare_name = inner.size() == 1 && Is(inner[0], "identifier") &&
                           parts[part].text == model_.Text(inner[0]) && model_.BindingsOf(scope, parts[part].text);
    if (bare_name) {
      t.Append(Name(inner[0], scope, pos, depth + 1));
    } else {
      t.AppendPlaceholder(parts[part].text);
    }
    ++part;
  }
  while (part < parts.size()) {
    if (parts[part].placeholder) return plain;
    t.AppendLiteral(parts[part++].text);
  }
  return t;
}

int PythonTemplateBuilder::PickBinding(const std::vector<Binding>& list, uint32_t pos, uint32_t key, int* stop) {
  int last_plain = -1;
  *stop = 0;
  for (int i = 0; i < static_cast<int>(list.size()) && list[i].end <= pos; ++i) {
    if (!list[i].is_augmented) last_plain = i;
    *stop = i + 1;
  }
  if (last_plain < 0 || !choices_) return last_plain;
  choices_->steps.push_back({list[static_cast<size_t>(last_plain)].value, true, pos});
  // Alternatives: the last binding, and the earlier ones down to the first whose block holds POS (a binding
  // in a branch that POS is not in may not have run).
  std::vector<int> options;
  for (int i = last_plain; i >= 0; --i) {
    if (list[i].is_augmented) continue;
    if (i != last_plain && InOtherArm(list[i].value, pos)) continue;  // another arm of an if POS is in
    options.push_back(i);
    if (BlockHolds(BlockOf(list[i].value), pos)) break;
  }
  const size_t chosen = static_cast<size_t>(Choose(key, static_cast<int>(options.size())));
  if (chosen > 0) {
    // The later bindings passed over did not run; the one chosen did.
    choices_->steps.pop_back();
    for (size_t k = 0; k < chosen; ++k)
      choices_->steps.push_back({list[static_cast<size_t>(options[k])].value, false, pos});
    choices_->steps.push_back({list[static_cast<size_t>(options[chosen])].value, true, pos});
  }
  return options[chosen];
}

Template PythonTemplateBuilder::Name(TSNode name, int scope, uint32_t pos, int depth) {
  std::string_view text = model_.Text(name);
  // The last `name = value` of the same scope that ends before POS, plus the `+=` that follow it.
  if (const std::vector<Binding>* list = model_.BindingsOf(scope, text)) {
    int stop = 0;
    const int pick = PickBinding(*list, pos, ts_node_start_byte(name), &stop);
    if (pick >= 0) {
      const Binding& b = (*list)[pick];
      Template t = Build(b.value, scope, b.start, depth + 1);
      std::vector<int> applied;  // the augmented assignments taken so far
      for (int i = pick + 1; i < stop; ++i) {
        const Binding& aug = (*list)[i];
        if (!aug.is_augmented) continue;
        // Not with one taken in another arm of the same `if` (`if w: m += A` / `else: m += B`), nor in another
        // arm than the binding's own.
        if (InOtherArm(aug.value, b.start) || std::any_of(applied.begin(), applied.end(), [&](int j) {
              return InOtherArm(aug.value, (*list)[static_cast<size_t>(j)].start);
            })) {
          continue;
        }
        // An augmented assignment after a skipped binding of the same block belongs to that binding.
        bool after_skipped = false;
        for (int j = pick + 1; j < i && !after_skipped; ++j) {
          after_skipped = !(*list)[j].is_augmented && SameNode(BlockOf((*list)[j].value), BlockOf(aug.value));
        }
        // Among alternatives, one in a block that does not hold POS may not have run (`if lno: msg += ...`).
        if (after_skipped || (!BlockHolds(BlockOf(aug.value), pos) && Choose(aug.start, 2) == 1)) continue;
        t.Append(Build(aug.value, scope, aug.start, depth + 1));
        applied.push_back(i);
      }
      return t;
    }
  }
  // A parameter shadows the module's names.
  const std::vector<std::string>& params = model_.scopes[static_cast<size_t>(scope)].parameters;
  if (std::find(params.begin(), params.end(), text) != params.end()) return Placeholder(name);
  int bound_scope = 0;
  if (const Binding* b = FreeBinding(scope, text, &bound_scope))
    return Build(b->value, bound_scope, b->start, depth + 1);
  return Placeholder(name);
}

namespace {

const Binding* LastPlainBinding(const std::vector<Binding>* list) {
  if (list == nullptr) return nullptr;
  for (auto it = list->rbegin(); it != list->rend(); ++it) {
    if (!it->is_augmented) return &*it;
  }
  return nullptr;
}

}  // namespace

const Binding* PythonTemplateBuilder::FreeBinding(int scope, std::string_view text, int* bound_scope) const {
  if (scope == 0) return nullptr;
  // A closure's free name (a decorator factory's message): the last assignment of the nearest enclosing
  // function that binds it; a parameter there binds it to nothing known. Class bodies do not enclose.
  for (int s = model_.scopes[static_cast<size_t>(scope)].parent; s > 0;
       s = model_.scopes[static_cast<size_t>(s)].parent) {
    const Scope& enclosing = model_.scopes[static_cast<size_t>(s)];
    if (enclosing.kind == Scope::kClass) continue;
    if (std::find(enclosing.parameters.begin(), enclosing.parameters.end(), text) != enclosing.parameters.end()) {
      return nullptr;
    }
    if (const Binding* b = LastPlainBinding(model_.BindingsOf(s, text))) {
      *bound_scope = s;
      return b;
    }
  }
  // Else the last module-level assignment anywhere in the module.
  *bound_scope = 0;
  return LastPlainBinding(model_.BindingsOf(0, text));
}

// The expression NAME holds at POS as rule 7 finds it (the scope's last plain binding before POS, else a free
// name's), with the scope and position to read it in; a null node when none.
TSNode PythonTemplateBuilder::BoundValue(TSNode name, int scope, uint32_t pos, int* bound_scope, uint32_t* at) const {
  const std::string_view text = model_.Text(name);
  if (const std::vector<Binding>* list = model_.BindingsOf(scope, text)) {
    const Binding* last = nullptr;
    for (const Binding& b : *list) {
      if (b.end <= pos && !b.is_augmented) last = &b;
    }
    if (last != nullptr) {
      *bound_scope = scope;
      *at = last->start;
      return last->value;
    }
  }
  const std::vector<std::string>& params = model_.scopes[static_cast<size_t>(scope)].parameters;
  if (std::find(params.begin(), params.end(), text) != params.end()) return TSNode{};
  const Binding* b = FreeBinding(scope, text, bound_scope);
  if (b == nullptr) return TSNode{};
  *at = b->start;
  return b->value;
}

// `MESSAGES["missing"]`: the entry of a dict display NAME holds, the key a string literal (the last entry with
// that key); `Errors.NOT_FOUND`: a class attribute of a module-level class NAME of the file, or the keyword
// argument of the call NAME holds (a namedtuple or dataclass instance of messages). Only when the text found
// has literal text; else a placeholder.
Template PythonTemplateBuilder::Lookup(TSNode expr, int scope, uint32_t pos, int depth) {
  const bool subscript = Is(expr, "subscript");
  TSNode object = ts_node_child_by_field_name(expr, subscript ? "value" : "object", subscript ? 5 : 6);
  if (ts_node_is_null(object) || !Is(object, "identifier")) return Placeholder(expr);
  std::string key;
  if (subscript) {
    std::vector<TSNode> index = NamedChildren(expr);
    if (index.size() != 2 || !LiteralValue(index[1], &key)) return Placeholder(expr);
  } else {
    TSNode attribute = ts_node_child_by_field_name(expr, "attribute", 9);
    if (ts_node_is_null(attribute)) return Placeholder(expr);
    key = std::string(model_.Text(attribute));
  }
  // Only a class or an instance of messages: `Errors.NOT_FOUND`, `MESSAGES.missing`; not `self.x` nor `resp.text`.
  const std::string_view object_text = model_.Text(object);
  if (!subscript && !std::isupper(static_cast<unsigned char>(object_text[0]))) return Placeholder(expr);
  TSNode found{};
  int found_scope = 0;
  uint32_t found_at = 0;
  int bound_scope = 0;
  uint32_t at = 0;
  TSNode value = BoundValue(object, scope, pos, &bound_scope, &at);
  if (!ts_node_is_null(value)) value = Unparenthesize(value);
  if (subscript && !ts_node_is_null(value) && Is(value, "dictionary")) {
    for (TSNode pair : NamedChildren(value)) {
      if (!Is(pair, "pair")) continue;
      std::string k;
      TSNode key_node = ts_node_child_by_field_name(pair, "key", 3);
      if (!ts_node_is_null(key_node) && LiteralValue(key_node, &k) && k == key) {
        found = ts_node_child_by_field_name(pair, "value", 5);
        found_scope = bound_scope;
        found_at = at;
      }
    }
  } else if (!subscript && !ts_node_is_null(value) && Is(value, "call") &&
             std::isupper(static_cast<unsigned char>(model_.Text(value)[0]))) {
    for (const auto& [keyword, argument] :
         SplitArguments(model_, ts_node_child_by_field_name(value, "arguments", 9)).keywords) {
      if (keyword == key) {
        found = argument;
        found_scope = bound_scope;
        found_at = at;
      }
    }
  } else if (!subscript && ts_node_is_null(value)) {
    const std::string_view class_name = model_.Text(object);
    for (size_t s = 1; s < model_.scopes.size(); ++s) {
      const Scope& c = model_.scopes[s];
      if (c.parent != 0 || c.kind != Scope::kClass || c.name != class_name) continue;
      if (const Binding* b = LastPlainBinding(model_.BindingsOf(static_cast<int>(s), key))) {
        found = b->value;
        found_scope = static_cast<int>(s);
        found_at = b->start;
      }
    }
  }
  if (ts_node_is_null(found)) return Placeholder(expr);
  Template t = Build(found, found_scope, found_at, depth + 1);
  return t.HasLiteralText() ? t : Placeholder(expr);
}

Template PythonTemplateBuilder::Percent(TSNode expr, TSNode left, TSNode right, int scope, uint32_t pos, int depth) {
  Template fmt = Build(left, scope, pos, depth + 1);
  if (!fmt.HasLiteralText()) return Placeholder(expr);
  right = Unparenthesize(right);
  std::vector<TSNode> items;
  const bool is_tuple = Is(right, "tuple");
  if (is_tuple) items = NamedChildren(right);
  const std::string args_text(model_.Text(right));

  // Count the conversions first: a lone non-tuple argument maps to a single conversion only.
  size_t conversions = 0;
  for (const TemplatePart& p : fmt.parts()) {
    if (p.placeholder) continue;
    for (size_t i = 0; i < p.text.size(); ++i) {
      if (p.text[i] != '%') continue;
      if (i + 1 < p.text.size() && p.text[i + 1] == '%') {
        ++i;
        continue;
      }
      std::string_view key;
      size_t len = PercentSpecLength(p.text, i + 1, &key);
      if (len > 0) {
        ++conversions;
        i += len;
      }
    }
  }

  Template out;
  size_t index = 0;
  for (const TemplatePart& p : fmt.parts()) {
    if (p.placeholder) {
      out.AppendPlaceholder(p.text);
      continue;
    }
    std::string literal;
    for (size_t i = 0; i < p.text.size(); ++i) {
      char c = p.text[i];
      if (c != '%') {
        literal.push_back(c);
        continue;
      }
      if (i + 1 < p.text.size() && p.text[i + 1] == '%') {
        literal.push_back('%');
        ++i;
        continue;
      }
      std::string_view key;
      size_t len = PercentSpecLength(p.text, i + 1, &key);
      if (len == 0) {
        literal.push_back(c);
        continue;
      }
      out.AppendLiteral(literal);
      literal.clear();
      std::string text;
      if (!key.empty()) {
        text = std::string(key);
      } else if (is_tuple && index < items.size()) {
        text = std::string(model_.Text(Unparenthesize(items[index])));
      } else if (!is_tuple && conversions == 1) {
        text = args_text;
      } else {
        text = args_text + "[" + std::to_string(index) + "]";
      }
      out.AppendPlaceholder(std::move(text));
      ++index;
      i += len;
    }
    out.AppendLiteral(literal);
  }
  return out;
}

namespace {
bool IsGettextFunction(std::string_view name) {
  static constexpr std::string_view kNames[] = {"_",        "gettext",       "ngettext", "gettext_lazy", "lazy_gettext",
                                                "ugettext", "ugettext_lazy", "N_",       "gettext_noop"};
  for (std::string_view n : kNames) {
    if (name == n) return true;
  }
  return false;
}
}  // namespace

Template PythonTemplateBuilder::Call(TSNode call, int scope, uint32_t pos, int depth) {
  TSNode function = ts_node_child_by_field_name(call, "function", 8);
  TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
  if (ts_node_is_null(function) || ts_node_is_null(args)) return Placeholder(call);
  if (Is(function, "attribute")) {
    TSNode object = ts_node_child_by_field_name(function, "object", 6);
    TSNode attribute = ts_node_child_by_field_name(function, "attribute", 9);
    if (ts_node_is_null(object) || ts_node_is_null(attribute)) return Placeholder(call);
    std::string_view method = model_.Text(attribute);
    if (method == "format") {
      Template fmt = Build(object, scope, pos, depth + 1);
      if (fmt.HasLiteralText()) return Format(call, fmt, args);
    } else if (method == "join") {
      TSNode sep = Unparenthesize(object);
      if (IsStringNode(sep)) return Join(call, sep, args, scope, pos, depth);
    } else if (method == "strip" || method == "lstrip" || method == "rstrip") {
      // `ERR_NO_CONFIG.strip()`: a constant's text without the blank lines around it.
      if (SplitArguments(model_, args).positional.empty() && SplitArguments(model_, args).keywords.empty()) {
        Template text = Build(object, scope, pos, depth + 1);
        if (text.HasLiteralText()) return Stripped(std::move(text), method != "rstrip", method != "lstrip");
      }
    }
    return Placeholder(call);
  }
  if (Is(function, "identifier")) {
    std::string_view name = model_.Text(function);
    auto it = model_.helpers.find(std::string(name));
    if (it != model_.helpers.end()) return Helper(it->second, args, scope, pos, depth);
    if (IsGettextFunction(name)) {
      // `_("...")`, `ngettext(singular, plural, n)`: the message is the (singular) text; among alternatives
      // ngettext's plural is the other.
      CallArguments split = SplitArguments(model_, args);
      if (!split.positional.empty() && split.keywords.empty() && !split.has_splat) {
        const size_t which = name == "ngettext" && split.positional.size() == 3
                                 ? static_cast<size_t>(Choose(ts_node_start_byte(call), 2))
                                 : 0;
        Template text = Build(split.positional[which], scope, pos, depth + 1);
        if (text.HasLiteralText()) return text;
      }
    }
  }
  return Placeholder(call);
}

Template PythonTemplateBuilder::Format(TSNode call, const Template& fmt, TSNode args_node) {
  CallArguments args = SplitArguments(model_, args_node);
  if (Is(args_node, "generator_expression")) return Placeholder(call);
  Template out;
  size_t auto_index = 0;
  for (const TemplatePart& p : fmt.parts()) {
    if (p.placeholder) {
      out.AppendPlaceholder(p.text);
      continue;
    }
    const std::string& s = p.text;
    std::string literal;
    for (size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if ((c == '{' || c == '}') && i + 1 < s.size() && s[i + 1] == c) {
        literal.push_back(c);
        ++i;
        continue;
      }
      if (c != '{') {
        literal.push_back(c);
        continue;
      }
      // A replacement field; format specs may nest one level of fields: `{0:{width}}`.
      // The scan is bounded so that text with many unclosed braces stays linear.
      const size_t limit = std::min(s.size(), i + kMaxFieldLength);
      int nesting = 0;
      size_t j = i;
      for (; j < limit; ++j) {
        if (s[j] == '{') ++nesting;
        if (s[j] == '}' && --nesting == 0) break;
      }
      if (j >= limit) {
        literal.push_back(c);
        continue;
      }
      std::string_view field(s.data() + i + 1, j - i - 1);
      // Split FIELD into the argument name, its .attr/[index] tail, and the !conversion:spec rest.
      size_t name_end = 0;
      int bracket = 0;
      for (; name_end < field.size(); ++name_end) {
        char f = field[name_end];
        if (f == '[') ++bracket;
        if (f == ']') --bracket;
        if (bracket == 0 && (f == '!' || f == ':')) break;
      }
      std::string_view name = field.substr(0, name_end);
      size_t arg_end = name.find_first_of(".[");
      std::string_view arg = name.substr(0, arg_end);
      std::string_view tail = arg_end == std::string_view::npos ? std::string_view() : name.substr(arg_end);
      std::string_view rest = field.substr(name_end);
      std::string mapped;
      bool found = false;
      if (arg.empty() || (arg.find_first_not_of("0123456789") == std::string_view::npos)) {
        size_t index = arg.empty() ? auto_index++ : std::stoul(std::string(arg.substr(0, 9)));
        if (index < args.leading_positional) {
          mapped = std::string(model_.Text(Unparenthesize(args.positional[index])));
          found = true;
        }
      } else {
        for (const auto& [kw, value] : args.keywords) {
          if (kw == arg) {
            mapped = std::string(model_.Text(Unparenthesize(value)));
            found = true;
            break;
          }
        }
      }
      out.AppendLiteral(literal);
      literal.clear();
      if (found) {
        out.AppendPlaceholder(mapped + std::string(tail) + std::string(rest));
      } else {
        out.AppendPlaceholder(std::string(field));
      }
      i = j;
    }
    out.AppendLiteral(literal);
  }
  return out;
}

Template PythonTemplateBuilder::Join(TSNode call, TSNode separator, TSNode args_node, int scope, uint32_t pos,
                                     int depth) {
  CallArguments args = SplitArguments(model_, args_node);
  if (args.positional.size() != 1 || !args.keywords.empty() || args.has_splat) return Placeholder(call);
  TSNode items = Unparenthesize(args.positional[0]);
  std::vector<Template> parts;
  if (Is(items, "identifier") && assembled_lists_) {
    if (!ListItems(items, scope, pos, depth + 1, &parts)) return Placeholder(call);
  } else if (!Is(items, "list") && !Is(items, "tuple")) {
    return Placeholder(call);
  } else {
    for (TSNode item : NamedChildren(items)) {
      if (Is(item, "list_splat")) return Placeholder(call);
      parts.push_back(Build(item, scope, pos, depth + 1));
    }
  }
  Template sep = Build(separator, scope, pos, depth + 1);
  Template out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out.Append(sep);
    out.Append(parts[i]);
  }
  return out;
}

namespace {

constexpr int kMaxListStatements = 2048;

// `NAME.append(X)`, `NAME.extend(X)`, `NAME.insert(0, X)` statements of BODY in source order, through compound
// statements but not into nested definitions; BUDGET bounds the statements looked at.
void CollectListCalls(TSNode node, std::string_view name, const PythonFileModel& model, int* budget,
                      std::vector<TSNode>* out) {
  for (TSNode st : NamedChildren(node)) {
    if (--*budget < 0) return;
    if (Is(st, "function_definition") || Is(st, "class_definition") || Is(st, "decorated_definition")) continue;
    if (Is(st, "expression_statement")) {
      std::vector<TSNode> e = NamedChildren(st);
      if (e.size() != 1 || !Is(e[0], "call")) continue;
      TSNode function = ts_node_child_by_field_name(e[0], "function", 8);
      if (ts_node_is_null(function) || !Is(function, "attribute")) continue;
      TSNode object = ts_node_child_by_field_name(function, "object", 6);
      if (!ts_node_is_null(object) && Is(object, "identifier") && model.Text(object) == name) out->push_back(e[0]);
      continue;
    }
    if (Is(st, "if_statement") || Is(st, "elif_clause") || Is(st, "else_clause") || Is(st, "try_statement") ||
        Is(st, "except_clause") || Is(st, "finally_clause") || Is(st, "with_statement") || Is(st, "for_statement") ||
        Is(st, "while_statement") || Is(st, "block") || Is(st, "match_statement") || Is(st, "case_clause")) {
      CollectListCalls(st, name, model, budget, out);
    }
  }
}

}  // namespace

bool PythonTemplateBuilder::AppendListValue(TSNode value, int scope, uint32_t pos, int depth,
                                            std::vector<Template>* items) {
  value = Unparenthesize(value);
  if (depth > kMaxDepth) return false;
  if (Is(value, "identifier")) return ListItems(value, scope, pos, depth + 1, items);
  if (!Is(value, "list") && !Is(value, "tuple")) return false;
  for (TSNode item : NamedChildren(value)) {
    if (Is(item, "list_splat")) return false;
    items->push_back(Build(item, scope, pos, depth + 1));
  }
  return true;
}

bool PythonTemplateBuilder::ListItems(TSNode name, int scope, uint32_t pos, int depth, std::vector<Template>* items) {
  if (depth > kMaxDepth) return false;
  const std::string_view text = model_.Text(name);
  const std::vector<Binding>* list = model_.BindingsOf(scope, text);
  if (list == nullptr) return false;
  int stop = 0;
  const int pick = PickBinding(*list, pos, ts_node_start_byte(name), &stop);
  if (pick < 0) return false;
  const Binding& b = (*list)[pick];
  if (!AppendListValue(b.value, scope, b.start, depth + 1, items)) return false;
  // What changes the list after that binding and before POS: `+=` (a binding) and the method calls. A change
  // in the block of a later binding that was not taken belongs to that binding; one in a block that does not
  // hold POS may not have run (among alternatives: with it, then without).
  auto belongs_to_skipped = [&](TSNode node, uint32_t at) {
    for (int j = pick + 1; j < stop; ++j) {
      const Binding& later = (*list)[j];
      if (!later.is_augmented && later.start < at && SameNode(BlockOf(later.value), BlockOf(node))) return true;
    }
    return false;
  };
  std::vector<std::pair<uint32_t, TSNode>> changes;  // (start, augmented value or call)
  for (int i = pick + 1; i < stop; ++i) {
    if ((*list)[i].is_augmented) changes.emplace_back((*list)[i].start, (*list)[i].value);
  }
  const TSNode scope_node = model_.scopes[static_cast<size_t>(scope)].node;
  if (scope != 0 && !ts_node_is_null(scope_node)) {
    TSNode body = ts_node_child_by_field_name(scope_node, "body", 4);
    std::vector<TSNode> calls;
    int budget = kMaxListStatements;
    if (!ts_node_is_null(body)) CollectListCalls(body, text, model_, &budget, &calls);
    for (TSNode call : calls) {
      if (ts_node_start_byte(call) >= b.end && ts_node_end_byte(call) <= pos) {
        changes.emplace_back(ts_node_start_byte(call), call);
      }
    }
  }
  std::sort(changes.begin(), changes.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  const TSNode bound_in = BlockOf(b.value);
  for (const auto& [at, node] : changes) {
    // A change in another branch than the binding's (`else: msg.insert(0, ...)` after `if ...: msg = other`)
    // does not run after it: the change's block must hold the binding, or the binding's block the change.
    const TSNode changed_in = BlockOf(node);
    if (!BlockHolds(changed_in, b.start) && !BlockHolds(bound_in, at)) continue;
    if (belongs_to_skipped(node, at)) continue;
    if (!BlockHolds(BlockOf(node), pos)) {
      const bool left_out = Choose(at, 2) == 1;
      if (choices_) choices_->steps.push_back({node, !left_out, pos});
      if (left_out) continue;
    }
    if (!Is(node, "call")) {
      if (!AppendListValue(node, scope, at, depth + 1, items)) return false;
      continue;
    }
    TSNode function = ts_node_child_by_field_name(node, "function", 8);
    TSNode attribute = ts_node_child_by_field_name(function, "attribute", 9);
    if (ts_node_is_null(attribute)) return false;
    const std::string_view method = model_.Text(attribute);
    CallArguments args = SplitArguments(model_, ts_node_child_by_field_name(node, "arguments", 9));
    if (args.has_splat || !args.keywords.empty()) return false;
    if (method == "append" && args.positional.size() == 1) {
      items->push_back(Build(args.positional[0], scope, at, depth + 1));
    } else if (method == "extend" && args.positional.size() == 1) {
      if (!AppendListValue(args.positional[0], scope, at, depth + 1, items)) return false;
    } else if (method == "insert" && args.positional.size() == 2 && model_.Text(args.positional[0]) == "0") {
      items->insert(items->begin(), Build(args.positional[1], scope, at, depth + 1));
    } else {
      return false;  // sorted, popped, cleared...: not known statically
    }
  }
  return items->size() <= 64;
}

Template PythonTemplateBuilder::Helper(const HelperFunction& helper, TSNode args_node, int scope, uint32_t pos,
                                       int depth) {
  Template body = Build(helper.return_value, helper.scope, ts_node_start_byte(helper.return_value), depth + 1);
  CallArguments args = SplitArguments(model_, args_node);
  // Placeholders whose expression is exactly a parameter name take the text of the argument bound to
  // it; a conversion or format spec stays: `{x!r:>3}` -> `{value!r:>3}`. A placeholder that is the
  // parameter itself takes the argument's own template when it has literal text: the identity fallback of
  // gettext (`def _(s): return s`) keeps `_('option -%s not recognized') % opt` a message.
  Template out;
  for (const TemplatePart& p : body.parts()) {
    if (!p.placeholder) {
      out.AppendLiteral(p.text);
      continue;
    }
    const size_t expr_end = std::min(p.text.size(), p.text.find_first_of("!:="));
    const std::string expression = p.text.substr(0, expr_end);
    std::string text = p.text;
    for (size_t k = 0; k < helper.params.size(); ++k) {
      if (expression != helper.params[k]) continue;
      TSNode bound{};
      if (k < args.leading_positional) bound = Unparenthesize(args.positional[k]);
      for (const auto& [kw, value] : args.keywords) {
        if (ts_node_is_null(bound) && kw == helper.params[k]) bound = Unparenthesize(value);
      }
      if (ts_node_is_null(bound)) break;
      if (expr_end == p.text.size()) {
        Template argument = Build(bound, scope, pos, depth + 1);
        if (argument.HasLiteralText()) {
          out.Append(argument);
          text.clear();
          break;
        }
      }
      text = std::string(model_.Text(bound)) + p.text.substr(expr_end);
      break;
    }
    if (!text.empty()) out.AppendPlaceholder(text);
  }
  return out;
}

}  // namespace errdex
