// What extraction learns from one Python file: its error sites, the classes it defines and the names its
// imports bind. Facts depend only on the file's content (never on its path), so the catalog caches them
// by git blob id and reuses them for every revision and repository that holds the same blob.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace errdex {

// What a condition reads (docs/analysis.md, "Where the state comes from"): an attribute or a name whose
// value decides the branch. `kind` is "attribute" for `obj.name`, "getattr" for `getattr(obj, "name"[,
// default])`, "hasattr" for `hasattr(obj, "name")`, "name" for a bare name that is not a local variable
// or a parameter of the site's function (a module global or a builtin).
struct StateRead {
  std::string kind;
  std::string target;  // source text of the object ("obj", "self.trainer"); "" for kind "name"
  std::string name;    // the attribute or the name
};

// One condition on the path to a site (docs/analysis.md): a compound statement that encloses it, or an
// earlier `if` of an enclosing block that leaves early (return/raise/continue/break).
struct Condition {
  // "if", "elif", "while", "for", "loop_else", "with", "try_else", "except", "finally", "match",
  // "case", "early_exit".
  std::string kind;
  std::string code;      // the header's source text up to and including its colon (at most 512 bytes)
  int line = 0;          // 1-based line of the header's first token
  bool negated = false;  // the site runs only when this header's condition is false
  // What the header's expression reads, in source order, deduplicated, at most 32 (condition_reads.h).
  std::vector<StateRead> reads;
};

inline constexpr size_t kMaxConditionsPerSite = 32;
inline constexpr size_t kMaxConditionCodeBytes = 512;

struct Site {
  std::string kind;                          // "raise", "reraise", "assert", "warn"
  std::optional<std::string> type;           // as written in the source; null for "reraise"
  std::optional<std::string> template_text;  // docs/extraction.md "Templates"; null when there is none
  int line = 0;                              // 1-based line of the keyword (or of the call, for warn)
  int col = 0;                               // 0-based byte column of that token
  int end_line = 0;                          // 1-based last line of the statement
  std::string function;                      // qualified scope name, "<module>" at module level
  int snippet_start = 0;                     // 1-based first line of `snippet`
  std::string snippet;                       // the source lines around the site
  std::vector<Condition> conditions;         // outermost first; at most kMaxConditionsPerSite
  // The other texts the message may be (docs/extraction.md, "Messages chosen among several texts"): a local
  // bound in branches or by `A if C else B`, an f-string field holding such a local, the items of a list the
  // message is assembled from; distinct from `template_text` and from each other, each with literal text; at
  // most kMaxSiteMessageAlternatives. `alternatives_capped`: there were more combinations than were kept.
  std::vector<std::string> message_alternatives;
  bool alternatives_capped = false;
  // For `raise C(...)` of a class C of the same file whose texts its `__init__` chooses by tests of its
  // parameters: the texts (ClassDef message and alternatives) these arguments can render, when they rule
  // some out; empty otherwise (docs/extraction.md, "Class texts chosen by the raise's arguments").
  std::vector<std::string> class_texts;
};

inline constexpr size_t kMaxSiteMessageAlternatives = 8;

struct ClassDef {
  std::string qualname;  // "Outer.Inner"; only classes not nested in functions are recorded
  int line = 0;
  std::vector<std::string> bases;  // source text of each base, as written ("errors.BaseError")
  std::string docstring;           // decoded and dedented; empty when absent
  // The message the class renders itself (docs/extraction.md, "Class messages"): the template of what
  // `__str__` or `format_message` returns, or of the text `__init__` hands to its base; "" when none.
  std::string message;
  std::string message_from;  // "__str__", "format_message", "__init__"; "" when no message
  // The other texts the same method may render (its other returns, the branches of its names), distinct
  // from `message` and from each other, each with literal text; at most kMaxClassMessageAlternatives.
  std::vector<std::string> alternatives;
};

inline constexpr size_t kMaxClassMessageAlternatives = 8;

// Text an `except X as e:` handler writes out (docs/extraction.md, "Texts printed by exception handlers"): an
// output call (`tw.line(f"...")`, `print`, `click.echo`, `logger.error`, `sys.exit("...")`) in the handler's
// body, or in a function of the same file that the handler calls with the caught exception
// (`print_conftest_import_error(e, file=sys.stderr)`). A paste of it is a rendering of X, not X's own message.
struct HandlerText {
  std::string caught;            // the handled class as written ("ConftestImportFailure", "click.ClickException")
  std::string template_text;     // the printed text's template (docs/extraction.md "Templates"), with literal text
  int line = 0;                  // 1-based line of the output call
  std::string function;          // qualified scope of the output call
  int handler_line = 0;          // 1-based line of the `except` clause
  std::string handler_function;  // qualified scope of the `except` clause (== function unless through a reporter)
};

inline constexpr size_t kMaxHandlerTextsPerFile = 64;

// A name bound by an import. `target` is the absolute or relative dotted path as written, with the
// leading dots of a relative import kept ("..errors.ConfigError"); `import a.b` binds "a" to "a".
struct ImportBinding {
  std::string name;
  std::string target;
};

// A function that raises what one of its parameters holds, so that its callers write the message:
// `def fail(self, message): raise UsageError(message, self)` (docs/extraction.md, "Raising helpers").
struct RaisingHelper {
  std::string function;    // qualified name ("Context.fail")
  std::string name;        // its own name ("fail")
  bool is_method = false;  // defined directly in a class body: callers pass self implicitly
  int param_index = 0;     // of the parameter among all parameters, self included
  std::string param;       // the parameter's name
  int line = 0, col = 0;   // of the raise (a site of the same file)
  // The class raised is what another parameter holds (`def _raise_error(self, condition, explanation): error =
  // _condition_map.get(condition, condition); raise error(explanation)`): its index among all parameters, self
  // included, and its name; -1 and "" when the class is not a parameter.
  int type_param_index = -1;
  std::string type_param;
};

// A call statement handing literal text to a function by name, which may be a raising helper of
// another file: `self.fail(_("{value!r} is not a valid integer.").format(value=value), param, ctx)`.
struct MessageCall {
  std::string name;      // called name ("fail")
  std::string receiver;  // source text of the object for `obj.name(...)` ("self", "ctx"); "" for `name(...)`
  std::string function;  // qualified scope of the call
  int line = 0, col = 0;
  struct Argument {
    int index = -1;       // positional index, or -1 for a keyword argument
    std::string keyword;  // for a keyword argument
    std::string template_text;
    // The argument is an instance made here, `PytestConfigWarning("text")`: its class as written, and
    // TEMPLATE_TEXT is the instance's message (a helper that warns or raises what it is handed).
    std::string instance_type;
  };
  std::vector<Argument> arguments;  // only those whose template has literal text
  // Positional arguments (among the first four) that are class names as written, a capitalized last
  // component (`DivisionByZero`, `errors.Conflict`): (index, class). A helper whose class is a parameter raises it.
  std::vector<std::pair<int, std::string>> class_arguments;
};

// A test statement that expects an exception (docs/analysis.md): `with pytest.raises(T, match=P):`,
// `pytest.raises(T, f, ...)`, `with self.assertRaises(T):`, `self.assertRaisesRegex(T, P, f, ...)`,
// `with self.assertRaisesMessage(T, "text"):`, `assert_raises_message(T, P, f, ...)`,
// `with expect_raises_message(T, P):`.
// Recorded in every file (facts do not know paths); the indexer uses those of test files.
struct RaisesTest {
  std::string function;  // qualified scope of the statement ("CartTest.test_bad_stock")
  int line = 0;          // 1-based first line of `code`
  std::string type;      // the expected exception as written; one record per element of a tuple
  // The pattern, decoded, when it is a string literal (or `re.escape`/`re.compile` of one); "" otherwise.
  // For "assertRaisesMessage" (whose message is a literal substring) re.escape of the literal. At most
  // 1024 bytes (an escaped message is never cut inside an escape).
  std::string match;
  // "pytest.raises", "assertRaises", "assertRaisesRegex", "assertRaisesMessage", "expect_raises",
  // "expect_raises_message" (context manager), or "pytest.raises_call", "assertRaises_call",
  // "assertRaisesRegex_call", "assertRaisesMessage_call", "assert_raises_call",
  // "assert_raises_message_call" (call form).
  std::string kind;
  std::string code;  // the `with` statement or the call statement, at most 1024 bytes
};

inline constexpr size_t kMaxRaisesTestCodeBytes = 1024;

// A function or method definition (docs/extraction.md, "Program facts"). Lambdas are not recorded.
struct FunctionDef {
  std::string qualname;                 // like __qualname__: "Fabric.setup", "wrap.<locals>.inner"
  int line = 0;                         // 1-based line of `def` (of the first decorator when decorated)
  int end_line = 0;                     // 1-based last line of the body
  std::string docstring;                // decoded and dedented; empty when absent; at most 4 KiB
  std::vector<std::string> params;      // parameter names in order, self/cls and *args/**kwargs included
  std::vector<std::string> decorators;  // source text of each decorator without '@' ("staticmethod")
  bool is_method = false;               // defined directly in a class body
};

// A call whose callee is a dotted name (docs/extraction.md, "Program facts"): `f(...)`, `self.setup(...)`,
// `mod.f(...)`, `a.b.c(...)`, `super().run(...)` (callee "super().run"), `cls.create(...)`. Calls of
// other expressions (`f()()`, `x[0]()`) are not recorded. At most kMaxCallsPerFile per file, the first in
// source order.
struct CallFact {
  // Qualified scope of the call; "<module>" at module level (runs at import time). A call inside a lambda
  // belongs to the def, class or module around the lambda (comprehensions are not scopes).
  std::string function;
  std::string callee;     // the called expression as written, whitespace removed, at most 256 bytes
  int line = 0, col = 0;  // 1-based line and 0-based byte column of the callee's first token
  std::string code;       // the source line holding the callee's first token, trimmed, at most 256 bytes
};

// A statement that writes an attribute or a module-level name (docs/analysis.md, "Where the state comes
// from"). `kind`: "assign" (`x.a = v`, `a = v`, also each target of `x.a = y.b = v` and of tuple
// targets), "augassign" (`x.a += v`), "annassign" (`x.a: T = v`), "setattr" (`setattr(x, "a", v)` with a
// literal name), "delete" (`del x.a`, `delattr(x, "a")`), "class_attr" (`name = v` or `name: T = v` in a
// class body not nested in a function: a class attribute; `function` and `target` are both the class's
// qualname, "Dialect", "Outer.Inner"). Other writes of a plain name are recorded at module level and,
// inside a function, only for names declared `global` there. At most kMaxStateWritesPerFile per file.
struct StateWrite {
  std::string function;  // qualified scope; "<module>" at module level (runs at import time); as for calls
  // Source text of the object ("self", "compiled_model", "torch"); "" for a name; the class's qualname for
  // kind "class_attr".
  std::string target;
  std::string name;  // the attribute or the name written
  std::string kind;
  int line = 0;      // 1-based line of the statement
  std::string code;  // the statement's source text (first line onwards), at most 512 bytes
};

inline constexpr size_t kMaxStateCodeBytes = 512;
inline constexpr size_t kMaxCallsPerFile = 20000;
inline constexpr size_t kMaxStateWritesPerFile = 20000;

struct FileFacts {
  // "ok", "partial" (syntax errors: only what parsed soundly was kept) or "skipped".
  std::string status = "ok";
  // For "partial" and "skipped": "syntax_error", "binary", "not_utf8", "too_large", "too_deep",
  // "timeout".
  std::string reason;
  std::vector<Site> sites;
  std::vector<ClassDef> classes;
  std::vector<ImportBinding> imports;
  std::vector<std::string> wildcard_imports;  // modules of `from X import *`, as written
  std::vector<RaisingHelper> raising_helpers;
  std::vector<MessageCall> message_calls;
  std::vector<RaisesTest> raises_tests;
  std::vector<HandlerText> handler_texts;  // at most kMaxHandlerTextsPerFile, by handler line
  // The program facts (docs/extraction.md): definitions, calls and state writes of the whole file.
  std::vector<FunctionDef> functions;
  std::vector<CallFact> calls;
  std::vector<StateWrite> state_writes;
  // The names of a module-level `__all__ = [...]` / `(...)` of string literals (`+=` adds to it);
  // has_all is false when there is none.
  bool has_all = false;
  std::vector<std::string> all_names;
  // The data-flow records the call-graph resolver reads (docs/callgraph.md, "Flow facts"); cut at
  // kMaxFlowBytes, and then flow_truncated is true.
  std::string flow;
  bool flow_truncated = false;
};

}  // namespace errdex
