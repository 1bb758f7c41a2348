// Where a warning handed to a `warn` method is issued (docs/matching.md, "Raising helpers"): pytest's
// `node.warn(PytestCollectionWarning("..."))` builds the warning at the call and `Node.warn` only hands it to
// `warnings.warn_explicit` at the node's location. A helper named like the warnings API is a warning call
// itself: the line calling it is where the warning is issued, as `warnings.warn(` is. A helper with a name of
// its own (`Config.issue_config_time_warning`, which filters, records and hooks the warning) is the place
// that issues; its callers only write the text.
//
// Threading: pure functions.
#pragma once

#include <optional>
#include <string>

#include "catalog/catalog.h"

namespace errdex {

// For a warning site linked through a helper (`via`) whose function's own name is `warn`: the call, as a
// site (path, line and function of `via`, the rest of SITE; no snippet), and `why` naming the helper.
// nullopt otherwise.
struct WarnCall {
  SiteRow site;
  std::string why;
};
std::optional<WarnCall> IssuedAtWarnCall(const SiteRow& site);

}  // namespace errdex
