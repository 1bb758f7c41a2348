// The current time as ISO 8601 UTC text ("2026-12-01T05:30:00Z"), as the catalog stores it
// (revisions.indexed_at, matcher.built_at). Thread-safe.
#pragma once

#include <string>

namespace errdex {

std::string NowUtc();

}  // namespace errdex
