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

// Parses builtins.tsv: "name<TAB>kind<TAB>base<TAB>doc" lines, '#' comments. Aliases resolve in a second
// pass, so that EnvironmentError answers with OSError's base.
BuiltinTable ParseTable(std::string_view text) {
  BuiltinTable table;
  std::unordered_map<std::string_view, std::string_view> aliases;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (line.empty() || line[0] == '#') continue;
    std::string_view fields[4];
    for (int i = 0; i < 4; ++i) {
      const size_t tab = i < 3 ? line.find('\t') : std::string_view::npos;
      fields[i] = line.substr(0, tab);
      line = tab == std::string_view::npos ? std::string_view() : line.substr(tab + 1);
    }
    BuiltinName& entry = table[fields[0]];
    if (fields[1] == "exception") {
      entry.exception = true;
      entry.base = std::string(fields[2]);
      entry.doc = fields[3];
    } else if (fields[1] == "alias") {
      aliases[fields[0]] = fields[2];
    }
  }
  for (const auto& [alias, target] : aliases) {
    auto it = table.find(target);
    if (it != table.end() && it->second.exception) table[alias] = {it->second.base, {}, true};
  }
  return table;
}

const BuiltinTable& Table() {
  static const BuiltinTable kTable = ParseTable(EmbeddedPythonFile("data/builtins.tsv"));
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

bool IsBuiltinName(std::string_view name) { return Table().count(name) != 0; }

}  // namespace errdex
