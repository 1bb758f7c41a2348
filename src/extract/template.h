// Message templates: literal text with placeholders for what is only known at run time
// (docs/extraction.md, "Templates"). While a template is built it is a list of parts; stored and shown,
// it is text in which literal braces are doubled and each placeholder is `{expression}`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace errdex {

struct TemplatePart {
  bool placeholder = false;
  std::string text;  // literal text, or the placeholder's expression text
};

class Template {
 public:
  Template() = default;

  static Template Literal(std::string text);
  static Template Placeholder(std::string expression);

  void Append(const Template& other);
  void AppendLiteral(std::string_view text);
  void AppendPlaceholder(std::string expression);

  const std::vector<TemplatePart>& parts() const { return parts_; }
  std::vector<TemplatePart>& mutable_parts() { return parts_; }
  bool HasLiteralText() const;
  // Bytes of literal text and placeholder expressions.
  size_t size() const;

  // Placeholder expressions longer than this are cut (on a UTF-8 boundary, marked with "…"): they are
  // there to be read, and unbounded copies of long arguments would let a small file build huge templates.
  static constexpr size_t kMaxPlaceholderBytes = 256;

  // Text form: literal braces doubled, placeholders as `{expression}`.
  std::string Render() const;

 private:
  std::vector<TemplatePart> parts_;  // adjacent literals are merged
};

// Splits a rendered template back into parts. Placeholders are balanced `{...}`; doubled braces are
// literal. An unbalanced `{` is taken literally. Linear in the size of the text.
std::vector<TemplatePart> ParseRenderedTemplate(std::string_view rendered);

// The normalized form used for error ids and comparisons: every placeholder becomes `{}`.
std::string NormalizeTemplate(std::string_view rendered);

}  // namespace errdex
