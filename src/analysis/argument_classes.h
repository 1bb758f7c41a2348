// The class of an argument of a call, and the classes and sentinels a raise's conditions name, for the
// feasibility check of call paths (analysis/call_feasibility.h; docs/analysis.md, "Triggers").
//
// An argument is an instance of a known class (KnownValue::kInstance) when it is:
// - a constructor call `C(...)` of a repository class C (a name or dotted name of the calling file,
//   through the code model's imports) that defines no `__new__` in its repository classes and whose class
//   decorators each return their argument (`return cls`, in a straight-line body); or of a builtin class
//   (`dict(...)`, `list(...)`, `object()`, ...) not rebound in the file: exactly that class;
// - `self` in a method of class C that does not rebind it: C or a subclass of it (a method called through
//   its class with another object, `C.m(other)`, is not considered);
// - a local name of the calling function assigned once in it (`p = C(...)`), before the call's line, as
//   above (a name assigned nowhere else holds that value at the call, or the call raises NameError);
// - a call of a repository function (a name, or `self.m(...)` when the repository has one function named m)
//   undecorated, straight-line (no `if`, loop, `try` nor `with`), whose returns are all constructor calls of
//   one class as above: that class exactly.
// Its classes are the class and its bases, transitively (subscripts such as `Base[T]` read as `Base`);
// `complete` when every one resolved (`Generic[...]` and `object` need not). `truthy` when exact, complete
// and no class of it defines `__bool__` or `__len__`. Not seen: a metaclass given as a keyword
// (`metaclass=M`, dropped by extraction) whose `__call__` returns another object.
//
// A name a condition reads is a class (kClass) when it resolves in the raising function's file to a
// repository class, and a sentinel (kSentinel) when it is a repository `enum.Enum` member (`E.member`), or a
// module-level name assigned once, at the module's top level, to `object()` or to such a member, and
// declared `global` by no function. Names the raising function (or a function around it) binds are not read.
//
// Lifetime: borrows the model, which must outlive it; FLOW_OF gives the flow records of a file (null when
// absent) and its results must outlive this object. One thread at a time.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/code_model.h"
#include "analysis/flow_program.h"
#include "python/condition_truth.h"

namespace errdex {

class ArgumentClasses {
 public:
  using FlowOf = std::function<const FlowProgram*(const std::string& path)>;
  ArgumentClasses(const CodeModel& model, FlowOf flow_of) : model_(model), flow_of_(std::move(flow_of)) {}

  // Where an argument is read: scope SCOPE of the flow records of the file PATH, at line LINE.
  struct Place {
    const FlowProgram& flow;
    const std::string& path;
    int scope = 0;
    int line = 0;
  };
  // The class of the argument EXPR at AT (kInstance), or kUnknown.
  KnownValue ArgumentClass(const Place& at, int expr);
  // The repository class the call CALL at AT calls by name (`C(...)`, `mod.C(...)`: a name or dotted name of
  // the calling file, not bound by the calling function), or none.
  std::optional<PythonModuleIndex::Symbol> ClassCalled(const Place& at, int call) const;
  // Whether the decorator DECORATOR (an expression of FLOW, the records of the file PATH) hands the function
  // back unchanged: a repository function whose straight-line body returns its argument (`return fn`), or a
  // call of one whose straight-line body returns `lambda fn: fn` (SQLAlchemy's
  // `@util.preload_module(...)`, a bound method of a module-level instance: `preload_module =
  // _reg.preload_module`, `_reg = _ModuleRegistry()`).
  bool KeepsFunction(const FlowProgram& flow, const std::string& path, int decorator);
  // Whether the decorator DECORATOR keeps the function's signature: it KEEPS the function (above), or it is
  // typed as handing back a callable of the function's own type (PEP 484), a repository function
  // `def d(fn: F, ...) -> F` or a call of one typed `-> Callable[[F], F]`, F a `TypeVar` assigned once at the
  // top of the decorator's module (SQLAlchemy's `@_generative`, `@_exclusive_against(...)`). A wrapper
  // typed so passes the call's arguments on as they are (it may still run code before and after).
  bool KeepsSignature(const FlowProgram& flow, const std::string& path, int decorator);
  // Adds to VALUES the classes and sentinels that CONDITIONS (of the raising function, scope AT.scope of
  // AT.path) name, each under its name as written (`MapperProperty`, `NotSetType.token`).
  void AddNamesOf(const std::vector<Condition>& conditions, const Place& at,
                  std::unordered_map<std::string, KnownValue>* values);

 private:
  const std::vector<int>& StatementsOf(const FlowProgram& flow, int scope);
  bool BoundAround(const FlowProgram& flow, int scope, const std::string& first) const;
  std::string DottedName(const FlowProgram& flow, int expr) const;
  KnownValue Chain(const std::string& qualified);
  KnownValue Constructed(const Place& at, int call, int depth);
  KnownValue Returned(const Place& at, int call);
  KnownValue AssignedOnce(const Place& at, int name);
  KnownValue Self(const Place& at);
  bool StraightBody(const FlowProgram& flow, int scope);
  // The flow records of the repository function QUALIFIED_FUNCTION and its scope there; {null, -1} when absent.
  struct FunctionPlace {
    const FlowProgram* flow = nullptr;
    int scope = -1;
  };
  FunctionPlace FunctionScope(const std::string& qualified_function);
  bool ReturnsItsArgument(const std::string& qualified_function);
  bool IsTypeVar(const FlowProgram& flow, int expr);
  std::string FunctionNamed(const std::string& path, const std::string& dotted);
  const FlowStatement* AssignedOnceAtTop(const FlowProgram& flow, int module, int name);
  bool PlainClass(const std::string& qualified);
  int ScopeOfSymbol(const FlowProgram& flow, const std::string& qualname, char kind) const;
  KnownValue EnumMember(const std::string& path, const std::string& dotted);
  KnownValue ModuleSentinel(const std::string& path, const std::string& name);

  const CodeModel& model_;
  FlowOf flow_of_;
  std::map<std::pair<const FlowProgram*, int>, std::vector<int>> statements_;
  std::unordered_map<std::string, KnownValue> chains_;
  std::unordered_map<std::string, bool> plain_;
};

}  // namespace errdex
