// The frame of every page and the small pieces several pages share: a message template with its
// placeholders marked, a path:line linked to its pinned permalink, a highlighted source block. Every piece
// of repository text goes through AppendEscaped (web/html.h).
//
// Threading: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace errdex::web {

struct PageFrame {
  std::string title;           // plain text; " · errdex" is appended
  std::string root;            // RootPrefix of the page
  bool search_script = false;  // load static/errdex.js (the home page's client-side search)
};

// A whole HTML document around MAIN (HTML).
std::string RenderPage(const PageFrame& frame, std::string_view main);

// A rendered template as HTML: literal text (doubled braces shown once) and each placeholder as
// <span class="ph">{expression}</span>; "(no message)" in <em> when there is none.
std::string TemplateHtml(const std::optional<std::string>& rendered);

// PATH:LINE as a link to PERMALINK when it is a safe external URL, else as text.
std::string LocationHtml(std::string_view path, int line, const std::optional<std::string>& permalink);

// A source block: CODE's lines numbered from START_LINE, lines FIRST..LAST marked as the raise.
std::string CodeBlockHtml(std::string_view code, int start_line, int first_marked, int last_marked);

// "GitHub", "GitLab", "Bitbucket", "Codeberg", else "the forge", for a repository web URL.
std::string ForgeName(std::string_view url);

}  // namespace errdex::web
