#include "python/condition_truth.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <cstring>
#include <string_view>

#include "python/python_fields.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace errdex {

namespace {

enum class Truth { kFalse, kTrue, kUnknown };
using Kind = KnownValue::Kind;

Truth Not(Truth t) { return t == Truth::kUnknown ? t : t == Truth::kTrue ? Truth::kFalse : Truth::kTrue; }
Truth Of(bool b) { return b ? Truth::kTrue : Truth::kFalse; }

bool IsObject(const KnownValue& v) {
  return v.kind == Kind::kInstance || v.kind == Kind::kClass || v.kind == Kind::kSentinel;
}

bool Holds(const KnownValue& v, const std::string& qualified) {
  for (const std::string& c : v.classes) {
    if (c == qualified) return true;
  }
  return false;
}

// `x is s` of an instance X and a sentinel S: false when the class of X (or of any subclass of it) cannot
// be the class of S, i.e. the class of X is not among the classes of S; the same for a literal X (`"a"`,
// `0`, `True`, `[]`) and its builtin class.
Truth InstanceIsSentinel(const KnownValue& x, const KnownValue& s) {
  if (!s.complete) return Truth::kUnknown;
  if (x.kind == Kind::kInstance) return x.classes.empty() || Holds(s, x.classes[0]) ? Truth::kUnknown : Truth::kFalse;
  // A literal: of its builtin class (an empty literal: a list, tuple or dict).
  std::vector<std::string> own;
  if (x.kind == Kind::kString) own = {"builtins.str"};
  if (x.kind == Kind::kInt || x.kind == Kind::kTrue || x.kind == Kind::kFalse) own = {"builtins.int", "builtins.bool"};
  if (x.kind == Kind::kEmpty || x.kind == Kind::kSized) own = {"builtins.list", "builtins.tuple", "builtins.dict"};
  if (own.empty()) return Truth::kUnknown;
  for (const std::string& c : own) {
    if (Holds(s, c)) return Truth::kUnknown;
  }
  return Truth::kFalse;
}

// The builtin classes `isinstance` is decided for when its argument is an instance of a known class.
bool IsBuiltinClassName(std::string_view t) {
  for (std::string_view b : {"str", "int", "bool", "float", "bytes", "bytearray", "list", "dict", "tuple", "set",
                             "frozenset", "type", "Exception", "BaseException"}) {
    if (t == b) return true;
  }
  return false;
}

bool IsLiteral(const KnownValue& v) {
  return v.kind == Kind::kTrue || v.kind == Kind::kFalse || v.kind == Kind::kInt || v.kind == Kind::kString;
}

// The truth of a value: None, False, 0 and "" are false; an object's own __bool__ is unknown.
Truth TruthOfValue(const KnownValue& v) {
  switch (v.kind) {
    case Kind::kNone:
    case Kind::kFalse:
    case Kind::kEmpty:
      return Truth::kFalse;
    case Kind::kTrue:
    case Kind::kSized:
      return Truth::kTrue;
    case Kind::kInt:
      return Of(v.integer != 0);
    case Kind::kString:
      return Of(!v.text.empty());
    case Kind::kInstance:
      return v.truthy ? Truth::kTrue : Truth::kUnknown;
    default:
      return Truth::kUnknown;
  }
}

// `a is b` and `a == b` of two known values.
Truth Compare(std::string_view op, const KnownValue& a, const KnownValue& b) {
  if (a.kind == Kind::kUnknown || b.kind == Kind::kUnknown) return Truth::kUnknown;
  const bool a_none = a.kind == Kind::kNone, b_none = b.kind == Kind::kNone;
  auto number = [](const KnownValue& v, long long* n) {
    if (v.kind == Kind::kInt) *n = v.integer;
    if (v.kind == Kind::kTrue || v.kind == Kind::kFalse) *n = v.kind == Kind::kTrue ? 1 : 0;
    return v.kind == Kind::kInt || v.kind == Kind::kTrue || v.kind == Kind::kFalse;
  };
  long long x = 0, y = 0;
  const bool numbers = number(a, &x) && number(b, &y);
  if (op == "is" || op == "is not") {
    Truth t = Truth::kUnknown;
    if (a_none || b_none) {
      t = Of(a_none && b_none);  // nothing else is None, objects included
    } else if (b.kind == Kind::kSentinel && a.kind != Kind::kSentinel) {
      t = InstanceIsSentinel(a, b);
    } else if (a.kind == Kind::kSentinel && b.kind != Kind::kSentinel) {
      t = InstanceIsSentinel(b, a);
    } else if ((a.kind == Kind::kTrue || a.kind == Kind::kFalse) && (b.kind == Kind::kTrue || b.kind == Kind::kFalse)) {
      t = Of(a.kind == b.kind);
    }
    return op == "is" ? t : Not(t);
  }
  if (op == "==" || op == "!=") {
    Truth t = Truth::kUnknown;
    if (a.kind == Kind::kNotNone || b.kind == Kind::kNotNone || a.kind == Kind::kEmpty || b.kind == Kind::kEmpty ||
        a.kind == Kind::kSized || b.kind == Kind::kSized || IsObject(a) || IsObject(b)) {
      return t;  // an object's __eq__; `() == []` is false but `[] == []` true: not compared
    }
    if (a_none || b_none) {
      t = Of(a_none && b_none);
    } else if (numbers) {
      t = Of(x == y);
    } else if (a.kind == Kind::kString && b.kind == Kind::kString) {
      t = Of(a.text == b.text);
    } else if (IsLiteral(a) && IsLiteral(b)) {
      t = Truth::kFalse;  // a string is never equal to a number
    }
    return op == "==" ? t : Not(t);
  }
  if (numbers) {
    if (op == "<") return Of(x < y);
    if (op == "<=") return Of(x <= y);
    if (op == ">") return Of(x > y);
    if (op == ">=") return Of(x >= y);
  }
  return Truth::kUnknown;
}

}  // namespace

struct ConditionTruth::Impl {
  TSParser* parser = ts_parser_new();
  std::string source;
  const std::unordered_map<std::string, KnownValue>* values = nullptr;
  // The tests required of one if/elif chain: "n:" (is None) or "t:" (is true) and the text of what is tested.
  std::unordered_map<std::string, bool> atoms;

  // The trees of the texts parsed so far (each text is asked again for every call a feasibility check reads),
  // at most kMaxParsedTexts: past that they are dropped and parsed anew.
  std::unordered_map<std::string, TSTree*> parsed;
  static constexpr size_t kMaxParsedTexts = 4096;

  Impl() { ts_parser_set_language(parser, tree_sitter_python()); }
  ~Impl() {
    Forget();
    ts_parser_delete(parser);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  void Forget() {
    for (auto& [text, tree] : parsed) ts_tree_delete(tree);
    parsed.clear();
  }
  // The tree of SOURCE (owned by PARSED: valid until the next call), null when it does not parse.
  TSTree* Parsed() {
    if (auto it = parsed.find(source); it != parsed.end()) return it->second;
    if (parsed.size() >= kMaxParsedTexts) Forget();
    TSTree* tree = ts_parser_parse_string(parser, nullptr, source.data(), static_cast<uint32_t>(source.size()));
    if (tree != nullptr) parsed.emplace(source, tree);
    return tree;
  }

  std::string_view Text(TSNode n) const {
    const uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    return e <= source.size() && s <= e ? std::string_view(source).substr(s, e - s) : std::string_view();
  }
  static TSNode Inner(TSNode n) {
    while (!ts_node_is_null(n) && Is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1) {
      n = ts_node_named_child(n, 0);
    }
    return n;
  }

  bool AssertPossible(std::string_view statement);
  bool ForPossible(std::string_view header);
  KnownValue Value(TSNode n) const;
  KnownValue Length(TSNode call) const;
  Truth TruthOf(TSNode n, int depth) const;
  Truth CompareNode(TSNode n, int depth) const;
  Truth IsInstance(TSNode n) const;
  Truth InstanceOf(const KnownValue& x, TSNode type) const;
  bool Atom(TSNode n, std::string* key) const;
  bool Require(TSNode n, bool want, int depth);
  bool Record(const std::string& key, bool want);
  bool HeaderPossible(const Condition& c);
};

KnownValue ConditionTruth::Impl::Value(TSNode n) const {
  n = Inner(n);
  KnownValue v;
  if (ts_node_is_null(n)) return v;
  if (Is(n, "none")) v.kind = Kind::kNone;
  if (Is(n, "true")) v.kind = Kind::kTrue;
  if (Is(n, "false")) v.kind = Kind::kFalse;
  if (Is(n, "integer")) {
    const std::string_view t = Text(n);
    if (!t.empty() && t.size() < 18 && t.find_first_not_of("0123456789") == std::string_view::npos) {
      v.kind = Kind::kInt;
      v.integer = std::stoll(std::string(t));
    }
  }
  if (Is(n, "string")) {
    // A plain literal without prefix, escapes or interpolation: its content.
    const std::string_view t = Text(n);
    if (t.size() >= 2 && (t[0] == '"' || t[0] == '\'') && t.back() == t[0] && t.find('\\') == std::string_view::npos &&
        t.find(t[0], 1) == t.size() - 1) {
      v.kind = Kind::kString;
      v.text = std::string(t.substr(1, t.size() - 2));
    }
  }
  if (Is(n, "call")) return Length(n);
  if (Is(n, "identifier") || Is(n, "attribute")) {
    // A name, or a dotted name (`self.closed`, `NotSetType.token`), as written without blanks.
    std::string key;
    for (char c : Text(n)) {
      if (c != ' ' && c != '\n' && c != '\t' && c != '\\') key += c;
    }
    auto it = values->find(key);
    if (it != values->end()) v = it->second;
  }
  return v;
}

// `len(x)` of a known empty or sized container, or of a plain string of ASCII characters (whose length in
// characters is its length in bytes): an integer; anything else unknown.
KnownValue ConditionTruth::Impl::Length(TSNode call) const {
  KnownValue v;
  TSNode fn = FieldOf(call, PythonFields().function), args = FieldOf(call, PythonFields().arguments);
  if (ts_node_is_null(fn) || ts_node_is_null(args) || Text(fn) != "len" || ts_node_named_child_count(args) != 1 ||
      Is(ts_node_named_child(args, 0), "list_splat") || Is(ts_node_named_child(args, 0), "keyword_argument")) {
    return v;
  }
  const KnownValue x = Value(ts_node_named_child(args, 0));
  if (x.kind == Kind::kEmpty || x.kind == Kind::kSized) {
    v.kind = Kind::kInt;
    v.integer = x.kind == Kind::kEmpty ? 0 : x.integer;
  } else if (x.kind == Kind::kString &&
             std::all_of(x.text.begin(), x.text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    v.kind = Kind::kInt;
    v.integer = static_cast<long long>(x.text.size());
  }
  return v;
}

// `isinstance(x, T)` of an instance of a known class X and one class T (a kClass value or a builtin name):
// true when T is among X's classes; false when X is exactly its class, with every class known, and T (with
// every class of its own known, so no base is an ABC that registers X) is not among them.
Truth ConditionTruth::Impl::InstanceOf(const KnownValue& x, TSNode type) const {
  const KnownValue t = Value(type);
  std::string qualified;
  bool type_complete = true;
  if (t.kind == Kind::kClass && !t.classes.empty()) {
    qualified = t.classes[0];
    type_complete = t.complete;
  } else if (Is(type, "identifier") && t.kind == Kind::kUnknown && IsBuiltinClassName(Text(type))) {
    qualified = "builtins." + std::string(Text(type));
  } else {
    return Truth::kUnknown;
  }
  if (qualified == "builtins.object" || Holds(x, qualified)) return Truth::kTrue;
  return x.exact && x.complete && type_complete ? Truth::kFalse : Truth::kUnknown;
}

Truth ConditionTruth::Impl::IsInstance(TSNode n) const {
  TSNode fn = FieldOf(n, PythonFields().function), args = FieldOf(n, PythonFields().arguments);
  if (ts_node_is_null(fn) || ts_node_is_null(args) || Text(fn) != "isinstance" ||
      ts_node_named_child_count(args) != 2) {
    return Truth::kUnknown;
  }
  const KnownValue v = Value(ts_node_named_child(args, 0));
  TSNode type = Inner(ts_node_named_child(args, 1));
  if (v.kind == Kind::kInstance && !ts_node_is_null(type)) {
    if (!Is(type, "tuple")) return InstanceOf(v, type);
    // `isinstance(x, (A, B))`: true when one is, false when none is.
    Truth any = Truth::kFalse;
    for (uint32_t i = 0; i < ts_node_named_child_count(type); ++i) {
      const Truth t = InstanceOf(v, Inner(ts_node_named_child(type, i)));
      if (t == Truth::kTrue) return t;
      if (t == Truth::kUnknown) any = t;
    }
    return ts_node_named_child_count(type) == 0 ? Truth::kUnknown : any;
  }
  if (v.kind == Kind::kUnknown || v.kind == Kind::kNotNone || v.kind == Kind::kEmpty || v.kind == Kind::kSized ||
      IsObject(v) || !Is(type, "identifier")) {
    return Truth::kUnknown;
  }
  const std::string_view t = Text(type);
  if (t == "object") return Truth::kTrue;
  const bool known = t == "str" || t == "int" || t == "bool" || t == "float" || t == "bytes" || t == "list" ||
                     t == "dict" || t == "tuple" || t == "set" || t == "type" || t == "Exception";
  if (!known) return v.kind == Kind::kNone ? Truth::kFalse : Truth::kUnknown;  // a class never holds None
  switch (v.kind) {
    case Kind::kNone:
      return Truth::kFalse;
    case Kind::kString:
      return Of(t == "str");
    case Kind::kInt:
      return Of(t == "int");
    default:  // True, False
      return Of(t == "bool" || t == "int");
  }
}

Truth ConditionTruth::Impl::CompareNode(TSNode n, int depth) const {
  // One operator between two operands: `a is not None`, `x == "auto"`.
  if (ts_node_named_child_count(n) != 2) return Truth::kUnknown;
  std::string op;
  const uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    if (ts_node_is_named(c)) continue;
    if (!op.empty()) op += ' ';
    op += Text(c);
  }
  (void)depth;
  return Compare(op, Value(ts_node_named_child(n, 0)), Value(ts_node_named_child(n, 1)));
}

Truth ConditionTruth::Impl::TruthOf(TSNode n, int depth) const {
  n = Inner(n);
  if (ts_node_is_null(n) || depth > 32) return Truth::kUnknown;
  if (Is(n, "not_operator")) return Not(TruthOf(ts_node_named_child(n, 0), depth + 1));
  if (Is(n, "boolean_operator")) {
    const Truth l = TruthOf(FieldOf(n, PythonFields().left), depth + 1);
    const Truth r = TruthOf(FieldOf(n, PythonFields().right), depth + 1);
    TSNode op = FieldOf(n, PythonFields().operator_);
    const bool is_and = !ts_node_is_null(op) && Text(op) == "and";
    if (is_and) {
      if (l == Truth::kFalse || r == Truth::kFalse) return Truth::kFalse;
      return l == Truth::kTrue && r == Truth::kTrue ? Truth::kTrue : Truth::kUnknown;
    }
    if (l == Truth::kTrue || r == Truth::kTrue) return Truth::kTrue;
    return l == Truth::kFalse && r == Truth::kFalse ? Truth::kFalse : Truth::kUnknown;
  }
  if (Is(n, "comparison_operator")) return CompareNode(n, depth);
  if (Is(n, "call")) {
    const Truth t = IsInstance(n);
    return t != Truth::kUnknown ? t : TruthOfValue(Length(n));
  }
  return TruthOfValue(Value(n));
}

// What a test reads when it is a plain name or attribute chain (no call, nothing a test could change):
// "n:TEXT" for `TEXT is None` (or `None is TEXT`), "t:TEXT" for the truth of TEXT.
bool ConditionTruth::Impl::Atom(TSNode n, std::string* key) const {
  n = Inner(n);
  auto plain = [&](TSNode x, std::string* text) {
    x = Inner(x);
    TSNode y = x;
    while (!ts_node_is_null(y) && Is(y, "attribute")) y = FieldOf(y, PythonFields().object);
    if (ts_node_is_null(y) || !Is(y, "identifier") || Value(y).kind != Kind::kUnknown) return false;
    for (char c : Text(x)) {
      if (c != ' ' && c != '\n' && c != '\t' && c != '\\') *text += c;
    }
    return true;
  };
  std::string text;
  if (Is(n, "comparison_operator") && ts_node_named_child_count(n) == 2 && ts_node_child_count(n) == 3) {
    TSNode a = ts_node_named_child(n, 0), b = ts_node_named_child(n, 1);
    if (Text(ts_node_child(n, 1)) != "is") return false;
    if (Value(b).kind == Kind::kNone && plain(a, &text)) {
      *key = "n:" + text;
      return true;
    }
    if (Value(a).kind == Kind::kNone && plain(b, &text)) {
      *key = "n:" + text;
      return true;
    }
    return false;
  }
  if (plain(n, &text)) {
    *key = "t:" + text;
    return true;
  }
  return false;
}

bool ConditionTruth::Impl::Record(const std::string& key, bool want) {
  auto [it, inserted] = atoms.emplace(key, want);
  if (!inserted && it->second != want) return false;
  // What is None is false: `x is None` true means `x` false; `x` true means `x is None` false.
  if (key[0] == 'n' && want) return Record("t:" + key.substr(2), false);
  if (key[0] == 't' && want) {
    auto none = atoms.find("n:" + key.substr(2));
    if (none != atoms.end() && none->second) return false;
  }
  return true;
}

// Whether N can have the truth WANT; records the plain tests it then requires.
bool ConditionTruth::Impl::Require(TSNode n, bool want, int depth) {
  n = Inner(n);
  if (ts_node_is_null(n) || depth > 32) return true;
  const Truth t = TruthOf(n, depth);
  if (t != Truth::kUnknown) return t == Of(want);
  if (Is(n, "not_operator")) return Require(ts_node_named_child(n, 0), !want, depth + 1);
  if (Is(n, "boolean_operator")) {
    TSNode op = FieldOf(n, PythonFields().operator_);
    const bool is_and = !ts_node_is_null(op) && Text(op) == "and";
    TSNode l = FieldOf(n, PythonFields().left), r = FieldOf(n, PythonFields().right);
    if (is_and == want) return Require(l, want, depth + 1) && Require(r, want, depth + 1);
    // One of two suffices: decided only when the other one cannot.
    const Truth tl = TruthOf(l, depth + 1), tr = TruthOf(r, depth + 1);
    if (tl == Of(!want)) return Require(r, want, depth + 1);
    if (tr == Of(!want)) return Require(l, want, depth + 1);
    return true;
  }
  std::string key;
  if (Atom(n, &key)) return Record(key, want);
  return true;
}

bool ConditionTruth::Impl::HeaderPossible(const Condition& c) {
  if (c.kind == "assert") return AssertPossible(c.code);
  if (c.kind == "for" && !c.negated) return ForPossible(c.code);
  std::string_view code = c.code;
  std::string_view keyword;
  for (std::string_view k : {"if ", "elif ", "while "}) {
    if (code.substr(0, k.size()) == k) keyword = k;
  }
  if (keyword.empty() || code.empty() || code.back() != ':') return true;
  if (c.kind != "if" && c.kind != "elif" && c.kind != "while" && c.kind != "early_exit") return true;
  source = "(\n";
  source += code.substr(keyword.size(), code.size() - keyword.size() - 1);
  source += "\n)\n";
  TSTree* tree = Parsed();
  if (tree == nullptr) return true;
  bool possible = true;
  TSNode root = ts_tree_root_node(tree);
  if (!ts_node_has_error(root) && ts_node_named_child_count(root) == 1) {
    TSNode statement = ts_node_named_child(root, 0);
    if (Is(statement, "expression_statement") && ts_node_named_child_count(statement) == 1) {
      possible = Require(ts_node_named_child(statement, 0), !c.negated, 0);
    }
  }
  return possible;
}

bool ConditionTruth::Impl::ForPossible(std::string_view header) {
  // `for T in ITER:` runs its body only for an item of ITER: an empty container or string has none, and None,
  // a bool or an int is no iterable (TypeError before the body).
  if (header.empty() || header.back() != ':') return true;
  source = std::string(header) + "\n    pass\n";
  TSTree* tree = Parsed();
  if (tree == nullptr) return true;
  bool possible = true;
  TSNode root = ts_tree_root_node(tree);
  if (!ts_node_has_error(root) && ts_node_named_child_count(root) == 1) {
    TSNode loop = ts_node_named_child(root, 0);
    if (Is(loop, "for_statement")) {
      const KnownValue v = Value(Inner(FieldOf(loop, PythonFields().right)));
      possible = !(v.kind == Kind::kEmpty || v.kind == Kind::kNone || v.kind == Kind::kTrue || v.kind == Kind::kFalse ||
                   v.kind == Kind::kInt || (v.kind == Kind::kString && v.text.empty()));
    }
  }
  return possible;
}

bool ConditionTruth::Impl::AssertPossible(std::string_view statement) {
  // `assert TEST, message` raises only when TEST is false.
  source = std::string(statement) + "\n";
  TSTree* tree = Parsed();
  if (tree == nullptr) return true;
  bool possible = true;
  TSNode root = ts_tree_root_node(tree);
  if (!ts_node_has_error(root) && ts_node_named_child_count(root) == 1) {
    TSNode assertion = ts_node_named_child(root, 0);
    if (Is(assertion, "assert_statement") && ts_node_named_child_count(assertion) >= 1) {
      possible = Require(ts_node_named_child(assertion, 0), false, 0);
    }
  }
  return possible;
}

ConditionTruth::ConditionTruth() : impl_(std::make_unique<Impl>()) {}
ConditionTruth::~ConditionTruth() = default;

bool ConditionTruth::Possible(const std::vector<Condition>& conditions,
                              const std::unordered_map<std::string, KnownValue>& values) {
  impl_->values = &values;
  impl_->atoms.clear();
  for (size_t i = 0; i < conditions.size(); ++i) {
    const Condition& c = conditions[i];
    // The tests of one if/elif chain run one right after the other: what one requires holds for the next.
    const bool same_chain = i > 0 && c.kind == "elif" && conditions[i - 1].negated &&
                            (conditions[i - 1].kind == "if" || conditions[i - 1].kind == "elif");
    if (!same_chain) impl_->atoms.clear();
    if (!impl_->HeaderPossible(c)) return false;
  }
  return true;
}

}  // namespace errdex
