// A pasted error whose text was written by another library than the one that raised it (docs/matching.md,
// "Wrapped errors"): `requests.exceptions.ConnectionError: HTTPConnectionPool(...): Max retries exceeded
// ...` is requests' `except MaxRetryError as e: raise ConnectionError(e, request=request)`, and its text is
// urllib3's MaxRetryError's. With the wrapping sites the index records (sites.wraps,
// python/wrapped_errors.h), the answer is the outermost site (requests' raise of the pasted class, the
// caught exception bound to its only placeholder: e = the whole message) and the next link of the chain is
// the inner origin (urllib3's raise of the wrapped class whose text the message is, with its bindings).
//
// Threading: as Catalog (one thread per Catalog).
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "catalog/catalog.h"
#include "match/explainer.h"
#include "match/pasted_error.h"

namespace errdex {

// One candidate of a judged exception, as the explainer ranks them (best first).
struct JudgedMatch {
  ExplainMatch match;
  int tier = 0;  // 3 strong, 2 weaker, 1 approximate, 0 not a match (docs/matching.md)
};

// Judges one pasted exception against the catalog, as the explainer does for each link of a chain.
using JudgeException = std::function<std::vector<JudgedMatch>(const PastedException&)>;

struct WrappedChain {
  ExplainMatch outer;  // the wrapping site: the pasted class, its caught name bound to the whole message
  ExplainMatch inner;  // the wrapped class's raise site whose text the message is
};

// The wrapping chain that explains EXCEPTION, or nothing. The wrapping site raises the pasted class (its
// qualified name, exactly as Python prints it: a bare "ConnectionError" names too many classes), is not in
// a test, passes the caught exception (sites.wraps "passes") and has no text of its own: its template is
// only the caught name (`{e}`, `{str(e)}`). Each class it wraps is judged with JUDGE as the pasted type of
// the same message; the inner origin is the best match of tier 2 or more that raises that very class.
// Among several wrapping sites, those outside vendored copies and in the repository the paste points at
// (ORIGIN_REPOSITORY, may be empty) come first.
std::optional<WrappedChain> FindWrappedChain(Catalog& catalog, const PastedException& exception,
                                             const std::string& origin_repository, const JudgeException& judge);

}  // namespace errdex
