// Whether one call on a call path can reach a raise (docs/analysis.md, "Triggers"): the raise's path
// conditions (python/path_conditions.h) evaluated with the parameters of the raising function bound as that
// call binds them (python/condition_truth.h). An argument is known when it is `None`, `True`, `False`, an
// integer or a plain string literal, a list, dict or lambda (not None), an instance of a known class
// (analysis/argument_classes.h: a constructor call, `self`, a local assigned once from one), or a parameter of a
// calling function that is no entry point annotated with a type that does not admit None (not None); an
// omitted argument takes its
// default when the default is such a literal (a keyword-only parameter, after `*args`, also under a positional
// splat `f(*xs)`, which cannot fill it). A `*args` parameter is a tuple of as many items as the call passes
// beyond the named parameters (without a positional splat), `**kwargs` a dict of the keywords no named
// parameter takes (without a `**` splat): their truth and `len()` are known. A parameter the raising
// function assigns is unknown. When
// the caller's line makes the receiver (`C(args).m()`, a fresh local, the `__exit__` of a `with C(args)`),
// the attributes its constructor and `__enter__` assign are known as `self.ATTR` (receiver_state.h).
//
// Sound-ish: "impossible" only when every call of the calling function's line that names the raising
// function (`f(...)`, `obj.f(...)`, `Class(...)` for `__init__`; the line's only call when none names it: an
// alias) makes some condition decidably false. Not
// decided (possible): a decorated raising function (the decorator may change the arguments) unless its
// decorators keep the signature (ArgumentClasses::KeepsSignature), a call with
// `*args` or `**kwargs` for the parameters they may fill, a call the arguments do not fit, an unbound method
// called through its class (`Base.method(obj, x)`, ambiguous with a class method), a call not found.
//
// Lifetime: borrows the model, which must outlive it. The flow records of a file are parsed on first use
// (FlowProgram of that one file). One thread at a time.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/argument_classes.h"
#include "analysis/code_model.h"
#include "analysis/flow_program.h"
#include "analysis/receiver_state.h"
#include "python/condition_truth.h"

namespace errdex {

// The conditions a call must meet to reach SITE: its path conditions, and for an `assert` the assert
// itself (kind "assert", its statement as code: it raises only when its test is false).
std::vector<Condition> ConditionsOfSite(const Site& site);

class CallFeasibility {
  struct Program;

 public:
  explicit CallFeasibility(const CodeModel& model)
      : model_(model), receivers_(model), classes_(model, [this](const std::string& path) -> const FlowProgram* {
          Program* p = ProgramOf(path);
          return p == nullptr ? nullptr : &p->flow;
        }) {}

  struct Function {
    const std::string& path;
    const std::string& qualname;
  };
  // Whether the calls at line CALL_LINE of CALLER to CALLEE (which holds SITE) cannot reach SITE. With
  // TRUST_ANNOTATIONS, a parameter of CALLER annotated with a type that does not admit None is not None;
  // give false when CALLER is itself an entry point: its caller may pass anything (a raise such as `if ext
  // is None: raise TypeError(...)` is there for callers that break the annotation).
  bool Impossible(const Function& caller, int call_line, const Function& callee, const Site& site,
                  bool trust_annotations);
  // The same split for the calls into one callee: what the callee's side decides, once per (CALLEE, SITE)
  // (without a program or a scope, or when no condition reads a parameter the arguments reach unchanged, no
  // call is shown impossible), then each call. SITE must outlive the check.
  struct CalleeCheck {
    std::vector<Condition> conditions;
    Program* target = nullptr;  // null: no call into the callee is impossible
    int scope = -1;
    const Site* site = nullptr;
  };
  CalleeCheck CheckCallee(const Function& callee, const Site& site);
  bool Impossible(const CalleeCheck& check, const Function& caller, int call_line, bool trust_annotations);
  // The same for a middle frame of a path: whether the calls at line CALL_LINE of CALLER to MIDDLE make the
  // `if` tests that guard MIDDLE's line MIDDLE_LINE (its call of the next frame; flow records `h`) decidably
  // false. Only tests outside loops that read a parameter of MIDDLE; such a parameter assigned after the test
  // still holds the argument at the test.
  bool ImpossibleThrough(const Function& caller, int call_line, const Function& middle, int middle_line,
                         bool trust_annotations);
  // The line of CALLER at which its calls at CALL_LINE of CALLEE (defined at CALLEE_LINE) run CALLEE's body:
  // CALL_LINE, unless CALLEE is an undecorated generator function (generator_runs.h; `staticmethod` and
  // `classmethod` aside: another decorator's wrapper runs it, `@contextmanager` on `with`): then where CALLER
  // iterates the generator, or -1 when it only makes it (hands it on, stores or returns it). CALL_LINE when
  // unknown.
  int BodyRunLine(const Function& caller, int call_line, const Function& callee, int callee_line);

 private:
  struct Program {
    std::string path;
    FlowProgram flow;
    std::unordered_map<int, std::unordered_set<int>> assigned;  // scope -> names assigned in it
    std::unordered_map<int, std::vector<int>> statements;       // scope -> its statements, in order
  };
  Program* ProgramOf(const std::string& path);
  static int ScopeHolding(const FlowProgram& p, const std::string& qualname, int line);
  const std::unordered_set<int>& Assigned(Program* p, int scope);
  // The values the call CALL (an expression of CALLER's program, in scope CALLER_SCOPE) binds to the
  // parameters of CALLEE_SCOPE; false when the arguments do not fit or the binding is ambiguous.
  bool Bind(Program* caller, int caller_scope, int call, Program* callee, int callee_scope,
            std::unordered_map<std::string, KnownValue>* out);
  KnownValue ArgumentValue(Program* p, int scope, int expr, bool as_argument);
  // The calls at CALL_LINE of CALLER_SCOPE that name the function of SCOPE (of TARGET), or the line's only call.
  std::vector<int> CallsOfLine(Program* from, int caller_scope, int call_line, Program* target, int scope);
  // Whether CALL (in CALLER_SCOPE of FROM) constructs a repository class that inherits the constructor SCOPE of
  // TARGET (`Unicode()` runs `String.__init__`): its name, not bound in the calling function, names a class
  // of the calling file whose first `__init__` (or `__new__`) along its bases, breadth first, is that one.
  bool ConstructsThrough(Program* from, int caller_scope, int call, Program* target, int scope);
  // Adds the classes and sentinels CONDITIONS name (ArgumentClasses::AddNamesOf) when VALUES holds an
  // instance of a known class, or a known literal and CONDITIONS test identity (`is`); always true.
  bool AddNamesFor(const std::vector<Condition>& conditions, Program* callee, int scope, int line,
                   std::unordered_map<std::string, KnownValue>* values);
  // With read_line_ set: whether parameter NAME of SCOPE is assigned by no statement of SCOPE up to
  // read_line_ and by no nested function (`nonlocal`).
  bool UnassignedBefore(Program* p, int scope, int name) const;
  // Adds the receiver's attributes known at the entry of SCOPE (receiver_state.h) when the call CALL at
  // CALL_LINE (-1: the `__exit__` of a `with` there) makes it fresh; false when it does not.
  bool AddReceiverState(Program* from, int caller_scope, int call_line, int call, const std::string& path,
                        Program* target, int scope, int read_line, std::unordered_map<std::string, KnownValue>* values);
  bool trust_annotations_ = true;  // of the current Impossible
  int read_line_ = 0;              // of the current ImpossibleThrough: its last test's line
  int call_line_ = 0;              // of the current check: the line of the call whose arguments are read

  const CodeModel& model_;
  ConditionTruth truth_;
  ReceiverState receivers_;
  std::unordered_map<std::string, std::unique_ptr<Program>> programs_;
  ArgumentClasses classes_;  // after programs_: it reads them
};

}  // namespace errdex
