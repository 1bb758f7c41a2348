// Python's built-in exception and warning classes (the `builtins` module), with their direct base.
#pragma once

#include <string_view>

namespace errdex {

// The base class name of builtin exception NAME ("ValueError" -> "Exception"), "" for BaseException,
// or null when NAME is not a builtin exception or warning class.
const char* BuiltinExceptionBase(std::string_view name);

}  // namespace errdex
