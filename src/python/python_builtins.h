// Python's `builtins` module as errdex knows it: every builtin name, and for the exception and warning
// classes their direct base and docstring. One table, src/python/data/builtins.tsv (CPython 3.11, written
// by scripts/gen_python_builtins.py), embedded at build time.
//
// Threading: the table is parsed once, on first use, and is read-only afterwards; every function is
// thread-safe. Returned pointers and views live for the whole program.
#pragma once

#include <string_view>

namespace errdex {

// The base class name of builtin exception NAME ("ValueError" -> "Exception"), "" for BaseException,
// or null when NAME is not a builtin exception or warning class. An alias (EnvironmentError, IOError)
// answers for the class it names.
const char* BuiltinExceptionBase(std::string_view name);

// The first paragraph of the docstring of builtin exception NAME, or "" when it is none or has none.
std::string_view BuiltinExceptionDoc(std::string_view name);

// The builtin exception or warning class whose name is NAME ignoring ASCII case ("valueerror" ->
// "ValueError"), or "" when none is.
std::string_view BuiltinExceptionIgnoringCase(std::string_view name);

// Whether NAME is any name of the builtins module (len, isinstance, None, ValueError, ...).
bool IsBuiltinName(std::string_view name);

}  // namespace errdex
