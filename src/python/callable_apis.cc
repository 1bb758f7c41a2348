#include "python/callable_apis.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "python/embedded_data.h"

namespace errdex {
namespace {

struct CallableApis {
  std::unordered_set<std::string_view> registering_paths;
  std::unordered_set<std::string_view> registering_attributes;
  std::unordered_set<std::string_view> inspecting_paths;
  std::unordered_set<std::string_view> inspecting_modules;
  std::unordered_map<std::string_view, std::string_view> attribute_types;
  std::unordered_map<std::string_view, std::string_view> result_types;
  std::unordered_set<std::string> methods;       // "type.method"
  std::unordered_set<std::string> method_names;  // "method", of any builtin type
  std::unordered_set<std::string_view> iterating_builtins, iterating_methods;
};

CallableApis Load() {
  CallableApis t;
  for (const std::vector<std::string_view>& row : EmbeddedPythonTable("data/callable_apis.tsv")) {
    if (row.size() < 3 || row[2].empty()) continue;
    const std::string_view rule = row[0], match = row[1], name = row[2];
    if (rule == "registers") {
      (match == "attribute" ? t.registering_attributes : t.registering_paths).insert(name);
    } else if (rule == "iterates") {
      (match == "attribute" ? t.iterating_methods : t.iterating_builtins).insert(name);
    } else if (rule == "inspects") {
      (match == "module" ? t.inspecting_modules : t.inspecting_paths).insert(name);
    } else if (rule == "builtin_methods" && row.size() >= 4) {
      std::string_view list = row[3];
      while (!list.empty()) {
        const size_t comma = std::min(list.find(','), list.size());
        if (comma > 0) {
          t.methods.insert(std::string(name) + "." + std::string(list.substr(0, comma)));
          t.method_names.insert(std::string(list.substr(0, comma)));
        }
        list.remove_prefix(std::min(comma + 1, list.size()));
      }
    } else if (rule == "builtin_attribute" && row.size() >= 4 && !row[3].empty()) {
      t.attribute_types.emplace(name, row[3]);
    } else if (rule == "builtin_result" && row.size() >= 4 && !row[3].empty()) {
      t.result_types.emplace(name, row[3]);
    }
  }
  return t;
}

const CallableApis& Table() {
  static const CallableApis table = Load();
  return table;
}

}  // namespace

bool RegistersCallable(std::string_view path) {
  const CallableApis& t = Table();
  if (t.registering_paths.count(path)) return true;
  const size_t dot = path.rfind('.');
  return dot != std::string_view::npos && t.registering_attributes.count(path.substr(dot + 1));
}

bool InspectsCallable(std::string_view path) {
  const CallableApis& t = Table();
  if (t.inspecting_paths.count(path)) return true;
  for (size_t dot = path.find('.'); dot != std::string_view::npos; dot = path.find('.', dot + 1)) {
    if (t.inspecting_modules.count(path.substr(0, dot))) return true;
  }
  return false;
}

bool IteratesArguments(std::string_view name, bool method) {
  const CallableApis& t = Table();
  return (method ? t.iterating_methods : t.iterating_builtins).count(name) > 0;
}

std::string_view BuiltinAttributeType(std::string_view attribute) {
  const CallableApis& t = Table();
  auto it = t.attribute_types.find(attribute);
  return it == t.attribute_types.end() ? std::string_view() : it->second;
}

bool IsBuiltinMethod(std::string_view type, std::string_view method) {
  std::string key(type);
  key += '.';
  key += method;
  return Table().methods.count(key) > 0;
}

bool IsMethodOfABuiltinType(std::string_view method) { return Table().method_names.count(std::string(method)) > 0; }

std::string_view BuiltinResultType(std::string_view name) {
  const CallableApis& t = Table();
  auto it = t.result_types.find(name);
  return it == t.result_types.end() ? std::string_view() : it->second;
}

}  // namespace errdex
