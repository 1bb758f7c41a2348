// libFuzzer target for matching (src/match/): the paste parser (whole and streamed in pieces), template
// preparation, alignment and anchor choice on arbitrary bytes.
//
// Input: TEMPLATE \0 PASTE (without a \0, the first third is the template). Invariants checked:
// - the parsers and the aligner never crash, and stay within their documented limits;
// - a rendering of the template (placeholders filled with a non-word byte) aligns completely with it,
//   and contains the template's anchor.
//
// Build and run: fuzz/README.md.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "analysis/raises_pattern.h"
#include "match/anchor.h"
#include "match/pasted_error.h"
#include "match/template_alignment.h"
#include "util/utf8.h"

namespace {

[[noreturn]] void Fail(const char* what, std::string_view tmpl) {
  std::fprintf(stderr, "match_fuzzer: invariant violated: %s (template of %zu bytes)\n", what, tmpl.size());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t split = input.find('\0');
  if (split == std::string_view::npos) split = input.size() / 3;
  std::string_view tmpl = input.substr(0, split);
  std::string_view paste = input.substr(std::min(input.size(), split + 1));

  // Parsing: whole, and streamed in pieces of a size taken from the input.
  errdex::PastedError parsed = errdex::ParsePastedError(paste);
  for (const errdex::PastedException& e : parsed.exceptions) {
    if (e.message.size() > errdex::kPastedMaxMessageBytes) Fail("message over its limit", tmpl);
    if (e.frames.size() > errdex::kPastedMaxFrames) Fail("frames over their limit", tmpl);
  }
  errdex::PastedErrorStream stream;
  size_t piece = 1 + (size % 17);
  for (size_t i = 0; i < paste.size(); i += piece) stream.FeedText(paste.substr(i, piece));
  stream.Finish();
  stream.Take();

  // The paste as a test's `match=` pattern against the template (docs/analysis.md): RE2, the fragments
  // and their alignment must take anything; a literal piece of the template, regex-escaped, fits it.
  errdex::PatternTarget target = errdex::PreparePatternTarget(tmpl);
  errdex::RaisesPattern(paste).Matches(target);
  for (const errdex::TemplatePart& p : errdex::ParseRenderedTemplate(tmpl)) {
    if (p.placeholder || p.text.empty() || p.text.size() > 200 || p.text.find('\x01') != std::string::npos ||
        !errdex::IsValidUtf8(p.text)) {
      continue;
    }
    std::string escaped;
    for (char c : p.text) {
      if (std::ispunct(static_cast<unsigned char>(c))) escaped += '\\';
      escaped += c;
    }
    if (!errdex::RaisesPattern(escaped).Matches(target)) {
      Fail("an escaped literal piece does not fit its template", tmpl);
    }
    break;
  }

  // Alignment of the template with the paste and with a rendering of itself.
  errdex::AlignableTemplate prepared = errdex::PrepareTemplate(tmpl);
  errdex::Alignment a = errdex::AlignTemplate(prepared, errdex::NormalizeSpace(paste));
  if (a.matched_literal_bytes > a.literal_bytes) Fail("more literal text matched than there is", tmpl);
  std::string rendering;
  for (const errdex::TemplatePart& p : prepared.parts) rendering += p.placeholder ? std::string(" \x01 ") : p.text;
  std::string normalized = errdex::NormalizeSpace(rendering);
  errdex::Alignment self = errdex::AlignTemplate(prepared, normalized);
  if (prepared.literal_bytes > 0 && !self.complete) Fail("a rendering does not align with its template", tmpl);
  std::vector<std::string> anchors = errdex::ChooseAnchors({prepared});
  if (!anchors[0].empty() && normalized.find(anchors[0]) == std::string::npos) {
    Fail("a rendering does not contain the anchor", tmpl);
  }
  return 0;
}
