#include "web/pages.h"

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <optional>

#include "util/json_fields.h"
#include "web/html.h"
#include "web/layout.h"
#include "web/site_paths.h"

namespace errdex::web {

namespace {

using nlohmann::json;

std::string ShortSha(const std::string& sha) { return sha.substr(0, 10); }

constexpr size_t kMaxShownPaste = 600;

void AppendSearchForm(std::string& out, std::string_view root, std::string_view paste) {
  out += "<form id=\"search-form\" class=\"search\" method=\"post\" action=\"";
  AppendEscaped(out, std::string(root) + "search");
  out +=
      "\">\n<label for=\"q\">Paste an error, a traceback or a log</label>\n"
      "<textarea id=\"q\" name=\"q\" rows=\"8\" required spellcheck=\"false\" autocomplete=\"off\" "
      "placeholder=\"ValueError: quantity must be positive, got -1\">";
  AppendEscaped(out, paste);
  out += "</textarea>\n<button type=\"submit\">Find where it comes from</button>\n</form>\n";
}

void AppendMatch(std::string& out, const json& m, bool closest) {
  const std::string id = Str(m, "id");
  out += closest ? "<li class=\"match closest\">" : "<li class=\"match\">";
  out += "<div class=\"match-head\">";
  const bool linked = IsErrorId(id);
  if (linked) {
    out += "<a href=\"";
    AppendEscaped(out, ErrorHref("./", id));
    out += "\">";
  }
  if (const std::string type = Str(m, "type"); !type.empty()) {
    out += "<span class=\"type\">";
    AppendEscaped(out, type);
    out += "</span>: ";
  }
  out += TemplateHtml(OptStr(m, "template"));
  if (linked) out += "</a>";
  if (const json* score = Get(m, "score"); score != nullptr && score->is_number()) {
    out += fmt::format(" <span class=\"score\">score {:.2f}</span>", score->get<double>());
  }
  if (closest) out += " <span class=\"tag\">not a match</span>";
  out += "</div>\n";
  if (const json* site = Get(m, "site"); site != nullptr && site->is_object()) {
    out += "<div class=\"where\">";
    AppendEscaped(out, Str(*site, "repo"));
    out += " · ";
    out += LocationHtml(Str(*site, "path"), static_cast<int>(Int(*site, "line")), OptStr(*site, "permalink"));
    if (const std::string f = Str(*site, "function"); !f.empty()) {
      out += " in <code>";
      AppendEscaped(out, f);
      out += "</code>";
    }
    if (const std::optional<std::string> rev = OptStr(*site, "rev")) {
      out += " <span class=\"rev\">@";
      AppendEscaped(out, ShortSha(*rev));
      out += "</span>";
    }
    out += "</div>\n";
  }
  if (const json* bindings = Get(m, "bindings"); bindings != nullptr && bindings->is_object() && !bindings->empty()) {
    out += "<table class=\"bindings\"><caption>Values in your text</caption>\n";
    for (const auto& [name, value] : bindings->items()) {
      out += "<tr><th scope=\"row\"><code>";
      AppendEscaped(out, name);
      out += "</code></th><td><code>";
      if (value.is_string()) AppendEscaped(out, value.get_ref<const std::string&>());
      out += "</code></td></tr>\n";
    }
    out += "</table>\n";
  }
  if (const json* why = Get(m, "why"); why != nullptr && why->is_array() && !why->empty()) {
    out += "<ul class=\"why\">\n";
    for (const json& w : *why) {
      if (!w.is_string()) continue;
      out += "<li>";
      AppendEscaped(out, w.get_ref<const std::string&>());
      out += "</li>\n";
    }
    out += "</ul>\n";
  }
  out += "</li>\n";
}

}  // namespace

namespace {

// One table of the home page: the repositories of LIST whose kind is one of KINDS, under TITLE; nothing
// when there is none.
void AppendRepoGroup(std::string& main, const std::string& root, const json& list,
                     std::initializer_list<std::string_view> kinds, std::string_view title,
                     std::string_view rev_title) {
  std::string rows;
  for (const json& r : list) {
    const std::string kind = Str(r, "kind");
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) continue;
    const std::string name = Str(r, "name");
    rows += "<tr><td><a href=\"";
    AppendEscaped(rows, RepoHref(root, name));
    rows += "\">";
    AppendEscaped(rows, name);
    rows += fmt::format("</a></td><td class=\"num\">{}</td><td><code>", Int(r, "errors"));
    const std::optional<std::string> rev = OptStr(r, "rev");
    // A commit is shortened; a version is shown whole.
    AppendEscaped(rows, !rev ? std::string("directory") : kind == "git" ? ShortSha(*rev) : *rev);
    rows += "</code></td><td>";
    AppendEscaped(rows, Str(r, "committed_at"));
    rows += "</td></tr>\n";
  }
  if (rows.empty()) return;
  main += "<h3>";
  AppendEscaped(main, std::string(title));
  main +=
      "</h3>\n<table class=\"repos\">\n<thead><tr><th scope=\"col\">Repository</th><th scope=\"col\">Errors</th>"
      "<th scope=\"col\">";
  AppendEscaped(main, std::string(rev_title));
  main += "</th><th scope=\"col\">Committed</th></tr></thead>\n<tbody>\n" + rows + "</tbody>\n</table>\n";
}

}  // namespace

std::string RenderHomePage(const json& repos) {
  const std::string root = "./";
  std::string main = "<section class=\"search-box\">\n<h1>Where does this error come from?</h1>\n";
  AppendSearchForm(main, root, "");
  main += "<section id=\"client-results\" class=\"results\" hidden aria-live=\"polite\"></section>\n</section>\n";
  main += "<section class=\"repos\">\n<h2>Indexed repositories</h2>\n";
  const json* list = Get(repos, "repositories");
  if (list == nullptr || !list->is_array() || list->empty()) {
    main += "<p>No repository is indexed yet: run <code>errdex index</code>.</p>\n";
  } else {
    // Grouped by kind (docs/environments.md): git repositories and directories, installed distributions,
    // the standard library, released archives.
    AppendRepoGroup(main, root, *list, {"git", "directory", ""}, "Git repositories and directories", "Revision");
    AppendRepoGroup(main, root, *list, {"distribution"}, "Installed distributions", "Version");
    AppendRepoGroup(main, root, *list, {"stdlib"}, "Python standard library", "Version");
    AppendRepoGroup(main, root, *list, {"archive"}, "Released archives", "Version");
  }
  main += "</section>\n";
  return RenderPage({"Search errors by their text", root, true}, main);
}

std::string RenderSearchPage(std::string_view paste, const json& explanation) {
  const std::string root = "./";
  std::string main = "<section class=\"search-box\">\n<h1>Where does this error come from?</h1>\n";
  AppendSearchForm(main, root, paste);
  main += "</section>\n";
  if (explanation.is_object()) {
    main += "<section class=\"results\">\n<p class=\"input\">Read as ";
    const std::string kind = Str(explanation, "input_kind");
    AppendEscaped(main, kind.empty() ? std::string("empty input") : fmt::format("a {}", kind));
    std::string shown = Str(explanation, "type");
    const std::string message = Str(explanation, "message");
    if (!message.empty()) shown += shown.empty() ? message : fmt::format(": {}", message);
    if (!shown.empty()) {
      main += ": <code>";
      AppendEscaped(main, ShortenText(shown, kMaxShownPaste));
      main += "</code>";
    }
    main += "</p>\n";
    const json* matches = Get(explanation, "matches");
    if (matches != nullptr && matches->is_array() && !matches->empty()) {
      main += fmt::format("<h2>{} {}</h2>\n<ol class=\"matches\">\n", matches->size(),
                          matches->size() == 1 ? "match" : "matches");
      for (const json& m : *matches) AppendMatch(main, m, false);
      main += "</ol>\n";
      // The other links of a chain (docs/matching.md, "Chains", "Wrapped errors"), outermost first.
      if (const json* chain = Get(explanation, "chain"); chain != nullptr && chain->is_array() && !chain->empty()) {
        main += "<h2>Other links of the chain</h2>\n<ol class=\"matches chain\">\n";
        for (const json& m : *chain) AppendMatch(main, m, false);
        main += "</ol>\n";
      }
    } else {
      main += "<h2>No error of the catalog matches this input</h2>\n";
      const json* closest = Get(explanation, "closest");
      if (closest != nullptr && closest->is_array() && !closest->empty()) {
        main += "<p>The closest candidates, which do not match:</p>\n<ol class=\"matches\">\n";
        for (const json& m : *closest) AppendMatch(main, m, true);
        main += "</ol>\n";
      }
    }
    main += "</section>\n";
  }
  return RenderPage(
      {paste.empty() ? std::string("Search") : fmt::format("Search: {}", ShortenText(paste, 60)), root, false}, main);
}

std::string RenderRepoPage(const json& data, std::string_view root, std::string_view extra_html) {
  const std::string repo = Str(data, "repo");
  const std::optional<std::string> type = OptStr(data, "type");
  const std::optional<std::string> q = OptStr(data, "q");
  const bool filtered = (type && !type->empty()) || (q && !q->empty());
  const int64_t page = Int(data, "page"), pages = Int(data, "pages"), total = Int(data, "total");
  std::string main = "<article class=\"repo\">\n<p class=\"title-line\"><a href=\"";
  AppendEscaped(main, HomeHref(root));
  main += "\">Repositories</a> · errors</p>\n<h1>";
  AppendEscaped(main, repo);
  main += "</h1>\n<p class=\"summary\">";
  main += fmt::format("{} {}", total, total == 1 ? "error" : "errors");
  main += filtered ? " match the filter" : "";
  if (const std::optional<std::string> rev = OptStr(data, "rev")) {
    main += " at commit <code>";
    AppendEscaped(main, ShortSha(*rev));
    main += "</code>";
    if (const std::string date = Str(data, "committed_at"); !date.empty()) {
      main += ", committed ";
      AppendEscaped(main, date);
    }
  }
  main += ".</p>\n";
  main += extra_html;

  // The filter: a GET form to this page (answered by the server; a static copy shows every error).
  main += "<form class=\"filter\" method=\"get\" action=\"";
  AppendEscaped(main, RepoHref(root, repo));
  main +=
      "\">\n<label for=\"type\">Type</label> <select id=\"type\" name=\"type\"><option value=\"\">all types</option>\n";
  if (const json* types = Get(data, "types"); types != nullptr && types->is_array()) {
    for (const json& t : *types) {
      const std::string name = Str(t, "type");
      main += "<option value=\"";
      AppendEscaped(main, name);
      main += type && *type == name ? "\" selected>" : "\">";
      AppendEscaped(main, name);
      main += fmt::format(" ({})</option>\n", Int(t, "count"));
    }
  }
  main += "</select>\n<label for=\"text\">Text</label> <input id=\"text\" type=\"search\" name=\"q\" value=\"";
  AppendEscaped(main, q.value_or(""));
  main += "\">\n<button type=\"submit\">Filter</button>\n</form>\n";

  const json* errors = Get(data, "errors");
  std::string module, group_type;
  bool open_list = false;
  if (errors != nullptr && errors->is_array()) {
    for (const json& e : *errors) {
      const std::string m = Str(e, "module");
      std::string t = Str(e, "type");
      if (t.empty()) t = Str(e, "type_qualified");
      if (t.empty()) t = "(re-raise)";
      if (m != module || t != group_type || !open_list) {
        if (open_list) main += "</ul>\n";
        if (m != module || !open_list) {
          main += "<h2 class=\"module\">";
          AppendEscaped(main, m.empty() ? std::string("(no module)") : m);
          main += "</h2>\n";
        }
        main += "<h3 class=\"type\">";
        AppendEscaped(main, t);
        main += "</h3>\n<ul class=\"errors\">\n";
        module = m;
        group_type = t;
        open_list = true;
      }
      main += "<li><a href=\"";
      AppendEscaped(main, ErrorHref(root, Str(e, "id")));
      main += "\">";
      main += TemplateHtml(OptStr(e, "template"));
      main += "</a> <span class=\"where\">";
      main += LocationHtml(Str(e, "path"), static_cast<int>(Int(e, "line")), OptStr(e, "permalink"));
      if (const std::string f = Str(e, "function"); !f.empty()) {
        main += " in <code>";
        AppendEscaped(main, f);
        main += "</code>";
      }
      main += "</span>";
      if (Int(e, "sites") > 1) main += fmt::format(" <span class=\"tag\">{} places</span>", Int(e, "sites"));
      if (const json* t2 = Get(e, "is_test"); t2 != nullptr && t2->is_boolean() && t2->get<bool>()) {
        main += " <span class=\"tag\">test</span>";
      }
      main += "</li>\n";
    }
  }
  if (open_list) main += "</ul>\n";
  if (total == 0) main += "<p>No error here.</p>\n";

  if (pages > 1) {
    auto page_href = [&](int64_t n) {
      if (!filtered) return RepoHref(root, repo, static_cast<int>(n));
      std::string href = RepoHref(root, repo) + "?";
      if (type && !type->empty()) href += fmt::format("type={}&", PercentEncode(*type));
      if (q && !q->empty()) href += fmt::format("q={}&", PercentEncode(*q));
      return href + fmt::format("page={}", n);
    };
    main += "<nav class=\"pager\" aria-label=\"pages\">";
    if (page > 1) {
      main += "<a rel=\"prev\" href=\"";
      AppendEscaped(main, page_href(page - 1));
      main += "\">← previous</a> ";
    }
    main += fmt::format("<span>page {} of {}</span>", page, pages);
    if (page < pages) {
      main += " <a rel=\"next\" href=\"";
      AppendEscaped(main, page_href(page + 1));
      main += "\">next →</a>";
    }
    main += "</nav>\n";
  }
  main += "</article>\n";
  std::string title = repo + " · errors";
  if (page > 1) title += fmt::format(" · page {}", page);
  return RenderPage({title, std::string(root), false}, main);
}

std::string RenderMessagePage(std::string_view title, std::string_view message, std::string_view root) {
  std::string main = "<article class=\"status\">\n<h1>";
  AppendEscaped(main, title);
  main += "</h1>\n<p>";
  AppendEscaped(main, message);
  main += "</p>\n<p><a href=\"";
  AppendEscaped(main, HomeHref(root));
  main += "\">Search and repositories</a></p>\n</article>\n";
  return RenderPage({std::string(title), std::string(root), false}, main);
}

}  // namespace errdex::web
