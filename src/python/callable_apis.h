// What library APIs do with a callable they are handed, and which values are of a builtin type, for the call
// graph (docs/callgraph.md, "Registered callables and builtin values"). One table,
// src/python/data/callable_apis.tsv, embedded at build time:
// - APIs that register a callable (`atexit.register(f)`, `stack.callback(f)`, `loop.call_soon(f)`): the
//   callable runs later, from elsewhere, not from the caller;
// - APIs that only inspect a callable (`inspect.signature(f)`, `functools.wraps(f)`): it is not called;
// - attributes whose value is builtin (`obj.__dict__` is a dict) and builtins whose result is (`vars()`,
//   `str(x)`): a method called on such a value is the builtin type's, not a project method of that name;
// - builtins and methods that iterate the iterables they are handed at once (`list(x)`, `"".join(x)`).
//
// Threading: the table is parsed once, on first use, and is read-only afterwards; every function is
// thread-safe. Returned views live for the whole program.
#pragma once

#include <string_view>

namespace errdex {

// Whether the external callable at import path PATH ("contextlib.ExitStack.callback",
// "asyncio.get_event_loop.call_soon") stores the callables it is handed instead of calling them: a "path"
// row naming PATH, or an "attribute" row naming its last attribute.
bool RegistersCallable(std::string_view path);

// Whether the external callable at PATH only inspects the callables it is handed ("inspect.signature",
// "functools.wraps"): it neither calls nor stores them.
bool InspectsCallable(std::string_view path);

// Whether calling builtin NAME (`list(x)`), or a method NAME when METHOD (`"".join(x)`), iterates the iterables
// it is handed as positional arguments at once: an "iterates" row.
bool IteratesArguments(std::string_view name, bool method);

// The builtin type ("dict", "str") of attribute ATTRIBUTE of a value whose class does not define it, or ""
// when the table does not know the attribute.
std::string_view BuiltinAttributeType(std::string_view attribute);

// Whether builtin type TYPE ("dict", "list") has method METHOD (the "builtin_methods" rows).
bool IsBuiltinMethod(std::string_view type, std::string_view method);

// Whether some builtin type of the "builtin_methods" rows has method METHOD (`get`, `startswith`, `append`).
bool IsMethodOfABuiltinType(std::string_view method);

// The builtin type of what builtin NAME returns ("vars" -> "dict"), or "" when unknown.
std::string_view BuiltinResultType(std::string_view name);

}  // namespace errdex
