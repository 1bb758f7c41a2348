// Candidates by the pasted exception type (docs/matching.md, "Evidence tiers"): when the message names
// no literal text of the library's own (`docker.errors.NotFound: 404 Client Error ...`), the sites that
// raise the pasted class, or a base class of it from the repository defining it (`cls = APIError; ...;
// cls = NotFound; raise cls(e)`), are the ones that can have produced it.
//
// Threading: uses the given catalog, which belongs to the calling thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"

namespace errdex {

// Error ids of the sites raising PASTED_TYPE (bare or qualified) or one of its repository base classes,
// at most LIMIT. Empty for builtin exception types: thousands of sites raise ValueError.
std::vector<std::string> ErrorsRaisingPastedType(Catalog& catalog, std::string_view pasted_type, size_t limit);

}  // namespace errdex
