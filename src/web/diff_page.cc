#include "web/diff_page.h"

#include <fmt/format.h>

#include "web/html.h"
#include "web/layout.h"
#include "web/site_paths.h"

namespace errdex::web {

namespace {

std::string Text(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void AppendSide(const nlohmann::json& side, std::string_view root, std::string& out) {
  if (!side.is_object()) return;
  out += "<a href=\"";
  AppendEscaped(out, ErrorHref(root, Text(side, "id")));
  out += "\"><span class=\"type\">";
  AppendEscaped(out, Text(side, "type"));
  out += "</span>: <q>";
  AppendEscaped(out, Text(side, "template"));
  out += "</q></a> <code>";
  AppendEscaped(out, Text(side, "path"));
  if (side.contains("line") && side["line"].is_number_integer()) {
    out.push_back(':');
    out.append(std::to_string(side["line"].get<int64_t>()));
  }
  out += "</code> in <code>";
  AppendEscaped(out, Text(side, "function"));
  out += "</code>";
}

void AppendSection(const nlohmann::json& diff, const char* key, std::string_view root, std::string& out) {
  const nlohmann::json& list = diff.value(key, nlohmann::json::array());
  if (!list.is_array() || list.empty()) return;
  out += fmt::format("<section class=\"diff-{0}\">\n<h2>{0} ({1})</h2>\n<ul>\n", key, list.size());
  for (const nlohmann::json& e : list) {
    out += "<li>";
    const nlohmann::json before = e.value("before", nlohmann::json()), after = e.value("after", nlohmann::json());
    if (before.is_object() && after.is_object()) {
      AppendSide(before, root, out);
      out += " → ";
      AppendSide(after, root, out);
      std::string changes;
      for (const nlohmann::json& c : e.value("changes", nlohmann::json::array())) {
        if (c.is_string()) changes += (changes.empty() ? "" : ", ") + c.get<std::string>();
      }
      out += " <small>(";
      AppendEscaped(out, changes);
      out += fmt::format("; {}%)</small>", e.value("confidence", 0));
    } else {
      AppendSide(before.is_object() ? before : after, root, out);
    }
    out += "</li>\n";
  }
  out += "</ul>\n</section>\n";
}

}  // namespace

std::string RenderDiffPage(const nlohmann::json& diff, std::string_view root) {
  const std::string repo = Text(diff, "repo");
  const std::string from = Text(diff.value("from", nlohmann::json()), "label");
  const std::string to = Text(diff.value("to", nlohmann::json()), "label");
  std::string main = "<article class=\"diff\">\n<p class=\"title-line\"><a href=\"";
  AppendEscaped(main, RepoHref(root, repo));
  main += "\">";
  AppendEscaped(main, repo);
  main += "</a></p>\n<h1>Errors from <code>";
  AppendEscaped(main, from);
  main += "</code> to <code>";
  AppendEscaped(main, to);
  main += "</code></h1>\n";
  for (const char* key : {"added", "removed", "reworded", "moved", "renamed", "retyped"}) {
    AppendSection(diff, key, root, main);
  }
  main += fmt::format("<p>{} errors unchanged.</p>\n</article>\n", diff.value("unchanged", 0));
  return RenderPage({repo + " · errors from " + from + " to " + to, std::string(root), false}, main);
}

std::string RenderDiffLinks(std::string_view repo, const std::vector<std::string>& labels, std::string_view root) {
  if (labels.size() < 2) return "";
  std::string out = "<nav class=\"diffs\">\n<h2>Changes between indexed revisions</h2>\n<ul>\n";
  for (size_t i = labels.size() - 1; i >= 1; --i) {
    out += "<li><a href=\"";
    AppendEscaped(out, DiffHref(root, repo, labels[i - 1], labels[i]));
    out += "\"><code>";
    AppendEscaped(out, labels[i - 1]);
    out += "</code> → <code>";
    AppendEscaped(out, labels[i]);
    out += "</code></a></li>\n";
  }
  return out + "</ul>\n</nav>\n";
}

}  // namespace errdex::web
