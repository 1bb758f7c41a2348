#include "python/import_bindings.h"

#include <algorithm>

namespace errdex {

void ImportBindings::Add(const PythonFileModel& model, const PendingImport& im, FileFacts* facts) {
  auto text = [&](TSNode n) { return ts_node_is_null(n) ? std::string() : std::string(model.Text(n)); };
  if (ts_node_is_null(im.from)) {
    // import a.b.c  -> a bound to a;  import a.b as x -> x bound to a.b
    std::string module = text(im.module);
    if (module.empty()) return;
    std::string alias = text(im.alias);
    if (alias.empty()) {
      std::string head = module.substr(0, module.find('.'));
      facts->imports.push_back({head, head});
      if (module == "warnings") warnings_modules_.insert("warnings");
    } else {
      facts->imports.push_back({alias, module});
      if (module == "warnings") warnings_modules_.insert(alias);
      if (module == "pytest") pytest_modules_.insert(alias);
    }
    return;
  }
  std::string from = text(im.from);
  from.erase(std::remove_if(from.begin(), from.end(), [](char c) { return c == ' ' || c == '\t'; }), from.end());
  if (from == "__future__") return;
  if (!ts_node_is_null(im.wildcard)) {
    facts->wildcard_imports.push_back(from);
    return;
  }
  std::string name = text(im.name);
  if (name.empty()) return;
  std::string alias = text(im.alias);
  const std::string& bound = alias.empty() ? name : alias;
  std::string target = from;
  if (!target.empty() && target.back() != '.') target.push_back('.');
  target += name;
  facts->imports.push_back({bound, target});
  if (target == "warnings.warn" || target == "warnings.warn_explicit") warn_functions_.insert(bound);
  if (target == "pytest.raises") raises_functions_.insert(bound);
}

}  // namespace errdex
