// Whether the path conditions of a site (Condition, python/path_conditions.h) can all hold when some names
// have known values: the parameters of the raising function as one call binds them (a literal, None, an
// omitted argument's default; docs/analysis.md, "Triggers"), and attributes of a name (`self.closed`, the
// receiver's state) keyed by their text without blanks. Three-valued: a condition is decided only when
// what it reads is known, and the answer "impossible" is given only when some condition is decidably false,
// or when the conditions of one `if`/`elif` chain (tested one right after the other) require the same test
// both ways (`if x._parent is upto: ... elif x._parent is None:` with `upto` None).
//
// Decided: `if`, `elif`, `while` and early-exit conditions whose header is an expression of `not`, `and`,
// `or`, comparisons (`is`, `is not`, `==`, `!=`, `<`, `<=`, `>`, `>=`) of known values, the truth of a known
// value, and `isinstance(x, T)` for a known None or literal `x` and a builtin `T`, or for an instance of a
// known class `x` (kInstance) and a class `T` (a builtin, or a name given as kClass; a tuple of them), and
// `x is S` of a sentinel S (kSentinel) and an instance or literal of a class S's classes lack (false). Names
// and dotted names (`NotSetType.token`) of VALUES are read where the test names them. Anything else (a call,
// a subscript, a name without a value, an object's `==`) is unknown, except `len(x)` of a known empty or sized
// container or a plain ASCII string (an integer). `for`, `with`, `except`, `match` and
// `case` conditions are never decided.
//
// A condition of kind "assert" holds the whole `assert` statement as its code (dedented): the assert raises
// only when its test is false, decided as above.
//
// Cost: each header is parsed once per call of Possible (only headers that mention a known name).
// Lifetime: owns a tree-sitter parser; one thread at a time.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "extract/file_facts.h"

namespace errdex {

struct KnownValue {
  // kNotNone: an object whose truth is unknown; kEmpty: an empty list, tuple or dict (not None, false);
  // kSized: a tuple or dict of INTEGER (>= 1) items (a `*args` or `**kwargs` parameter: not None, true).
  // kInstance: an instance of the class CLASSES[0] (of a subclass of it unless EXACT; never None).
  // kClass: the class CLASSES[0] itself, as `isinstance` reads it. kSentinel: a module- or class-level
  // sentinel object (`NOTSET = object()`, an `enum.Enum` member) of the class CLASSES[0].
  enum class Kind {
    kUnknown,
    kNone,
    kTrue,
    kFalse,
    kInt,
    kString,
    kNotNone,
    kEmpty,
    kSized,
    kInstance,
    kClass,
    kSentinel
  };
  Kind kind = Kind::kUnknown;
  long long integer = 0;  // kInt; kSized: the number of items
  std::string text;       // kString
  // kInstance, kClass, kSentinel: the class and its bases, transitively, qualified ("pkg.mod.C", "builtins.dict").
  std::vector<std::string> classes;
  bool complete = false;  // CLASSES is every class of the MRO (no base left unresolved)
  bool exact = false;     // kInstance: of CLASSES[0] itself (a constructor call), not of a subclass
  bool truthy = false;    // kInstance: true in a test (exact, complete, no `__bool__` nor `__len__`)
};

class ConditionTruth {
 public:
  ConditionTruth();
  ~ConditionTruth();
  ConditionTruth(const ConditionTruth&) = delete;
  ConditionTruth& operator=(const ConditionTruth&) = delete;

  // False only when CONDITIONS (outermost first, as extraction lists them) cannot all hold with VALUES.
  bool Possible(const std::vector<Condition>& conditions, const std::unordered_map<std::string, KnownValue>& values);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace errdex
