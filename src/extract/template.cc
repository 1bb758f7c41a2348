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
  // The brace that closes a `{` at i is the first j > i where the brace depth (all braces counted, as
  // inside a placeholder) returns to its value before i. Computed for every position in one backward
  // pass, so that text with many unclosed braces stays linear: close[i] is that j, or npos.
  const size_t n = s.size();
  std::vector<long> depth(n + 1, 0);  // depth[k]: '{' minus '}' in s[0, k)
  for (size_t k = 0; k < n; ++k) depth[k + 1] = depth[k] + (s[k] == '{') - (s[k] == '}');
  std::vector<size_t> close(n, std::string_view::npos);
  std::vector<size_t> next_at(2 * n + 2, std::string_view::npos);  // by depth + n: next k with it
  for (size_t k = n + 1; k-- > 0;) {
    const size_t slot = static_cast<size_t>(depth[k] + static_cast<long>(n));
    if (k < n && s[k] == '{' && next_at[slot] != std::string_view::npos) close[k] = next_at[slot] - 1;
    next_at[slot] = k;
  }
  size_t i = 0;
  while (i < n) {
    char c = s[i];
    if ((c == '{' || c == '}') && i + 1 < n && s[i + 1] == c) {
      literal(s.substr(i, 1));
      i += 2;
      continue;
    }
    if (c == '{' && close[i] != std::string_view::npos) {
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
