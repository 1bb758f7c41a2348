#include "match/type_case.h"

#include <algorithm>
#include <set>

#include "match/type_agreement.h"
#include "python/python_builtins.h"

namespace errdex {

std::string RestoreTypeCase(Catalog& catalog, std::string_view type) {
  if (type.empty() || std::any_of(type.begin(), type.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) {
    return std::string(type);
  }
  const std::string_view last = LastComponent(type);
  const std::string prefix(type.substr(0, type.size() - last.size()));
  if (std::string_view builtin = BuiltinExceptionIgnoringCase(last); !builtin.empty()) {
    return prefix + std::string(builtin);
  }
  constexpr int64_t kMaxClasses = 16;
  std::set<std::string> spellings;
  for (const std::string& qualified : catalog.ClassNamesIgnoringCase(std::string(last), kMaxClasses)) {
    spellings.insert(std::string(LastComponent(qualified)));
  }
  if (spellings.size() != 1) return std::string(type);
  return prefix + *spellings.begin();
}

}  // namespace errdex
