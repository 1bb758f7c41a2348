// What a raise site wraps (docs/environments.md, "Wrapping sites"): a site inside an `except` clause
// (`except MaxRetryError as e: raise ConnectionError(e, request=request)`) records the clause's types,
// resolved where possible (`urllib3.exceptions.MaxRetryError`), the name the caught exception is bound
// to, and whether the raised call gets it (the name appears in a placeholder of the site's template).
// Derived from the site's path conditions (the innermost "except" header) at index time.
//
// Threading: pure functions.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "extract/file_facts.h"

namespace errdex {

struct WrappedErrors {
  std::vector<std::string> types;  // as written in the clause, in order; empty for a bare `except:`
  std::string name;                // "e" of `as e`; "" when the clause binds none
};

// The clause header's types and name: "except (A, b.B) as e:" → {A, b.B}, "e". Nothing when CODE is not
// an except header.
std::optional<WrappedErrors> ParseExceptHeader(const std::string& code);

// The innermost except clause of SITE, as JSON {"types": [resolved or as written], "name", "passes"}, or
// nothing when the site is not in one (or is a bare `raise`, which re-raises rather than wraps). RESOLVE
// maps a type as written to its qualified name (nothing when unknown).
std::optional<std::string> WrappedErrorsJson(
    const Site& site, const std::function<std::optional<std::string>(const std::string&)>& resolve);

}  // namespace errdex
