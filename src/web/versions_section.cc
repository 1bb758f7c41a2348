#include "web/versions_section.h"

#include "web/html.h"

namespace errdex::web {

namespace {

std::string Text(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string Range(const nlohmann::json& r) {
  std::string out = Text(r, "from");
  const std::string to = Text(r, "to");
  if (to != out) {
    out.append(" – ");
    out.append(to);
  }
  return out;
}

}  // namespace

void AppendVersionsSection(const nlohmann::json& versions, std::string& out) {
  if (!versions.is_object()) return;
  out += "<section id=\"versions\">\n<h2>Versions</h2>\n<p>In ";
  const nlohmann::json& ranges = versions.value("ranges", nlohmann::json::array());
  for (size_t k = 0; k < ranges.size() && k < 50; ++k) {
    if (k) out += ", ";
    out += "<code>";
    AppendEscaped(out, Range(ranges[k]));
    out += "</code>";
  }
  out += " of the indexed revisions";
  if (const std::string since = Text(versions, "since"); !since.empty()) {
    out += "; added in <code>";
    AppendEscaped(out, since);
    out += "</code>";
  }
  if (const std::string removed = Text(versions, "removed_in"); !removed.empty()) {
    out += "; removed in <code>";
    AppendEscaped(out, removed);
    out += "</code>";
  }
  out += ".</p>\n";
  const nlohmann::json& line = versions.value("line", nlohmann::json::array());
  if (line.is_array() && line.size() > 1) {
    out += "<ol class=\"versions-line\">\n";
    for (size_t k = 0; k < line.size() && k < 100; ++k) {
      const nlohmann::json& e = line[k];
      if (!e.is_object()) continue;
      out += "<li><code>";
      AppendEscaped(out, Range(e));
      out += "</code>: <q>";
      AppendEscaped(out, Text(e, "template"));
      out += "</q> at <code>";
      AppendEscaped(out, Text(e, "path"));
      if (e.contains("line") && e["line"].is_number_integer()) {
        out.push_back(':');
        out.append(std::to_string(e["line"].get<int64_t>()));
      }
      out += "</code>";
      if (const std::string changes = Text(e, "changes"); !changes.empty()) {
        out += " (";
        AppendEscaped(out, changes);
        out += ")";
      }
      out += "</li>\n";
    }
    out += "</ol>\n";
  }
  out += "</section>\n";
}

}  // namespace errdex::web
