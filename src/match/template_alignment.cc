#include "match/template_alignment.h"

#include <cctype>
#include <cstring>

namespace errdex {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Offset of NEEDLE in HAYSTACK at or after FROM, or npos. glibc's memmem is the two-way algorithm:
// linear time whatever the input.
size_t Find(std::string_view haystack, std::string_view needle, size_t from) {
  if (from > haystack.size()) return std::string_view::npos;
  if (needle.empty()) return from;
  const void* hit = memmem(haystack.data() + from, haystack.size() - from, needle.data(), needle.size());
  return hit ? static_cast<size_t>(static_cast<const char*>(hit) - haystack.data()) : std::string_view::npos;
}

bool IsWordByte(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether PIECE found at AT does not cut a word of TEXT at the ends that CHECK_START / CHECK_END ask for.
bool AtWordEdges(std::string_view text, size_t at, size_t length, bool check_start, bool check_end) {
  if (check_start && at > 0 && IsWordByte(text[at]) && IsWordByte(text[at - 1])) return false;
  size_t end = at + length;
  if (check_end && end < text.size() && end > 0 && IsWordByte(text[end - 1]) && IsWordByte(text[end])) return false;
  return true;
}

std::string CutBinding(std::string_view value) {
  if (value.size() <= kMaxBindingBytes) return std::string(value);
  size_t cut = kMaxBindingBytes;
  while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  return std::string(value.substr(0, cut)) + "…";
}

char CloserOf(char opener) { return opener == '(' ? ')' : opener == '[' ? ']' : opener == '{' ? '}' : opener; }

bool IsQuote(char c) { return c == '\'' || c == '"'; }

bool InSet(char c, std::string_view set) { return set.find(c) != std::string_view::npos; }

// A quote at I of S opens text after a bracket, `=`, `,`, `:` or a space (the apostrophe of "can't" opens
// nothing) and closes it before one of those or the end.
bool OpensQuote(std::string_view s, size_t i) { return i == 0 || InSet(s[i - 1], "=([{,: "); }
bool ClosesQuote(std::string_view s, size_t i) { return i + 1 == s.size() || InSet(s[i + 1], ",)]}:; "); }

// Moves the bracket or quote at I of S onto or off STACK (the openers still open, innermost last).
void TrackOpeners(std::string_view s, size_t i, std::string* stack) {
  char c = s[i];
  if (!stack->empty() && c == CloserOf(stack->back()) && (!IsQuote(c) || ClosesQuote(s, i))) {
    stack->pop_back();
  } else if (InSet(c, "([{") || (IsQuote(c) && OpensQuote(s, i))) {
    stack->push_back(c);
  }
}

// A trailing placeholder's VALUE, when the template stands inside a longer text (PREFIX before it) that
// opened a bracket or a quote: the value ends where that opener closes. The site's own message is inside
// `Caused by NewConnectionError("...: {e}")` or `message='...: {ctype}', url=...`; what follows the close
// is the wrapper's.
std::string_view EndAtEnclosingCloser(std::string_view prefix, std::string_view value) {
  std::string open;
  for (size_t i = 0; i < prefix.size(); ++i) TrackOpeners(prefix, i, &open);
  if (open.empty()) return value;
  std::string inner;
  for (size_t j = 0; j < value.size(); ++j) {
    char c = value[j];
    bool closes_open = c == CloserOf(open.back()) && (!IsQuote(c) || ClosesQuote(value, j));
    if (inner.empty() && closes_open) return value.substr(0, j);
    TrackOpeners(value, j, &inner);
  }
  return value;
}

// Words of a literal piece (runs of non-space), for partial matching of a piece that drifted.
std::vector<std::string_view> Words(std::string_view piece) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < piece.size()) {
    while (i < piece.size() && piece[i] == ' ') ++i;
    size_t start = i;
    while (i < piece.size() && piece[i] != ' ') ++i;
    if (i > start) words.push_back(piece.substr(start, i - start));
  }
  return words;
}

}  // namespace

std::string NormalizeSpace(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool pending_space = false;
  for (char c : text) {
    if (IsSpace(c)) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.push_back(c);
  }
  return out;
}

AlignableTemplate PrepareTemplate(std::string_view rendered) {
  AlignableTemplate out;
  for (TemplatePart& part : ParseRenderedTemplate(rendered)) {
    if (part.placeholder) {
      // Two placeholders in a row cannot be told apart in the text: they bind together to the first.
      if (!out.parts.empty() && out.parts.back().placeholder) continue;
      out.parts.push_back(std::move(part));
      continue;
    }
    // Trimmed: the spaces around a literal piece belong to the placeholder values next to it, which
    // are trimmed too.
    std::string text = NormalizeSpace(part.text);
    if (text.empty()) continue;
    out.literal_bytes += text.size();
    out.parts.push_back(TemplatePart{false, std::move(text)});
  }
  return out;
}

Alignment AlignTemplate(const AlignableTemplate& tmpl, std::string_view text, const AlignOptions& options) {
  Alignment result;
  result.literal_bytes = tmpl.literal_bytes;
  const auto& parts = tmpl.parts;
  size_t cursor = 0;
  bool complete = true;
  bool first_found = false;
  // Where each whole-found literal piece starts and ends, to read placeholder values between them.
  std::vector<std::pair<size_t, size_t>> spans(parts.size(), {std::string_view::npos, std::string_view::npos});
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].placeholder) continue;
    std::string_view piece = parts[i].text;
    size_t at = std::string_view::npos;
    bool last_literal = i + 1 == parts.size();
    if (last_literal && text.size() >= piece.size() && text.size() - piece.size() >= cursor &&
        text.substr(text.size() - piece.size()) == piece) {
      at = text.size() - piece.size();  // a template ending in literal text ends the message
    } else {
      at = Find(text, piece, cursor);
      // The template's own first and last words are whole words of the text: "Error" is not in
      // "ValueError". (Next to a placeholder a piece may touch anything: "{n}th".)
      while (at != std::string_view::npos && !AtWordEdges(text, at, piece.size(), i == 0, last_literal)) {
        at = Find(text, piece, at + 1);
      }
    }
    if (at != std::string_view::npos) {
      size_t length = piece.size();
      spans[i] = {at, at + length};
      if (!first_found) result.begin = result.first_literal = at;
      first_found = true;
      result.matched_literal_bytes += piece.size();
      cursor = at + length;
      result.end = cursor;
      continue;
    }
    complete = false;
    if (!options.partial) return result;  // not complete: nothing more is wanted
    // Word by word, in order, without moving past what later pieces may need more than necessary.
    size_t word_cursor = cursor;
    for (std::string_view word : Words(piece)) {
      size_t hit = Find(text, word, word_cursor);
      if (hit == std::string_view::npos) continue;
      result.matched_literal_bytes += word.size();
      word_cursor = hit + word.size();
      if (!first_found) result.begin = result.first_literal = hit;
      first_found = true;
      result.end = word_cursor;
    }
    cursor = word_cursor;
  }
  if (result.matched_literal_bytes > result.literal_bytes) result.matched_literal_bytes = result.literal_bytes;
  result.complete = complete && first_found;
  if (!result.complete) return result;

  // Bindings: a placeholder takes the text between its neighbours (the text's ends at the template's).
  bool starts_with_placeholder = parts.front().placeholder;
  bool ends_with_placeholder = parts.back().placeholder;
  result.begin = starts_with_placeholder ? 0 : spans.front().first;
  result.end = ends_with_placeholder ? text.size() : spans.back().second;
  for (size_t i = 0; i < parts.size() && options.bindings; ++i) {
    if (!parts[i].placeholder) continue;
    size_t from = i == 0 ? 0 : spans[i - 1].second;
    size_t to = i + 1 < parts.size() ? spans[i + 1].first : text.size();
    if (to < from) to = from;
    std::string_view value = text.substr(from, to - from);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    if (i + 1 == parts.size() && !starts_with_placeholder) value = EndAtEnclosingCloser(text.substr(0, from), value);
    while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
    result.bindings.emplace_back(parts[i].text, CutBinding(value));
  }
  result.whole = result.begin == 0 && result.end == text.size();
  return result;
}

}  // namespace errdex
