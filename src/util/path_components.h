// The components of a file path as pastes and catalogs show it: split at '/' and '\', empty components
// left out ("C:\\x\\y.py" -> "C:", "x", "y.py"). Pure; the views point into the caller's path.
#pragma once

#include <string_view>
#include <vector>

namespace errdex {

inline std::vector<std::string_view> PathComponents(std::string_view path) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i <= path.size()) {
    size_t j = path.find_first_of("/\\", i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) out.push_back(path.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

}  // namespace errdex
