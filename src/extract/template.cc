#include "extract/template.h"

#include <algorithm>

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

void Template::AppendPlaceholder(std::string expression) { parts_.push_back({true, std::move(expression)}); }

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

std::string Template::Render() const {
  std::string out;
  for (const TemplatePart& p : parts_) {
    if (p.placeholder) {
      out.push_back('{');
      out.append(p.text);
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
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if ((c == '{' || c == '}') && i + 1 < s.size() && s[i + 1] == c) {
      literal(s.substr(i, 1));
      i += 2;
      continue;
    }
    if (c == '{') {
      // Find the matching close brace; nested braces (format specs, dict displays) are balanced.
      // The scan is bounded so that hostile text with many unclosed braces stays linear.
      constexpr size_t kMaxPlaceholder = 4096;
      int depth = 0;
      size_t j = i;
      const size_t limit = std::min(s.size(), i + kMaxPlaceholder);
      for (; j < limit; ++j) {
        if (s[j] == '{') ++depth;
        if (s[j] == '}' && --depth == 0) break;
      }
      if (j < limit) {
        parts.push_back({true, std::string(s.substr(i + 1, j - i - 1))});
        i = j + 1;
        continue;
      }
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
