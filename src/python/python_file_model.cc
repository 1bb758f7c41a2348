#include "python/python_file_model.h"

#include <algorithm>

namespace errdex {

bool PythonFileModel::FinishScopes(int max_depth) {
  // scopes[0] is the module and stays first; the others are sorted by start, outer before inner.
  std::sort(scopes.begin() + 1, scopes.end(),
            [](const Scope& a, const Scope& b) { return a.start != b.start ? a.start < b.start : a.end > b.end; });
  scopes[0].kind = Scope::kModule;
  scopes[0].start = 0;
  scopes[0].end = static_cast<uint32_t>(source_.size());
  scopes[0].qualname = "<module>";
  std::vector<int> stack = {0};
  for (int i = 1; i < static_cast<int>(scopes.size()); ++i) {
    Scope& s = scopes[i];
    while (stack.size() > 1 && scopes[stack.back()].end <= s.start) stack.pop_back();
    s.parent = stack.back();
    stack.push_back(i);
    if (static_cast<int>(stack.size()) > max_depth + 1) return false;
  }
  for (int i = 1; i < static_cast<int>(scopes.size()); ++i) {
    Scope& s = scopes[i];
    const Scope& p = scopes[s.parent];
    if (p.kind == Scope::kModule) {
      s.qualname = s.name;
    } else if (p.kind == Scope::kClass) {
      s.qualname = p.qualname + "." + s.name;
    } else {
      s.qualname = p.qualname + ".<locals>." + s.name;
    }
  }
  return true;
}

int PythonFileModel::ScopeAt(uint32_t start, uint32_t end) const {
  // The last scope starting at or before START, then outwards until one contains the range.
  auto it = std::upper_bound(scopes.begin() + 1, scopes.end(), start,
                             [](uint32_t pos, const Scope& s) { return pos < s.start; });
  int i = static_cast<int>(it - scopes.begin()) - 1;
  while (i > 0 && !(scopes[i].start <= start && end <= scopes[i].end)) i = scopes[i].parent;
  return std::max(i, 0);
}

std::string PythonFileModel::Key(int scope, std::string_view name) {
  std::string key = std::to_string(scope);
  key.push_back('\0');
  key.append(name);
  return key;
}

void PythonFileModel::AddBinding(int scope, std::string_view name, Binding binding) {
  bindings_[Key(scope, name)].push_back(binding);
}

void PythonFileModel::FinishBindings() {
  for (auto& [key, list] : bindings_) {
    std::sort(list.begin(), list.end(), [](const Binding& a, const Binding& b) { return a.start < b.start; });
  }
}

const std::vector<Binding>* PythonFileModel::BindingsOf(int scope, std::string_view name) const {
  auto it = bindings_.find(Key(scope, name));
  return it == bindings_.end() ? nullptr : &it->second;
}

}  // namespace errdex
