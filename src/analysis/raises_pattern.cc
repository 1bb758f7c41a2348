#include "analysis/raises_pattern.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>

#include "extract/template.h"
#include "util/utf8.h"

namespace errdex {

namespace {

constexpr size_t kMaxPatternBytes = 1024;   // longer patterns are cut (and then usually taken literally)
constexpr size_t kMaxPatternUnits = 256;    // bytes of fragments aligned
constexpr size_t kMaxTemplateUnits = 2048;  // bytes of template aligned; the rest stands for anything
constexpr int kMaxGroupDepth = 16;

constexpr size_t npos = std::string_view::npos;

// Position of the ']' closing the character class opened at OPEN, or npos.
size_t ClassEnd(std::string_view p, size_t open) {
  size_t i = open + 1;
  if (i < p.size() && p[i] == '^') ++i;
  if (i < p.size() && p[i] == ']') ++i;  // a leading ']' is literal
  for (; i < p.size(); ++i) {
    if (p[i] == '\\') {
      ++i;
      continue;
    }
    if (p[i] == ']') return i;
  }
  return npos;
}

// Position of the ')' closing the group opened at OPEN, or npos.
size_t GroupEnd(std::string_view p, size_t open) {
  int depth = 0;
  for (size_t i = open; i < p.size(); ++i) {
    const char c = p[i];
    if (c == '\\') {
      ++i;
    } else if (c == '[') {
      i = ClassEnd(p, i);
      if (i == npos) return npos;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')' && --depth == 0) {
      return i;
    }
  }
  return npos;
}

// The pieces of P between its top-level '|'.
std::vector<std::string_view> TopLevelAlternatives(std::string_view p) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if (c == '\\') {
      ++i;
    } else if (c == '[') {
      size_t end = ClassEnd(p, i);
      if (end == npos) break;
      i = end;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (depth > 0) --depth;
    } else if (c == '|' && depth == 0) {
      out.push_back(p.substr(start, i - start));
      start = i + 1;
    }
  }
  out.push_back(p.substr(start));
  return out;
}

// A quantifier at I: its length and whether it allows zero repetitions. Length 0 when there is none.
struct Quantifier {
  size_t length = 0;
  bool optional = false;
};

Quantifier QuantifierAt(std::string_view p, size_t i) {
  Quantifier q;
  if (i >= p.size()) return q;
  if (p[i] == '*' || p[i] == '?') {
    q = {1, true};
  } else if (p[i] == '+') {
    q = {1, false};
  } else if (p[i] == '{') {
    size_t j = i + 1;
    size_t digits_start = j;
    while (j < p.size() && std::isdigit(static_cast<unsigned char>(p[j]))) ++j;
    const std::string_view min = p.substr(digits_start, j - digits_start);
    if (j < p.size() && p[j] == ',') {
      ++j;
      while (j < p.size() && std::isdigit(static_cast<unsigned char>(p[j]))) ++j;
    }
    if (j >= p.size() || p[j] != '}' || j == i + 1) return q;  // not a quantifier: a literal '{'
    q.length = j + 1 - i;
    q.optional = min.empty() || min.find_first_not_of('0') == npos;
  }
  if (q.length > 0 && i + q.length < p.size() && (p[i + q.length] == '?' || p[i + q.length] == '+')) ++q.length;
  return q;
}

size_t Utf8Length(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

int HexValue(std::string_view digits) {
  int v = 0;
  for (char c : digits) {
    v *= 16;
    if (c >= '0' && c <= '9') {
      v += c - '0';
    } else if (c >= 'a' && c <= 'f') {
      v += c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      v += c - 'A' + 10;
    } else {
      return -1;
    }
  }
  return v;
}

class FragmentParser {
 public:
  explicit FragmentParser(bool* ignore_case) : ignore_case_(ignore_case) {}

  RaisesPattern::Alternative Parse(std::string_view alternative) {
    RaisesPattern::Alternative out;
    // Anchors count only at the very ends of the alternative.
    if (alternative.substr(0, 1) == "^" || alternative.substr(0, 2) == "\\A") out.anchored_start = true;
    if (!alternative.empty() && alternative.back() == '$' &&
        (alternative.size() < 2 || alternative[alternative.size() - 2] != '\\')) {
      out.anchored_end = true;
    } else if (alternative.size() >= 2 && alternative.substr(alternative.size() - 2) == "\\Z" &&
               (alternative.size() < 3 || alternative[alternative.size() - 3] != '\\')) {
      out.anchored_end = true;
    }
    Sequence(alternative, 0);
    Break();
    out.fragments = std::move(fragments_);
    return out;
  }

 private:
  void Break() {
    if (!current_.empty()) fragments_.push_back(std::move(current_));
    current_.clear();
  }

  // Literal bytes just appended (an atom) are dropped again when a quantifier makes them optional.
  void AfterLiteralAtom(std::string_view p, size_t* i, size_t atom_bytes) {
    Quantifier q = QuantifierAt(p, *i);
    if (q.length == 0) return;
    if (q.optional) current_.resize(current_.size() - std::min(atom_bytes, current_.size()));
    Break();
    *i += q.length;
  }

  void SkipQuantifier(std::string_view p, size_t* i) { *i += QuantifierAt(p, *i).length; }

  void Sequence(std::string_view p, int depth) {
    size_t i = 0;
    while (i < p.size()) {
      const char c = p[i];
      if (c == '\\') {
        Escape(p, &i);
      } else if (c == '[') {
        Break();
        size_t end = ClassEnd(p, i);
        if (end == npos) return;
        i = end + 1;
        SkipQuantifier(p, &i);
      } else if (c == '(') {
        Break();
        size_t end = GroupEnd(p, i);
        if (end == npos) return;
        std::string_view inner = p.substr(i + 1, end - i - 1);
        i = end + 1;
        Quantifier q = QuantifierAt(p, i);
        i += q.length;
        if (q.optional || depth >= kMaxGroupDepth) continue;
        if (!inner.empty() && inner[0] == '?') {
          if (inner.substr(0, 2) == "?:") {
            inner.remove_prefix(2);
          } else if (inner.substr(0, 3) == "?P<") {
            size_t close = inner.find('>');
            if (close == npos) continue;
            inner.remove_prefix(close + 1);
          } else {
            // Inline flags: `(?i)` applies to the whole pattern; `(?i:...)` to its group.
            size_t k = 1;
            while (k < inner.size() && (std::isalpha(static_cast<unsigned char>(inner[k])) || inner[k] == '-')) ++k;
            const std::string_view flags = inner.substr(1, k - 1);
            if (k == inner.size() || (k < inner.size() && inner[k] == ':' && k > 1)) {
              if (flags.substr(0, flags.find('-')).find('i') != npos) *ignore_case_ = true;
              if (k == inner.size()) continue;
              inner.remove_prefix(k + 1);
            } else {
              continue;  // look-around, back-reference, comment, conditional: no literal text
            }
          }
        }
        if (TopLevelAlternatives(inner).size() > 1) continue;  // one of several: none is required
        Sequence(inner, depth + 1);
        Break();
      } else if (c == '.' || c == '^' || c == '$' || c == ')' || c == '|' || c == '*' || c == '+' || c == '?') {
        Break();
        ++i;
        SkipQuantifier(p, &i);
      } else if (c == '{' && QuantifierAt(p, i).length > 0) {
        Break();
        SkipQuantifier(p, &i);
      } else {
        const size_t n = std::min(Utf8Length(static_cast<unsigned char>(c)), p.size() - i);
        current_.append(p.substr(i, n));
        i += n;
        AfterLiteralAtom(p, &i, n);
      }
    }
  }

  void Escape(std::string_view p, size_t* i) {
    if (*i + 1 >= p.size()) {
      *i = p.size();
      return;
    }
    const char n = p[*i + 1];
    *i += 2;
    auto literal = [&](std::string text) {
      current_ += text;
      AfterLiteralAtom(p, i, text.size());
    };
    auto code_point = [&](size_t digits) {
      if (*i + digits > p.size()) {
        Break();
        *i = p.size();
        return;
      }
      int v = HexValue(p.substr(*i, digits));
      *i += digits;
      if (v < 0) {
        Break();
        return;
      }
      std::string text;
      AppendUtf8(static_cast<unsigned long>(v), &text);
      literal(text);
    };
    switch (n) {
      case 'n':
        return literal("\n");
      case 't':
        return literal("\t");
      case 'r':
        return literal("\r");
      case 'f':
        return literal("\f");
      case 'v':
        return literal("\v");
      case 'a':
        return literal("\a");
      case 'x':
        return code_point(2);
      case 'u':
        return code_point(4);
      case 'U':
        return code_point(8);
      case 'A':
      case 'Z':
      case 'z':
      case 'b':
      case 'B':
      case 'G':
        Break();
        return;
      case 'd':
      case 'D':
      case 'w':
      case 'W':
      case 's':
      case 'S':
      case 'N':
      case 'p':
      case 'P':
        Break();
        if (n == 'N' && *i < p.size() && p[*i] == '{') {
          size_t close = p.find('}', *i);
          *i = close == npos ? p.size() : close + 1;
        }
        SkipQuantifier(p, i);
        return;
      default:
        break;
    }
    if (std::isdigit(static_cast<unsigned char>(n))) {
      // A back-reference or an octal escape: neither is literal text we can use.
      Break();
      while (*i < p.size() && std::isdigit(static_cast<unsigned char>(p[*i]))) ++*i;
      SkipQuantifier(p, i);
      return;
    }
    // An escaped character stands for itself (the whole UTF-8 sequence).
    const size_t start = *i - 1;
    const size_t length = std::min(Utf8Length(static_cast<unsigned char>(n)), p.size() - start);
    *i = start + length;
    literal(std::string(p.substr(start, length)));
  }

  bool* ignore_case_;
  std::vector<std::string> fragments_;
  std::string current_;
};

size_t TrigramBit(unsigned char a, unsigned char b, unsigned char c) {
  return ((static_cast<size_t>(a) * 131 + b) * 131 + c) % 1024;
}

bool HasTrigram(const std::array<uint64_t, 16>& bloom, size_t bit) { return (bloom[bit / 64] >> (bit % 64)) & 1; }

int Fold(int unit, bool ignore_case) { return ignore_case && unit >= 'A' && unit <= 'Z' ? unit - 'A' + 'a' : unit; }

}  // namespace

namespace {
// The best score of an alignment of pattern units P with template units T[0, T_SIZE) (RaisesPattern::Aligns),
// when it is NEEDED or more; a smaller value (-1 when none) when it is less: scores under NEEDED are not told
// apart (0: the best score itself).
int BestAlignment(const std::vector<int>& p, const int* t, size_t t_size, bool anchored_start, bool anchored_end,
                  bool ignore_case, int needed);
}  // namespace

std::vector<RaisesPattern::Alternative> LiteralFragments(std::string_view pattern, bool* ignore_case) {
  std::vector<RaisesPattern::Alternative> out;
  for (std::string_view alternative : TopLevelAlternatives(pattern)) {
    out.push_back(FragmentParser(ignore_case).Parse(alternative));
  }
  return out;
}

PatternTarget PreparePatternTarget(std::string_view rendered_template) {
  PatternTarget target;
  for (const TemplatePart& part : ParseRenderedTemplate(rendered_template)) {
    if (part.placeholder) {
      if (!target.units.empty() && target.units.back() == -1) continue;
      target.marked += kPlaceholderMarker;
      target.units.push_back(-1);
      continue;
    }
    target.marked += part.text;
    for (unsigned char c : part.text) target.units.push_back(c);
  }
  if (target.units.size() > kMaxTemplateUnits) {
    target.units.resize(kMaxTemplateUnits);
    target.units.push_back(-1);
  }
  for (size_t i = 0; i + 2 < target.units.size(); ++i) {
    const int a = target.units[i], b = target.units[i + 1], c = target.units[i + 2];
    if (a < 0 || b < 0 || c < 0) continue;
    const size_t bit =
        TrigramBit(static_cast<unsigned char>(a), static_cast<unsigned char>(b), static_cast<unsigned char>(c));
    target.trigrams[bit / 64] |= uint64_t{1} << (bit % 64);
  }
  target.placeholders = static_cast<int>(std::count(target.units.begin(), target.units.end(), -1));
  return target;
}

RaisesPattern::RaisesPattern(std::string_view pattern) {
  if (pattern.size() > kMaxPatternBytes) pattern = pattern.substr(0, kMaxPatternBytes);
  RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(4 << 20);
  // Python's `\Z` (end of text) is RE2's `\z`.
  std::string for_re2(pattern);
  for (size_t i = 0; i + 1 < for_re2.size(); ++i) {
    if (for_re2[i] != '\\') continue;
    if (for_re2[i + 1] == 'Z') for_re2[i + 1] = 'z';
    ++i;
  }
  auto re = std::make_unique<RE2>(for_re2, options);
  if (re->ok()) {
    re_ = std::move(re);
    is_regex_ = true;
    alternatives_ = LiteralFragments(pattern, &ignore_case_);
  } else {
    // Not a pattern RE2 accepts: its text, literally.
    alternatives_.push_back({false, false, {std::string(pattern)}});
  }
}

RaisesPattern::~RaisesPattern() = default;

bool RaisesPattern::MatchesText(const PatternTarget& target) const {
  if (re_) return RE2::PartialMatch(target.marked, *re_);
  return !alternatives_.empty() && !alternatives_[0].fragments.empty() &&
         target.marked.find(alternatives_[0].fragments[0]) != std::string::npos;
}

bool RaisesPattern::Matches(const PatternTarget& target) const {
  if (MatchesText(target)) return true;
  return MatchesThroughPlaceholders(target);
}

bool RaisesPattern::MatchesThroughPlaceholders(const PatternTarget& target) const {
  for (const Alternative& alternative : alternatives_) {
    if (Aligns(alternative, target)) return true;
  }
  return false;
}

int RaisesPattern::Coverage(const PatternTarget& target) const {
  int best = -1;
  if (target.placeholders == 0) return best;
  for (const Alternative& alternative : alternatives_) {
    std::vector<int> p;
    for (size_t f = 0; f < alternative.fragments.size() && p.size() < kMaxPatternUnits; ++f) {
      if (f > 0) p.push_back(-1);
      for (unsigned char c : alternative.fragments[f]) {
        if (p.size() >= kMaxPatternUnits) break;
        p.push_back(Fold(c, ignore_case_));
      }
    }
    if (p.empty()) continue;
    best = std::max(best, BestAlignment(p, target.units.data(), target.units.size(), alternative.anchored_start,
                                        alternative.anchored_end, ignore_case_, /*needed=*/0));
  }
  return best;
}

bool RaisesPattern::Aligns(const Alternative& alternative, const PatternTarget& target) const {
  // The pattern as units: fragment bytes, with a wildcard (-1) between fragments.
  std::vector<int> p;
  size_t literal = 0;
  for (size_t f = 0; f < alternative.fragments.size() && p.size() < kMaxPatternUnits; ++f) {
    if (f > 0) p.push_back(-1);
    for (unsigned char c : alternative.fragments[f]) {
      if (p.size() >= kMaxPatternUnits) break;
      p.push_back(Fold(c, ignore_case_));
      ++literal;
    }
  }
  // Without a placeholder there is nothing to go through: RE2's answer on the literal text is final.
  if (literal == 0 || target.placeholders == 0) return false;
  const size_t needed = std::max((literal + 1) / 2, std::min<size_t>(literal, 4));
  // The bytes laid on literal text come in runs, each ended by a wildcard of the pattern or a placeholder
  // of the template, so there are at most RUNS of them. A run of 3 bytes or more has all its trigrams in
  // the template: the bytes covered by chains of such trigrams, plus 2 per run, bound the score.
  if (!ignore_case_) {
    const size_t runs = alternative.fragments.size() + static_cast<size_t>(target.placeholders);
    size_t covered = 0, longest_chain = 0;  // in bytes
    for (size_t f = 0, k = 0; f < alternative.fragments.size() && k < kMaxPatternUnits; ++f) {
      const std::string& fragment = alternative.fragments[f];
      size_t marked_to = 0;  // bytes of FRAGMENT before this offset are counted
      size_t chain = 0;      // trigrams present one after the other
      for (size_t i = 0; i + 2 < fragment.size() && k + i + 2 < kMaxPatternUnits; ++i) {
        const auto bit =
            TrigramBit(static_cast<unsigned char>(fragment[i]), static_cast<unsigned char>(fragment[i + 1]),
                       static_cast<unsigned char>(fragment[i + 2]));
        if (!HasTrigram(target.trigrams, bit)) {
          chain = 0;
          continue;
        }
        covered += i + 3 - std::max(marked_to, i);
        marked_to = i + 3;
        longest_chain = std::max(longest_chain, ++chain + 2);
      }
      k += fragment.size() + 1;
    }
    if (covered + 2 * runs < needed) return false;
    // And the longest run has at least NEEDED / RUNS bytes.
    const size_t longest_run = (needed + runs - 1) / runs;
    if (longest_run >= 3 && longest_chain < longest_run) return false;
  }
  const std::vector<int>& t = target.units;
  const size_t T = t.size();
  if (alternative.fragments.size() > 1) {
    return BestAlignment(p, t.data(), T, alternative.anchored_start, alternative.anchored_end, ignore_case_,
                         static_cast<int>(needed)) >= static_cast<int>(needed);
  }
  // One fragment: every template unit the alignment uses is a pattern byte laid on it or a placeholder,
  // so an alignment through the placeholder at J lies within J ± (P + placeholders). Aligning
  // within those windows (merged) is exact, and much cheaper than over the whole template.
  const size_t P = p.size(), reach = P + static_cast<size_t>(target.placeholders);
  size_t begin = 0, end = 0;
  bool open = false;
  for (size_t j = 0; j <= T; ++j) {
    const bool at_placeholder = j < T && t[j] == -1;
    if (at_placeholder) {
      const size_t from = j > reach ? j - reach : 0, to = std::min(T, j + reach + 1);
      if (open && from <= end) {
        end = std::max(end, to);
      } else {
        if (open && AlignsWithin(p, t, begin, end, alternative, needed)) return true;
        begin = from;
        end = to;
        open = true;
      }
    }
  }
  return open && AlignsWithin(p, t, begin, end, alternative, needed);
}

bool RaisesPattern::AlignsWithin(const std::vector<int>& p, const std::vector<int>& t, size_t begin, size_t end,
                                 const Alternative& alternative, size_t needed) const {
  // An anchored end of the pattern must be an end of the template.
  if ((alternative.anchored_start && begin != 0) || (alternative.anchored_end && end != t.size())) return false;
  return BestAlignment(p, t.data() + begin, end - begin, alternative.anchored_start, alternative.anchored_end,
                       ignore_case_, static_cast<int>(needed)) >= static_cast<int>(needed);
}

namespace {
int BestAlignment(const std::vector<int>& p, const int* t, size_t T, bool anchored_start, bool anchored_end,
                  bool ignore_case, int needed) {
  const size_t P = p.size();
  // score[u][j] on row i: the most pattern bytes laid on template literal bytes, over the alignments of
  // the first i pattern units that end before template unit j; -1 when there is none. u = 1 when the
  // alignment goes through a placeholder: only those count, since an alignment on literal text alone
  // is one RE2 already judged (with every regex construct, which fragments drop). The pattern may start
  // anywhere in the template (a search), unless anchored.
  //
  // Every move goes from column j to j or j + 1, so the columns with a score lie within [lo, hi], lo never
  // decreasing: the rows are computed over that window only (slots outside it may hold older rows' values
  // and are never read; a slot is cleared when the window first grows over it). A score that cannot reach
  // NEEDED even with every later pattern byte laid on text (REST) is dropped: the alignments through it
  // score below NEEDED, and those are not told apart. When no score is left, none reaches NEEDED.
  constexpr int kNone = -1;
  thread_local std::vector<int> cur[2], next[2];  // reused: allocation was a good part of the cost
  thread_local std::vector<int> rest;             // rest[i]: literal pattern bytes in p[i, P)
  rest.assign(P + 1, 0);
  for (size_t i = P; i-- > 0;) rest[i] = rest[i + 1] + (p[i] != -1 ? 1 : 0);
  for (int u = 0; u < 2; ++u) {
    cur[u].assign(T + 1, kNone);
    next[u].assign(T + 1, kNone);
  }
  size_t lo = 0, hi = 0;
  if (anchored_start) {
    cur[0][0] = 0;
  } else {
    std::fill(cur[0].begin(), cur[0].end(), 0);
    hi = T;
  }
  auto relax = [](int* slot, int value) { *slot = std::max(*slot, value); };
  for (size_t i = 0;; ++i) {
    // Moves that use template units only: a pattern wildcard, or a placeholder standing for nothing.
    // Before the pattern starts and after it ends they are no part of the match (unless anchored).
    const bool inside = (i > 0 || anchored_start) && (i < P || anchored_end);
    for (size_t j = lo; j < T && j <= hi; ++j) {
      for (int u = 0; u < 2; ++u) {
        if (cur[u][j] == kNone) continue;
        const bool wildcard = i < P && p[i] == -1;
        if (!wildcard && t[j] != -1) continue;
        if (j + 1 > hi) {  // the window grows over a slot of an older row
          cur[0][j + 1] = cur[1][j + 1] = kNone;
          hi = j + 1;
        }
        if (wildcard) {
          relax(&cur[u || t[j] == -1][j + 1], cur[u][j]);
        } else {
          relax(&cur[u || inside][j + 1], cur[u][j]);
        }
      }
    }
    if (i == P) break;
    const size_t end = std::min(T, hi + 1);  // the next row's window: [lo, end]
    for (int u = 0; u < 2; ++u) {
      std::fill(next[u].begin() + static_cast<ptrdiff_t>(lo), next[u].begin() + static_cast<ptrdiff_t>(end + 1), kNone);
    }
    for (size_t j = lo; j <= hi; ++j) {
      for (int u = 0; u < 2; ++u) {
        if (cur[u][j] == kNone) continue;
        if (p[i] == -1) {
          relax(&next[u][j], cur[u][j]);  // the wildcard stands for nothing more
        } else if (j < T) {
          if (t[j] == -1) relax(&next[1][j], cur[u][j]);  // the placeholder stands for this byte too
          if (Fold(t[j], ignore_case) == p[i]) relax(&next[u][j + 1], cur[u][j] + 1);
        }
      }
    }
    std::swap(cur, next);
    // Drop the scores that cannot reach NEEDED any more; the window shrinks to the columns left.
    size_t first = end + 1, last = lo;
    for (size_t j = lo; j <= end; ++j) {
      for (int u = 0; u < 2; ++u) {
        if (cur[u][j] != kNone && cur[u][j] + rest[i + 1] < needed) cur[u][j] = kNone;
        if (cur[u][j] == kNone) continue;
        first = std::min(first, j);
        last = j;
      }
    }
    if (first > end) return kNone;
    lo = first;
    hi = last;
  }
  int best = kNone;
  if (anchored_end) {
    if (lo <= T && T <= hi) best = cur[1][T];
  } else {
    for (size_t j = lo; j <= hi; ++j) best = std::max(best, cur[1][j]);
  }
  return best;
}
}  // namespace

}  // namespace errdex
