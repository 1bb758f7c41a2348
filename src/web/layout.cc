#include "web/layout.h"

#include <fmt/format.h>

#include "extract/template.h"
#include "web/highlight.h"
#include "web/html.h"
#include "web/site_paths.h"

namespace errdex::web {

std::string RenderPage(const PageFrame& frame, std::string_view main) {
  std::string out;
  out.reserve(main.size() + 1200);
  out +=
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"color-scheme\" content=\"light dark\">\n"
      "<meta name=\"referrer\" content=\"no-referrer\">\n<title>";
  AppendEscaped(out, frame.title);
  out += " · errdex</title>\n<link rel=\"stylesheet\" href=\"";
  AppendEscaped(out, StaticHref(frame.root, "errdex.css"));
  out += "\">\n";
  if (frame.search_script) {
    out += "<script src=\"";
    AppendEscaped(out, StaticHref(frame.root, "errdex.js"));
    out += "\" defer></script>\n";
  }
  out += "</head>\n<body>\n<header class=\"top\"><a class=\"brand\" href=\"";
  AppendEscaped(out, HomeHref(frame.root));
  out += "\">errdex</a><span class=\"tagline\">errors, from the source</span></header>\n<main>\n";
  out += main;
  out += "</main>\n<footer class=\"site\"><a href=\"";
  AppendEscaped(out, HomeHref(frame.root));
  out += "\">Search and repositories</a> · <a href=\"";
  AppendEscaped(out, frame.root + "api/openapi.json");
  out += "\">JSON API</a></footer>\n</body>\n</html>\n";
  return out;
}

std::string TemplateHtml(const std::optional<std::string>& rendered) {
  if (!rendered) return "<em class=\"none\">(no message)</em>";
  if (rendered->empty()) return "<em class=\"none\">(empty message)</em>";
  std::string out;
  for (const TemplatePart& part : ParseRenderedTemplate(*rendered)) {
    if (part.placeholder) {
      out += "<span class=\"ph\">{";
      AppendEscaped(out, part.text);
      out += "}</span>";
    } else {
      AppendEscaped(out, part.text);
    }
  }
  return out;
}

std::string LocationHtml(std::string_view path, int line, const std::optional<std::string>& permalink) {
  std::string out;
  std::optional<std::string> href = permalink ? SafeExternalUrl(*permalink) : std::nullopt;
  if (href) {
    out += "<a class=\"loc\" href=\"";
    AppendEscaped(out, *href);
    out += "\">";
  } else {
    out += "<span class=\"loc\">";
  }
  AppendEscaped(out, path);
  out += fmt::format(":{}", line);
  out += href ? "</a>" : "</span>";
  return out;
}

std::string CodeBlockHtml(std::string_view code, int start_line, int first_marked, int last_marked) {
  std::string out = "<pre class=\"code\"><code>";
  int n = start_line;
  for (const std::string& line : HighlightPython(code)) {
    const bool hit = n >= first_marked && n <= last_marked;
    out += hit ? "<span class=\"l hit\">" : "<span class=\"l\">";
    out += fmt::format("<span class=\"n\">{}</span>", n);
    out += hit ? "<span class=\"mark\" title=\"raised here\">▶</span>" : "<span class=\"mark\"> </span>";
    out += line;
    out += "</span>\n";
    ++n;
  }
  out += "</code></pre>\n";
  return out;
}

std::string ForgeName(std::string_view url) {
  auto has = [&](std::string_view host) {
    return url.find(fmt::format("://{}", host)) != std::string_view::npos ||
           url.find(fmt::format("://www.{}", host)) != std::string_view::npos;
  };
  if (has("github.com")) return "GitHub";
  if (has("gitlab.com")) return "GitLab";
  if (has("bitbucket.org")) return "Bitbucket";
  if (has("codeberg.org")) return "Codeberg";
  return "the forge";
}

}  // namespace errdex::web
