// libFuzzer target for the text-level pieces of template reconstruction (src/extract/template.h,
// src/python/python_string.h): ParseRenderedTemplate / NormalizeTemplate on arbitrary text, and
// DecodeStringBody with a string prefix chosen by the first input byte.
//
// Build and run: fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "extract/template.h"
#include "python/python_string.h"
#include "util/utf8.h"

namespace {

[[noreturn]] void Fail(const char* what, std::string_view input) {
  std::fprintf(stderr, "template_fuzzer: invariant violated: %s (input of %zu bytes)\n", what, input.size());
  std::abort();
}

bool SameParts(const std::vector<errdex::TemplatePart>& a, const std::vector<errdex::TemplatePart>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].placeholder != b[i].placeholder || a[i].text != b[i].text) return false;
  }
  return true;
}

std::string Render(const std::vector<errdex::TemplatePart>& parts) {
  errdex::Template t;
  for (const errdex::TemplatePart& p : parts) {
    if (p.placeholder) {
      t.AppendPlaceholder(p.text);
    } else {
      t.AppendLiteral(p.text);
    }
  }
  return t.Render();
}

void CheckTemplate(std::string_view text) {
  const std::vector<errdex::TemplatePart> parts = errdex::ParseRenderedTemplate(text);
  size_t literal_bytes = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!parts[i].placeholder) {
      if (parts[i].text.empty()) Fail("an empty literal part", text);
      if (i > 0 && !parts[i - 1].placeholder) Fail("adjacent literal parts", text);
      literal_bytes += parts[i].text.size();
    } else if (parts[i].text.size() >= text.size()) {
      Fail("a placeholder longer than the text", text);
    }
  }
  if (literal_bytes > text.size()) Fail("more literal text than input", text);
  // Rendering the parts and parsing them again gives the same parts, unless the Template cut a long
  // placeholder (Template::kMaxPlaceholderBytes), which is by design.
  for (const errdex::TemplatePart& p : parts) {
    if (p.placeholder && p.text.size() > errdex::Template::kMaxPlaceholderBytes) return;
  }
  const std::string rendered = Render(parts);
  if (!SameParts(errdex::ParseRenderedTemplate(rendered), parts)) Fail("parse(render(parse(x))) != parse(x)", text);
  // Normalization is idempotent, agrees with the round trip, and leaves only empty placeholders.
  const std::string normalized = errdex::NormalizeTemplate(text);
  if (errdex::NormalizeTemplate(normalized) != normalized) Fail("normalization is not idempotent", text);
  if (errdex::NormalizeTemplate(rendered) != normalized) Fail("normalize(render(parse(x))) != normalize(x)", text);
  for (const errdex::TemplatePart& p : errdex::ParseRenderedTemplate(normalized)) {
    if (p.placeholder && !p.text.empty()) Fail("a non-empty placeholder after normalization", text);
  }
}

// A placeholder text that renders as written: balanced braces, not starting with '{'. Others are
// rewritten by Render (U+2774/U+2775 for unbalanced braces, a space of padding before a leading '{').
bool RendersAsWritten(std::string_view text) {
  if (!text.empty() && text[0] == '{') return false;
  int depth = 0;
  for (char c : text) {
    depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth == 0;
}

// Builds a template from INPUT split at 0x01 bytes, alternating literal and placeholder parts, and checks
// that parsing its rendering gives its parts back.
void CheckRender(std::string_view input) {
  errdex::Template t;
  bool placeholder = false;
  for (size_t start = 0; start <= input.size();) {
    size_t end = input.find('\x01', start);
    if (end == std::string_view::npos) end = input.size();
    const std::string_view piece = input.substr(start, end - start);
    if (placeholder) {
      t.AppendPlaceholder(std::string(piece));
    } else {
      t.AppendLiteral(piece);
    }
    placeholder = !placeholder;
    start = end + 1;
  }
  // Whatever the placeholders hold, the rendering parses back into the same literal texts and the same
  // placeholders in the same places; texts that render as written come back unchanged.
  const std::vector<errdex::TemplatePart> back = errdex::ParseRenderedTemplate(t.Render());
  const std::vector<errdex::TemplatePart>& parts = t.parts();
  bool same = back.size() == parts.size();
  for (size_t i = 0; same && i < parts.size(); ++i) {
    same = back[i].placeholder == parts[i].placeholder &&
           (back[i].text == parts[i].text || (parts[i].placeholder && !RendersAsWritten(parts[i].text)));
  }
  if (!same) Fail("parse(render(template)) does not give the template's parts back", input);
}

void CheckDecode(std::string_view body, const errdex::StringPrefix& prefix) {
  const std::string decoded = errdex::DecodeStringBody(body, prefix);
  // Every escape is at least as long as its UTF-8 value (\x.. of a bytes literal: 4 bytes -> 2, \777 -> 2,
  // \U........ -> 4), so decoding never grows the text; and it keeps valid UTF-8 valid.
  if (decoded.size() > body.size()) Fail("decoded text longer than the body", body);
  if (errdex::IsValidUtf8(body) && !errdex::IsValidUtf8(decoded)) Fail("decoding broke UTF-8", body);
  if (prefix.raw) {
    // A raw literal's value is its text, with source newlines read as \n and, in an f-string, doubled
    // braces read as one.
    std::string expected;
    for (size_t i = 0; i < body.size(); ++i) {
      const char c = body[i];
      if (prefix.format && (c == '{' || c == '}') && i + 1 < body.size() && body[i + 1] == c) {
        expected.push_back(c);
        ++i;
      } else if (c == '\r') {
        expected.push_back('\n');
        if (i + 1 < body.size() && body[i + 1] == '\n') ++i;
      } else {
        expected.push_back(c);
      }
    }
    if (decoded != expected) Fail("a raw literal was not kept as written", body);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t selector = data[0];
  const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);

  CheckTemplate(rest);
  CheckRender(rest);

  // The prefix: bit 0 raw, bit 1 bytes, bit 2 f-string, bit 3 triple quoted; bits 4-5 choose how it is
  // spelled, so that ParseStringPrefix is exercised too.
  static const char* const kSpellings[4][8] = {
      {"'", "r'", "b'", "rb'", "f'", "rf'", "b'", "rb'"},
      {"\"", "R\"", "B\"", "Br\"", "F\"", "fR\"", "B\"", "bR\""},
      {"u'", "r'", "b'", "br'", "f'", "fr'", "b'", "br'"},
      {"U\"", "R'", "b\"", "RB'", "f\"", "Rf'", "b\"", "rB\""},
  };
  std::string token = kSpellings[(selector >> 4) & 3][selector & 7];
  if (selector & 8) token += std::string(2, token.back());
  const errdex::StringPrefix prefix = errdex::ParseStringPrefix(token);
  if (prefix.raw != ((selector & 1) != 0) || prefix.bytes != ((selector & 2) != 0 && (selector & 4) == 0) ||
      prefix.format != ((selector & 4) != 0 && (selector & 2) == 0) || prefix.quote_len != ((selector & 8) ? 3u : 1u)) {
    // bytes and f cannot be combined in Python: selectors 6 and 7 spell plain bytes literals.
    if (!((selector & 6) == 6 && prefix.bytes && !prefix.format)) Fail("ParseStringPrefix", token);
  }
  CheckDecode(rest, prefix);
  return 0;
}
