#include "python/python_flow_facts.h"

#include <charconv>
#include <cstring>
#include <string>
#include <vector>

#include "python/python_fields.h"

namespace errdex {

namespace {

// VALUE's decimal digits appended to *O (std::to_string without the string).
template <typename Int>
void AppendInt(Int value, std::string* o) {
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof digits, value);
  o->append(digits, result.ptr);
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Expressions nested deeper than this are written as unknown ("?"): their calls are lost, the walk stays
// bounded.
constexpr int kMaxExpressionDepth = 120;
constexpr size_t kMaxStringLiteral = 200;

// The named children of NODE (comments included) in order: what ts_node_named_child(NODE, i) gives for i = 0,
// 1, .... ts_node_named_child walks from the first child on every call, so a loop over it is quadratic in the
// children of a long block, list or argument list: past kFew children they are found in one walk of a tree
// cursor. A few are kept inline (no allocation), found by index as before (a cursor costs more there).
class NamedKids {
 public:
  explicit NamedKids(TSNode node) {
    const uint32_t n = ts_node_named_child_count(node);
    if (n <= kFew) {
      for (uint32_t i = 0; i < n; ++i) few_[i] = ts_node_named_child(node, i);
      size_ = n;
      return;
    }
    many_.reserve(n);
    TSTreeCursor cursor = ts_tree_cursor_new(node);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        const TSNode child = ts_tree_cursor_current_node(&cursor);
        if (ts_node_is_named(child)) many_.push_back(child);
      } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    size_ = many_.size();
  }
  NamedKids(const NamedKids&) = delete;
  NamedKids& operator=(const NamedKids&) = delete;

  const TSNode* begin() const { return many_.empty() ? few_ : many_.data(); }
  const TSNode* end() const { return begin() + size_; }
  size_t size() const { return size_; }
  TSNode operator[](size_t i) const { return begin()[i]; }

 private:
  static constexpr uint32_t kFew = 8;
  TSNode few_[kFew];
  std::vector<TSNode> many_;
  size_t size_ = 0;
};

class FlowWalker {
 public:
  explicit FlowWalker(std::string_view source) : source_(source) {}

  void Run(TSNode root) {
    lambda_counts_.push_back(0);
    Block(root, 0);
  }
  std::string& out() { return out_; }
  bool truncated() const { return truncated_; }

 private:
  std::string_view Text(TSNode node) const {
    uint32_t s = ts_node_start_byte(node), e = ts_node_end_byte(node);
    if (e > source_.size() || s > e) return {};
    return source_.substr(s, e - s);
  }
  static int Line(TSNode node) { return static_cast<int>(ts_node_start_point(node).row) + 1; }

  void Emit(const std::string& record) {
    if (truncated_) return;
    if (out_.size() + record.size() + 1 > kMaxFlowBytes) {
      truncated_ = true;
      return;
    }
    out_ += record;
    out_ += '\n';
  }
  std::string Head(char kind, int scope, TSNode at) const {
    std::string head(1, kind);
    head += ' ';
    AppendInt(scope, &head);
    head += ' ';
    AppendInt(Line(at), &head);
    return head;
  }
  // Emits RECORD (a head and its fields), a space and NODE's expression ("?" for a null node), built in place.
  // The records NODE's lambdas and comprehensions emit come first, as with E.
  void EmitWith(std::string record, TSNode node, int scope) {
    record += ' ';
    Expr(node, scope, &record, 0);
    Emit(record);
  }

  int NewScope(int parent, char kind, std::string name, TSNode node) {
    const int id = next_scope_++;
    lambda_counts_.push_back(0);
    Emit(std::string("s ") + std::to_string(id) + " " + std::to_string(parent) + " " + kind + " " + name + " " +
         std::to_string(Line(node)) + " " + std::to_string(static_cast<int>(ts_node_end_point(node).row) + 1) +
         (nesting_ == 0 ? " 1" : " 0"));
    return id;
  }

  void Block(TSNode block, int scope) {
    for (TSNode child : NamedKids(block)) Statement(child, scope);
  }

  void Statement(TSNode node, int scope);
  void Guards(TSNode node, int scope);
  // The `except` clauses of a `try` statement that catch without re-raising (record `k`, docs/callgraph.md).
  void Catches(TSNode node, int scope);
  // A `with suppress(T...)` item over BODY (record `k` with form `s`).
  void Suppress(TSNode value, TSNode body, int scope);
  void Definition(TSNode node, int scope, const std::vector<TSNode>& decorators);
  void Parameters(TSNode params, int scope, int parent);
  void Assignment(TSNode node, int scope);
  void Import(TSNode node, int scope);
  void ImportFrom(TSNode node, int scope);
  void With(TSNode node, int scope);
  void Expr(TSNode node, int scope, std::string* o, int depth);
  void Call(TSNode node, int scope, std::string* o, int depth);
  void Sequence(char tag, TSNode node, int scope, std::string* o, int depth);
  void Comprehension(TSNode node, int scope, std::string* o, int depth);
  void Lambda(TSNode node, int scope, std::string* o);
  void StringLiteral(TSNode node, int scope, std::string* o, int depth);
  void Misc(TSNode node, int scope, std::string* o, int depth);
  // `value[lo:hi:step]` with a single slice as the index: "X VALUE P LO HI STEP" (absent bounds "V None").
  bool Slice(TSNode node, int scope, std::string* o, int depth);
  void SliceBound(TSNode node, int scope, std::string* o, int depth);

  std::string E(TSNode node, int scope) {
    std::string o;
    if (ts_node_is_null(node)) return "?";
    Expr(node, scope, &o, 0);
    return o;
  }

  std::string_view source_;
  std::string out_;
  bool truncated_ = false;
  int next_scope_ = 1;
  // Compound statements around the current one within its scope: 0 for the straight-line statements of
  // a body, whose assignments the resolver may order by line ("A" records, docs/callgraph.md).
  int nesting_ = 0;
  int loops_ = 0;                   // `for` and `while` statements around the current one within its scope
  std::vector<int> lambda_counts_;  // per scope id
};

void FlowWalker::Statement(TSNode node, int scope) {
  if (truncated_) return;
  std::string_view type = ts_node_type(node);
  if (type == "function_definition" || type == "class_definition") {
    Definition(node, scope, {});
  } else if (type == "decorated_definition") {
    std::vector<TSNode> decorators;
    for (TSNode child : NamedKids(node)) {
      if (Is(child, "decorator") && ts_node_named_child_count(child) > 0) {
        decorators.push_back(ts_node_named_child(child, 0));
      }
    }
    TSNode definition = FieldOf(node, PythonFields().definition);
    if (!ts_node_is_null(definition)) Definition(definition, scope, decorators);
  } else if (type == "expression_statement") {
    for (TSNode child : NamedKids(node)) {
      if (Is(child, "assignment") || Is(child, "augmented_assignment")) {
        Assignment(child, scope);
      } else {
        // "E": a straight-line expression statement, whose container writes (`d.update(...)`) the resolver
        // may order by line like an "A" assignment's.
        EmitWith(Head(nesting_ == 0 ? 'E' : 'e', scope, child), child, scope);
      }
    }
  } else if (type == "return_statement") {
    if (ts_node_named_child_count(node) > 0) {
      EmitWith(Head('r', scope, node), ts_node_named_child(node, 0), scope);
    }
  } else if (type == "import_statement") {
    Import(node, scope);
  } else if (type == "import_from_statement") {
    ImportFrom(node, scope);
  } else if (type == "future_import_statement" || type == "comment") {
  } else if (type == "global_statement" || type == "nonlocal_statement") {
    for (TSNode child : NamedKids(node)) {
      if (Is(child, "identifier")) Emit("g " + std::to_string(scope) + " " + std::string(Text(child)));
    }
  } else if (type == "with_statement") {
    With(node, scope);
  } else if (type == "for_statement") {
    Emit(Head('f', scope, node) + " " + E(FieldOf(node, PythonFields().left), scope) + " " +
         E(FieldOf(node, PythonFields().right), scope));
    ++nesting_;
    ++loops_;
    TSNode body = FieldOf(node, PythonFields().body);
    if (!ts_node_is_null(body)) Block(body, scope);
    --loops_;
    TSNode alternative = FieldOf(node, PythonFields().alternative);
    if (!ts_node_is_null(alternative)) Statement(alternative, scope);
    --nesting_;
  } else if (type == "block" || EndsWith(type, "_statement") || EndsWith(type, "_clause") || type == "module") {
    // Compound statements and their clauses: statements are walked, expressions (conditions, raised
    // values, asserted expressions, case patterns) are evaluated for their calls.
    const bool nests = type != "block" && type != "module";
    if (type == "if_statement") Guards(node, scope);
    if (type == "try_statement") Catches(node, scope);
    const bool loop = type == "while_statement";
    if (nests) ++nesting_;
    if (loop) ++loops_;
    const NamedKids children(node);
    for (size_t i = 0; i < children.size(); ++i) {
      TSNode child = children[i];
      std::string_view child_type = ts_node_type(child);
      if (child_type == "block" || EndsWith(child_type, "_statement") || EndsWith(child_type, "_clause") ||
          child_type == "function_definition" || child_type == "class_definition" ||
          child_type == "decorated_definition") {
        Statement(child, scope);
      } else if (child_type != "comment") {
        // The raised value of `raise X` / `raise X from Y` (its first child) is instantiated when a class.
        const bool raised = type == "raise_statement" && i == 0;
        EmitWith(Head(raised ? 'z' : 'e', scope, child), child, scope);
      }
    }
    if (nests) --nesting_;
    if (loop) --loops_;
  } else {
    EmitWith(Head('e', scope, node), node, scope);
  }
}

// TEXT percent-escaped as a flow token: bytes up to space, '%' and DEL as %XX; "%" alone for "".
void AppendEscaped(std::string_view text, std::string* o) {
  if (text.empty()) *o += "%";
  static const char* hex = "0123456789abcdef";
  for (unsigned char c : text) {
    if (c <= 0x20 || c == '%' || c == 0x7f) {
      *o += '%';
      *o += hex[c >> 4];
      *o += hex[c & 15];
    } else {
      *o += static_cast<char>(c);
    }
  }
}

bool ExitsEarly(TSNode block) {
  for (uint32_t i = ts_node_named_child_count(block); i > 0; --i) {
    TSNode last = ts_node_named_child(block, i - 1);
    if (Is(last, "comment")) continue;
    return Is(last, "return_statement") || Is(last, "raise_statement") || Is(last, "continue_statement") ||
           Is(last, "break_statement");
  }
  return false;
}

// The guards of an `if` statement (docs/callgraph.md, record `h`): the lines each test's outcome holds on.
void FlowWalker::Guards(TSNode node, int scope) {
  auto last_line = [](TSNode n) { return static_cast<int>(ts_node_end_point(n).row) + 1; };
  auto emit = [&](TSNode test, int first, int last, bool negated) {
    const std::string_view text = Text(test);
    if (ts_node_is_null(test) || text.size() > kMaxStringLiteral || first > last) return;
    std::string record = Head('h', scope, test) + " " + std::to_string(first) + " " + std::to_string(last) +
                         (negated ? " 1" : " 0") + (loops_ > 0 ? " 1 " : " 0 ");
    AppendEscaped(text, &record);
    Emit(record);
  };
  auto block_of = [](TSNode clause) {
    for (TSNode child : NamedKids(clause)) {
      if (Is(child, "block")) return child;
    }
    return TSNode{};
  };
  const TSNode test = FieldOf(node, PythonFields().condition);
  const TSNode consequence = block_of(node);
  if (ts_node_is_null(consequence)) return;
  emit(test, Line(consequence), last_line(consequence), false);
  std::vector<TSNode> earlier = {test};
  bool alternatives = false;
  for (const TSNode clause : NamedKids(node)) {
    if (!Is(clause, "elif_clause") && !Is(clause, "else_clause")) continue;
    alternatives = true;
    for (TSNode t : earlier) emit(t, Line(clause), last_line(clause), true);
    if (Is(clause, "elif_clause")) {
      const TSNode block = block_of(clause);
      const TSNode own = FieldOf(clause, PythonFields().condition);
      if (!ts_node_is_null(block)) emit(own, Line(block), last_line(block), false);
      earlier.push_back(own);
    }
  }
  // `if p is None: return`: the rest of the enclosing block runs only when the test is false.
  const TSNode parent = ts_node_parent(node);
  if (!alternatives && ExitsEarly(consequence) && !ts_node_is_null(parent)) {
    emit(test, last_line(node) + 1, last_line(parent), true);
  }
}

// A name or a chain of attributes of a name (`errors.NotFound`): what a handler type or a `suppress` callee is
// written as in record `k`; anything else is written `?` (its calls are the `e` record's, never counted twice).
bool DottedName(TSNode node) {
  for (int depth = 0; depth < 32 && !ts_node_is_null(node); ++depth) {
    if (Is(node, "identifier")) return true;
    if (!Is(node, "attribute")) return false;
    node = FieldOf(node, PythonFields().object);
  }
  return false;
}

// Whether CALL hands ALIAS itself as an argument to a callee that may raise it: any but the builtins that
// read it (`str`, `repr`, `print`, `isinstance`, `type`, `id`, `format`) and loggers' methods.
template <typename TextOf>
bool HandsOn(TSNode call, std::string_view alias, const TextOf& text) {
  const TSNode callee = FieldOf(call, PythonFields().function);
  const TSNode args = FieldOf(call, PythonFields().arguments);
  if (ts_node_is_null(callee) || ts_node_is_null(args)) return false;
  std::string_view name = text(callee);
  if (const size_t dot = name.rfind('.'); dot != std::string_view::npos) name = name.substr(dot + 1);
  static const char* const kReaders[] = {"str",       "repr",     "print", "isinstance", "type", "id",
                                         "format",    "debug",    "info",  "warning",    "warn", "error",
                                         "exception", "critical", "log",   "issubclass", "len"};
  for (const char* r : kReaders) {
    if (name == r) return false;
  }
  for (TSNode a : NamedKids(args)) {
    if (Is(a, "keyword_argument")) a = FieldOf(a, PythonFields().value);
    if (!ts_node_is_null(a) && text(a) == alias) return true;
  }
  return false;
}

// Whether the handler BLOCK of an `except ... as ALIAS` clause lets the exception go on: a bare `raise`,
// `raise X from Y` (Y not None: the caught error is printed as the cause), `raise ALIAS` (and
// `raise ALIAS.with_traceback(...)`), ALIAS assigned to a name (kept to be raised later) or handed to a call
// that may raise it (HandsOn), or a `with ...reraise...():` block (SQLAlchemy's `util.safe_reraise()`). Nested
// definitions are not searched: their raises run elsewhere.
bool Reraises(TSNode block, std::string_view alias, std::string_view source) {
  auto text = [&](TSNode n) {
    const uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    return e <= source.size() && s <= e ? source.substr(s, e - s) : std::string_view();
  };
  std::vector<TSNode> stack = {block};
  size_t visited = 0;
  while (!stack.empty() && ++visited < 100000) {
    const TSNode n = stack.back();
    stack.pop_back();
    if (Is(n, "function_definition") || Is(n, "class_definition") || Is(n, "lambda")) continue;
    // `last_error = exc`: the caught error is kept, to be raised after the loop (`raise last_error`).
    if (Is(n, "assignment") && !alias.empty()) {
      const TSNode right = FieldOf(n, PythonFields().right);
      if (!ts_node_is_null(right) && text(right) == alias) return true;
    }
    // `with util.safe_reraise():` raises the caught error again when the block ends.
    if (Is(n, "with_item") && text(n).find("reraise") != std::string_view::npos) return true;
    // The caught error handed to a call (`self._handle_dbapi_exception(e, ...)`, `raise_(e)`) may be raised by it;
    // not to the builtins and loggers that only show it.
    if (Is(n, "call") && !alias.empty() && HandsOn(n, alias, text)) return true;
    if (Is(n, "raise_statement")) {
      if (ts_node_named_child_count(n) == 0) return true;
      const TSNode cause = ts_node_child_by_field_name(n, "cause", 5);
      if (!ts_node_is_null(cause) && text(cause) != "None") return true;
      const std::string_view raised = text(ts_node_named_child(n, 0));
      if (!alias.empty() && raised.substr(0, alias.size()) == alias &&
          (raised.size() == alias.size() || raised[alias.size()] == '.')) {
        return true;
      }
      continue;
    }
    const NamedKids children(n);
    for (size_t i = children.size(); i > 0; --i) stack.push_back(children[i - 1]);
  }
  return false;
}

void FlowWalker::Catches(TSNode node, int scope) {
  const TSNode body = FieldOf(node, PythonFields().body);
  if (ts_node_is_null(body)) return;
  const std::string range =
      " " + std::to_string(Line(body)) + " " + std::to_string(static_cast<int>(ts_node_end_point(body).row) + 1);
  for (const TSNode clause : NamedKids(node)) {
    if (!Is(clause, "except_clause") && !Is(clause, "except_group_clause")) continue;
    TSNode value = FieldOf(clause, PythonFields().value), handler{};
    std::string_view alias;
    if (const TSNode a = FieldOf(clause, PythonFields().alias); !ts_node_is_null(a)) alias = Text(a);
    for (const TSNode child : NamedKids(clause)) {
      if (Is(child, "block")) handler = child;
      // Grammars without the `value` field: the first expression; `T as e` as an `as_pattern`.
      if (ts_node_is_null(value) && !Is(child, "block") && !Is(child, "comment")) value = child;
    }
    if (!ts_node_is_null(value) && Is(value, "as_pattern")) {
      const TSNode a = FieldOf(value, PythonFields().alias);
      if (!ts_node_is_null(a)) alias = Text(a);
      value = ts_node_named_child(value, 0);
    }
    while (!ts_node_is_null(value) && Is(value, "parenthesized_expression") && ts_node_named_child_count(value) == 1) {
      value = ts_node_named_child(value, 0);
    }
    if (ts_node_is_null(handler)) continue;
    // A re-raising clause is written too: it takes the types it names from the clauses after it.
    const bool reraises = Reraises(handler, alias, source_);
    std::vector<TSNode> types;
    if (!ts_node_is_null(value) && (Is(value, "tuple") || Is(value, "expression_list"))) {
      for (const TSNode child : NamedKids(value)) {
        if (!Is(child, "comment")) types.push_back(child);
      }
    } else if (!ts_node_is_null(value)) {
      types.push_back(value);
    }
    std::string record = Head('k', scope, clause) + range + (reraises ? " r " : " e ") + std::to_string(types.size());
    for (TSNode t : types) {
      record += ' ';
      record += DottedName(t) ? E(t, scope) : std::string("?");
    }
    Emit(record);
  }
}

void FlowWalker::Suppress(TSNode value, TSNode body, int scope) {
  if (ts_node_is_null(body) || !Is(value, "call")) return;
  const TSNode callee = FieldOf(value, PythonFields().function);
  const TSNode args = FieldOf(value, PythonFields().arguments);
  const std::string_view name = ts_node_is_null(callee) ? std::string_view() : Text(callee);
  if (ts_node_is_null(args) || !DottedName(callee) || !(name == "suppress" || EndsWith(name, ".suppress"))) return;
  std::vector<TSNode> types;
  for (const TSNode a : NamedKids(args)) {
    if (Is(a, "keyword_argument") || Is(a, "comment")) continue;
    if (Is(a, "list_splat") || Is(a, "dictionary_splat")) return;  // unknown types: nothing known caught
    types.push_back(a);
  }
  std::string record = Head('k', scope, value) + " " + std::to_string(Line(body)) + " " +
                       std::to_string(static_cast<int>(ts_node_end_point(body).row) + 1) + " s " + E(callee, scope) +
                       " " + std::to_string(types.size());
  for (TSNode t : types) {
    record += ' ';
    record += DottedName(t) ? E(t, scope) : std::string("?");
  }
  Emit(record);
}

void FlowWalker::Definition(TSNode node, int scope, const std::vector<TSNode>& decorators) {
  TSNode name = FieldOf(node, PythonFields().name);
  if (ts_node_is_null(name)) return;
  const bool is_class = Is(node, "class_definition");
  const int id = NewScope(scope, is_class ? 'c' : 'f', std::string(Text(name)), node);
  for (TSNode decorator : decorators) EmitWith("d " + std::to_string(id), decorator, scope);
  if (is_class) {
    TSNode bases = FieldOf(node, PythonFields().superclasses);
    if (!ts_node_is_null(bases)) {
      for (TSNode base : NamedKids(bases)) {
        if (Is(base, "keyword_argument") || Is(base, "comment")) continue;
        EmitWith("b " + std::to_string(id), base, scope);
      }
    }
  } else {
    TSNode params = FieldOf(node, PythonFields().parameters);
    if (!ts_node_is_null(params)) Parameters(params, id, scope);
    TSNode returns = FieldOf(node, PythonFields().return_type);
    if (!ts_node_is_null(returns)) EmitWith("R " + std::to_string(id), returns, scope);
  }
  TSNode body = FieldOf(node, PythonFields().body);
  const int saved_nesting = nesting_, saved_loops = loops_;
  nesting_ = 0;
  loops_ = 0;
  if (!ts_node_is_null(body)) Block(body, id);
  nesting_ = saved_nesting;
  loops_ = saved_loops;
}

void FlowWalker::Parameters(TSNode params, int scope, int parent) {
  for (TSNode p : NamedKids(params)) {
    std::string kind = "n";
    TSNode name_node{}, type{}, value{};
    if (Is(p, "identifier")) {
      name_node = p;
    } else if (Is(p, "default_parameter") || Is(p, "typed_default_parameter")) {
      name_node = FieldOf(p, PythonFields().name);
      type = FieldOf(p, PythonFields().type);
      value = FieldOf(p, PythonFields().value);
    } else if (Is(p, "typed_parameter")) {
      type = FieldOf(p, PythonFields().type);
      if (ts_node_named_child_count(p) > 0) name_node = ts_node_named_child(p, 0);
    } else if (Is(p, "list_splat_pattern") || Is(p, "dictionary_splat_pattern")) {
      name_node = p;
    } else {
      continue;  // separators
    }
    if (ts_node_is_null(name_node)) continue;
    if (Is(name_node, "list_splat_pattern") || Is(name_node, "dictionary_splat_pattern")) {
      kind = Is(name_node, "list_splat_pattern") ? "*" : "**";
      if (ts_node_named_child_count(name_node) == 0) continue;
      name_node = ts_node_named_child(name_node, 0);
    }
    if (!Is(name_node, "identifier")) continue;
    Emit("p " + std::to_string(scope) + " " + std::string(Text(name_node)) + " " + kind + " " +
         (ts_node_is_null(type) ? std::string("?") : E(type, parent)) + " " +
         (ts_node_is_null(value) ? std::string("?") : E(value, parent)));
  }
}

void FlowWalker::Assignment(TSNode node, int scope) {
  if (Is(node, "augmented_assignment")) {
    TSNode left = FieldOf(node, PythonFields().left), op = FieldOf(node, PythonFields().operator_);
    std::string target = E(left, scope);
    std::string op_text = ts_node_is_null(op) ? "+=" : std::string(Text(op));
    if (!op_text.empty() && op_text.back() == '=') op_text.pop_back();
    Emit(Head('a', scope, node) + " " + target + " O " + op_text + " " + target + " " +
         E(FieldOf(node, PythonFields().right), scope));
    return;
  }
  // `a = b = value`: the right side of an assignment is another assignment.
  std::vector<TSNode> targets;
  TSNode current = node, type{};
  while (!ts_node_is_null(current) && Is(current, "assignment")) {
    targets.push_back(FieldOf(current, PythonFields().left));
    if (ts_node_is_null(type)) type = FieldOf(current, PythonFields().type);
    current = FieldOf(current, PythonFields().right);
  }
  std::string value = ts_node_is_null(current) ? std::string() : E(current, scope);
  for (TSNode target : targets) {
    if (ts_node_is_null(target)) continue;
    std::string t = E(target, scope);
    if (!ts_node_is_null(type)) EmitWith(Head('t', scope, node) + " " + t, type, scope);
    if (!value.empty()) {
      std::string record = Head(nesting_ == 0 ? 'A' : 'a', scope, node);
      record += ' ';
      record += t;
      record += ' ';
      record += value;
      Emit(record);
    }
  }
}

void FlowWalker::Import(TSNode node, int scope) {
  for (TSNode child : NamedKids(node)) {
    if (Is(child, "dotted_name")) {
      std::string path(Text(child));
      Emit(Head('m', scope, node) + " " + path);
      Emit(Head('i', scope, node) + " " + path.substr(0, path.find('.')) + " " + path.substr(0, path.find('.')));
    } else if (Is(child, "aliased_import")) {
      TSNode name = FieldOf(child, PythonFields().name), alias = FieldOf(child, PythonFields().alias);
      if (ts_node_is_null(name) || ts_node_is_null(alias)) continue;
      Emit(Head('m', scope, node) + " " + std::string(Text(name)));
      Emit(Head('i', scope, node) + " " + std::string(Text(alias)) + " " + std::string(Text(name)));
    }
  }
}

void FlowWalker::ImportFrom(TSNode node, int scope) {
  TSNode module = FieldOf(node, PythonFields().module_name);
  if (ts_node_is_null(module)) return;
  std::string base;
  for (char c : Text(module)) {
    if (c != ' ' && c != '\n' && c != '\\' && c != '\t' && c != '\r') base += c;
  }
  auto join = [&](std::string_view name) {
    return !base.empty() && base.back() == '.' ? base + std::string(name) : base + "." + std::string(name);
  };
  for (TSNode child : NamedKids(node)) {
    if (ts_node_eq(child, module)) continue;
    if (Is(child, "wildcard_import")) {
      Emit(Head('i', scope, node) + " * " + base);
    } else if (Is(child, "dotted_name")) {
      Emit(Head('i', scope, node) + " " + std::string(Text(child)) + " " + join(Text(child)));
    } else if (Is(child, "aliased_import")) {
      TSNode name = FieldOf(child, PythonFields().name), alias = FieldOf(child, PythonFields().alias);
      if (ts_node_is_null(name) || ts_node_is_null(alias)) continue;
      Emit(Head('i', scope, node) + " " + std::string(Text(alias)) + " " + join(Text(name)));
    }
  }
}

void FlowWalker::With(TSNode node, int scope) {
  for (TSNode clause : NamedKids(node)) {
    if (!Is(clause, "with_clause")) continue;
    for (TSNode item : NamedKids(clause)) {
      if (!Is(item, "with_item")) continue;
      TSNode value = FieldOf(item, PythonFields().value);
      if (ts_node_is_null(value)) continue;
      std::string target = "?";
      if (Is(value, "as_pattern")) {
        TSNode alias = FieldOf(value, PythonFields().alias);
        if (!ts_node_is_null(alias)) {
          target = ts_node_named_child_count(alias) > 0 ? E(ts_node_named_child(alias, 0), scope) : E(alias, scope);
        }
        value = ts_node_named_child(value, 0);
      }
      Emit(Head('w', scope, item) + " " + E(value, scope) + " " + target);
      Suppress(value, FieldOf(node, PythonFields().body), scope);
    }
  }
  TSNode body = FieldOf(node, PythonFields().body);
  ++nesting_;
  if (!ts_node_is_null(body)) Block(body, scope);
  --nesting_;
}

void FlowWalker::Sequence(char tag, TSNode node, int scope, std::string* o, int depth) {
  std::string items;
  int count = 0;
  for (TSNode child : NamedKids(node)) {
    if (Is(child, "comment")) continue;
    if (tag == 'D') {
      if (Is(child, "pair")) {
        items += ' ';
        Expr(FieldOf(child, PythonFields().key), scope, &items, depth + 1);
        items += ' ';
        Expr(FieldOf(child, PythonFields().value), scope, &items, depth + 1);
      } else {
        items += " ? ";  // `**other`: the key is unknown, the value is other (extractor version 28)
        const bool splat = Is(child, "dictionary_splat") && ts_node_named_child_count(child) > 0;
        Expr(splat ? ts_node_named_child(child, 0) : child, scope, &items, depth + 1);
      }
    } else {
      items += ' ';
      Expr(child, scope, &items, depth + 1);
    }
    ++count;
  }
  *o += tag;
  *o += ' ';
  AppendInt(count, o);
  *o += items;
}

void FlowWalker::Call(TSNode node, int scope, std::string* o, int depth) {
  TSNode function = FieldOf(node, PythonFields().function), arguments = FieldOf(node, PythonFields().arguments);
  std::string positional, keywords;
  int npos = 0, nkw = 0;
  if (!ts_node_is_null(arguments)) {
    if (Is(arguments, "generator_expression")) {
      positional += ' ';
      Expr(arguments, scope, &positional, depth + 1);
      ++npos;
    } else {
      for (TSNode arg : NamedKids(arguments)) {
        if (Is(arg, "comment")) continue;
        if (Is(arg, "keyword_argument")) {
          TSNode name = FieldOf(arg, PythonFields().name);
          keywords += ' ';
          keywords += ts_node_is_null(name) ? std::string("?") : std::string(Text(name));
          keywords += ' ';
          Expr(FieldOf(arg, PythonFields().value), scope, &keywords, depth + 1);
          ++nkw;
        } else if (Is(arg, "dictionary_splat")) {
          keywords += " ** ";
          Expr(ts_node_named_child_count(arg) > 0 ? ts_node_named_child(arg, 0) : TSNode{}, scope, &keywords,
               depth + 1);
          ++nkw;
        } else {
          positional += ' ';
          Expr(arg, scope, &positional, depth + 1);
          ++npos;
        }
      }
    }
  }
  const TSPoint at = ts_node_start_point(ts_node_is_null(function) ? node : function);
  *o += "C ";
  for (const uint32_t field : {at.row + 1, at.column, static_cast<uint32_t>(npos), static_cast<uint32_t>(nkw)}) {
    AppendInt(field, o);
    *o += ' ';
  }
  Expr(function, scope, o, depth + 1);
  *o += positional;
  *o += keywords;
}

void FlowWalker::Comprehension(TSNode node, int scope, std::string* o, int depth) {
  TSNode body = FieldOf(node, PythonFields().body);
  for (TSNode clause : NamedKids(node)) {
    if (Is(clause, "for_in_clause")) {
      Emit(Head('f', scope, clause) + " " + E(FieldOf(clause, PythonFields().left), scope) + " " +
           E(FieldOf(clause, PythonFields().right), scope));
    } else if (Is(clause, "if_clause") && ts_node_named_child_count(clause) > 0) {
      EmitWith(Head('e', scope, clause), ts_node_named_child(clause, 0), scope);
    }
  }
  if (!ts_node_is_null(body) && Is(body, "pair")) {
    *o += "D 1 ";
    Expr(FieldOf(body, PythonFields().key), scope, o, depth + 1);
    *o += ' ';
    Expr(FieldOf(body, PythonFields().value), scope, o, depth + 1);
  } else {
    *o += "G ";
    Expr(body, scope, o, depth + 1);
  }
}

void FlowWalker::Lambda(TSNode node, int scope, std::string* o) {
  const int count = ++lambda_counts_[static_cast<size_t>(scope)];
  const int id = NewScope(scope, 'l', "<lambda" + std::to_string(count) + ">", node);
  TSNode params = FieldOf(node, PythonFields().parameters);
  if (!ts_node_is_null(params)) Parameters(params, id, scope);
  TSNode body = FieldOf(node, PythonFields().body);
  if (!ts_node_is_null(body)) EmitWith(Head('r', id, body), body, id);
  *o += "F ";
  AppendInt(id, o);
}

void FlowWalker::StringLiteral(TSNode node, int scope, std::string* o, int depth) {
  if (Is(node, "string")) {
    bool interpolated = false;
    std::string content;
    for (TSNode child : NamedKids(node)) {
      if (Is(child, "interpolation")) interpolated = true;
      if (Is(child, "string_content")) content += Text(child);
    }
    if (!interpolated && content.size() <= kMaxStringLiteral) {
      *o += "Q ";
      AppendEscaped(content, o);  // "%" alone is the empty string
      return;
    }
  }
  Misc(node, scope, o, depth);
}

void FlowWalker::Misc(TSNode node, int scope, std::string* o, int depth) {
  std::string items;
  int count = 0;
  for (TSNode child : NamedKids(node)) {
    std::string_view type = ts_node_type(child);
    if (type == "comment" || type == "string_start" || type == "string_end" || type == "string_content" ||
        type == "escape_sequence" || type == "keyword_separator" || type == "positional_separator") {
      continue;
    }
    items += ' ';
    Expr(child, scope, &items, depth + 1);
    ++count;
  }
  if (count == 0) {
    *o += "I";
    return;
  }
  *o += "M ";
  AppendInt(count, o);
  *o += items;
}

bool FlowWalker::Slice(TSNode node, int scope, std::string* o, int depth) {
  TSNode index = FieldOf(node, PythonFields().subscript);
  if (ts_node_is_null(index) || !Is(index, "slice") || ts_node_named_child_count(node) != 2) return false;
  // The bounds in order: a named child belongs to the part after as many ':' as precede it.
  TSNode parts[3] = {TSNode{}, TSNode{}, TSNode{}};
  int part = 0;
  const uint32_t n = ts_node_child_count(index);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode child = ts_node_child(index, i);
    if (!ts_node_is_named(child)) {
      if (std::string_view(ts_node_type(child)) == ":") ++part;
    } else if (part < 3 && !Is(child, "comment")) {
      parts[part] = child;
    }
  }
  *o += "X ";
  Expr(FieldOf(node, PythonFields().value), scope, o, depth + 1);
  *o += " P";
  for (TSNode bound : parts) {
    *o += ' ';
    SliceBound(bound, scope, o, depth + 1);
  }
  return true;
}

void FlowWalker::SliceBound(TSNode node, int scope, std::string* o, int depth) {
  if (ts_node_is_null(node)) {
    *o += "V None";  // `a[:3]` is `a[None:3]`
    return;
  }
  if (Is(node, "unary_operator") && ts_node_named_child_count(node) == 1) {
    TSNode op = FieldOf(node, PythonFields().operator_);
    TSNode operand = ts_node_named_child(node, 0);
    if (!ts_node_is_null(op) && Text(op) == "-" && Is(operand, "integer") && Text(operand).size() <= 20) {
      *o += "K -";  // a negative index counts from the end
      *o += Text(operand);
      return;
    }
  }
  Expr(node, scope, o, depth);
}

void FlowWalker::Expr(TSNode node, int scope, std::string* o, int depth) {
  if (ts_node_is_null(node) || depth > kMaxExpressionDepth) {
    *o += '?';
    return;
  }
  std::string_view type = ts_node_type(node);
  if (type == "identifier") {
    *o += "N ";
    *o += Text(node);
  } else if (type == "attribute") {
    TSNode attribute = FieldOf(node, PythonFields().attribute);
    *o += "A ";
    *o += ts_node_is_null(attribute) ? std::string_view("?") : Text(attribute);
    *o += ' ';
    Expr(FieldOf(node, PythonFields().object), scope, o, depth + 1);
  } else if (type == "call") {
    Call(node, scope, o, depth);
  } else if (type == "type" && ts_node_named_child_count(node) == 1) {  // an annotation
    Expr(ts_node_named_child(node, 0), scope, o, depth + 1);
  } else if (type == "parenthesized_expression") {
    if (ts_node_named_child_count(node) == 1) {
      Expr(ts_node_named_child(node, 0), scope, o, depth + 1);
    } else {
      Misc(node, scope, o, depth);
    }
  } else if (type == "string") {
    StringLiteral(node, scope, o, depth);
  } else if (type == "integer" && Text(node).size() <= 20) {
    *o += "K ";
    *o += Text(node);
  } else if (type == "true" || type == "false" || type == "none") {
    *o += type == "none" ? "V None" : type == "true" ? "V True" : "V False";
  } else if (type == "integer" || type == "float" || type == "ellipsis") {
    *o += 'I';
  } else if (type == "list" || type == "tuple" || type == "set" || type == "expression_list" ||
             type == "pattern_list" || type == "tuple_pattern" || type == "list_pattern") {
    Sequence('L', node, scope, o, depth);
  } else if (type == "dictionary") {
    Sequence('D', node, scope, o, depth);
  } else if (type == "list_splat" || type == "list_splat_pattern") {
    *o += "S ";
    Expr(ts_node_named_child_count(node) > 0 ? ts_node_named_child(node, 0) : TSNode{}, scope, o, depth + 1);
  } else if (type == "lambda") {
    Lambda(node, scope, o);
  } else if (type == "subscript" && Slice(node, scope, o, depth)) {
  } else if (type == "subscript") {
    *o += "X ";
    Expr(FieldOf(node, PythonFields().value), scope, o, depth + 1);
    *o += ' ';
    Expr(FieldOf(node, PythonFields().subscript), scope, o, depth + 1);
  } else if (type == "binary_operator") {
    TSNode op = FieldOf(node, PythonFields().operator_);
    *o += "O ";
    *o += ts_node_is_null(op) ? std::string_view("?") : Text(op);
    *o += ' ';
    Expr(FieldOf(node, PythonFields().left), scope, o, depth + 1);
    *o += ' ';
    Expr(FieldOf(node, PythonFields().right), scope, o, depth + 1);
  } else if (type == "boolean_operator") {
    *o += "U 2 ";
    Expr(FieldOf(node, PythonFields().left), scope, o, depth + 1);
    *o += ' ';
    Expr(FieldOf(node, PythonFields().right), scope, o, depth + 1);
  } else if (type == "conditional_expression" && ts_node_named_child_count(node) == 3) {
    *o += "U 3 ";
    Expr(ts_node_named_child(node, 0), scope, o, depth + 1);
    *o += ' ';
    Expr(ts_node_named_child(node, 2), scope, o, depth + 1);
    *o += " M 1 ";
    Expr(ts_node_named_child(node, 1), scope, o, depth + 1);
  } else if (type == "await") {
    *o += "W ";
    Expr(ts_node_named_child_count(node) > 0 ? ts_node_named_child(node, 0) : TSNode{}, scope, o, depth + 1);
  } else if (type == "yield") {
    *o += "Y ";
    if (ts_node_named_child_count(node) > 0) {
      Expr(ts_node_named_child(node, 0), scope, o, depth + 1);
    } else {
      *o += 'I';
    }
  } else if (type == "list_comprehension" || type == "set_comprehension" || type == "generator_expression" ||
             type == "dictionary_comprehension") {
    Comprehension(node, scope, o, depth);
  } else if (type == "named_expression") {
    TSNode name = FieldOf(node, PythonFields().name);
    std::string value = E(FieldOf(node, PythonFields().value), scope);
    if (!ts_node_is_null(name)) Emit(Head('a', scope, node) + " N " + std::string(Text(name)) + " " + value);
    *o += value;
  } else {
    Misc(node, scope, o, depth);
  }
}

}  // namespace

std::string ExtractPythonFlowFacts(TSNode root, std::string_view source, bool* truncated) {
  FlowWalker walker(source);
  walker.Run(root);
  *truncated = walker.truncated();
  return std::move(walker.out());
}

}  // namespace errdex
