// The Python knowledge kept as data (src/python/queries/*.scm: the tree-sitter queries; src/python/data/*:
// tables such as the builtin exception hierarchy), compiled into the binary so that errdex runs from any
// directory. The files stay the source of truth; CMake regenerates the table when they change.
#pragma once

#include <string_view>
#include <vector>

namespace errdex {

struct EmbeddedFile {
  std::string_view name;  // relative to src/python: "queries/sites.scm", "data/builtins.tsv"
  std::string_view text;
};

// All embedded files; the table lives for the whole program. Thread-safe.
const std::vector<EmbeddedFile>& EmbeddedPythonFiles();

// The text of the embedded file NAME, or "" when there is none.
std::string_view EmbeddedPythonFile(std::string_view name);

// The rows of the embedded table NAME (data/*.tsv): each line split at tabs; blank lines and lines that
// start with '#' (comments, the column names) left out. Views into the embedded text.
std::vector<std::vector<std::string_view>> EmbeddedPythonTable(std::string_view name);

}  // namespace errdex
