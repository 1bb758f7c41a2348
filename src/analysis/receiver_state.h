// What the receiver of a method holds when the method starts, when the call's own line makes the receiver
// (docs/analysis.md, "Triggers", "The receiver's state"): the feasibility check of call paths
// (call_feasibility.h) reads these values as `self.ATTR` in the raise's conditions.
//
// A fresh receiver: the object of `C(args).m()`; a local `v` of the calling function assigned once, by a
// straight-line `v = C(args)` before the call `v.m()` (a straight-line statement too, or no read of `v` after
// it), and read by nothing between (nor by a nested function); the object `with C(args) [as y]:` makes, for
// its `__exit__`/`__aexit__` (run only after `__enter__`/`__aenter__` returned). C is named as the method's
// own class, and no class of that name with methods is defined elsewhere (a subclass of the same name).
//
// Known attributes: those `C.__init__` (and for a `with`, then `__enter__`) assigns through its `self` by a
// straight-line statement (not under if/for/while/try/with, no `return` before it), the last one winning:
// to None, True, False, an integer or a plain string (that value), a list, dict, lambda or a call of a
// capitalised name (a constructor: not None), a value annotated with a type that does not admit None (not
// None), a parameter of `__init__` the construction binds to a known argument (its value). The receiver is
// reached by nothing else unless `self` escapes from `__init__`, `__enter__` or the raising method before
// the test (handed to a call, stored, a bound method handed out, read by a nested function: then nothing is
// known) or the `with` body holds it (`as` target of an `__enter__` that returns `self`). An attribute is
// left unknown when something may write it first: another assignment in those methods (under a condition);
// the raising method itself before READ_LINE; a method of C that assigns it (or calls such a method through
// `self`), when those methods call it through `self` or the `with` body holds the receiver; a method of a
// base class (any file); `setattr`/`del` in C; a write through another object when the `with` body holds
// the receiver; or when C (or a base of the same file) defines a method of that name (a property),
// `__setattr__`, `__getattribute__`, `__delattr__` or `__new__`.
//
// Lifetime: borrows the model. One thread at a time.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/code_model.h"
#include "analysis/flow_program.h"
#include "python/condition_truth.h"

namespace errdex {

// Whether an annotation admits None: `Optional[T]`, `T | None`, `None`, `Any`, `object`, a string, a type
// variable; a subscript by what it names (`list[str]`, `ExceptionInfo[E]` do not), `Union[...]`,
// `Annotated[...]` and `Literal[...]` by their arguments.
bool AnnotationAdmitsNone(const FlowProgram& p, int expr, int depth = 0);

class ReceiverState {
 public:
  using StatementsByScope = std::unordered_map<int, std::vector<int>>;

  explicit ReceiverState(const CodeModel& model) : model_(model) {}

  struct Fresh {
    int construction = -1;  // the `C(args)` call (an expression of the caller's program); -1: not fresh
    bool entered = false;   // a `with` item: `__enter__` ran on it too
    bool named = false;     // a `with` item with an `as` target
  };
  // How the receiver of METHOD (a scope of TARGET) is made by the caller: CALL is the method's call at
  // CALL_LINE of CALLER_SCOPE (an expression of FROM), or -1 for the `__exit__` of a `with` at CALL_LINE.
  static Fresh FreshReceiver(const FlowProgram& from, const StatementsByScope& from_statements, int caller_scope,
                             int call_line, int call, const FlowProgram& target, int method);
  // The `__init__` of METHOD's class (its last definition: earlier ones are `@overload`s), or -1.
  static int ConstructorOf(const FlowProgram& target, int method);

  // Adds to VALUES the known attributes of the receiver at METHOD's entry (a scope of TARGET, the file at
  // PATH), as "SELF.ATTR" with SELF METHOD's first parameter. INIT_ARGUMENTS: the values the construction
  // binds to `__init__`'s parameters (by name). READ_LINE: the line of the last test read.
  void AddKnown(const std::string& path, const FlowProgram& target, const StatementsByScope& statements, int method,
                int read_line, const Fresh& fresh, const std::unordered_map<std::string, KnownValue>& init_arguments,
                std::unordered_map<std::string, KnownValue>* values) const;

 private:
  // Whether a class of another file (or scope) has the simple name of the class at CLASS_QUALNAME and
  // methods: `C(args)` may construct that one (a subclass of the same name).
  bool SameNamedClassElsewhere(const std::string& path, const std::string& class_qualname) const;
  // Whether a write of ATTR outside the class's own flow (in a base class, a nested function, `setattr`,
  // `del`; through another object when ESCAPED) may change it.
  bool WrittenElsewhere(const std::string& attr, const std::string& path, const std::string& class_qualname,
                        const std::vector<std::string>& base_names, bool escaped) const;

  const CodeModel& model_;
};

}  // namespace errdex
