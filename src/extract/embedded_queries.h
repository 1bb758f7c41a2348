// The tree-sitter query files of queries/<language>/*.scm, compiled into the binary so that errdex runs
// from any directory. The files stay the source of truth; CMake regenerates the table when they change.
#pragma once

#include <string_view>
#include <vector>

namespace errdex {

struct EmbeddedQuery {
  std::string_view name;  // "python/sites.scm"
  std::string_view text;
};

// All embedded queries; the table lives for the whole program. Thread-safe.
const std::vector<EmbeddedQuery>& EmbeddedQueries();

}  // namespace errdex
