// Simple server-side syntax highlighting of Python source for the web pages: keywords, strings (every
// prefix, triple-quoted ones across lines), comments, numbers and decorators are wrapped in
// <span class="kw|st|cm|nu|dc">. Everything else is plain text. All text goes through AppendEscaped.
//
// Threading: pure functions. Linear in the size of the code.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace errdex::web {

// CODE as HTML, one string per source line (a trailing "\r" is dropped); spans never cross lines: a
// string that continues on the next line is closed at the line's end and reopened on the next.
std::vector<std::string> HighlightPython(std::string_view code);

}  // namespace errdex::web
