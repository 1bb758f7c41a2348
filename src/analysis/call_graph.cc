#include "analysis/call_graph.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <climits>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

// GCC 12 reports a false -Wmaybe-uninitialized inside absl's InlinedVector once inlined into this file.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <absl/container/inlined_vector.h>
#include <absl/container/node_hash_map.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include "analysis/flow_program.h"
#include "python/callable_apis.h"
#include "source/source.h"
#include "util/left_to_exit.h"

namespace errdex {

namespace {

// Python's builtin callables other than exception classes (BuiltinExceptionBase knows those).
const std::unordered_set<std::string>& BuiltinNames() {
  static const std::unordered_set<std::string> names = {
      "abs",        "aiter",     "all",       "anext",    "any",        "ascii",       "bin",          "bool",
      "breakpoint", "bytearray", "bytes",     "callable", "chr",        "classmethod", "compile",      "complex",
      "delattr",    "dict",      "dir",       "divmod",   "enumerate",  "eval",        "exec",         "filter",
      "float",      "format",    "frozenset", "getattr",  "globals",    "hasattr",     "hash",         "help",
      "hex",        "id",        "input",     "int",      "isinstance", "issubclass",  "iter",         "len",
      "list",       "locals",    "map",       "max",      "memoryview", "min",         "next",         "object",
      "oct",        "open",      "ord",       "pow",      "print",      "property",    "range",        "repr",
      "reversed",   "round",     "set",       "setattr",  "slice",      "sorted",      "staticmethod", "str",
      "sum",        "super",     "tuple",     "type",     "vars",       "zip",         "__import__"};
  return names;
}

// Python's builtin exception and warning classes, by name (read only when the name is bound nowhere).
bool IsBuiltinExceptionName(const std::string& name) {
  auto ends = [&](const char* suffix) {
    const size_t n = std::char_traits<char>::length(suffix);
    return name.size() > n && name.compare(name.size() - n, n, suffix) == 0 &&
           std::isupper(static_cast<unsigned char>(name[0]));
  };
  return ends("Error") || ends("Warning") || ends("Exception") || name == "Exception" || name == "BaseException" ||
         name == "StopIteration" || name == "StopAsyncIteration" || name == "KeyboardInterrupt" ||
         name == "SystemExit" || name == "GeneratorExit" || name == "NotImplemented" || name == "Ellipsis";
}

// Builtins that call the functions they are handed.
bool BuiltinCallsArguments(const std::string& name) {
  return name == "map" || name == "filter" || name == "sorted" || name == "min" || name == "max" || name == "reduce";
}

// Builtins whose result holds what their first argument holds (its elements, for a container).
bool BuiltinPassesFirstArgument(const std::string& name) {
  return name == "iter" || name == "next" || name == "reversed" || name == "sorted" || name == "list" ||
         name == "tuple" || name == "set" || name == "frozenset" || name == "staticmethod" || name == "classmethod" ||
         name == "property" || name == "enumerate" || name == "min" || name == "max";
}

const char* DunderOfOperator(const std::string& op) {
  static const std::map<std::string, const char*> dunders = {
      {"+", "__add__"}, {"-", "__sub__"},     {"*", "__mul__"},    {"/", "__truediv__"}, {"//", "__floordiv__"},
      {"%", "__mod__"}, {"**", "__pow__"},    {"@", "__matmul__"}, {"&", "__and__"},     {"|", "__or__"},
      {"^", "__xor__"}, {"<<", "__lshift__"}, {">>", "__rshift__"}};
  auto it = dunders.find(op);
  return it == dunders.end() ? nullptr : it->second;
}

using Values = absl::InlinedVector<uint32_t, 4>;  // sorted object ids

// Subclasses searched at most for an attribute a class lacks.
constexpr size_t kMaxSubclassesSearched = 64;

// External names are followed through at most this many attributes: `node = node.parent` in a loop
// would otherwise make new names forever.
bool ExternalPathFits(const std::string& path) {
  return path.size() <= 160 && std::count(path.begin(), path.end(), '.') < 6;
}
constexpr uint32_t kNone = UINT32_MAX;

bool IsTypingName(const std::string& path) {
  return path.rfind("typing.", 0) == 0 || path.rfind("typing_extensions.", 0) == 0;
}

enum class ObjKind : uint8_t {
  kFunction,
  kClass,
  kModule,
  kInstance,
  kExternal,
  kBuiltin,
  kSuper,
  kPseudo,
  kConst,
  kContainer,
  kValue  // a value of a builtin type (name: "dict", "str"): `obj.__dict__`, `vars()` (python/callable_apis.h)
};

// A string literal's pseudo type, a constant or a builtin value: nothing of the project's flows out of it.
bool IsBuiltinValue(ObjKind kind) {
  return kind == ObjKind::kPseudo || kind == ObjKind::kConst || kind == ObjKind::kValue;
}

// The rank of an edge kind in Output's kKinds (the kinds sorted by name).
uint8_t EdgeKindRank(char kind) {
  switch (kind) {
    case 'a':
      return 0;
    case 'c':
      return 1;
    case 'b':
      return 2;
    case 'r':
      return 5;
    default:
      return 3;
  }
}

struct Obj {
  ObjKind kind;
  int ref = -1;      // scope (function, class, instance, super), module index, container literal expression
  std::string name;  // external path, builtin name, pseudo type, constant ("s:text", "i:12"), builtin value's type
};

struct Found {
  uint32_t value = kNone;
  uint32_t self = kNone;  // the bound receiver for a method found through an instance or a class
};
using FoundList = absl::InlinedVector<Found, 2>;  // an attribute lookup's answers, most often one

// V into its sorted place by a shift: cheaper than InlinedVector::insert's general path for one id.
void InsertAt(Values* into, size_t at, uint32_t v) {
  into->push_back(v);
  uint32_t* ids = into->data();
  for (size_t i = into->size() - 1; i > at; --i) ids[i] = ids[i - 1];
  ids[at] = v;
}

void Insert(Values* into, uint32_t v) {
  auto pos = std::lower_bound(into->begin(), into->end(), v);
  if (pos == into->end() || *pos != v) InsertAt(into, static_cast<size_t>(pos - into->begin()), v);
}

void Merge(Values* into, const Values& more) {
  if (more.empty()) return;
  if (into->empty()) {
    *into = more;
    return;
  }
  // Most merges of a fixpoint add nothing new: checked without building the union.
  if (std::includes(into->begin(), into->end(), more.begin(), more.end())) return;
  if (more.size() == 1) {
    Insert(into, more[0]);
    return;
  }
  Values out;
  out.reserve(into->size() + more.size());
  std::set_union(into->begin(), into->end(), more.begin(), more.end(), std::back_inserter(out));
  into->swap(out);
}

// Inline room for the usual few arguments: a call's arguments are gathered at every evaluation of it.
struct Args {
  absl::InlinedVector<Values, 3> positional;
  absl::InlinedVector<bool, 3> starred;
  absl::InlinedVector<std::pair<int, Values>, 1> keywords;  // name id (the "**" id for a splat)
};

class Resolver {
 public:
  // SATURATED: the (scope, name) keys of variables known to exceed options.max_values (from an earlier run);
  // they hold nothing from the start.
  Resolver(FlowProgram& program, const CallGraphOptions& options, const std::unordered_set<uint64_t>& saturated)
      : p_(program), options_(options), preset_saturated_(saturated) {
    return_name_ = p_.Intern("<return>");
    star_star_ = p_.Intern("**");
    any_slot_ = p_.Intern("*");
    slots_name_ = p_.Intern("<slots>");
    mro_name_ = p_.Intern("<mro>");
    subclasses_name_ = p_.Intern("<subclasses>");
    name_var_.assign(p_.exprs.size(), -2);
    site_resolved_.assign(p_.call_exprs.size(), false);
    base_values_.resize(p_.scopes.size());
    mro_users_.resize(p_.scopes.size());
    mro_of_.resize(p_.scopes.size());
    mro_known_.assign(p_.scopes.size(), 0);
    mro_generation_.assign(p_.scopes.size(), 0);
    mro_vars_.assign(p_.scopes.size(), -1);
    for (size_t m = 0; m < p_.modules.size(); ++m) {
      modules_by_name_.emplace(p_.modules[m].import_name, static_cast<int>(m));
      modules_by_name_.emplace(p_.modules[m].name, static_cast<int>(m));
    }
    for (const FlowStatement& st : p_.statements) {
      if (st.kind == 'a' || st.kind == 't') NoteOwnAttributes(st.scope, st.a);
    }
  }

  void Run(CallGraphStats* stats);
  // The keys of the variables this run found over the cap that were not preset.
  const std::vector<uint64_t>& NewlySaturated() const { return newly_saturated_; }
  // Whether a variable newly saturated in this run had passed values on before (a run with it saturated
  // from the start may then give another graph).
  bool SaturatedPassedOn() const { return saturated_passed_on_; }

  void FindStraightDefinitions();
  void Output(CallGraph* graph);
  // The project's methods by name that may be the targets of "possible" edges (docs/callgraph.md, "Possible
  // edges"), for names no builtin type carries: per name, the methods that implement it (not a stub nor a
  // raise of NotImplementedError). FEW: only names carried by at most options.max_possible methods; ALL:
  // every such name, whatever the count.
  void PossibleTargets(std::unordered_map<int, std::vector<int>>* few,
                       std::unordered_map<int, std::vector<int>>* all) const;
  // Whether ATTRIBUTE (an `A` expression) is read from `super()`: a method the project's MRO lacks is then an
  // external base's (`object.__init__`), never a project method found by name.
  bool SuperCall(const FlowExpr& attribute) const;
  // Whether Python can bind the arguments of CALL (a `C` expression) to method FSCOPE's parameters, called on
  // an instance (its first parameter bound) or on its class (unbound). True when it cannot tell: a `*args`
  // or `**kwargs` splat in the call, a decorated method (the decorator may change the signature).
  bool ArgumentsFit(const FlowExpr& call, int fscope) const;
  // The targets of an unresolved call's "possible" edges when its receiver is itself a call resolved by name
  // (`a.for_modify(x).exec_once(...)`, docs/callgraph.md "Possible edges"): the methods of the method's
  // name found on what the receiver call's possible targets return. False when that is not known (the
  // receiver is no such call, or one of its targets returns something the graph does not know); true with
  // TARGETS empty when the returned values have no such method. IMPLEMENTERS: every project method
  // implementing each name (PossibleTargets' ALL).
  bool PossibleOnReturned(const FlowExpr& attribute, const std::unordered_map<int, std::vector<int>>& implementers,
                          std::vector<int>* targets);
  // What calling method FSCOPE on an instance of its class returns, when it is known: every `return` of it
  // gives a value the graph found, `None` or its own receiver (`return self`), or its return annotation
  // names a class. False for a generator or when a return's value is unknown.
  bool ReturnedByPossible(int fscope, Values* out);
  // The instances the return annotation of F names (`-> C`, `-> C[T]`, `-> "mod.C"`), read after the fixpoint.
  Values DeclaredReturn(const FlowScope& f);

  // Per caller node (the scope's, through NODE_OF_SCOPE): the lines of catch records and what each catches.
  struct CaughtRange {
    int first = 0, last = 0;
    std::vector<CatchClause> clauses;
  };
  bool CaughtClause(const FlowCatch& c, CatchClause* clause);
  std::unordered_map<uint32_t, std::vector<CaughtRange>> CaughtRanges(const std::vector<uint32_t>& node_of_scope);
  Values CaughtValues(int expr, int depth);

 private:
  // Records the attributes a method assigns on its own object (`self.manager = manager` in a method of C):
  // attributes of C's instances, whatever values they get, so never an external base's attribute.
  void NoteOwnAttributes(int scope, int target);
  static uint64_t AttrKey(int cls, int attr) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(cls)) << 32) | static_cast<uint32_t>(attr);
  }
  absl::flat_hash_set<uint64_t> own_attributes_;  // (class scope, attribute) assigned through self

  // Objects and variables.
  uint32_t ObjectOf(ObjKind kind, int ref, const std::string& name);
  const Obj& O(uint32_t id) const { return objects_[id]; }
  // What calling an external object does, by its name (python/callable_apis.h), worked out once per object:
  // a call to an external name is evaluated at every evaluation of its statement.
  enum : uint8_t { kRoleKnown = 1, kTyping = 2, kCast = 4, kPartial = 8, kRegisters = 16, kInspects = 32 };
  uint8_t ExternalRole(uint32_t external);
  std::vector<uint8_t> external_roles_;  // per object id, 0 until ExternalRole computed it
  int Var(int scope, int name);
  // The values of the variable, creating it; the statement being evaluated is rerun when it grows.
  const Values* VarValues(int scope, int name);
  void Depend(int var);
  bool AddValues(int var, const Values& values);
  bool AddValue(int var, uint32_t value) { return AddValues(var, Values{value}); }

  // Names, attributes, classes.
  int ResolveNameVar(int scope, int name);
  int ModuleScopeOf(int scope) const {
    return p_.modules[static_cast<size_t>(p_.scopes[static_cast<size_t>(scope)].module)].scope;
  }
  int CallerOf(int scope) const;
  const std::vector<int>& Mro(int cls);
  void Linearize(int cls, int depth, std::vector<int>* out);
  FoundList LookupAttr(uint32_t obj, int attr);
  // SEARCH_SUBCLASSES: when the MRO lacks ATTR, look in the subclasses (an instance's attribute may be set
  // by its subclass); never for constructors (calling C never runs a subclass's __init__).
  FoundList LookupInClass(int cls, int attr, bool skip_first, uint32_t self, bool via_instance,
                          bool search_subclasses = true);
  // The variable of the first class of CLS's MRO (after CLS itself when SKIP_FIRST) that holds ATTR, or -1.
  int FirstInMro(int cls, int attr, bool skip_first);
  // The pseudo variable (per class) read by the lookups of ATTR along the class's MRO: names are >= 0, so
  // a negative name cannot collide with a real one.
  static int LookupName(int attr) { return -(attr + 2); }
  struct LookupEntry {
    int var = -1;
    uint32_t generation = 0;
    int lookup = -1;  // the lookup pseudo variable (Var(class, LookupName(attr)))
  };
  absl::flat_hash_map<uint64_t, LookupEntry> lookup_cache_;  // (class, attr, skip_first) -> FirstInMro's answer
  std::vector<int> mro_vars_;                                // per class: Var(class, mro_name_), once asked for
  struct ExternalEntry {
    bool known = false;
    uint32_t generation = 0;
    std::vector<uint32_t> values;
  };
  // (class, attribute) -> the external bases' attributes LookupInClass gives when the MRO lacks it.
  absl::flat_hash_map<uint64_t, ExternalEntry> external_of_class_;
  std::vector<uint32_t> mro_generation_;  // per class: bumped whenever its cached MRO is dropped
  void FirstValueOfClassAttr(int cls, int attr);
  // The subclass search of LookupInClass reads no variable that holds nothing: it reads the pseudo variable
  // (per class searched from and attribute) that a subclass gaining its first value for ATTR dirties
  // (SubclassGained, through the classes above it), and only the subclasses' variables that hold values.
  static int SubclassSearchName(int attr) { return -(1 << 30) - attr; }
  void SubclassGained(int cls, int attr);
  // The subclasses a search from a class reads, in order, and the subclass lists (pseudo variables) that
  // gave them; dropped whenever a class's bases change.
  struct SubclassOrder {
    std::vector<int> classes;
    std::vector<int> lists;
  };
  absl::node_hash_map<int, SubclassOrder> subclass_orders_;
  const SubclassOrder& SubclassesSearched(int cls);
  std::vector<char> attr_searched_;         // per attribute name: a subclass search read its pseudo variable
  std::vector<uint32_t> attr_class_count_;  // per attribute name: the classes whose variable of it got a value
  int FindVar(int scope, int name) const;
  Values ResolveImportPath(int module, const std::string& path);
  Values ModuleAttr(int module, const std::string& attr);

  // Evaluation.
  Values Eval(int expr);
  Values EvalCall(const FlowExpr& e);
  Values CallObject(uint32_t callee, uint32_t self, const Args& args, int line, const char* kind);
  Values CallFunction(int fscope, uint32_t self, const Args& args);
  Values CallBuiltin(const std::string& name, const FlowExpr& e, const Args& args, int line);
  // The builtin value read as attribute ATTR of a value that does not define it (`obj.__dict__`), or none.
  Values BuiltinAttribute(int attr);
  // The builtin value builtin NAME returns (`vars()`, `str(x)`), or none.
  Values BuiltinResult(const std::string& name);
  // Whether a method call's RECEIVERS are all builtin values (a literal, a container, `obj.__dict__`) whose
  // type has METHOD: it is the builtin type's own, so the call gets no "possible" edge by name. A method
  // the type lacks means the graph knows only some of the receiver's values: no.
  bool BuiltinReceivers(const Values& receivers, int method) const;
  Values CallMethodNamed(uint32_t receiver, const char* method, const Args& args, int line, bool* found);
  Values InstancesOf(int expr);
  Values Iterate(const Values& values, int line);
  void Assign(int target, const Values& values);
  void AssignExpr(int target, int value);
  void Statement(const FlowStatement& st);
  void Definition(const FlowStatement& st);
  void AddEdge(uint32_t callee, int line, char kind);
  Values ReturnOf(int fscope) {
    const Values* v = VarValues(fscope, return_name_);
    return v ? *v : Values{};
  }
  std::vector<char> return_known_;                        // per statement: a `return` whose value gave some value
  std::unordered_set<int> yielding_;                      // function scopes that yield (a call makes a generator)
  std::unordered_map<int, std::vector<int>> returns_of_;  // function scope -> its `return` statements

  FlowProgram& p_;
  const CallGraphOptions& options_;
  int return_name_ = -1, star_star_ = -1;
  std::vector<Obj> objects_;
  absl::flat_hash_map<std::string, uint32_t> object_ids_;
  absl::flat_hash_map<std::string, uint32_t> named_ids_[static_cast<size_t>(ObjKind::kValue) + 1];  // ref -1, by kind
  absl::flat_hash_map<uint64_t, uint32_t> ref_ids_;
  std::unordered_map<int, Values> literal_values_;          // string and integer literals
  absl::flat_hash_map<uint64_t, uint32_t> external_attrs_;  // (external object, attribute) -> object or kNone
  // Per name id: the builtin a name denotes when nothing of the project binds it; kNone for no builtin,
  // kUnknownBuiltin until first asked for (a name is looked up once, not once per expression).
  static constexpr uint32_t kUnknownBuiltin = UINT32_MAX - 1;
  std::vector<uint32_t> builtin_of_name_;
  uint32_t BuiltinOfName(int name);
  FoundList ExternalAttr(const Obj& o, int attr);
  std::unordered_map<const char*, int> method_names_;  // interned dunder names, by literal
  int MethodName(const char* name) {
    auto it = method_names_.find(name);
    if (it != method_names_.end()) return it->second;
    return method_names_.emplace(name, p_.Intern(name)).first->second;
  }
  // (scope, name) -> variable id: open addressing with linear probing, the resolver's hottest lookup.
  // Key and id side by side: a probe reads one cache line, not two.
  struct VarEntry {
    uint64_t key = 0;
    int id = -1;
  };
  std::vector<VarEntry> var_table_;
  // The slot of a key: the top bits of its Fibonacci hash (every bit of the key reaches them; the bits just
  // above the 20th, used before, ignored all but the lowest bits of the scope and made long probe runs).
  int var_shift_ = 64;
  size_t VarSlot(uint64_t key) const { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> var_shift_); }
  size_t var_count_ = 0;
  std::vector<Values> var_values_;
  std::vector<int> name_var_;
  std::unordered_map<std::string, int> modules_by_name_;
  std::vector<Values> base_values_;       // per class scope
  std::vector<std::vector<int>> mro_of_;  // per class scope: its cached MRO, when mro_known_
  std::vector<char> mro_known_;
  std::vector<std::vector<int>> mro_users_;  // per class: the classes whose cached MRO holds it
  std::unordered_set<int> linearizing_;
  std::unordered_map<int, std::vector<int>> subclasses_;  // direct subclasses, from base_values_
  bool subclasses_stale_ = true;
  const std::vector<int>& Subclasses(int cls);  // classes whose MRO is being computed (a cyclic hierarchy stops)
  absl::flat_hash_map<uint64_t, int> setters_;  // (class scope, name) -> setter function scope
  struct EdgeKey {
    int caller = 0;
    uint32_t callee = 0;
    int line = 0;
    char kind = 0;
    bool operator==(const EdgeKey& o) const {
      return caller == o.caller && callee == o.callee && line == o.line && kind == o.kind;
    }
  };
  // (Output numbers the graph's nodes in slot order: another slot function would renumber them.)
  size_t EdgeSlot(const EdgeKey& k) const {
    const uint64_t mixed = ((static_cast<uint64_t>(static_cast<uint32_t>(k.caller)) << 32 | k.callee) * 31 +
                            static_cast<uint64_t>(static_cast<uint32_t>(k.line)) * 7 + static_cast<uint64_t>(k.kind)) *
                           0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(mixed >> 24) & (edges_.size() - 1);
  }
  // The edges found: open addressing with linear probing (every rerun of a call adds its edges again).
  std::vector<EdgeKey> edges_;
  std::vector<char> edge_used_;
  size_t edge_count_ = 0;
  std::vector<bool> site_resolved_;
  // Statements rerun when a variable they read grows (a worklist swept in statement order).
  std::vector<absl::InlinedVector<int, 4>> readers_;  // per variable; most variables have few readers
  std::vector<char> dirty_;                           // per statement
  // Facts that are not variables are tracked as pseudo variables, so that a change reruns only the statements
  // that read them: a class's MRO (Var(class, mro_name_)), its direct subclasses (Var(class,
  // subclasses_name_)) and the property setters of an attribute name (Var(kSettersScope, name)).
  static constexpr int kSettersScope = -1;
  int mro_name_ = -1, subclasses_name_ = -1;
  void DirtyReaders(int var) {
    for (int reader : readers_[static_cast<size_t>(var)]) dirty_[static_cast<size_t>(reader)] = 1;
  }
  void BasesChanged(int cls, const Values& old_bases, const Values& new_bases);
  int cur_scope_ = 0, cur_line_ = 0, cur_statement_ = -1;
  std::vector<char> in_test_statement_;  // per statement: in a test file (IsTestPath)
  // Straight-line definitions (docs/callgraph.md, "Order"): a variable bound only by straight-line
  // statements of its own scope is read, in that scope, from its last definition above the read.
  std::vector<int> var_scope_;
  std::vector<int> var_name_;
  std::vector<int> last_reader_;  // per variable: the last statement Depend recorded for it
  // Per variable: a statement read it while it held values (they may have flowed on), or, for a class's
  // attribute, it held a value (FirstValueOfClassAttr ran).
  std::vector<char> passed_on_;
  bool saturated_passed_on_ = false;  // a variable newly saturated in this run had passed values on
  // Saturation (docs/callgraph.md, "Values per variable"): a variable whose values would exceed
  // options.max_values holds nothing from then on (a read gives no value, so a call through it stays
  // unresolved); which values it would have kept would otherwise depend on the order they arrived in.
  std::vector<char> saturated_;
  const std::unordered_set<uint64_t>& preset_saturated_;
  std::vector<uint64_t> newly_saturated_;
  void Saturate(int var);
  uint64_t KeyOf(int var) const {
    return (static_cast<uint64_t>(static_cast<uint32_t>(var_scope_[static_cast<size_t>(var)])) << 32) |
           static_cast<uint32_t>(var_name_[static_cast<size_t>(var)]);
  }
  std::unordered_set<int> untracked_;
  std::unordered_map<int, std::vector<std::pair<int, int>>> definitions_;  // var -> (line, statement)
  std::unordered_map<int, Values> definition_values_;                      // statement -> values
  void Bind(int var, const Values& values);
  // Containers (docs/callgraph.md, "Containers"): each list, tuple, set or dict literal is one object whose
  // slots are keyed by constant keys and indices ("s:a", "i:0"), "*" for elements at unknown places.
  static int ContainerScope(int expr) { return -(expr + 2); }
  void WriteSlot(int container, int slot, const Values& values);
  Values ReadSlots(int container, const Values& key);
  Values ContainerOf(const FlowExpr& e, int expr);
  // Container rules (docs/callgraph.md, "Containers"): slices, dict merges and the methods that store.
  bool IsDictContainer(int container) const {
    return p_.exprs[static_cast<size_t>(container)].tag == 'D' || made_dicts_.count(container) != 0;
  }
  // The values one slot may hold ("*": the elements at unknown places).
  Values SlotValues(int container, int slot);
  // Writes VALUES to a slot; unless STRONG, the slot keeps what it held (a write that may not happen).
  void StoreSlot(int container, int slot, Values values, bool strong);
  // Every slot of FROM into the same slot of TO (`d.update(other)`, `{**other}`, `dict(other)`).
  void CopySlots(int from, int to, bool strong);
  // `x[lo:hi:step]` (SLICE a "P" expression): a slice of a list or tuple literal is a new container (keyed by
  // the subscript expression EXPR) holding the slots the bounds select, all of them at unknown places when a
  // bound or the length is not known; a slice of a string is a string.
  Values SliceOf(const Values& objs, int slice, int expr);
  // `d.update(...)`, `d.setdefault(k, v)`, `ls.append(x)`, `ls.extend(xs)`...: stores into the receivers
  // that are containers. True when one was such a method (the call is then resolved, and the method of the
  // receiver's pseudo type `<**PyDict**>` is not reported: a store, like `d[k] = v`, is no edge).
  bool ContainerMethod(const Values& receivers, int method, const FlowExpr& call, const Args& args, Values* out);
  // `d.get(k)`, `d.pop(k)`, `ls.pop()`: what the slot of the key holds; `d.values()`: the dict, whose
  // iteration reads every slot. False for other methods.
  bool ContainerRead(int container, const std::string& name, const Args& args, Values* out);
  // `dict(mapping_or_pairs, k=v, **other)`: a new dict keyed by the call expression.
  Values DictOfCall(const FlowExpr& call, const Args& args);
  // `a | b` with a dict on the left: a new dict (keyed by EXPR) with a's slots, then b's.
  Values DictUnion(const Values& left, const Values& right, const FlowExpr& op, int expr);
  // The call is the whole expression of a straight-line expression statement (its stores always happen).
  bool IsWholeStatement(const FlowExpr& call) const;
  std::unordered_set<int> made_dicts_;  // containers made by dict(...) and `|`
  std::unordered_map<int, std::vector<int>> container_slots_;
  std::unordered_map<int, int> container_length_;
  std::unordered_set<int> slot_untracked_;  // slot variables written out of straight-line order
  std::unordered_map<int, std::vector<std::pair<int, int>>> slot_definitions_;  // slot var -> (line, statement)
  std::unordered_map<uint64_t, Values> slot_definition_values_;  // (slot var, statement) -> values  // positions of a
                                                                 // list or tuple literal without a spread
  // The constants among KEY (strings and integers) when KEY holds nothing else but pseudo types; empty
  // otherwise (an unknown key).
  Values ConstantKeys(const Values& key) const;
  int any_slot_ = -1, slots_name_ = -1;
  // The slot name of index I ("i:I"), interned when first asked for (as before: the same name ids).
  std::vector<int> index_slots_;
  int IndexSlot(size_t i) {
    if (index_slots_.size() <= i) index_slots_.resize(i + 1, -1);
    if (index_slots_[i] < 0) index_slots_[i] = p_.Intern("i:" + std::to_string(i));
    return index_slots_[i];
  }
  const Values* ReadInScope(int var);

 public:
  std::vector<uint32_t> node_of_scope_;  // Output's node of each scope (UINT32_MAX: none)
  // Output's node of each external name and builtin object (UINT32_MAX: none; their names are unique per kind,
  // so one node per object).
  std::vector<uint32_t> node_of_object_;
  // Values through a parameter (docs/callgraph.md): the call sites whose callee, or whose method's receiver,
  // is a parameter of the calling function or an attribute read from it; what each call of those functions
  // passes for that parameter; and, after the fixpoint, which callee each such call can give.
  void FindParameterCalls();
  // Marks GRAPH's edges resolved through a parameter and fills GRAPH->unpassed (after Output).
  void CheckParameterCalls(CallGraph* graph);

 private:
  struct ParameterCall {
    int site = -1, fscope = -1, param = -1;
  };
  std::vector<ParameterCall> parameter_calls_;
  std::vector<std::vector<int>> checked_params_;  // per function scope: its parameters such calls go through
  struct ArgumentRecord {
    Values values;
    bool unknown = false;     // starred, `**` splat, no default, or the receiver slot
    bool by_default = false;  // not passed: the default's values
  };
  // (call site, function scope, parameter) -> what the site passes (ArgumentKey).
  std::unordered_map<uint64_t, ArgumentRecord> argument_records_;
  static uint64_t ArgumentKey(int site, int fscope, int param) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(site)) << 32) |
           (static_cast<uint64_t>(static_cast<uint32_t>(fscope)) << 8) | static_cast<uint32_t>(param);
  }
  const Args* call_args_ = nullptr;  // the arguments of the call EvalCall is resolving
  int call_site_ = -1;               // and its site
  // Records what ARGS (of call_site_) bind to FSCOPE's checked parameters; FIRST: the first parameter
  // the positional arguments fill (1 past a bound receiver).
  void RecordArguments(int fscope, size_t first, const Args& args);
  // The functions (and external names) the call at CALL gives when the root name of its callee chain holds
  // ROOT: what EvalCall would call, with the root's values replaced.
  Values CalleesUnder(const FlowExpr& call, const Values& root);
  const FlowExpr& CallOfSite(int site) const {
    return p_.exprs[static_cast<size_t>(p_.call_exprs[static_cast<size_t>(site)])];
  }
  struct Marked {
    size_t call = 0;              // index into parameter_calls_
    uint32_t callee = 0;          // the object it gives through the parameter
    std::vector<uint32_t> edges;  // its edges in the graph
  };
  // The calls into each marked call's function whose argument cannot give the callee: GRAPH->unpassed.
  void CheckArguments(CallGraph* graph, const std::map<std::pair<int, int>, std::vector<Marked>>& by_param);
  static std::vector<uint32_t> EdgesAt(const CallGraph& graph, uint32_t from, int line, uint32_t to);
  uint32_t NodeOfObject(uint32_t obj) const;  // Output's node of a function or an external name
  // The name at the root of CALL's callee chain (`n`, `n.m`, `n.a.m`: at most 3 attributes), or null.
  const FlowExpr* ChainRoot(const FlowExpr& call) const;
  // Whether CALL, a method call on a value that is no chain of names (`f(x).m()`, `"".join(xs).m()`), cannot
  // give function G: G is not defined under the method's name, and no statement binds an attribute of that
  // name (`C.m = g`, `m = g` in a class body, a property `m` whose getter may return a function).
  bool MethodCallCannotGive(const FlowExpr& call, uint32_t g);
  std::unordered_set<int> bound_attribute_names_;  // filled on first use by MethodCallCannotGive
  bool bound_attribute_names_ready_ = false;
};

uint32_t Resolver::ObjectOf(ObjKind kind, int ref, const std::string& name) {
  if (name.empty() && ref >= 0 && kind != ObjKind::kExternal && kind != ObjKind::kBuiltin) {
    // Objects named by a scope, module or expression: a direct table instead of a string key.
    const uint64_t key = (static_cast<uint64_t>(kind) << 40) | static_cast<uint32_t>(ref);
    auto it = ref_ids_.find(key);
    if (it != ref_ids_.end()) return it->second;
    const auto id = static_cast<uint32_t>(objects_.size());
    objects_.push_back({kind, ref, name});
    ref_ids_.emplace(key, id);
    return id;
  }
  if (ref == -1) {  // external names, builtins, pseudo types, constants: by name, without building a key
    auto& ids = named_ids_[static_cast<size_t>(kind)];
    auto it = ids.find(name);
    if (it != ids.end()) return it->second;
    const auto id = static_cast<uint32_t>(objects_.size());
    objects_.push_back({kind, ref, name});
    ids.emplace(name, id);
    return id;
  }
  std::string key = std::to_string(static_cast<int>(kind)) + ":" + std::to_string(ref) + ":" + name;
  auto it = object_ids_.find(key);
  if (it != object_ids_.end()) return it->second;
  const auto id = static_cast<uint32_t>(objects_.size());
  objects_.push_back({kind, ref, name});
  object_ids_.emplace(std::move(key), id);
  return id;
}

uint32_t Resolver::BuiltinOfName(int name) {
  const auto n = static_cast<size_t>(name);
  if (builtin_of_name_.size() <= n)
    builtin_of_name_.resize(std::max(n + 1, 2 * builtin_of_name_.size()), kUnknownBuiltin);
  if (builtin_of_name_[n] == kUnknownBuiltin) {
    const std::string& text = p_.NameOf(name);
    const bool builtin = BuiltinNames().count(text) || IsBuiltinExceptionName(text);
    builtin_of_name_[n] = builtin ? ObjectOf(ObjKind::kBuiltin, -1, text) : kNone;
  }
  return builtin_of_name_[n];
}

int Resolver::Var(int scope, int name) {
  const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(scope)) << 32) | static_cast<uint32_t>(name);
  if ((var_count_ + 1) * 2 > var_table_.size()) {  // keep the load at most one half
    std::vector<VarEntry> old = std::move(var_table_);
    const size_t size = old.empty() ? 1024 : old.size() * 2;
    var_table_.assign(size, VarEntry{});
    var_shift_ = 64 - std::countr_zero(size);
    for (const VarEntry& entry : old) {
      if (entry.id < 0) continue;
      size_t slot = VarSlot(entry.key);
      while (var_table_[slot].id >= 0) slot = (slot + 1) & (size - 1);
      var_table_[slot] = entry;
    }
  }
  const size_t mask = var_table_.size() - 1;
  size_t slot = VarSlot(key);
  while (var_table_[slot].id >= 0) {
    if (var_table_[slot].key == key) return var_table_[slot].id;
    slot = (slot + 1) & mask;
  }
  const int id = static_cast<int>(var_values_.size());
  var_values_.emplace_back();
  var_scope_.push_back(scope);
  var_name_.push_back(name);
  last_reader_.push_back(-1);
  passed_on_.push_back(0);
  saturated_.push_back(!preset_saturated_.empty() && preset_saturated_.count(key) ? 1 : 0);
  readers_.emplace_back();
  var_table_[slot] = {key, id};
  ++var_count_;
  return id;
}

int Resolver::FindVar(int scope, int name) const {
  if (var_table_.empty()) return -1;
  const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(scope)) << 32) | static_cast<uint32_t>(name);
  const size_t mask = var_table_.size() - 1;
  size_t slot = VarSlot(key);
  while (var_table_[slot].id >= 0) {
    if (var_table_[slot].key == key) return var_table_[slot].id;
    slot = (slot + 1) & mask;
  }
  return -1;
}

void Resolver::FirstValueOfClassAttr(int cls, int attr) {
  // The lookups of ATTR through every class whose MRO holds CLS may now stop at CLS.
  for (int user : mro_users_[static_cast<size_t>(cls)]) {
    const int lookup = FindVar(user, LookupName(attr));
    if (lookup < 0) continue;
    DirtyReaders(lookup);
    for (uint64_t skip : {0ull, 1ull}) {
      lookup_cache_.erase((static_cast<uint64_t>(static_cast<uint32_t>(user)) << 33) |
                          (static_cast<uint64_t>(static_cast<uint32_t>(attr)) << 1) | skip);
    }
  }
}

void Resolver::SubclassGained(int cls, int attr) {
  if (attr < 0) return;
  const auto a = static_cast<size_t>(attr);
  if (attr_class_count_.size() <= a) attr_class_count_.resize(a + 1, 0);
  ++attr_class_count_[a];
  if (attr_searched_.size() <= a || !attr_searched_[a]) return;
  // Every class above CLS (its bases, transitively, as they are now): a search from one of them that read
  // CLS's variable of ATTR while it was empty reruns. A search whose path down to CLS has changed since
  // depended on the subclass list that changed, and reruns anyway.
  std::vector<int> above{cls};
  for (size_t i = 0; i < above.size(); ++i) {
    for (uint32_t b : base_values_[static_cast<size_t>(above[i])]) {
      if (O(b).kind != ObjKind::kClass || std::find(above.begin(), above.end(), O(b).ref) != above.end()) continue;
      above.push_back(O(b).ref);
      const int search = FindVar(O(b).ref, SubclassSearchName(attr));
      if (search >= 0) DirtyReaders(search);
    }
  }
}

const Values* Resolver::VarValues(int scope, int name) {
  const int var = Var(scope, name);
  Depend(var);
  return &var_values_[static_cast<size_t>(var)];
}

void Resolver::Depend(int var) {
  if (cur_statement_ < 0) return;
  const auto v = static_cast<size_t>(var);
  if (!passed_on_[v] && !var_values_[v].empty()) passed_on_[v] = 1;
  // A statement reads the same variable many times in one evaluation: the first read records it.
  int& last = last_reader_[v];
  if (last == cur_statement_) return;
  last = cur_statement_;
  auto& readers = readers_[v];
  const int* ids = readers.data();
  for (size_t i = readers.size(), seen = 0; i-- > 0 && seen < 8; ++seen) {
    if (ids[i] == cur_statement_) return;
  }
  readers.push_back(cur_statement_);
}

bool Resolver::AddValues(int var, const Values& values) {
  if (saturated_[static_cast<size_t>(var)]) return false;
  Values& into = var_values_[static_cast<size_t>(var)];
  const bool was_empty = into.empty();
  bool grew = false;
  for (uint32_t v : values) {
    auto pos = std::lower_bound(into.begin(), into.end(), v);
    if (pos != into.end() && *pos == v) continue;
    if (into.size() >= options_.max_values) {
      Saturate(var);
      return true;
    }
    InsertAt(&into, static_cast<size_t>(pos - into.begin()), v);
    grew = true;
  }
  if (grew) {
    for (int reader : readers_[static_cast<size_t>(var)]) dirty_[static_cast<size_t>(reader)] = 1;
    const int scope = var_scope_[static_cast<size_t>(var)];
    if (was_empty && scope >= 0 && p_.scopes[static_cast<size_t>(scope)].kind == 'c') {
      FirstValueOfClassAttr(scope, var_name_[static_cast<size_t>(var)]);
      SubclassGained(scope, var_name_[static_cast<size_t>(var)]);
    }
  }
  return grew;
}

void Resolver::Saturate(int var) {
  if (saturated_[static_cast<size_t>(var)]) return;
  saturated_[static_cast<size_t>(var)] = 1;
  const bool was_empty = var_values_[static_cast<size_t>(var)].empty();
  const int var_scope = var_scope_[static_cast<size_t>(var)];
  if (passed_on_[static_cast<size_t>(var)] ||
      (!was_empty && var_scope >= 0 && p_.scopes[static_cast<size_t>(var_scope)].kind == 'c')) {
    saturated_passed_on_ = true;
  }
  Values().swap(var_values_[static_cast<size_t>(var)]);
  newly_saturated_.push_back(KeyOf(var));
  DirtyReaders(var);
  const int scope = var_scope_[static_cast<size_t>(var)];
  if (was_empty && scope >= 0 && p_.scopes[static_cast<size_t>(scope)].kind == 'c') {
    FirstValueOfClassAttr(scope, var_name_[static_cast<size_t>(var)]);
  }
}

int Resolver::ResolveNameVar(int scope, int name) {
  int cur = scope;
  bool first = true;
  while (cur >= 0) {
    const FlowScope& s = p_.scopes[static_cast<size_t>(cur)];
    if (first || s.kind != 'c') {
      if (std::find(s.global_names.begin(), s.global_names.end(), name) != s.global_names.end()) {
        return Var(ModuleScopeOf(cur), name);
      }
      if (s.kind == 'm') return Var(cur, name);
      if (std::binary_search(s.bound_names.begin(), s.bound_names.end(), name)) return Var(cur, name);
    }
    first = false;
    cur = s.parent;
  }
  return Var(ModuleScopeOf(scope), name);
}

int Resolver::CallerOf(int scope) const {
  while (scope >= 0 && p_.scopes[static_cast<size_t>(scope)].kind == 'c')
    scope = p_.scopes[static_cast<size_t>(scope)].parent;
  return scope < 0 ? 0 : scope;
}

void Resolver::Linearize(int cls, int depth, std::vector<int>* out) {
  // C3 linearization over the project bases; a hierarchy C3 rejects falls back to depth-first order.
  std::vector<std::vector<int>> seqs;
  std::vector<int> direct;
  for (uint32_t b : base_values_[static_cast<size_t>(cls)]) {
    if (O(b).kind == ObjKind::kClass && O(b).ref != cls && depth < 60 && !linearizing_.count(O(b).ref)) {
      // Through Mro(): each class is linearized once (diamonds would otherwise cost exponential time).
      linearizing_.insert(cls);
      seqs.push_back(Mro(O(b).ref));
      linearizing_.erase(cls);
      direct.push_back(O(b).ref);
    }
  }
  seqs.push_back(direct);
  out->push_back(cls);
  while (true) {
    bool any = false;
    int chosen = -1;
    for (const auto& seq : seqs) {
      if (seq.empty()) continue;
      any = true;
      const int head = seq.front();
      bool in_tail = false;
      for (const auto& other : seqs) {
        if (std::find(other.begin() + (other.empty() ? 0 : 1), other.end(), head) != other.end()) in_tail = true;
      }
      if (!in_tail) {
        chosen = head;
        break;
      }
    }
    if (!any) return;
    if (chosen < 0) {  // inconsistent: depth-first order of what is left
      for (const auto& seq : seqs) {
        for (int c : seq) {
          if (std::find(out->begin(), out->end(), c) == out->end()) out->push_back(c);
        }
      }
      return;
    }
    if (std::find(out->begin(), out->end(), chosen) == out->end()) out->push_back(chosen);
    for (auto& seq : seqs) {
      if (!seq.empty() && seq.front() == chosen) seq.erase(seq.begin());
    }
    if (out->size() > 200) return;
  }
}

const std::vector<int>& Resolver::Mro(int cls) {
  int& mro_var = mro_vars_[static_cast<size_t>(cls)];
  if (mro_var < 0) mro_var = Var(cls, mro_name_);
  Depend(mro_var);
  const auto c = static_cast<size_t>(cls);
  if (mro_known_[c]) return mro_of_[c];
  std::vector<int> mro;
  Linearize(cls, 0, &mro);
  for (int base : mro) mro_users_[static_cast<size_t>(base)].push_back(cls);
  if (!mro_known_[c]) {  // (as a map's emplace: a linearization of CLS met on the way is kept)
    mro_of_[c] = std::move(mro);
    mro_known_[c] = 1;
  }
  return mro_of_[c];
}

int Resolver::FirstInMro(int cls, int attr, bool skip_first) {
  // The statement reruns when a class of the MRO gains its first value for ATTR (the lookup pseudo
  // variable, dirtied by AddValues) or when the MRO changes (Mro's dependency); the answer is cached.
  const std::vector<int>& mro = Mro(cls);
  const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(cls)) << 33) |
                       (static_cast<uint64_t>(static_cast<uint32_t>(attr)) << 1) | (skip_first ? 1 : 0);
  auto cached = lookup_cache_.find(key);
  if (cached != lookup_cache_.end() && cached->second.generation == mro_generation_[static_cast<size_t>(cls)]) {
    Depend(cached->second.lookup);
    return cached->second.var;
  }
  const int lookup = Var(cls, LookupName(attr));
  Depend(lookup);
  int found = -1;
  for (size_t i = skip_first ? 1 : 0; i < mro.size(); ++i) {
    const int var = Var(mro[i], attr);
    if (!var_values_[static_cast<size_t>(var)].empty() || saturated_[static_cast<size_t>(var)]) {
      found = var;
      break;
    }
  }
  lookup_cache_[key] = {found, mro_generation_[static_cast<size_t>(cls)], lookup};
  return found;
}

FoundList Resolver::LookupInClass(int cls, int attr, bool skip_first, uint32_t self, bool via_instance,
                                  bool search_subclasses) {
  FoundList found;
  if (const int var = FirstInMro(cls, attr, skip_first); var >= 0) {  // (FirstInMro reads the MRO first)
    Depend(var);
    for (uint32_t v : var_values_[static_cast<size_t>(var)]) {
      const Obj& o = O(v);
      Found f{v, kNone};
      if (o.kind == ObjKind::kFunction && p_.scopes[static_cast<size_t>(o.ref)].kind == 'f' &&
          p_.scopes[static_cast<size_t>(o.ref)].parent >= 0 &&
          p_.scopes[static_cast<size_t>(p_.scopes[static_cast<size_t>(o.ref)].parent)].kind == 'c') {
        const FlowScope& fs = p_.scopes[static_cast<size_t>(o.ref)];
        if (fs.is_classmethod) {
          f.self = ObjectOf(ObjKind::kClass, cls, "");
        } else if (!fs.is_static && via_instance) {
          f.self = self;
        }
      }
      found.push_back(f);
    }
    return found;
  }
  // Not defined in the project's classes: an external base may define it, unless the project's methods set
  // it on the instance (`self.manager = manager`: its values are unknown, it is no attribute of the base).
  // Kept per (class, attribute) while the class's MRO generation holds (a change of the bases of any class
  // of the MRO bumps it; own attributes are known from the start).
  const std::vector<int>& mro = Mro(cls);
  ExternalEntry& entry = external_of_class_[AttrKey(cls, attr)];
  if (!entry.known || entry.generation != mro_generation_[static_cast<size_t>(cls)]) {
    entry.known = true;
    entry.generation = mro_generation_[static_cast<size_t>(cls)];
    entry.values.clear();
    const bool own =
        std::any_of(mro.begin(), mro.end(), [&](int c) { return own_attributes_.count(AttrKey(c, attr)); });
    static const std::vector<int> kNoClasses;
    for (int c : own ? kNoClasses : mro) {
      for (uint32_t b : base_values_[static_cast<size_t>(c)]) {
        if (O(b).kind == ObjKind::kExternal && ExternalPathFits(O(b).name + "." + p_.NameOf(attr))) {
          entry.values.push_back(ObjectOf(ObjKind::kExternal, -1, O(b).name + "." + p_.NameOf(attr)));
        }
      }
      if (!entry.values.empty()) break;
    }
  }
  for (uint32_t v : entry.values) found.push_back({v, kNone});
  if (!found.empty() || !via_instance || !search_subclasses) return found;
  // Defined only by subclasses (`self.child()` in a base whose subclasses set or define `child`).
  const SubclassOrder& order = SubclassesSearched(cls);
  for (int var : order.lists) Depend(var);
  Depend(Var(cls, SubclassSearchName(attr)));
  const auto a = static_cast<size_t>(attr);
  if (attr_searched_.size() <= a) attr_searched_.resize(a + 1, 0);
  attr_searched_[a] = 1;
  if (a >= attr_class_count_.size() || attr_class_count_[a] == 0) return found;
  for (int sub : order.classes) {
    if (const int var = FindVar(sub, attr); var >= 0 && !var_values_[static_cast<size_t>(var)].empty()) {
      Depend(var);
      for (uint32_t v : var_values_[static_cast<size_t>(var)]) found.push_back({v, kNone});
    }
  }
  return found;
}

const Resolver::SubclassOrder& Resolver::SubclassesSearched(int cls) {
  auto cached = subclass_orders_.find(cls);
  if (cached != subclass_orders_.end()) return cached->second;
  // Breadth first, and no more classes are queued than are searched: a test base class may have thousands.
  SubclassOrder order;
  std::vector<int>& pending = order.classes;
  order.lists.push_back(Var(cls, subclasses_name_));
  for (int sub : Subclasses(cls)) {
    if (pending.size() >= kMaxSubclassesSearched) break;
    pending.push_back(sub);
  }
  for (size_t i = 0; i < pending.size(); ++i) {
    if (pending.size() >= kMaxSubclassesSearched) continue;
    order.lists.push_back(Var(pending[i], subclasses_name_));
    for (int sub : Subclasses(pending[i])) {
      if (pending.size() >= kMaxSubclassesSearched) break;
      if (std::find(pending.begin(), pending.end(), sub) == pending.end()) pending.push_back(sub);
    }
  }
  return subclass_orders_.emplace(cls, std::move(order)).first->second;
}

const std::vector<int>& Resolver::Subclasses(int cls) {
  Depend(Var(cls, subclasses_name_));
  if (subclasses_stale_) {
    subclasses_.clear();
    for (size_t c = 0; c < base_values_.size(); ++c) {
      for (uint32_t b : base_values_[c]) {
        if (O(b).kind == ObjKind::kClass && O(b).ref != static_cast<int>(c)) {
          subclasses_[O(b).ref].push_back(static_cast<int>(c));
        }
      }
    }
    subclasses_stale_ = false;
  }
  static const std::vector<int> kNoSubclasses;
  auto it = subclasses_.find(cls);
  return it == subclasses_.end() ? kNoSubclasses : it->second;
}

void Resolver::BasesChanged(int cls, const Values& old_bases, const Values& new_bases) {
  // The MRO of every class whose cached MRO holds CLS changes; so do the subclass lists of its old and new bases.
  // Only those entries leave the cache: an entry kept is one no change has touched.
  subclass_orders_.clear();
  const std::vector<int> users = std::move(mro_users_[static_cast<size_t>(cls)]);
  mro_users_[static_cast<size_t>(cls)].clear();
  ++mro_generation_[static_cast<size_t>(cls)];
  for (int user : users) {
    ++mro_generation_[static_cast<size_t>(user)];
    const auto u = static_cast<size_t>(user);
    if (!mro_known_[u] || std::find(mro_of_[u].begin(), mro_of_[u].end(), cls) == mro_of_[u].end()) continue;
    DirtyReaders(Var(user, mro_name_));
    mro_known_[u] = 0;
    mro_of_[u].clear();
  }
  DirtyReaders(Var(cls, mro_name_));
  for (const Values* bases : {&old_bases, &new_bases}) {
    for (uint32_t b : *bases) {
      if (O(b).kind == ObjKind::kClass) DirtyReaders(Var(O(b).ref, subclasses_name_));
    }
  }
  // The subclass lists follow the change in place (rebuilding them all would cost the whole hierarchy).
  if (subclasses_stale_) return;
  for (uint32_t b : old_bases) {
    if (O(b).kind != ObjKind::kClass || O(b).ref == cls) continue;
    std::vector<int>& subs = subclasses_[O(b).ref];
    subs.erase(std::remove(subs.begin(), subs.end(), cls), subs.end());
  }
  for (uint32_t b : new_bases) {
    if (O(b).kind == ObjKind::kClass && O(b).ref != cls) subclasses_[O(b).ref].push_back(cls);
  }
}

Values Resolver::ModuleAttr(int module, const std::string& attr) {
  Values out;
  const int name = p_.FindName(attr);
  if (name >= 0) {
    const Values* v = VarValues(p_.modules[static_cast<size_t>(module)].scope, name);
    if (v != nullptr) out = *v;
  }
  if (out.empty()) {
    auto it = modules_by_name_.find(p_.modules[static_cast<size_t>(module)].import_name + "." + attr);
    if (it != modules_by_name_.end()) out.push_back(ObjectOf(ObjKind::kModule, it->second, ""));
  }
  return out;
}

FoundList Resolver::LookupAttr(uint32_t obj, int attr) {
  // No copy of the object (its name may be long): each case below reads O(obj) before making an object
  // (ObjectOf may grow objects_).
  const ObjKind kind = O(obj).kind;
  const int ref = O(obj).ref;
  switch (kind) {
    case ObjKind::kInstance:
      return LookupInClass(ref, attr, false, obj, true);
    case ObjKind::kClass:
      return LookupInClass(ref, attr, false, kNone, false);
    case ObjKind::kSuper:
      // `super().m` runs a class after o.ref in the MRO of the instance's class; a subclass of o.ref comes
      // before it there, so the subclasses are not searched (a mixin's `super().__init__(...)` is not its
      // subclasses' `__init__`).
      return LookupInClass(ref, attr, true, ObjectOf(ObjKind::kInstance, ref, ""), true,
                           /*search_subclasses=*/false);
    case ObjKind::kModule: {
      FoundList found;
      for (uint32_t v : ModuleAttr(ref, p_.NameOf(attr))) found.push_back({v, kNone});
      return found;
    }
    case ObjKind::kExternal: {
      const uint64_t cache_key = (static_cast<uint64_t>(obj) << 32) | static_cast<uint32_t>(attr);
      auto cached = external_attrs_.find(cache_key);
      if (cached != external_attrs_.end()) {
        if (cached->second == kNone) return {};
        return {{cached->second, kNone}};
      }
      FoundList found = ExternalAttr(O(obj), attr);
      external_attrs_.emplace(cache_key, found.empty() ? kNone : found[0].value);
      return found;
    }
    case ObjKind::kPseudo: {
      std::string path = O(obj).name + "." + p_.NameOf(attr);
      if (!ExternalPathFits(path)) return {};
      return {{ObjectOf(ObjKind::kExternal, -1, path), kNone}};
    }
    case ObjKind::kFunction: {
      const Values* v = VarValues(ref, attr);
      FoundList found;
      if (v != nullptr) {
        for (uint32_t x : *v) found.push_back({x, kNone});
      }
      return found;
    }
    default:
      return {};
  }
}

FoundList Resolver::ExternalAttr(const Obj& o, int attr) {
  const std::string path = o.name + "." + p_.NameOf(attr);
  auto it = modules_by_name_.find(path);
  if (it != modules_by_name_.end()) return {{ObjectOf(ObjKind::kModule, it->second, ""), kNone}};
  if (!ExternalPathFits(path)) return {};
  return {{ObjectOf(ObjKind::kExternal, -1, path), kNone}};
}

Values Resolver::ResolveImportPath(int module, const std::string& written) {
  std::string path = written;
  size_t dots = 0;
  while (dots < path.size() && path[dots] == '.') ++dots;
  if (dots > 0) {
    const FlowModule& m = p_.modules[static_cast<size_t>(module)];
    std::string base = m.import_name;
    size_t drop = m.is_package ? dots - 1 : dots;
    for (size_t i = 0; i < drop; ++i) {
      const size_t dot = base.rfind('.');
      base = dot == std::string::npos ? std::string() : base.substr(0, dot);
    }
    const std::string rest = path.substr(dots);
    path = base.empty() ? rest : rest.empty() ? base : base + "." + rest;
  }
  if (path.empty()) return {};
  // The longest prefix that is a module of the project, then attributes.
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t dot = path.find('.', start);
    if (dot == std::string::npos) dot = path.size();
    parts.push_back(path.substr(start, dot - start));
    start = dot + 1;
  }
  for (size_t n = parts.size(); n > 0; --n) {
    std::string prefix = parts[0];
    for (size_t i = 1; i < n; ++i) prefix += "." + parts[i];
    auto it = modules_by_name_.find(prefix);
    if (it == modules_by_name_.end()) continue;
    Values current{ObjectOf(ObjKind::kModule, it->second, "")};
    for (size_t i = n; i < parts.size() && !current.empty(); ++i) {
      Values next;
      const int attr = p_.Intern(parts[i]);
      for (uint32_t obj : current) {
        for (const Found& f : LookupAttr(obj, attr)) Insert(&next, f.value);
      }
      current.swap(next);
    }
    return current;
  }
  return {ObjectOf(ObjKind::kExternal, -1, path)};
}

void Resolver::AddEdge(uint32_t callee, int line, char kind) {
  const EdgeKey key{CallerOf(cur_scope_), callee, line, kind};
  if ((edge_count_ + 1) * 2 > edges_.size()) {  // keep the load at most one half
    std::vector<EdgeKey> old_edges = std::move(edges_);
    std::vector<char> old_used = std::move(edge_used_);
    const size_t size = old_edges.empty() ? 4096 : old_edges.size() * 2;
    edges_.assign(size, EdgeKey{});
    edge_used_.assign(size, 0);
    for (size_t i = 0; i < old_edges.size(); ++i) {
      if (!old_used[i]) continue;
      size_t slot = EdgeSlot(old_edges[i]);
      while (edge_used_[slot]) slot = (slot + 1) & (size - 1);
      edges_[slot] = old_edges[i];
      edge_used_[slot] = 1;
    }
  }
  const size_t mask = edges_.size() - 1;
  size_t slot = EdgeSlot(key);
  while (edge_used_[slot]) {
    if (edges_[slot] == key) return;
    slot = (slot + 1) & mask;
  }
  edges_[slot] = key;
  edge_used_[slot] = 1;
  ++edge_count_;
}

Values Resolver::Eval(int expr) {
  if (expr < 0) return {};
  const FlowExpr& e = p_.exprs[static_cast<size_t>(expr)];
  Values out;
  switch (e.tag) {
    case 'N': {
      int& var = name_var_[static_cast<size_t>(expr)];
      if (var == -2) var = ResolveNameVar(e.scope, e.name);
      Depend(var);
      if (saturated_[static_cast<size_t>(var)]) return {};
      const Values* in_scope = var_scope_[static_cast<size_t>(var)] == e.scope ? ReadInScope(var) : nullptr;
      out = in_scope != nullptr ? *in_scope : var_values_[static_cast<size_t>(var)];
      if (out.empty()) {
        if (const uint32_t builtin = BuiltinOfName(e.name); builtin != kNone) out.push_back(builtin);
      }
      return out;
    }
    case 'A': {
      const Values objs = Eval(e.kids[0]);
      // `x.__dict__` is a dict whatever x is, unless x's class defines it (python/callable_apis.h).
      if (objs.empty()) out = BuiltinAttribute(e.name);
      for (uint32_t obj : objs) {
        const FoundList found = LookupAttr(obj, e.name);
        if (found.empty()) Merge(&out, BuiltinAttribute(e.name));
        for (const Found& f : found) {
          const Obj& o = O(f.value);
          if (O(obj).kind == ObjKind::kInstance && o.kind == ObjKind::kFunction &&
              p_.scopes[static_cast<size_t>(o.ref)].is_property) {
            // Reading a property runs its getter.
            AddEdge(f.value, cur_line_, 'i');
            Args args;
            CallFunction(o.ref, obj, args);
            Merge(&out, ReturnOf(o.ref));
          } else {
            Insert(&out, f.value);
          }
        }
      }
      return out;
    }
    case 'C':
      return EvalCall(e);
    case 'S':
    case 'W':
      return Eval(e.kids[0]);
    case 'Y': {
      const int fscope = CallerOf(cur_scope_);
      yielding_.insert(fscope);
      AddValues(Var(fscope, return_name_), Eval(e.kids[0]));
      return {};
    }
    case 'L':
    case 'G':
      return ContainerOf(e, expr);
    case 'U':
      for (int k : e.kids) Merge(&out, Eval(k));
      return out;
    case 'K':
    case 'Q': {
      auto cached = literal_values_.find(expr);
      if (cached != literal_values_.end()) return cached->second;
      if (e.tag == 'K') {
        out.push_back(ObjectOf(ObjKind::kConst, -1, p_.NameOf(e.name)));
      } else {
        out.push_back(ObjectOf(ObjKind::kPseudo, -1, "<**PyStr**>"));
        if (p_.NameOf(e.name).size() <= 64) Insert(&out, ObjectOf(ObjKind::kConst, -1, "s:" + p_.NameOf(e.name)));
      }
      literal_values_.emplace(expr, out);
      return out;
    }
    case 'M':
    case 'P':
      for (int k : e.kids) Eval(k);
      return {};
    case 'D':
      out = ContainerOf(e, expr);
      Insert(&out, ObjectOf(ObjKind::kPseudo, -1, "<**PyDict**>"));
      return out;
    case 'F':
      return {ObjectOf(ObjKind::kFunction, e.scope, "")};
    case 'X': {
      const Values objs = Eval(e.kids[0]);
      const Values key = Eval(e.kids[1]);
      if (e.kids[1] >= 0 && p_.exprs[static_cast<size_t>(e.kids[1])].tag == 'P') return SliceOf(objs, e.kids[1], expr);
      for (uint32_t obj : objs) {
        if (IsBuiltinValue(O(obj).kind)) continue;
        if (O(obj).kind == ObjKind::kContainer) {
          Merge(&out, ReadSlots(O(obj).ref, key));
          continue;
        }
        if (O(obj).kind == ObjKind::kInstance) {
          bool found = false;
          Values r = CallMethodNamed(obj, "__getitem__", Args{}, cur_line_, &found);
          if (found) {
            Merge(&out, r);
            continue;
          }
        }
        Insert(&out, obj);
      }
      return out;
    }
    case 'O': {
      const Values left = Eval(e.kids[0]);
      const Values right = Eval(e.kids[1]);
      const char* dunder = DunderOfOperator(p_.NameOf(e.name));
      if (p_.NameOf(e.name) == "|") out = DictUnion(left, right, e, expr);
      bool any = false;
      for (uint32_t obj : left) {
        if (dunder == nullptr || O(obj).kind != ObjKind::kInstance) continue;
        Args args;
        args.positional.push_back(right);
        args.starred.push_back(false);
        bool found = false;
        Values r = CallMethodNamed(obj, dunder, args, cur_line_, &found);
        if (found) {
          any = true;
          Merge(&out, r);
        }
      }
      if (!any) {
        auto kept = [&](uint32_t v) {
          const Obj& o = O(v);
          return !IsBuiltinValue(o.kind) && !(!out.empty() && o.kind == ObjKind::kContainer && IsDictContainer(o.ref));
        };
        Values operands;
        for (uint32_t v : left) {
          if (kept(v)) Insert(&operands, v);
        }
        for (uint32_t v : right) {
          if (kept(v)) Insert(&operands, v);
        }
        Merge(&out, operands);
      }
      return out;
    }
    default:
      return {};
  }
}

Values Resolver::CallMethodNamed(uint32_t receiver, const char* method, const Args& args, int line, bool* found) {
  Values out;
  *found = false;
  for (const Found& f : LookupAttr(receiver, MethodName(method))) {
    if (O(f.value).kind != ObjKind::kFunction) continue;
    *found = true;
    AddEdge(f.value, line, 'i');
    Merge(&out, CallFunction(O(f.value).ref, f.self, args));
  }
  return out;
}

Values Resolver::CallFunction(int fscope, uint32_t self, const Args& args) {
  const FlowScope& f = p_.scopes[static_cast<size_t>(fscope)];
  size_t next = 0;
  if (self != kNone && !f.params.empty() && f.params[0].kind == 'n') {
    // The receiver is not added to `self`: it holds the defining class's instance, and attributes the
    // class lacks are looked up in its subclasses (LookupInClass). Binding every subclass's instance
    // would multiply the work of each method of a large hierarchy.
    next = 1;
  } else if (self == kNone && f.parent >= 0 && p_.scopes[static_cast<size_t>(f.parent)].kind == 'c' && !f.is_static &&
             !f.is_classmethod && f.kind == 'f') {
    // A method value called without a known receiver is most often a bound method.
    next = 1;
  }
  if (&args == call_args_ && !checked_params_[static_cast<size_t>(fscope)].empty()) RecordArguments(fscope, next, args);
  for (size_t i = 0; i < args.positional.size(); ++i) {
    if (args.starred[i]) {
      for (size_t j = next; j < f.params.size(); ++j) {
        if (f.params[j].kind != 'k') AddValues(Var(fscope, f.params[j].name), args.positional[i]);
      }
      continue;
    }
    while (next < f.params.size() && f.params[next].kind == 'k') ++next;
    if (next >= f.params.size()) break;
    AddValues(Var(fscope, f.params[next].name), args.positional[i]);
    if (f.params[next].kind != '*') ++next;
  }
  for (const auto& [name, values] : args.keywords) {
    if (name == star_star_) continue;
    bool matched = false;
    for (const FlowParam& p : f.params) {
      if (p.name == name && p.kind == 'n') {
        AddValues(Var(fscope, p.name), values);
        matched = true;
      }
    }
    if (!matched) {
      for (const FlowParam& p : f.params) {
        if (p.kind == 'k') AddValues(Var(fscope, p.name), values);
      }
    }
  }
  return ReturnOf(fscope);
}

uint8_t Resolver::ExternalRole(uint32_t external) {
  if (external_roles_.size() <= external) external_roles_.resize(objects_.size(), 0);
  uint8_t& role = external_roles_[external];
  if (role == 0) {
    const std::string& name = O(external).name;
    role = kRoleKnown;
    if (IsTypingName(name)) role |= kTyping;
    if (name == "typing.cast" || name == "typing_extensions.cast") role |= kCast;
    if (name == "functools.partial") role |= kPartial;
    if (RegistersCallable(name)) role |= kRegisters;
    if (InspectsCallable(name)) role |= kInspects;
  }
  return role;
}

Values Resolver::CallObject(uint32_t callee, uint32_t self, const Args& args, int line, const char* kind) {
  // Kind and ref copied, not the object (its name may be long; ObjectOf may grow objects_).
  const ObjKind okind = O(callee).kind;
  const int oref = O(callee).ref;
  Values out;
  switch (okind) {
    case ObjKind::kFunction:
      AddEdge(callee, line, kind[0]);
      return CallFunction(oref, self, args);
    case ObjKind::kClass: {
      const uint32_t instance = ObjectOf(ObjKind::kInstance, oref, "");
      for (const char* ctor : {"__new__", "__init__"}) {
        for (const Found& f : LookupInClass(oref, MethodName(ctor), false, instance, true, false)) {
          if (O(f.value).kind == ObjKind::kFunction) {
            AddEdge(f.value, line, kind[0]);
            CallFunction(O(f.value).ref, instance, args);
          } else if (O(f.value).kind == ObjKind::kExternal && std::string(ctor) == "__init__") {
            AddEdge(f.value, line, kind[0]);
          }
        }
      }
      out.push_back(instance);
      return out;
    }
    case ObjKind::kInstance: {
      bool found = false;
      return CallMethodNamed(callee, "__call__", args, line, &found);
    }
    case ObjKind::kExternal: {
      AddEdge(callee, line, kind[0]);
      const uint8_t role = ExternalRole(callee);
      if (role & kTyping) {
        // typing.cast(T, value) is the value; TypeVar(...), NewType(...) and the rest make no value worth
        // following (their attributes would make names such as typing.TypeVar._generate).
        if ((role & kCast) && args.positional.size() >= 2) return args.positional[1];
        return out;
      }
      out.push_back(callee);
      const bool partial = role & kPartial;
      // A callable handed to an API that stores it (`atexit.register(f)`, `stack.callback(f)`) runs later,
      // from elsewhere: a "registered" edge, which call paths do not follow (python/callable_apis.h).
      const bool registers = role & kRegisters;
      // One that only inspects it (`inspect.signature(f)`, `functools.wraps(f)`) neither calls nor stores it.
      const bool inspects = role & kInspects;
      for (size_t i = 0; i < args.positional.size(); ++i) {
        if (partial && i == 0) {
          Merge(&out, args.positional[i]);
          continue;
        }
        for (uint32_t v : args.positional[i]) {
          if (O(v).kind != ObjKind::kFunction || inspects) continue;
          if (registers) {
            AddEdge(v, line, 'r');
          } else {
            Merge(&out, CallObject(v, kNone, Args{}, line, "b"));
          }
        }
      }
      return out;
    }
    default:
      return out;
  }
}

Values Resolver::CallBuiltin(const std::string& name, const FlowExpr& e, const Args& args, int line) {
  Values out;
  if (name == "super") {
    int s = cur_scope_;
    while (s >= 0 && p_.scopes[static_cast<size_t>(s)].kind != 'f') s = p_.scopes[static_cast<size_t>(s)].parent;
    if (s >= 0 && p_.scopes[static_cast<size_t>(s)].parent >= 0 &&
        p_.scopes[static_cast<size_t>(p_.scopes[static_cast<size_t>(s)].parent)].kind == 'c') {
      out.push_back(ObjectOf(ObjKind::kSuper, p_.scopes[static_cast<size_t>(s)].parent, ""));
    }
    return out;
  }
  if (name == "getattr" && args.positional.size() >= 2 && e.kids.size() >= 3 && e.kids[2] >= 0 &&
      p_.exprs[static_cast<size_t>(e.kids[2])].tag == 'Q') {
    const int attr = p_.exprs[static_cast<size_t>(e.kids[2])].name;
    for (uint32_t obj : args.positional[0]) {
      for (const Found& f : LookupAttr(obj, attr)) Insert(&out, f.value);
    }
    if (args.positional.size() >= 3) Merge(&out, args.positional[2]);
    return out;
  }
  if (name == "dict") return DictOfCall(e, args);
  if (name == "type" && args.positional.size() == 1) {
    for (uint32_t v : args.positional[0]) {
      if (O(v).kind == ObjKind::kInstance) Insert(&out, ObjectOf(ObjKind::kClass, O(v).ref, ""));
    }
    return out;
  }
  if (BuiltinPassesFirstArgument(name) && !args.positional.empty()) {
    out = name == "iter" || name == "list" || name == "tuple" || name == "sorted" || name == "enumerate"
              ? Iterate(args.positional[0], line)
              : args.positional[0];
  }
  if (BuiltinCallsArguments(name)) {
    auto call_all = [&](const Values& values) {
      for (uint32_t v : values) {
        if (O(v).kind == ObjKind::kFunction) Merge(&out, CallObject(v, kNone, Args{}, line, "b"));
      }
    };
    for (const Values& v : args.positional) call_all(v);
    for (const auto& kw : args.keywords) call_all(kw.second);
  }
  return out;
}

Values Resolver::BuiltinAttribute(int attr) {
  const std::string_view type = BuiltinAttributeType(p_.NameOf(attr));
  if (type.empty()) return {};
  return {ObjectOf(ObjKind::kValue, -1, std::string(type))};
}

Values Resolver::BuiltinResult(const std::string& name) {
  const std::string_view type = BuiltinResultType(name);
  if (type.empty()) return {};
  return {ObjectOf(ObjKind::kValue, -1, std::string(type))};
}

bool Resolver::BuiltinReceivers(const Values& receivers, int method) const {
  if (receivers.empty() || method < 0) return false;
  const std::string& name = p_.NameOf(method);
  for (uint32_t v : receivers) {
    const Obj& o = O(v);
    bool has = false;
    if (o.kind == ObjKind::kValue) {
      has = IsBuiltinMethod(o.name, name);
    } else if (o.kind == ObjKind::kConst) {
      has = IsBuiltinMethod(o.name.rfind("s:", 0) == 0 ? "str" : "int", name);
    } else if (o.kind == ObjKind::kContainer) {  // a list, tuple or set literal, or a comprehension
      has = IsBuiltinMethod("list", name) || IsBuiltinMethod("set", name);
    }
    if (!has) return false;
  }
  return true;
}

Values Resolver::EvalCall(const FlowExpr& e) {
  Args args;
  for (int i = 0; i < e.npos; ++i) {
    const int k = e.kids[static_cast<size_t>(1 + i)];
    const bool starred = k >= 0 && p_.exprs[static_cast<size_t>(k)].tag == 'S';
    args.positional.push_back(starred ? Iterate(Eval(k), e.line) : Eval(k));
    args.starred.push_back(starred);
  }
  for (size_t i = 0; i < e.kw.size(); ++i) {
    args.keywords.emplace_back(e.kw[i], Eval(e.kids[static_cast<size_t>(1 + e.npos) + i]));
  }
  const int line = e.line;
  Values out;
  FoundList callees;
  const int callee_expr = e.kids[0];
  const FlowExpr* c = callee_expr >= 0 ? &p_.exprs[static_cast<size_t>(callee_expr)] : nullptr;
  bool stored = false;
  Values receivers;
  if (c != nullptr && c->tag == 'A') {
    receivers = Eval(c->kids[0]);
    stored = ContainerMethod(receivers, c->name, e, args, &out);
    for (uint32_t obj : receivers) {
      if (stored && (O(obj).kind == ObjKind::kContainer || O(obj).kind == ObjKind::kPseudo)) continue;
      for (const Found& f : LookupAttr(obj, c->name)) callees.push_back(f);
    }
  } else {
    for (uint32_t v : Eval(callee_expr)) callees.push_back({v, kNone});
  }
  bool resolved = stored;
  if (!callees.empty() && cur_statement_ >= 0 && in_test_statement_[static_cast<size_t>(cur_statement_)]) {
    // In a test, a callable handed to a callee is most often the code under test, called by an expecting
    // helper (`assert_raises(E, obj.method)`, `self.assertRaises(E, Cart, [])`): an "argument" edge to the
    // function, the class's `__init__` or the instance's `__call__` says so without claiming a call.
    auto handed = [&](const Values& values) {
      for (uint32_t v : values) {
        const ObjKind kind = O(v).kind;
        if (kind == ObjKind::kFunction) {
          AddEdge(v, line, 'a');
        } else if (kind == ObjKind::kClass || kind == ObjKind::kInstance) {
          const int method = MethodName(kind == ObjKind::kClass ? "__init__" : "__call__");
          for (const Found& f : LookupInClass(O(v).ref, method, false, kNone, false)) {
            if (O(f.value).kind == ObjKind::kFunction) AddEdge(f.value, line, 'a');
          }
        }
      }
    };
    for (const Values& v : args.positional) handed(v);
    for (const auto& kw : args.keywords) handed(kw.second);
  }
  const Args* saved_args = call_args_;
  const int saved_site = call_site_;
  call_args_ = &args;
  call_site_ = e.call;
  for (const Found& f : callees) {
    const ObjKind kind = O(f.value).kind;
    if (kind == ObjKind::kBuiltin) {
      const std::string name = O(f.value).name;
      AddEdge(f.value, line, 'c');
      Merge(&out, CallBuiltin(name, e, args, line));
      Merge(&out, BuiltinResult(name));
      resolved = true;
    } else if (kind == ObjKind::kFunction || kind == ObjKind::kClass || kind == ObjKind::kInstance ||
               kind == ObjKind::kExternal) {
      Merge(&out, CallObject(f.value, f.self, args, line, "c"));
      resolved = true;
    }
  }
  call_args_ = saved_args;
  call_site_ = saved_site;
  if (resolved || (c != nullptr && c->tag == 'A' && BuiltinReceivers(receivers, c->name)))
    site_resolved_[static_cast<size_t>(e.call)] = true;
  return out;
}

Values Resolver::InstancesOf(int expr) {
  if (expr < 0) return {};
  const FlowExpr& e = p_.exprs[static_cast<size_t>(expr)];
  Values out;
  if (e.tag == 'Q') {
    // A string annotation: a dotted name read in the annotation's scope.
    const std::string& text = p_.NameOf(e.name);
    if (text.empty() || text.size() > 200) return out;
    size_t start = 0;
    Values current;
    bool first = true;
    while (start <= text.size()) {
      size_t dot = text.find('.', start);
      if (dot == std::string::npos) dot = text.size();
      const std::string part = text.substr(start, dot - start);
      for (char ch : part) {
        if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_')) return out;
      }
      if (part.empty()) return out;
      const int name = p_.Intern(part);
      if (first) {
        const int var = ResolveNameVar(e.scope, name);
        Depend(var);
        current = var_values_[static_cast<size_t>(var)];
        first = false;
      } else {
        Values next;
        for (uint32_t obj : current) {
          for (const Found& f : LookupAttr(obj, name)) Insert(&next, f.value);
        }
        current.swap(next);
      }
      start = dot + 1;
    }
    for (uint32_t v : current) {
      if (O(v).kind == ObjKind::kClass) Insert(&out, ObjectOf(ObjKind::kInstance, O(v).ref, ""));
    }
    return out;
  }
  if (e.tag == 'X' || e.tag == 'O' || e.tag == 'L' || e.tag == 'U') {
    for (int k : e.kids) Merge(&out, InstancesOf(k));
    return out;
  }
  for (uint32_t v : Eval(expr)) {
    if (O(v).kind == ObjKind::kClass) Insert(&out, ObjectOf(ObjKind::kInstance, O(v).ref, ""));
    // typing's constructs (TypeVar, Any, Union...) annotate; they are never the type of a value.
    if (O(v).kind == ObjKind::kExternal && !IsTypingName(O(v).name)) Insert(&out, v);
  }
  return out;
}

Values Resolver::Iterate(const Values& values, int line) {
  Values out;
  for (uint32_t v : values) {
    const Obj& o = O(v);
    if (IsBuiltinValue(o.kind)) continue;
    if (o.kind == ObjKind::kContainer) {
      Merge(&out, ReadSlots(o.ref, Values{}));
      continue;
    }
    if (o.kind != ObjKind::kInstance) {
      Insert(&out, v);
      continue;
    }
    bool found = false;
    const Values iterators = CallMethodNamed(v, "__iter__", Args{}, line, &found);
    if (!found) continue;
    for (uint32_t it : iterators) {
      if (O(it).kind != ObjKind::kInstance) {
        Insert(&out, it);
        continue;
      }
      bool has_next = false;
      Merge(&out, CallMethodNamed(it, "__next__", Args{}, line, &has_next));
    }
  }
  return out;
}

void Resolver::NoteOwnAttributes(int scope, int target) {
  if (target < 0 || scope < 0) return;
  const FlowExpr& t = p_.exprs[static_cast<size_t>(target)];
  if (t.tag == 'L') {
    for (int kid : t.kids) NoteOwnAttributes(scope, kid);
    return;
  }
  if (t.tag != 'A' || t.kids.empty() || t.kids[0] < 0) return;
  const FlowExpr& object = p_.exprs[static_cast<size_t>(t.kids[0])];
  const FlowScope& method = p_.scopes[static_cast<size_t>(scope)];
  if (object.tag != 'N' || method.kind != 'f' || method.parent < 0 || method.is_static || method.params.empty()) return;
  if (p_.scopes[static_cast<size_t>(method.parent)].kind != 'c' || object.name != method.params[0].name) return;
  own_attributes_.insert(AttrKey(method.parent, t.name));
}

void Resolver::Assign(int target, const Values& values) {
  if (target < 0) return;
  const FlowExpr& t = p_.exprs[static_cast<size_t>(target)];
  switch (t.tag) {
    case 'N': {
      int& var = name_var_[static_cast<size_t>(target)];
      if (var == -2) var = ResolveNameVar(t.scope, t.name);
      Bind(var, values);
      return;
    }
    case 'A': {
      for (uint32_t obj : Eval(t.kids[0])) {
        const Obj o = O(obj);
        if (o.kind == ObjKind::kInstance || o.kind == ObjKind::kClass) {
          bool set = false;
          Depend(Var(kSettersScope, t.name));
          for (int c : Mro(o.ref)) {
            auto it =
                setters_.find((static_cast<uint64_t>(static_cast<uint32_t>(c)) << 32) | static_cast<uint32_t>(t.name));
            if (it == setters_.end()) continue;
            AddEdge(ObjectOf(ObjKind::kFunction, it->second, ""), cur_line_, 'i');
            Args args;
            args.positional.push_back(values);
            args.starred.push_back(false);
            CallFunction(it->second, obj, args);
            set = true;
            break;
          }
          if (!set) AddValues(Var(o.ref, t.name), values);
        } else if (o.kind == ObjKind::kModule) {
          AddValues(Var(p_.modules[static_cast<size_t>(o.ref)].scope, t.name), values);
        } else if (o.kind == ObjKind::kFunction) {
          AddValues(Var(o.ref, t.name), values);
        }
      }
      return;
    }
    case 'X': {
      const Values key = Eval(t.kids[1]);
      const int container = t.kids[0];
      for (uint32_t obj : Eval(container)) {
        if (O(obj).kind == ObjKind::kContainer && t.kids[1] >= 0 &&
            p_.exprs[static_cast<size_t>(t.kids[1])].tag == 'P') {
          WriteSlot(O(obj).ref, any_slot_, Iterate(values, cur_line_));  // `ls[1:2] = items`: places unknown
          continue;
        }
        if (O(obj).kind == ObjKind::kContainer) {
          const Values constants = ConstantKeys(key);
          if (constants.empty()) WriteSlot(O(obj).ref, any_slot_, values);
          for (uint32_t k : constants) WriteSlot(O(obj).ref, p_.Intern(O(k).name), values);
          continue;
        }
        if (O(obj).kind != ObjKind::kInstance) continue;
        Args args;
        args.positional = {Values{}, values};
        args.starred = {false, false};
        bool found = false;
        CallMethodNamed(obj, "__setitem__", args, cur_line_, &found);
      }
      return;
    }
    case 'L': {
      // Unpacking: the i-th target gets the i-th slot of a container; other values flow whole.
      Values others;
      for (uint32_t v : values) {
        if (O(v).kind != ObjKind::kContainer) Insert(&others, v);
      }
      const std::vector<int> kids = t.kids;
      bool after_star = false;
      for (size_t i = 0; i < kids.size(); ++i) {
        Values item = others;
        const bool starred = kids[i] >= 0 && p_.exprs[static_cast<size_t>(kids[i])].tag == 'S';
        after_star = after_star || starred;
        for (uint32_t v : values) {
          if (O(v).kind != ObjKind::kContainer) continue;
          // Targets after a starred one count from the end of a literal of known length.
          auto length = container_length_.find(O(v).ref);
          int index = static_cast<int>(i);
          if (after_star && !starred) {
            index = length == container_length_.end() ? -1 : length->second - static_cast<int>(kids.size() - i);
          }
          const Values key = index < 0 ? Values{} : Values{ObjectOf(ObjKind::kConst, -1, "i:" + std::to_string(index))};
          if (!starred) {
            Merge(&item, ReadSlots(O(v).ref, key));
          } else if (length == container_length_.end()) {
            Merge(&item, ReadSlots(O(v).ref, Values{}));
          } else {
            // The starred target holds the middle elements (as a list of unknown positions).
            for (int j = static_cast<int>(i); j < length->second - static_cast<int>(kids.size() - i - 1); ++j) {
              Merge(&item, ReadSlots(O(v).ref, Values{ObjectOf(ObjKind::kConst, -1, "i:" + std::to_string(j))}));
            }
          }
        }
        Assign(kids[i], item);
      }
      return;
    }
    case 'S':
      for (int k : t.kids) Assign(k, values);
      return;
    default:
      return;
  }
}

void Resolver::AssignExpr(int target, int value) {
  if (target >= 0 && value >= 0) {
    const FlowExpr& t = p_.exprs[static_cast<size_t>(target)];
    const FlowExpr& v = p_.exprs[static_cast<size_t>(value)];
    if (t.tag == 'L' && v.tag == 'L' && t.kids.size() == v.kids.size()) {
      bool starred = false;
      for (int k : t.kids) starred = starred || (k >= 0 && p_.exprs[static_cast<size_t>(k)].tag == 'S');
      for (int k : v.kids) starred = starred || (k >= 0 && p_.exprs[static_cast<size_t>(k)].tag == 'S');
      if (!starred) {
        const std::vector<int> tk = t.kids, vk = v.kids;
        for (size_t i = 0; i < tk.size(); ++i) AssignExpr(tk[i], vk[i]);
        return;
      }
    }
  }
  Assign(target, Eval(value));
}

void Resolver::Definition(const FlowStatement& st) {
  const int id = st.a;
  const FlowScope& s = p_.scopes[static_cast<size_t>(id)];
  const bool is_class = s.kind == 'c';
  const int parent = st.scope;
  if (is_class) {
    Values bases;
    for (int b : s.bases) Merge(&bases, Eval(b));
    if (bases != base_values_[static_cast<size_t>(id)]) {
      BasesChanged(id, base_values_[static_cast<size_t>(id)], bases);
      base_values_[static_cast<size_t>(id)] = bases;
    }
  } else {
    const bool method = p_.scopes[static_cast<size_t>(parent)].kind == 'c';
    for (size_t i = 0; i < s.params.size(); ++i) {
      const FlowParam& prm = s.params[i];
      const int var = Var(id, prm.name);
      if (prm.default_value >= 0) AddValues(var, Eval(prm.default_value));
      if (prm.annotation >= 0) AddValues(var, InstancesOf(prm.annotation));
      if (i == 0 && method && !s.is_static && prm.kind == 'n') {
        AddValue(var,
                 s.is_classmethod ? ObjectOf(ObjKind::kClass, parent, "") : ObjectOf(ObjKind::kInstance, parent, ""));
      }
    }
    if (s.return_annotation >= 0) AddValues(Var(id, return_name_), InstancesOf(s.return_annotation));
  }
  Values value{ObjectOf(is_class ? ObjKind::kClass : ObjKind::kFunction, id, "")};
  if (s.setter_of != -1) {
    if (s.setter_of >= 0) {
      const uint64_t key =
          (static_cast<uint64_t>(static_cast<uint32_t>(parent)) << 32) | static_cast<uint32_t>(s.setter_of);
      if (setters_.emplace(key, id).second) DirtyReaders(Var(kSettersScope, s.setter_of));
    }
    return;
  }
  for (size_t i = s.decorators.size(); i-- > 0;) {
    Values applied;
    const Values decorators = Eval(s.decorators[i]);
    for (uint32_t d : decorators) {
      // An `@overload` stub is replaced by the definition that follows it: it binds nothing.
      if (O(d).kind == ObjKind::kExternal &&
          (O(d).name == "typing.overload" || O(d).name == "typing_extensions.overload")) {
        return;
      }
    }
    for (uint32_t d : decorators) {
      const Obj o = O(d);
      if (o.kind == ObjKind::kFunction || o.kind == ObjKind::kClass || o.kind == ObjKind::kInstance) {
        Args args;
        args.positional.push_back(value);
        args.starred.push_back(false);
        Merge(&applied, CallObject(d, kNone, args, s.line, "i"));
      }
    }
    // A decorator that returns nothing known (an external one, most often) leaves the function.
    if (!applied.empty()) value = applied;
  }
  Bind(Var(parent, s.name), value);
}

void Resolver::Statement(const FlowStatement& st) {
  cur_scope_ = st.scope;
  cur_line_ = st.line;
  switch (st.kind) {
    case 'd':
      Definition(st);
      return;
    case 'a':
      AssignExpr(st.a, st.b);
      return;
    case 't':
      Assign(st.a, InstancesOf(st.b));
      return;
    case 'r': {
      const Values values = Eval(st.a);
      if (!values.empty() && cur_statement_ >= 0) return_known_[static_cast<size_t>(cur_statement_)] = 1;
      AddValues(Var(CallerOf(st.scope), return_name_), values);
      return;
    }
    case 'e':
      Eval(st.a);
      return;
    case 'z':
      // `raise C` instantiates the class C.
      for (uint32_t v : Eval(st.a)) {
        if (O(v).kind == ObjKind::kClass) CallObject(v, kNone, Args{}, st.line, "i");
      }
      return;
    case 'w': {
      Values result;
      for (uint32_t v : Eval(st.a)) {
        if (O(v).kind != ObjKind::kInstance) {
          Insert(&result, v);
          continue;
        }
        bool found = false;
        Merge(&result, CallMethodNamed(v, "__enter__", Args{}, st.line, &found));
        CallMethodNamed(v, "__exit__", Args{}, st.line, &found);
      }
      Assign(st.b, result);
      return;
    }
    case 'f':
      Assign(st.a, Iterate(Eval(st.b), st.line));
      return;
    case 'i':
      AddValues(Var(st.scope, st.a),
                ResolveImportPath(p_.scopes[static_cast<size_t>(st.scope)].module, p_.NameOf(st.b)));
      return;
    case 'x':
      for (uint32_t m : ResolveImportPath(p_.scopes[static_cast<size_t>(st.scope)].module, p_.NameOf(st.b))) {
        if (O(m).kind != ObjKind::kModule) continue;
        const FlowScope& from = p_.scopes[static_cast<size_t>(p_.modules[static_cast<size_t>(O(m).ref)].scope)];
        const std::vector<int> names = from.bound_names;
        const int from_scope = p_.modules[static_cast<size_t>(O(m).ref)].scope;
        for (int n : names) {
          if (p_.NameOf(n).empty() || p_.NameOf(n)[0] == '_') continue;
          const Values* found = VarValues(from_scope, n);
          if (found == nullptr) continue;
          const Values copy = *found;  // Var() may grow the table that FOUND points into
          AddValues(Var(ModuleScopeOf(st.scope), n), copy);
        }
      }
      return;
    default:
      return;
  }
}

void Resolver::WriteSlot(int container, int slot, const Values& values) {
  std::vector<int>& slots = container_slots_[container];
  auto pos = std::lower_bound(slots.begin(), slots.end(), slot);
  if (pos == slots.end() || *pos != slot) {
    if (slots.size() >= 256) slot = any_slot_;
    pos = std::lower_bound(slots.begin(), slots.end(), slot);
    if (pos == slots.end() || *pos != slot) {
      slots.insert(pos, slot);
      DirtyReaders(Var(ContainerScope(container), slots_name_));
    }
  }
  const int var = Var(ContainerScope(container), slot);
  AddValues(var, values);
  if (slot == any_slot_ || slot_untracked_.count(var) || saturated_[static_cast<size_t>(var)]) return;
  // A constant slot written only by straight-line statements of the literal's own scope is read there
  // from its last write above the read, like a variable (`d["a"] = f2` replaces f1).
  const bool straight = cur_statement_ >= 0 && p_.statements[static_cast<size_t>(cur_statement_)].straight &&
                        cur_scope_ == p_.exprs[static_cast<size_t>(container)].scope;
  if (!straight) {
    slot_untracked_.insert(var);
    DirtyReaders(var);
    return;
  }
  std::vector<std::pair<int, int>>& defs = slot_definitions_[var];
  const std::pair<int, int> def{cur_line_, cur_statement_};
  auto at = std::lower_bound(defs.begin(), defs.end(), def);
  if (at == defs.end() || *at != def) defs.insert(at, def);
  Values& slot_values = slot_definition_values_[(static_cast<uint64_t>(static_cast<uint32_t>(var)) << 32) |
                                                static_cast<uint32_t>(cur_statement_)];
  const size_t before = slot_values.size();
  Merge(&slot_values, values);
  if (slot_values.size() > options_.max_values) {
    Saturate(var);
    return;
  }
  if (slot_values.size() != before) {
    for (int reader : readers_[static_cast<size_t>(var)]) dirty_[static_cast<size_t>(reader)] = 1;
  }
}

Values Resolver::ConstantKeys(const Values& key) const {
  Values out;
  for (uint32_t k : key) {
    if (O(k).kind == ObjKind::kConst) {
      out.push_back(k);
    } else if (O(k).kind != ObjKind::kPseudo) {
      return {};
    }
  }
  return out;
}

Values Resolver::ReadSlots(int container, const Values& raw_key) {
  Values out;
  Depend(Var(ContainerScope(container), slots_name_));
  auto it = container_slots_.find(container);
  if (it == container_slots_.end()) return out;
  const Values key = ConstantKeys(raw_key);
  const bool constant = !key.empty();
  const int scope = ContainerScope(container);
  auto read = [&](int slot) {
    const Values* v = VarValues(scope, slot);
    if (v != nullptr) Merge(&out, *v);
  };
  if (!constant) {
    for (int slot : it->second) read(slot);
    return out;
  }
  read(any_slot_);
  for (uint32_t k : key) {
    const int slot = p_.FindName(O(k).name);
    if (slot < 0) continue;
    const int var = Var(scope, slot);
    if (saturated_[static_cast<size_t>(var)]) {
      Depend(var);
      continue;
    }
    auto defs = slot_definitions_.find(var);
    if (defs == slot_definitions_.end() || slot_untracked_.count(var) ||
        cur_scope_ != p_.exprs[static_cast<size_t>(container)].scope) {
      read(slot);
      continue;
    }
    Depend(var);
    const std::pair<int, int>* last = nullptr;
    for (const auto& def : defs->second) {
      // A write of the reading statement itself counts (unpacking reads the literal it builds).
      if (def.first > cur_line_ || (def.first == cur_line_ && def.second > cur_statement_)) break;
      last = &def;
    }
    if (last == nullptr) continue;
    Merge(&out, slot_definition_values_[(static_cast<uint64_t>(static_cast<uint32_t>(var)) << 32) |
                                        static_cast<uint32_t>(last->second)]);
  }
  return out;
}

Values Resolver::ContainerOf(const FlowExpr& e, int expr) {
  const std::vector<int> kids = e.kids;
  const char tag = e.tag;
  if (tag == 'D') {
    for (size_t i = 0; i + 1 < kids.size(); i += 2) {
      const bool splat = kids[i] >= 0 && p_.exprs[static_cast<size_t>(kids[i])].tag == '?';
      const Values key = ConstantKeys(Eval(kids[i]));
      Values value = Eval(kids[i + 1]);
      if (splat) {
        // `{**other}` holds other's items, not other.
        Values rest;
        for (uint32_t v : value) {
          if (O(v).kind == ObjKind::kContainer && IsDictContainer(O(v).ref)) {
            CopySlots(O(v).ref, expr, false);
          } else if (O(v).kind != ObjKind::kPseudo) {
            Insert(&rest, v);
          }
        }
        value = rest;
      }
      if (splat) {
        WriteSlot(expr, any_slot_, value);
      } else if (key.size() == 1) {
        WriteSlot(expr, p_.Intern(O(key[0]).name), value);
      } else {
        WriteSlot(expr, any_slot_, value);
      }
    }
  } else {
    bool any_spread = tag == 'G';
    for (size_t i = 0; i < kids.size(); ++i) {
      any_spread = any_spread || (kids[i] >= 0 && p_.exprs[static_cast<size_t>(kids[i])].tag == 'S');
    }
    if (!any_spread) container_length_[expr] = static_cast<int>(kids.size());
    for (size_t i = 0; i < kids.size(); ++i) {
      const bool spread = tag == 'G' || (kids[i] >= 0 && p_.exprs[static_cast<size_t>(kids[i])].tag == 'S');
      Values value = Eval(kids[i]);
      if (spread && tag != 'G') value = Iterate(value, cur_line_);
      WriteSlot(expr, spread ? any_slot_ : IndexSlot(i), value);
    }
  }
  return {ObjectOf(ObjKind::kContainer, expr, "")};
}

Values Resolver::SlotValues(int container, int slot) {
  if (slot != any_slot_) return ReadSlots(container, Values{ObjectOf(ObjKind::kConst, -1, p_.NameOf(slot))});
  const Values* v = VarValues(ContainerScope(container), any_slot_);
  return v != nullptr ? *v : Values{};
}

void Resolver::StoreSlot(int container, int slot, Values values, bool strong) {
  if (!strong && slot != any_slot_) Merge(&values, SlotValues(container, slot));
  WriteSlot(container, slot, values);
}

void Resolver::CopySlots(int from, int to, bool strong) {
  Depend(Var(ContainerScope(from), slots_name_));
  auto it = container_slots_.find(from);
  if (it == container_slots_.end() || from == to) return;
  const std::vector<int> slots = it->second;  // WriteSlot may add to the map
  for (int slot : slots) StoreSlot(to, slot, SlotValues(from, slot), strong && slot != any_slot_);
}

bool Resolver::IsWholeStatement(const FlowExpr& call) const {
  if (cur_statement_ < 0 || call.call < 0) return false;
  const FlowStatement& st = p_.statements[static_cast<size_t>(cur_statement_)];
  return st.kind == 'e' && st.straight && st.a == p_.call_exprs[static_cast<size_t>(call.call)];
}

Values Resolver::SliceOf(const Values& objs, int slice, int expr) {
  Values out;
  const FlowExpr& s = p_.exprs[static_cast<size_t>(slice)];
  // A bound: absent (`V None`), a known integer, or unknown.
  enum class Bound { kAbsent, kKnown, kUnknown };
  auto bound = [&](size_t i, long long* value) {
    const int k = i < s.kids.size() ? s.kids[i] : -1;
    if (k < 0) return Bound::kUnknown;
    const FlowExpr& b = p_.exprs[static_cast<size_t>(k)];
    if (b.tag == 'V' && p_.NameOf(b.name) == "None") return Bound::kAbsent;
    if (b.tag != 'K') return Bound::kUnknown;
    const std::string& text = p_.NameOf(b.name);  // "i:-3"
    if (text.size() < 3 || text.size() > 12) return Bound::kUnknown;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data() + 2, end, *value);
    return ec == std::errc() && ptr == end ? Bound::kKnown : Bound::kUnknown;
  };
  long long lo = 0, hi = 0, step = 1;
  const Bound lo_b = bound(0, &lo), hi_b = bound(1, &hi), step_b = bound(2, &step);
  for (uint32_t obj : objs) {
    const Obj o = O(obj);
    if (o.kind == ObjKind::kPseudo && o.name == "<**PyStr**>") {
      Insert(&out, obj);  // a slice of a string is a string
      continue;
    }
    if (o.kind == ObjKind::kPseudo || o.kind == ObjKind::kConst) continue;
    if (o.kind == ObjKind::kInstance) {
      bool found = false;
      Values r = CallMethodNamed(obj, "__getitem__", Args{}, cur_line_, &found);
      if (found) {
        Merge(&out, r);
        continue;
      }
    }
    if (o.kind != ObjKind::kContainer) {
      Insert(&out, obj);
      continue;
    }
    if (IsDictContainer(o.ref)) continue;  // a dict cannot be sliced
    Insert(&out, ObjectOf(ObjKind::kContainer, expr, ""));
    Depend(Var(ContainerScope(o.ref), slots_name_));
    auto length = container_length_.find(o.ref);
    auto slots = container_slots_.find(o.ref);
    const bool placed =
        slots == container_slots_.end() || !std::binary_search(slots->second.begin(), slots->second.end(), any_slot_);
    if (length == container_length_.end() || !placed || lo_b == Bound::kUnknown || hi_b == Bound::kUnknown ||
        step_b == Bound::kUnknown || (step_b == Bound::kKnown && step == 0)) {
      StoreSlot(expr, any_slot_, ReadSlots(o.ref, Values{}), false);
      continue;
    }
    // Python's slice.indices(len).
    const long long n = length->second;
    if (step_b == Bound::kAbsent) step = 1;
    auto clamp = [&](Bound b, long long v, long long absent) {
      if (b == Bound::kAbsent) return absent;
      if (v < 0) v += n;
      if (step > 0) return std::min(std::max(v, 0LL), n);
      return std::min(std::max(v, -1LL), n - 1);
    };
    const long long start = clamp(lo_b, lo, step > 0 ? 0 : n - 1);
    const long long stop = clamp(hi_b, hi, step > 0 ? n : -1);
    int j = 0;
    for (long long i = start; step > 0 ? i < stop : i > stop; i += step, ++j) {
      const Values at = ReadSlots(o.ref, Values{ObjectOf(ObjKind::kConst, -1, "i:" + std::to_string(i))});
      StoreSlot(expr, IndexSlot(static_cast<size_t>(j)), at, false);
    }
  }
  return out;
}

bool Resolver::ContainerRead(int container, const std::string& name, const Args& args, Values* out) {
  const bool dict = IsDictContainer(container);
  if (dict && name == "values") {
    Insert(out, ObjectOf(ObjKind::kContainer, container, ""));  // iterated, it reads every slot
    return true;
  }
  if (name != "pop" && !(dict && name == "get")) return false;
  // d.get(k, default), d.pop(k, default), ls.pop(i): the slot of a constant key, else every slot.
  const Values key = args.positional.empty() ? Values{} : ConstantKeys(args.positional[0]);
  Merge(out, key.size() == 1 ? SlotValues(container, p_.Intern(O(key[0]).name)) : ReadSlots(container, Values{}));
  if (dict && args.positional.size() >= 2) Merge(out, args.positional[1]);
  return true;
}

bool Resolver::ContainerMethod(const Values& receivers, int method, const FlowExpr& call, const Args& args,
                               Values* out) {
  const std::string& name = p_.NameOf(method);
  static const std::unordered_set<std::string> kDictStores = {"update", "setdefault"};
  static const std::unordered_set<std::string> kSequenceStores = {"append", "extend", "insert", "add", "update"};
  bool any = false;
  // A store replaces a slot's value only when the receiver is surely that container (nothing else but its
  // pseudo type): through `x = a if c else b`, x.update(...) may leave a as it was.
  size_t objects = 0;
  for (uint32_t r : receivers) objects += O(r).kind != ObjKind::kPseudo;
  const bool strong = objects == 1 && IsWholeStatement(call);
  for (uint32_t r : receivers) {
    if (O(r).kind != ObjKind::kContainer) continue;
    const int to = O(r).ref;
    if (ContainerRead(to, name, args, out)) {
      any = any || !IsDictContainer(to);  // a list's pop has no pseudo type to report; a dict's get keeps its edge
      continue;
    }
    if (!IsDictContainer(to)) {
      if (!kSequenceStores.count(name) || args.positional.empty()) continue;
      any = true;
      // append(x), add(x), insert(i, x): x; extend(xs), update(xs): the elements of xs; at unknown places.
      const Values& last = args.positional.back();
      StoreSlot(to, any_slot_, name == "extend" || name == "update" ? Iterate(last, call.line) : last, false);
      continue;
    }
    if (!kDictStores.count(name)) continue;
    any = true;
    if (name == "setdefault") {
      // The slot keeps its value when the key is there: old values and the default.
      const Values key = args.positional.empty() ? Values{} : ConstantKeys(args.positional[0]);
      const Values value = args.positional.size() >= 2 ? args.positional[1] : Values{};
      const int slot = key.size() == 1 ? p_.Intern(O(key[0]).name) : any_slot_;
      StoreSlot(to, slot, value, false);
      Merge(out, slot == any_slot_ ? ReadSlots(to, Values{}) : SlotValues(to, slot));
      continue;
    }
    // update: a mapping's slots (a dict literal written in the call always sets its keys), pairs' values at
    // unknown keys, keywords into their slots.
    for (size_t i = 0; i < args.positional.size(); ++i) {
      const int arg = call.kids[1 + i];
      const bool literal = arg >= 0 && p_.exprs[static_cast<size_t>(arg)].tag == 'D' && !args.starred[i];
      for (uint32_t v : args.positional[i]) {
        if (O(v).kind != ObjKind::kContainer) continue;
        if (IsDictContainer(O(v).ref)) {
          CopySlots(O(v).ref, to, strong && literal);
          continue;
        }
        for (uint32_t pair : ReadSlots(O(v).ref, Values{})) {
          if (O(pair).kind == ObjKind::kContainer) {
            StoreSlot(to, any_slot_, ReadSlots(O(pair).ref, Values{ObjectOf(ObjKind::kConst, -1, "i:1")}), false);
          }
        }
      }
    }
    for (const auto& [kw, values] : args.keywords) {
      if (kw != star_star_) {
        StoreSlot(to, p_.Intern("s:" + p_.NameOf(kw)), values, strong);
        continue;
      }
      for (uint32_t v : values) {
        if (O(v).kind == ObjKind::kContainer && IsDictContainer(O(v).ref)) CopySlots(O(v).ref, to, false);
      }
    }
  }
  return any;
}

Values Resolver::DictOfCall(const FlowExpr& call, const Args& args) {
  const int expr = call.call >= 0 ? p_.call_exprs[static_cast<size_t>(call.call)] : -1;
  if (expr < 0) return {};
  made_dicts_.insert(expr);
  const Values self{ObjectOf(ObjKind::kContainer, expr, "")};
  Values ignored;
  // dict(x, k=v) fills a new dict as d.update(x, k=v) would.
  ContainerMethod(self, MethodName("update"), call, args, &ignored);
  Values out = self;
  Insert(&out, ObjectOf(ObjKind::kPseudo, -1, "<**PyDict**>"));
  return out;
}

Values Resolver::DictUnion(const Values& left, const Values& right, const FlowExpr& op, int expr) {
  bool dict_left = false;
  for (uint32_t v : left) dict_left = dict_left || (O(v).kind == ObjKind::kContainer && IsDictContainer(O(v).ref));
  if (!dict_left) return {};
  made_dicts_.insert(expr);
  // The right operand's keys win: written after the left's, strongly when it is a literal of the expression.
  std::map<int, Values> slots;
  auto gather = [&](const Values& side, bool replace) {
    std::map<int, Values> mine;
    for (uint32_t v : side) {
      if (O(v).kind != ObjKind::kContainer || !IsDictContainer(O(v).ref)) continue;
      Depend(Var(ContainerScope(O(v).ref), slots_name_));
      auto it = container_slots_.find(O(v).ref);
      if (it == container_slots_.end()) continue;
      const std::vector<int> names = it->second;
      for (int slot : names) Merge(&mine[slot], SlotValues(O(v).ref, slot));
    }
    for (auto& [slot, values] : mine) {
      if (replace && slot != any_slot_) slots[slot].clear();
      Merge(&slots[slot], values);
    }
  };
  gather(left, false);
  const int r = op.kids.size() > 1 ? op.kids[1] : -1;
  gather(right, r >= 0 && p_.exprs[static_cast<size_t>(r)].tag == 'D');
  for (const auto& [slot, values] : slots) WriteSlot(expr, slot, values);
  Values out{ObjectOf(ObjKind::kContainer, expr, "")};
  Insert(&out, ObjectOf(ObjKind::kPseudo, -1, "<**PyDict**>"));
  return out;
}

void Resolver::Bind(int var, const Values& values) {
  AddValues(var, values);
  if (cur_statement_ < 0 || untracked_.count(var)) return;
  auto it = definition_values_.find(cur_statement_);
  if (it == definition_values_.end()) return;
  Values& slot = it->second;
  const size_t before = slot.size();
  Merge(&slot, values);
  if (slot.size() > options_.max_values) {
    Saturate(var);
    return;
  }
  if (slot.size() != before) {
    for (int reader : readers_[static_cast<size_t>(var)]) dirty_[static_cast<size_t>(reader)] = 1;
  }
}

const Values* Resolver::ReadInScope(int var) {
  static const Values kNothing;
  if (saturated_[static_cast<size_t>(var)]) return &kNothing;
  if (untracked_.count(var)) return nullptr;
  auto it = definitions_.find(var);
  if (it == definitions_.end()) return nullptr;
  const Values* last = nullptr;
  for (const auto& [line, statement] : it->second) {
    if (line >= cur_line_) break;
    last = &definition_values_[statement];
  }
  static const Values kEmpty;
  return last != nullptr ? last : &kEmpty;
}

void Resolver::FindStraightDefinitions() {
  std::vector<char> star_modules(p_.modules.size(), 0);
  auto untrack_names = [&](int expr, int scope, auto&& self) -> void {
    if (expr < 0) return;
    const FlowExpr& e = p_.exprs[static_cast<size_t>(expr)];
    if (e.tag == 'N') untracked_.insert(ResolveNameVar(scope, e.name));
    if (e.tag == 'X' && !e.kids.empty()) {
      // `d[k] = v` changes what `d` holds: reads of d can no longer be ordered by line.
      int root = e.kids[0];
      while (root >= 0 && p_.exprs[static_cast<size_t>(root)].tag == 'X')
        root = p_.exprs[static_cast<size_t>(root)].kids[0];
      self(root, scope, self);
    }
    if (e.tag == 'L' || e.tag == 'S') {
      for (int k : e.kids) self(k, scope, self);
    }
  };
  for (size_t i = 0; i < p_.statements.size(); ++i) {
    const FlowStatement& st = p_.statements[i];
    int var = -1;
    bool straight = st.straight;
    if (st.kind == 'a' && st.a >= 0 && p_.exprs[static_cast<size_t>(st.a)].tag == 'X') {
      untrack_names(st.a, st.scope, untrack_names);
      continue;
    }
    if (st.kind == 'a' && st.a >= 0 && p_.exprs[static_cast<size_t>(st.a)].tag == 'N') {
      var = ResolveNameVar(st.scope, p_.exprs[static_cast<size_t>(st.a)].name);
    } else if (st.kind == 'd') {
      var = ResolveNameVar(st.scope, p_.scopes[static_cast<size_t>(st.a)].name);
      straight = straight && p_.scopes[static_cast<size_t>(st.a)].setter_of == -1;
    } else if (st.kind == 'a' || st.kind == 't' || st.kind == 'f') {
      untrack_names(st.a, st.scope, untrack_names);
      continue;
    } else if (st.kind == 'w') {
      untrack_names(st.b, st.scope, untrack_names);
      continue;
    } else if (st.kind == 'i') {
      untracked_.insert(ResolveNameVar(st.scope, st.a));
      continue;
    } else if (st.kind == 'x') {
      star_modules[static_cast<size_t>(p_.scopes[static_cast<size_t>(st.scope)].module)] = 1;
      continue;
    } else {
      continue;
    }
    if (!straight || var_scope_[static_cast<size_t>(var)] != st.scope) {
      untracked_.insert(var);
      continue;
    }
    definitions_[var].emplace_back(st.line, static_cast<int>(i));
    definition_values_[static_cast<int>(i)];
  }
  for (size_t s = 0; s < p_.scopes.size(); ++s) {
    const FlowScope& scope = p_.scopes[s];
    for (const FlowParam& prm : scope.params) untracked_.insert(Var(static_cast<int>(s), prm.name));
    for (int g : scope.global_names) untracked_.insert(Var(ModuleScopeOf(static_cast<int>(s)), g));
  }
  for (size_t v = 0; v < var_scope_.size(); ++v) {
    if (var_scope_[v] < 0) continue;
    const FlowScope& scope = p_.scopes[static_cast<size_t>(var_scope_[v])];
    if (scope.kind == 'm' && star_modules[static_cast<size_t>(scope.module)]) untracked_.insert(static_cast<int>(v));
  }
  for (auto& [var, defs] : definitions_) std::stable_sort(defs.begin(), defs.end());
}

void Resolver::Run(CallGraphStats* stats) {
  FindStraightDefinitions();
  dirty_.assign(p_.statements.size(), 1);
  return_known_.assign(p_.statements.size(), 0);
  stats->statements = static_cast<int64_t>(p_.statements.size());
  // Test files use the code; the code does not use them. The code is swept to its fixpoint first, so that
  // the statements of tests run once it is known instead of once per change on the way (the result is
  // the same fixpoint).
  std::vector<char> in_test(p_.modules.size());
  for (size_t m = 0; m < p_.modules.size(); ++m) in_test[m] = IsTestPath(p_.modules[m].path) ? 1 : 0;
  std::vector<char>& late = in_test_statement_;
  late.assign(p_.statements.size(), 0);
  for (size_t i = 0; i < p_.statements.size(); ++i) {
    late[i] = in_test[static_cast<size_t>(p_.scopes[static_cast<size_t>(p_.statements[i].scope)].module)];
  }
  int round = 0;
  for (const bool all : {false, true}) {
    for (; round < options_.max_rounds; ++round) {
      bool ran = false;
      for (size_t i = 0; i < p_.statements.size(); ++i) {
        if (!dirty_[i] || (!all && late[i])) continue;
        dirty_[i] = 0;
        ran = true;
        ++stats->evaluations;
        cur_statement_ = static_cast<int>(i);
        Statement(p_.statements[i]);
      }
      cur_statement_ = -1;
      stats->rounds = round + 1;
      if (!ran) break;
    }
  }
  if (round >= options_.max_rounds) stats->capped = true;
}

// The values a handler's type expression names: names, attributes of modules, classes and external names,
// tuples and the tuples a name holds. Reads only: no call is made, no edge is added.
Values Resolver::CaughtValues(int expr, int depth) {
  if (expr < 0 || depth > 8) return {};
  const FlowExpr& e = p_.exprs[static_cast<size_t>(expr)];
  Values out;
  if (e.tag == 'N') {
    out = Eval(expr);
  } else if (e.tag == 'A') {
    for (uint32_t obj : CaughtValues(e.kids[0], depth + 1)) {
      const ObjKind kind = O(obj).kind;
      if (kind != ObjKind::kModule && kind != ObjKind::kClass && kind != ObjKind::kExternal) continue;
      for (const Found& f : LookupAttr(obj, e.name)) Insert(&out, f.value);
    }
  } else if (e.tag == 'L') {
    for (int k : e.kids) Merge(&out, CaughtValues(k, depth + 1));
  }
  Values items;
  for (uint32_t v : out) {
    if (O(v).kind == ObjKind::kContainer) Merge(&items, ReadSlots(O(v).ref, {}));
  }
  Merge(&out, items);
  return out;
}

// The clause of catch record C, or false when it takes nothing known (a catching clause whose types resolve to
// nothing; a `with` that is not contextlib.suppress).
bool Resolver::CaughtClause(const FlowCatch& c, CatchClause* clause) {
  cur_scope_ = c.scope;
  cur_line_ = c.line;
  if (c.form == 's') {
    bool suppress = false;
    for (uint32_t v : CaughtValues(c.callee, 0)) {
      suppress = suppress || (O(v).kind == ObjKind::kExternal && O(v).name == "contextlib.suppress");
    }
    if (!suppress) return false;
  }
  clause->reraises = c.form == 'r';
  clause->all = c.form != 's' && c.types.empty();
  for (int t : c.types) {
    for (uint32_t v : CaughtValues(t, 0)) {
      const Obj& o = O(v);
      if (o.kind == ObjKind::kClass) {
        const FlowScope& cls = p_.scopes[static_cast<size_t>(o.ref)];
        clause->classes.emplace_back(p_.modules[static_cast<size_t>(cls.module)].path, cls.qualname);
      } else if (o.kind == ObjKind::kBuiltin && o.name == "BaseException") {
        clause->all = true;
      } else if (o.kind == ObjKind::kBuiltin && IsBuiltinExceptionName(o.name)) {
        clause->names.push_back("builtins." + o.name);
      } else if (o.kind == ObjKind::kExternal) {
        clause->names.push_back(o.name);
      }
    }
  }
  const bool known = clause->all || !clause->names.empty() || !clause->classes.empty();
  // A re-raising clause whose types are unknown may take any raise and pass it on: the clauses after it are
  // not trusted to end it.
  if (!known && clause->reraises) clause->all = true;
  std::sort(clause->names.begin(), clause->names.end());
  clause->names.erase(std::unique(clause->names.begin(), clause->names.end()), clause->names.end());
  std::sort(clause->classes.begin(), clause->classes.end());
  clause->classes.erase(std::unique(clause->classes.begin(), clause->classes.end()), clause->classes.end());
  return known || clause->reraises;
}

std::unordered_map<uint32_t, std::vector<Resolver::CaughtRange>> Resolver::CaughtRanges(
    const std::vector<uint32_t>& node_of_scope) {
  std::unordered_map<uint32_t, std::vector<CaughtRange>> out;
  cur_statement_ = -1;
  // The clauses of one `try` share the scope and the body's lines, and come in their order.
  std::map<std::tuple<uint32_t, int, int>, size_t> range_of;
  for (const FlowCatch& c : p_.catches) {
    const uint32_t node = node_of_scope[static_cast<size_t>(CallerOf(c.scope))];
    CatchClause clause;
    if (node == UINT32_MAX || !CaughtClause(c, &clause)) continue;
    std::vector<CaughtRange>& ranges = out[node];
    auto [it, inserted] = range_of.try_emplace({node, c.first, c.last}, ranges.size());
    if (inserted) ranges.push_back({c.first, c.last, {}});
    ranges[it->second].clauses.push_back(std::move(clause));
  }
  // A `try` whose clauses all re-raise ends nothing.
  for (auto& [node, ranges] : out) {
    ranges.erase(std::remove_if(ranges.begin(), ranges.end(),
                                [](const CaughtRange& r) {
                                  return std::all_of(r.clauses.begin(), r.clauses.end(),
                                                     [](const CatchClause& c) { return c.reraises; });
                                }),
                 ranges.end());
  }
  return out;
}

bool Resolver::SuperCall(const FlowExpr& attribute) const {
  if (attribute.kids.empty() || attribute.kids[0] < 0) return false;
  const FlowExpr& receiver = p_.exprs[static_cast<size_t>(attribute.kids[0])];
  if (receiver.tag != 'C' || receiver.kids.empty() || receiver.kids[0] < 0) return false;
  const FlowExpr& callee = p_.exprs[static_cast<size_t>(receiver.kids[0])];
  return callee.tag == 'N' && p_.NameOf(callee.name) == "super";
}

void Resolver::PossibleTargets(std::unordered_map<int, std::vector<int>>* few,
                               std::unordered_map<int, std::vector<int>>* all) const {
  std::unordered_map<int, std::vector<int>> defs;  // method name -> defining function scopes
  for (size_t i = 0; i < p_.scopes.size(); ++i) {
    const FlowScope& s = p_.scopes[i];
    if (s.kind == 'f' && s.parent >= 0 && p_.scopes[static_cast<size_t>(s.parent)].kind == 'c') {
      defs[s.name].push_back(static_cast<int>(i));
    }
  }
  // Per function scope: whether its body implements something, a statement other than a docstring, `...`
  // or a raise of NotImplementedError (`pass` writes no record).
  std::vector<char> implements(p_.scopes.size(), 0);
  const int not_implemented = p_.FindName("NotImplementedError");
  for (const FlowStatement& st : p_.statements) {
    if (st.scope < 0) continue;
    const FlowExpr* x = st.a >= 0 ? &p_.exprs[static_cast<size_t>(st.a)] : nullptr;
    bool declares = false;
    if (x != nullptr && st.kind == 'z') {
      if (x->tag == 'C' && !x->kids.empty() && x->kids[0] >= 0) x = &p_.exprs[static_cast<size_t>(x->kids[0])];
      declares = not_implemented >= 0 && x->tag == 'N' && x->name == not_implemented;
    } else if (x != nullptr && st.kind == 'e') {
      declares = x->tag == 'Q' || x->tag == 'I' || x->tag == 'K' || x->tag == 'V';
    }
    if (!declares) implements[static_cast<size_t>(st.scope)] = 1;
  }
  for (const auto& [name, scopes] : defs) {
    if (IsMethodOfABuiltinType(p_.NameOf(name))) continue;
    std::vector<int> kept;
    for (int scope : scopes) {
      if (implements[static_cast<size_t>(scope)]) kept.push_back(scope);
    }
    if (kept.empty()) continue;
    if (scopes.size() <= options_.max_possible) few->emplace(name, kept);
    all->emplace(name, std::move(kept));
  }
}

bool Resolver::ReturnedByPossible(int fscope, Values* out) {
  if (yielding_.count(fscope) != 0) return false;
  const FlowScope& f = p_.scopes[static_cast<size_t>(fscope)];
  if (returns_of_.empty()) {
    for (size_t i = 0; i < p_.statements.size(); ++i) {
      if (p_.statements[i].kind == 'r') returns_of_[CallerOf(p_.statements[i].scope)].push_back(static_cast<int>(i));
    }
  }
  const int receiver = f.is_static || f.params.empty() || f.params[0].kind != 'n' ? -1 : f.params[0].name;
  bool other = false;     // a return of some other value: the function's return variable holds it
  bool declared = false;  // a return of a value the graph does not know: the annotation's class stands for it
  for (int i : returns_of_[fscope]) {
    const FlowStatement& st = p_.statements[static_cast<size_t>(i)];
    const FlowExpr* x = st.a >= 0 ? &p_.exprs[static_cast<size_t>(st.a)] : nullptr;
    if (x == nullptr || x->tag == 'V') continue;  // `return`, `return None`
    if (x->tag == 'N' && receiver >= 0 && x->name == receiver) {
      // The receiver: an instance of the class or of a subclass that inherits this method (one that
      // overrides it returns what its own method returns).
      std::vector<int> classes{f.parent};
      for (size_t k = 0; k < classes.size() && classes.size() <= 64; ++k) {
        for (int sub : Subclasses(classes[k])) {
          const int var = FirstInMro(sub, f.name, false);
          if (var >= 0 && var_scope_[static_cast<size_t>(var)] == f.parent &&
              std::find(classes.begin(), classes.end(), sub) == classes.end())
            classes.push_back(sub);
        }
      }
      for (int cls : classes) Insert(out, ObjectOf(f.is_classmethod ? ObjKind::kClass : ObjKind::kInstance, cls, ""));
      continue;
    }
    other = true;
    if (return_known_[static_cast<size_t>(i)] || declared) continue;
    const Values annotated = DeclaredReturn(f);
    if (annotated.empty()) return false;
    Merge(out, annotated);
    declared = true;
  }
  if (other) Merge(out, ReturnOf(fscope));
  return true;
}

Values Resolver::DeclaredReturn(const FlowScope& f) {
  if (f.return_annotation < 0) return {};
  int head = f.return_annotation;
  const FlowExpr* x = &p_.exprs[static_cast<size_t>(head)];
  if (x->tag == 'M' && !x->kids.empty() && x->kids[0] >= 0) {  // a generic `C[T]`: an instance of C
    head = x->kids[0];
    x = &p_.exprs[static_cast<size_t>(head)];
  }
  const FlowExpr* root = x;
  while (root->tag == 'A' && !root->kids.empty() && root->kids[0] >= 0)
    root = &p_.exprs[static_cast<size_t>(root->kids[0])];
  if (root->tag != 'N' && root->tag != 'Q') return {};  // names only: evaluating them calls nothing
  const int saved_line = cur_line_;
  cur_line_ = INT_MAX;  // read lazily (a string or `from __future__ import annotations`): the module's last binding
  Values out = InstancesOf(head);
  cur_line_ = saved_line;
  return out;
}

bool Resolver::ArgumentsFit(const FlowExpr& call, int fscope) const {
  const FlowScope& f = p_.scopes[static_cast<size_t>(fscope)];
  if (f.decorators.size() > (f.is_static || f.is_classmethod ? 1u : 0u)) return true;
  for (int i = 0; i < call.npos; ++i) {
    const int k = call.kids[static_cast<size_t>(1 + i)];
    if (k < 0 || p_.exprs[static_cast<size_t>(k)].tag == 'S') return true;
  }
  for (int name : call.kw) {
    if (name == star_star_) return true;
  }
  auto fits = [&](size_t first) {
    size_t slots = 0;  // positional parameters (keyword-only ones after a bare `*` count too: fewer misfits)
    bool var_positional = false, var_keyword = false;
    for (size_t i = first; i < f.params.size(); ++i) {
      if (f.params[i].kind == '*') var_positional = true;
      if (f.params[i].kind == 'k') var_keyword = true;
      if (f.params[i].kind == 'n' && !var_positional) ++slots;
    }
    if (static_cast<size_t>(call.npos) > slots && !var_positional) return false;
    for (int name : call.kw) {
      bool known = var_keyword;
      for (size_t i = first; i < f.params.size() && !known; ++i)
        known = f.params[i].kind == 'n' && f.params[i].name == name;
      if (!known) return false;
    }
    size_t position = 0;
    for (size_t i = first; i < f.params.size(); ++i) {
      const FlowParam& prm = f.params[i];
      if (prm.kind != 'n') continue;
      const bool by_position = position++ < static_cast<size_t>(call.npos);
      const bool by_keyword = std::find(call.kw.begin(), call.kw.end(), prm.name) != call.kw.end();
      if (!by_position && !by_keyword && prm.default_value < 0) return false;
    }
    return true;
  };
  return fits(f.is_static ? 0 : 1) || (!f.is_static && fits(0));
}

bool Resolver::PossibleOnReturned(const FlowExpr& attribute,
                                  const std::unordered_map<int, std::vector<int>>& implementers,
                                  std::vector<int>* targets) {
  if (attribute.kids.empty() || attribute.kids[0] < 0) return false;
  const FlowExpr* r = &p_.exprs[static_cast<size_t>(attribute.kids[0])];
  if (r->tag == 'W' && !r->kids.empty() && r->kids[0] >= 0) r = &p_.exprs[static_cast<size_t>(r->kids[0])];
  if (r->tag != 'C' || r->call < 0 || site_resolved_[static_cast<size_t>(r->call)]) return false;
  const FlowExpr* rc = r->kids.empty() || r->kids[0] < 0 ? nullptr : &p_.exprs[static_cast<size_t>(r->kids[0])];
  if (rc == nullptr || rc->tag != 'A' || SuperCall(*rc)) return false;
  auto it = implementers.find(rc->name);
  if (it == implementers.end()) return false;
  Values returned;
  for (int m : it->second) {
    if (!ReturnedByPossible(m, &returned)) return false;
  }
  if (returned.empty()) return false;
  for (uint32_t v : returned) {
    const ObjKind kind = O(v).kind;
    if (kind != ObjKind::kInstance && kind != ObjKind::kClass) return false;
  }
  // The methods found on those values, among the project's that implement the name (an abstract one is a
  // class saying its subclasses do; a subclass that inherits the returning method is among the values).
  auto implementing = implementers.find(attribute.name);
  for (uint32_t v : returned) {
    for (const Found& found : LookupAttr(v, attribute.name)) {
      const Obj& o = O(found.value);
      if (o.kind == ObjKind::kExternal) continue;  // an external base's method: no project method
      if (o.kind != ObjKind::kFunction) return false;
      if (implementing == implementers.end() ||
          std::find(implementing->second.begin(), implementing->second.end(), o.ref) == implementing->second.end())
        continue;
      if (std::find(targets->begin(), targets->end(), o.ref) == targets->end()) targets->push_back(o.ref);
    }
  }
  std::sort(targets->begin(), targets->end());
  return true;
}

// An edge of Output packed in two words whose order is that of the (from, line, to, kind) tuples: the sort of
// SQLAlchemy's ~400k edges compared tuples field by field (half of Output's instructions; docs/benchmarks.md,
// ninth round).
struct OutputEdge {
  uint64_t high;  // from, then line with its sign bit flipped (so that unsigned order is the int order)
  uint64_t low;   // to, then kind
  OutputEdge(uint32_t from, int line, uint32_t to, uint8_t kind)
      : high(uint64_t{from} << 32 | (static_cast<uint32_t>(line) ^ 0x80000000u)), low(uint64_t{to} << 8 | kind) {}
  uint32_t from() const { return static_cast<uint32_t>(high >> 32); }
  int line() const { return static_cast<int>(static_cast<uint32_t>(high) ^ 0x80000000u); }
  uint32_t to() const { return static_cast<uint32_t>(low >> 8); }
  uint8_t kind() const { return static_cast<uint8_t>(low); }
  auto operator<=>(const OutputEdge&) const = default;
};

void Resolver::Output(CallGraph* graph) {
  std::vector<uint32_t>& node_of_scope = node_of_scope_;
  node_of_scope.assign(p_.scopes.size(), UINT32_MAX);
  for (size_t i = 0; i < p_.scopes.size(); ++i) {
    const FlowScope& s = p_.scopes[i];
    if (s.kind == 'c') continue;
    CallGraphNode node;
    node.name = s.full_name;
    node.kind = s.kind == 'm' ? "module" : s.kind == 'l' ? "lambda" : "function";
    node.path = p_.modules[static_cast<size_t>(s.module)].path;
    node.qualname = s.qualname;
    node.line = s.line;
    node.end_line = s.end_line;
    node_of_scope[i] = static_cast<uint32_t>(graph->nodes.size());
    graph->nodes.push_back(std::move(node));
  }
  // Each external or builtin object's node, made at its first edge: most edges go to a few of them, and a
  // lookup by name (with the name made for it) was a third of Output's instructions.
  node_of_object_.assign(objects_.size(), UINT32_MAX);
  auto node_of = [&](uint32_t obj) -> uint32_t {
    const Obj& o = O(obj);
    if (o.kind == ObjKind::kFunction) return node_of_scope[static_cast<size_t>(o.ref)];
    if (node_of_object_[obj] == UINT32_MAX) {
      node_of_object_[obj] = static_cast<uint32_t>(graph->nodes.size());
      const bool builtin = o.kind == ObjKind::kBuiltin;
      graph->nodes.push_back(
          {builtin ? "<builtin>." + o.name : o.name, builtin ? "builtin" : "external", "", "", 0, 0});
    }
    return node_of_object_[obj];
  };
  // Kinds by rank, in the order of their names (the edges sort as if by name).
  static const char* const kKinds[] = {"argument", "call", "callback", "implicit", "possible", "registered"};
  std::vector<OutputEdge> edges;
  edges.reserve(edges_.size());
  for (size_t i = 0; i < edges_.size(); ++i) {
    if (!edge_used_[i]) continue;
    const EdgeKey& edge = edges_[i];
    const uint32_t to = node_of(edge.callee);
    const uint32_t from = node_of_scope[static_cast<size_t>(edge.caller)];
    if (to == UINT32_MAX || from == UINT32_MAX) continue;
    edges.emplace_back(from, edge.line, to, EdgeKindRank(edge.kind));
  }
  // Unresolved calls: "possible" edges to the project's methods of that name when there are few.
  std::unordered_map<int, std::vector<int>> methods_by_name, implementers;
  PossibleTargets(&methods_by_name, &implementers);
  for (size_t site = 0; site < p_.call_exprs.size(); ++site) {
    if (site_resolved_[site]) continue;
    const FlowExpr& e = p_.exprs[static_cast<size_t>(p_.call_exprs[site])];
    const int callee = e.kids.empty() ? -1 : e.kids[0];
    const FlowExpr* c = callee >= 0 ? &p_.exprs[static_cast<size_t>(callee)] : nullptr;
    const uint32_t from = node_of_scope[static_cast<size_t>(CallerOf(e.scope))];
    if (from == UINT32_MAX) continue;
    std::string name = c != nullptr && (c->tag == 'A' || c->tag == 'N') ? p_.NameOf(c->name) : std::string();
    if (c != nullptr && c->tag == 'A' && !SuperCall(*c)) {
      std::vector<int> targets;
      bool found = PossibleOnReturned(*c, implementers, &targets);
      if (!found) {
        auto it = methods_by_name.find(c->name);
        found = it != methods_by_name.end();
        if (found) targets = it->second;
      }
      // A method whose parameters the call's arguments cannot bind is not what it calls (a TypeError).
      std::erase_if(targets, [&](int m) { return !ArgumentsFit(e, m); });
      for (int m : targets) edges.emplace_back(from, e.line, node_of_scope[static_cast<size_t>(m)], 4);
      if (found && !targets.empty()) continue;
    }
    graph->unresolved.push_back({from, name, e.line});
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  graph->edges.reserve(edges.size());
  // What the `try` blocks around each call catch (docs/callgraph.md, "Caught exceptions"): each set once.
  const auto ranges = CaughtRanges(node_of_scope);
  std::map<CatchSet, uint32_t> set_ids;
  set_ids.emplace(CatchSet{}, 0);
  graph->catch_sets.assign(1, CatchSet{});
  for (const OutputEdge& edge : edges) {
    const uint32_t from = edge.from(), to = edge.to();
    const int line = edge.line();
    uint32_t catches = 0;
    if (auto it = ranges.find(from); it != ranges.end()) {
      std::vector<const CaughtRange*> around;
      for (const CaughtRange& r : it->second) {
        if (line >= r.first && line <= r.last) around.push_back(&r);
      }
      // Innermost first: a nested `try` body lies within the outer one's.
      std::sort(around.begin(), around.end(), [](const CaughtRange* a, const CaughtRange* b) {
        return std::make_pair(a->last - a->first, -a->first) < std::make_pair(b->last - b->first, -b->first);
      });
      CatchSet caught;
      for (const CaughtRange* r : around) caught.tries.push_back(r->clauses);
      auto [id, inserted] = set_ids.emplace(std::move(caught), static_cast<uint32_t>(graph->catch_sets.size()));
      if (inserted) graph->catch_sets.push_back(id->first);
      catches = id->second;
    }
    graph->edges.push_back({from, to, line, kKinds[edge.kind()], /*parameter=*/-1, catches});
  }
}

const FlowExpr* Resolver::ChainRoot(const FlowExpr& call) const {
  if (call.kids.empty() || call.kids[0] < 0) return nullptr;
  const FlowExpr* c = &p_.exprs[static_cast<size_t>(call.kids[0])];
  for (int depth = 0; c->tag == 'A'; ++depth) {
    if (depth >= 3 || c->kids.empty() || c->kids[0] < 0) return nullptr;
    c = &p_.exprs[static_cast<size_t>(c->kids[0])];
  }
  return c->tag == 'N' ? c : nullptr;
}

bool Resolver::MethodCallCannotGive(const FlowExpr& call, uint32_t g) {
  if (call.kids.empty() || call.kids[0] < 0) return false;
  const FlowExpr& callee = p_.exprs[static_cast<size_t>(call.kids[0])];
  const Obj o = O(g);
  if (callee.tag != 'A' || o.kind != ObjKind::kFunction) return false;
  if (p_.scopes[static_cast<size_t>(o.ref)].name == callee.name) return false;
  if (!bound_attribute_names_ready_) {
    bound_attribute_names_ready_ = true;
    for (const FlowScope& s : p_.scopes) {
      if (s.is_property) bound_attribute_names_.insert(s.name);
    }
    for (const FlowStatement& st : p_.statements) {
      const bool in_class = p_.scopes[static_cast<size_t>(st.scope)].kind == 'c';
      if (st.kind == 'i' && in_class) bound_attribute_names_.insert(st.a);
      ForEachTarget(p_, st, [&](const FlowExpr& e) {
        if (e.tag == 'A' || (e.tag == 'N' && in_class)) bound_attribute_names_.insert(e.name);
      });
    }
  }
  return bound_attribute_names_.count(callee.name) == 0;
}

void Resolver::FindParameterCalls() {
  checked_params_.assign(p_.scopes.size(), {});
  // Names a statement of their scope rebinds (an assignment, an annotated target, `for`, `with ... as`): such
  // a parameter holds more than its callers pass.
  std::unordered_set<uint64_t> rebound;
  auto key = [](int scope, int name) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(scope)) << 32) | static_cast<uint32_t>(name);
  };
  for (const FlowStatement& st : p_.statements) {
    ForEachTarget(p_, st, [&](const FlowExpr& e) {
      if (e.tag == 'N') rebound.insert(key(st.scope, e.name));
    });
  }
  for (size_t site = 0; site < p_.call_exprs.size(); ++site) {
    const FlowExpr* root = ChainRoot(p_.exprs[static_cast<size_t>(p_.call_exprs[site])]);
    if (root == nullptr || root->scope < 0 || rebound.count(key(root->scope, root->name))) continue;
    const FlowScope& s = p_.scopes[static_cast<size_t>(root->scope)];
    if (s.kind != 'f' && s.kind != 'l') continue;
    const bool method =
        s.kind == 'f' && s.parent >= 0 && p_.scopes[static_cast<size_t>(s.parent)].kind == 'c' && !s.is_static;
    for (size_t j = 0; j < s.params.size(); ++j) {
      if (s.params[j].name != root->name) continue;
      // Not `self` or `cls` (their values are the class's by construction), nor `*args` or `**kwargs`.
      if (s.params[j].kind != 'n' || (j == 0 && method) || j > 255 || root->scope >= (1 << 24)) break;
      parameter_calls_.push_back({static_cast<int>(site), root->scope, static_cast<int>(j)});
      std::vector<int>& checked = checked_params_[static_cast<size_t>(root->scope)];
      if (std::find(checked.begin(), checked.end(), static_cast<int>(j)) == checked.end()) {
        checked.push_back(static_cast<int>(j));
      }
      break;
    }
  }
}

void Resolver::RecordArguments(int fscope, size_t first, const Args& args) {
  const FlowScope& f = p_.scopes[static_cast<size_t>(fscope)];
  for (const int j : checked_params_[static_cast<size_t>(fscope)]) {
    ArgumentRecord& rec = argument_records_[ArgumentKey(call_site_, fscope, j)];
    if (rec.unknown) continue;
    const size_t param = static_cast<size_t>(j);
    const Values* bound = nullptr;
    bool unknown = param < first;  // the slot of a bound receiver
    size_t next = first;
    for (size_t i = 0; i < args.positional.size() && !unknown && bound == nullptr; ++i) {
      if (args.starred[i]) {
        unknown = true;  // `f(*xs)` may fill it
        break;
      }
      while (next < f.params.size() && f.params[next].kind == 'k') ++next;
      if (next >= f.params.size()) break;
      if (next == param) {
        bound = &args.positional[i];
      } else if (f.params[next].kind != '*') {
        ++next;
      }
    }
    for (const auto& [name, values] : args.keywords) {
      if (unknown || bound != nullptr) break;
      if (name == f.params[param].name) bound = &values;
    }
    for (const auto& kw : args.keywords) {
      if (bound == nullptr && kw.first == star_star_) unknown = true;  // `f(**options)` may fill it
    }
    if (!unknown && bound == nullptr && f.params[param].default_value < 0) unknown = true;
    if (unknown) {
      rec.unknown = true;
      Values().swap(rec.values);
    } else if (bound != nullptr) {
      Merge(&rec.values, *bound);
    } else {
      rec.by_default = true;
    }
  }
}

Values Resolver::CalleesUnder(const FlowExpr& call, const Values& root) {
  std::vector<int> attrs;
  int method = -1;
  const FlowExpr* c = &p_.exprs[static_cast<size_t>(call.kids[0])];
  if (c->tag == 'A') {
    method = c->name;
    c = &p_.exprs[static_cast<size_t>(c->kids[0])];
  }
  for (; c->tag == 'A'; c = &p_.exprs[static_cast<size_t>(c->kids[0])]) attrs.push_back(c->name);
  Values objs = root;
  for (auto attr = attrs.rbegin(); attr != attrs.rend(); ++attr) {
    Values next;
    for (const uint32_t obj : objs) {
      const bool instance = O(obj).kind == ObjKind::kInstance;
      for (const Found& f : LookupAttr(obj, *attr)) {
        const Obj o = O(f.value);
        if (instance && o.kind == ObjKind::kFunction && p_.scopes[static_cast<size_t>(o.ref)].is_property) {
          Merge(&next, ReturnOf(o.ref));  // reading a property gives what its getter returns
        } else {
          Insert(&next, f.value);
        }
      }
    }
    objs.swap(next);
  }
  Values callees;
  if (method < 0) {
    callees = objs;
  } else {
    for (const uint32_t obj : objs) {
      for (const Found& f : LookupAttr(obj, method)) Insert(&callees, f.value);
    }
  }
  Values out;
  for (const uint32_t v : callees) {
    const Obj o = O(v);
    if (o.kind == ObjKind::kFunction || o.kind == ObjKind::kExternal) {
      Insert(&out, v);
    } else if (o.kind == ObjKind::kClass) {
      const uint32_t instance = ObjectOf(ObjKind::kInstance, o.ref, "");
      for (const char* ctor : {"__new__", "__init__"}) {
        for (const Found& f : LookupInClass(o.ref, MethodName(ctor), false, instance, true, false)) {
          const ObjKind kind = O(f.value).kind;
          if (kind == ObjKind::kFunction || (kind == ObjKind::kExternal && std::string(ctor) == "__init__")) {
            Insert(&out, f.value);
          }
        }
      }
    } else if (o.kind == ObjKind::kInstance) {
      for (const Found& f : LookupAttr(v, MethodName("__call__"))) {
        if (O(f.value).kind == ObjKind::kFunction) Insert(&out, f.value);
      }
    }
  }
  return out;
}

void Resolver::CheckParameterCalls(CallGraph* graph) {
  if (parameter_calls_.empty()) return;
  cur_statement_ = -1;
  // Every call of the lines that hold a checked call: another call of the line may give the same callee.
  std::unordered_map<uint64_t, std::vector<int>> sites_of_line;
  auto line_key = [](int scope, int line) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(scope)) << 32) | static_cast<uint32_t>(line);
  };
  for (const ParameterCall& pc : parameter_calls_) sites_of_line[line_key(pc.fscope, CallOfSite(pc.site).line)];
  for (size_t site = 0; site < p_.call_exprs.size(); ++site) {
    const FlowExpr& e = CallOfSite(static_cast<int>(site));
    if (e.scope < 0) continue;
    auto it = sites_of_line.find(line_key(CallerOf(e.scope), e.line));
    if (it != sites_of_line.end()) it->second.push_back(static_cast<int>(site));
  }
  // Per checked call: the callees it gives through the parameter that no other call of its line gives, and
  // their edges (marked).
  std::map<std::pair<int, int>, std::vector<Marked>> by_param;  // (function scope, parameter) -> marked
  for (size_t i = 0; i < parameter_calls_.size(); ++i) {
    const ParameterCall& pc = parameter_calls_[i];
    const FlowExpr& call = CallOfSite(pc.site);
    const FlowScope& f = p_.scopes[static_cast<size_t>(pc.fscope)];
    const int var = Var(pc.fscope, f.params[static_cast<size_t>(pc.param)].name);
    const uint32_t from = node_of_scope_[static_cast<size_t>(pc.fscope)];
    if (from == UINT32_MAX) continue;
    const Values callees = CalleesUnder(call, var_values_[static_cast<size_t>(var)]);
    // What the parameter's annotation declares (`session: Session`) is no value merged from other callers:
    // its callees are what any caller, the user included, passes.
    const int annotation = f.params[static_cast<size_t>(pc.param)].annotation;
    const Values declared = annotation >= 0 ? CalleesUnder(call, InstancesOf(annotation)) : Values();
    for (const uint32_t g : callees) {
      if (std::binary_search(declared.begin(), declared.end(), g)) continue;
      bool other = false;
      for (const int site : sites_of_line[line_key(pc.fscope, call.line)]) {
        if (site == pc.site) continue;
        const FlowExpr& c2 = CallOfSite(site);
        const FlowExpr* root = ChainRoot(c2);
        if (root == nullptr) {
          // A callee that is no chain of names (`make()(x)`, `super().m()`) may be anything, unless it is a
          // method named otherwise called on another value (`fn(x).splitlines()` beside `fn(x)`).
          if ((other = !MethodCallCannotGive(c2, g))) break;
          continue;
        }
        const Values gives = CalleesUnder(c2, Eval(static_cast<int>(root - p_.exprs.data())));
        if ((other = std::binary_search(gives.begin(), gives.end(), g))) break;
      }
      const uint32_t to = NodeOfObject(g);
      if (other || to == UINT32_MAX) continue;
      Marked m{i, g, EdgesAt(*graph, from, call.line, to)};
      if (m.edges.empty()) continue;
      for (const uint32_t k : m.edges) graph->edges[k].parameter = pc.param;
      by_param[{pc.fscope, pc.param}].push_back(std::move(m));
    }
  }
  if (!by_param.empty()) CheckArguments(graph, by_param);
}

void Resolver::CheckArguments(CallGraph* graph, const std::map<std::pair<int, int>, std::vector<Marked>>& by_param) {
  // What each call into a checked function passes for the parameter, merged per edge (the calls of one line).
  struct Passed {
    Values values;
    bool unknown = false, by_default = false;
  };
  std::map<std::tuple<int, int, int, int>, Passed> passed;  // (caller scope, line, function scope, parameter)
  for (const auto& [key, rec] : argument_records_) {
    const int site = static_cast<int>(key >> 32);
    const int fscope = static_cast<int>((key >> 8) & 0xFFFFFF);
    const int param = static_cast<int>(key & 0xFF);
    if (!by_param.count({fscope, param})) continue;
    const FlowExpr& e = CallOfSite(site);
    if (e.scope < 0) continue;
    Passed& p = passed[{CallerOf(e.scope), e.line, fscope, param}];
    p.unknown = p.unknown || rec.unknown;
    p.by_default = p.by_default || rec.by_default;
    Merge(&p.values, rec.values);
  }
  for (auto& [key, p] : passed) {
    const auto [caller, line, fscope, param] = key;
    const uint32_t from = node_of_scope_[static_cast<size_t>(caller)];
    const uint32_t to = node_of_scope_[static_cast<size_t>(fscope)];
    if (from == UINT32_MAX || to == UINT32_MAX) continue;
    const std::vector<uint32_t> into = EdgesAt(*graph, from, line, to);
    if (into.empty()) continue;
    if (p.by_default && !p.unknown) {
      const FlowScope& f = p_.scopes[static_cast<size_t>(fscope)];
      cur_scope_ = f.parent < 0 ? fscope : f.parent;
      Merge(&p.values, Eval(f.params[static_cast<size_t>(param)].default_value));
    }
    // Nothing known, or an external value (of a type the graph does not know): it may be anything. Not an
    // attribute of a builtin value (`<**PyDict**>.pop`, `<**PyStr**>.x`): no project function is one.
    if (p.unknown || p.values.empty() || std::any_of(p.values.begin(), p.values.end(), [&](uint32_t v) {
          return O(v).kind == ObjKind::kExternal && O(v).name.rfind("<**", 0) != 0;
        })) {
      for (const Marked& m : by_param.at({fscope, param})) {
        for (const uint32_t k2 : into) {
          for (const uint32_t k : m.edges) graph->unknown_passes.emplace_back(k2, k);
        }
      }
      continue;
    }
    std::map<size_t, Values> gives;  // per checked call: its callees with the parameter holding p.values
    for (const Marked& m : by_param.at({fscope, param})) {
      auto it = gives.find(m.call);
      if (it == gives.end()) {
        it = gives.emplace(m.call, CalleesUnder(CallOfSite(parameter_calls_[m.call].site), p.values)).first;
      }
      if (std::binary_search(it->second.begin(), it->second.end(), m.callee)) continue;
      for (const uint32_t k2 : into) {
        for (const uint32_t k : m.edges) graph->unpassed.emplace_back(k2, k);
      }
    }
  }
  for (auto* pairs : {&graph->unpassed, &graph->unknown_passes}) {
    std::sort(pairs->begin(), pairs->end());
    pairs->erase(std::unique(pairs->begin(), pairs->end()), pairs->end());
  }
}

std::vector<uint32_t> Resolver::EdgesAt(const CallGraph& graph, uint32_t from, int line, uint32_t to) {
  std::vector<uint32_t> out;
  const auto key = std::make_tuple(from, line, to);
  auto it = std::lower_bound(graph.edges.begin(), graph.edges.end(), key,
                             [](const CallGraphEdge& e, const std::tuple<uint32_t, int, uint32_t>& k) {
                               return std::make_tuple(e.caller, e.line, e.callee) < k;
                             });
  for (; it != graph.edges.end() && it->caller == from && it->line == line && it->callee == to; ++it) {
    if (it->kind == "call" || it->kind == "implicit") out.push_back(static_cast<uint32_t>(it - graph.edges.begin()));
  }
  return out;
}

uint32_t Resolver::NodeOfObject(uint32_t obj) const {
  const Obj& o = O(obj);
  if (o.kind == ObjKind::kFunction) return node_of_scope_[static_cast<size_t>(o.ref)];
  // (Objects made after Output have no node.)
  return o.kind == ObjKind::kExternal && obj < node_of_object_.size() ? node_of_object_[obj] : UINT32_MAX;
}

}  // namespace

CallGraph BuildCallGraph(const std::vector<CallGraphFile>& files, const CallGraphOptions& options) {
  auto owned_program = std::make_shared<FlowProgram>();
  FlowProgram& program = *owned_program;
  std::vector<const CallGraphFile*> sorted;
  for (const CallGraphFile& f : files) sorted.push_back(&f);
  std::sort(sorted.begin(), sorted.end(),
            [](const CallGraphFile* a, const CallGraphFile* b) { return a->path < b->path; });
  static const std::string kNoFlow;  // (a `: std::string()` arm would copy every file's records)
  for (const CallGraphFile* f : sorted) program.AddFile(f->path, f->facts != nullptr ? f->facts->flow : kNoFlow);
  program.Finish();
  // Runs until no variable newly exceeds the cap: the last run starts with every saturated variable known,
  // so no variable keeps values that reached it before it saturated (docs/callgraph.md).
  CallGraph graph;
  std::unordered_set<uint64_t> saturated;
  for (int run = 1;; ++run) {
    CallGraphStats stats;
    auto resolver = std::make_unique<Resolver>(program, options, saturated);
    resolver->FindParameterCalls();
    resolver->Run(&stats);
    graph.stats.evaluations += stats.evaluations;
    graph.stats.rounds += stats.rounds;
    graph.stats.statements = stats.statements;
    graph.stats.capped = graph.stats.capped || stats.capped;
    graph.stats.runs = run;
    const std::vector<uint64_t>& more = resolver->NewlySaturated();
    if (more.empty() || !resolver->SaturatedPassedOn() || run >= options.max_runs) {
      graph.stats.saturated = static_cast<int64_t>(saturated.size() + more.size());
      resolver->Output(&graph);
      resolver->CheckParameterCalls(&graph);
      if (!options.free_memory) {
        LeaveToExit(std::shared_ptr<Resolver>(std::move(resolver)));
        LeaveToExit(std::move(owned_program));
      }
      return graph;
    }
    saturated.insert(more.begin(), more.end());
  }
}

}  // namespace errdex
