#include "python/python_builtins.h"

#include <string>
#include <unordered_map>

#include "python/embedded_data.h"

namespace errdex {
namespace {

struct BuiltinName {
  std::string base;      // exceptions: the direct base ("" for BaseException)
  std::string_view doc;  // exceptions: the docstring's first paragraph
  bool exception = false;
};

using BuiltinTable = std::unordered_map<std::string_view, BuiltinName>;

// builtins.tsv: "name<TAB>kind<TAB>base<TAB>doc" rows. Aliases resolve in a second pass, so that
// EnvironmentError answers with OSError's base.
BuiltinTable ParseTable() {
  BuiltinTable table;
  std::unordered_map<std::string_view, std::string_view> aliases;
  for (const std::vector<std::string_view>& f : EmbeddedPythonTable("data/builtins.tsv")) {
    if (f.size() < 2) continue;
    BuiltinName& entry = table[f[0]];
    if (f[1] == "exception" && f.size() >= 4) {
      entry.exception = true;
      entry.base = std::string(f[2]);
      entry.doc = f[3];
    } else if (f[1] == "alias" && f.size() >= 3) {
      aliases[f[0]] = f[2];
    }
  }
  for (const auto& [alias, target] : aliases) {
    auto it = table.find(target);
    if (it != table.end() && it->second.exception) table[alias] = {it->second.base, {}, true};
  }
  return table;
}

const BuiltinTable& Table() {
  static const BuiltinTable kTable = ParseTable();
  return kTable;
}

}  // namespace

const char* BuiltinExceptionBase(std::string_view name) {
  auto it = Table().find(name);
  if (it == Table().end() || !it->second.exception) return nullptr;
  return it->second.base.c_str();
}

std::string_view BuiltinExceptionDoc(std::string_view name) {
  auto it = Table().find(name);
  return it == Table().end() ? std::string_view() : it->second.doc;
}

std::string_view BuiltinExceptionIgnoringCase(std::string_view name) {
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  for (const auto& [builtin, entry] : Table()) {
    if (!entry.exception || builtin.size() != name.size()) continue;
    bool same = true;
    for (size_t k = 0; k < name.size() && same; ++k) same = lower(builtin[k]) == lower(name[k]);
    if (same) return builtin;
  }
  return {};
}

bool IsBuiltinName(std::string_view name) { return Table().count(name) != 0; }

}  // namespace errdex
