#include "extract/template.h"

#include <algorithm>
#include <cstdint>

namespace errdex {

Template Template::Literal(std::string text) {
  Template t;
  t.AppendLiteral(text);
  return t;
}

Template Template::Placeholder(std::string expression) {
  Template t;
  t.AppendPlaceholder(std::move(expression));
  return t;
}

void Template::AppendLiteral(std::string_view text) {
  if (text.empty()) return;
  if (!parts_.empty() && !parts_.back().placeholder) {
    parts_.back().text.append(text);
  } else {
    parts_.push_back({false, std::string(text)});
  }
}

void Template::AppendPlaceholder(std::string expression) {
  if (expression.size() > kMaxPlaceholderBytes) {
    size_t cut = kMaxPlaceholderBytes;
    while (cut > 0 && (static_cast<unsigned char>(expression[cut]) & 0xC0) == 0x80) --cut;
    expression.resize(cut);
    expression.append("\u2026");
  }
  parts_.push_back({true, std::move(expression)});
}

size_t Template::size() const {
  size_t total = 0;
  for (const TemplatePart& p : parts_) total += p.text.size();
  return total;
}

void Template::Append(const Template& other) {
  for (const TemplatePart& p : other.parts_) {
    if (p.placeholder) {
      parts_.push_back(p);
    } else {
      AppendLiteral(p.text);
    }
  }
}

bool Template::HasLiteralText() const {
  for (const TemplatePart& p : parts_) {
    if (!p.placeholder && !p.text.empty()) return true;
  }
  return false;
}

namespace {

// The text of a placeholder as rendered, such that parsing the rendered template finds it again: braces
// that do not balance (`f"{'{'}"`, a cut expression) become U+2774/U+2775, and text that begins with a
// brace (a dict display) is padded with a space, so that `{{` is never read as a literal brace.
std::string RenderPlaceholderText(const std::string& text) {
  long depth = 0;
  bool balanced = true;
  for (char c : text) {
    if (c == '{') ++depth;
    if (c == '}' && --depth < 0) balanced = false;
  }
  balanced = balanced && depth == 0;
  std::string out;
  if (balanced) {
    out = text;
  } else {
    for (char c : text) {
      if (c == '{') {
        out.append("\u2774");
      } else if (c == '}') {
        out.append("\u2775");
      } else {
        out.push_back(c);
      }
    }
  }
  if (!out.empty() && out.front() == '{') out = " " + out + " ";
  return out;
}

}  // namespace

std::string Template::Render() const {
  std::string out;
  for (const TemplatePart& p : parts_) {
    if (p.placeholder) {
      out.push_back('{');
      out.append(RenderPlaceholderText(p.text));
      out.push_back('}');
      continue;
    }
    for (char c : p.text) {
      out.push_back(c);
      if (c == '{' || c == '}') out.push_back(c);
    }
  }
  return out;
}

std::vector<TemplatePart> ParseRenderedTemplate(std::string_view s) {
  std::vector<TemplatePart> parts;
  auto literal = [&](std::string_view text) {
    if (text.empty()) return;
    if (!parts.empty() && !parts.back().placeholder) {
      parts.back().text.append(text);
    } else {
      parts.push_back({false, std::string(text)});
    }
  };
  // The brace closing a `{` is found by bracket matching over all braces (inside a placeholder every
  // brace counts), computed for the whole text in one pass so that text with many unclosed braces
  // stays linear. close[i] is the index of the `}` matching the `{` at i, or kNone.
  constexpr uint32_t kNone = UINT32_MAX;
  const size_t n = s.size();
  std::vector<uint32_t> close;
  if (s.find('{') != std::string_view::npos && n < kNone) {
    close.assign(n, kNone);
    std::vector<uint32_t> open;
    for (size_t k = 0; k < n; ++k) {
      if (s[k] == '{') {
        open.push_back(static_cast<uint32_t>(k));
      } else if (s[k] == '}' && !open.empty()) {
        close[open.back()] = static_cast<uint32_t>(k);
        open.pop_back();
      }
    }
  }
  size_t i = 0;
  while (i < n) {
    char c = s[i];
    if ((c == '{' || c == '}') && i + 1 < n && s[i + 1] == c) {
      literal(s.substr(i, 1));
      i += 2;
      continue;
    }
    if (c == '{' && !close.empty() && close[i] != kNone) {
      const size_t j = close[i];
      parts.push_back({true, std::string(s.substr(i + 1, j - i - 1))});
      i = j + 1;
      continue;
    }
    literal(s.substr(i, 1));
    ++i;
  }
  return parts;
}

std::string NormalizeTemplate(std::string_view rendered) {
  std::string out;
  out.reserve(rendered.size());
  for (const TemplatePart& p : ParseRenderedTemplate(rendered)) {
    if (p.placeholder) {
      out.append("{}");
      continue;
    }
    for (char c : p.text) {
      out.push_back(c);
      if (c == '{' || c == '}') out.push_back(c);
    }
  }
  return out;
}

}  // namespace errdex
