// Aligns a message template (literal pieces and placeholders, src/extract/template.h) with a text: which
// literal pieces occur in the text, in template order, and what text each placeholder stands for.
//
// Matching is on text with whitespace normalized (every run of whitespace is one space, ends trimmed), so
// a message re-wrapped by a log or a terminal still aligns. Each literal piece is searched whole with
// memmem (two-way: linear, no backtracking); a piece that is not there is searched word by word, so a
// reworded message still shows how much of the template it keeps (drift).
//
// Threading: pure functions and immutable values; safe from any thread.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "extract/template.h"

namespace errdex {

// A template prepared for alignment: whitespace-normalized parts, no empty literal pieces.
struct AlignableTemplate {
  std::vector<TemplatePart> parts;
  size_t literal_bytes = 0;  // bytes of literal text after normalization
};

AlignableTemplate PrepareTemplate(std::string_view rendered);

// Collapses whitespace runs to one space and trims both ends.
std::string NormalizeSpace(std::string_view text);

struct Alignment {
  size_t literal_bytes = 0;          // of the template
  size_t matched_literal_bytes = 0;  // found in order (whole pieces, or words of a piece)
  bool complete = false;             // every literal piece found whole, in order
  bool whole = false;                // complete, and nothing of the text is left before or after it
  size_t begin = 0, end = 0;         // the span of the normalized text the template covers
  size_t first_literal = 0;          // where the first literal piece found starts
  // Placeholder expression → the text it stands for; filled when complete. Values longer than
  // kMaxBindingBytes are cut.
  std::vector<std::pair<std::string, std::string>> bindings;

  // Share of the template's literal text found, 0..1 (1 for a template without literal text).
  double coverage() const {
    return literal_bytes == 0 ? 0.0 : static_cast<double>(matched_literal_bytes) / static_cast<double>(literal_bytes);
  }
};

inline constexpr size_t kMaxBindingBytes = 200;

struct AlignOptions {
  bool bindings = true;  // fill Alignment::bindings when complete
  bool partial = true;   // search a missing piece word by word; else stop at the first missing piece
};

// TEXT must already be normalized with NormalizeSpace.
Alignment AlignTemplate(const AlignableTemplate& tmpl, std::string_view text, const AlignOptions& options = {});

}  // namespace errdex
