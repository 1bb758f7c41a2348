// Whether the message pattern of a test (`pytest.raises(T, match=P)`, `assertRaisesRegex(T, P)`) can
// match a message rendered from an error's template (docs/analysis.md, "Tests that provoke an error").
//
// Two steps:
// 1. P is compiled with RE2 (linear time, no backtracking) and searched in the template's text with every
//    placeholder replaced by a neutral marker: `got .* instead` fits `got {device} instead`.
// 2. When that fails because P spells out a value the template leaves open (`match='got cpu'` for
//    `... got {device} instead`), P's literal fragments (P split at its regex syntax, escapes decoded) are
//    aligned with the template in order, each placeholder standing for any text: a dynamic program over
//    (pattern position, template position). It accepts an alignment that goes through a placeholder (one
//    on literal text alone is what RE2 judged, with the regex constructs that fragments drop) and lays
//    at least half of the fragments' bytes, and at least min(4, all of them), on the template's literal
//    text, so that a pattern lying wholly inside a placeholder (which would fit every template with one)
//    says nothing.
// A pattern RE2 does not accept (Python-only syntax such as look-behind) is taken as literal text.
//
// Threading: immutable after construction; Matches is safe from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace errdex {

// A template prepared for RaisesPattern: built once per error, used for every test.
struct PatternTarget {
  std::string marked;      // literal text, each placeholder replaced by kPlaceholderMarker
  std::vector<int> units;  // for the alignment: a byte (0..255) or -1 for a placeholder
  int placeholders = 0;    // -1 units
  // A Bloom filter of the byte trigrams of the literal text: most fragments that cannot align are
  // told apart without the alignment's dynamic program.
  std::array<uint64_t, 16> trigrams{};
};

inline constexpr std::string_view kPlaceholderMarker = "\x01";

PatternTarget PreparePatternTarget(std::string_view rendered_template);

class RaisesPattern {
 public:
  explicit RaisesPattern(std::string_view pattern);
  ~RaisesPattern();
  RaisesPattern(const RaisesPattern&) = delete;
  RaisesPattern& operator=(const RaisesPattern&) = delete;

  // False when RE2 did not accept the pattern (it is then matched as literal text).
  bool is_regex() const { return is_regex_; }

  bool Matches(const PatternTarget& target) const;  // MatchesText || MatchesThroughPlaceholders
  // Step 1 (docs/analysis.md): the pattern searched in the template's text, placeholders neutral.
  bool MatchesText(const PatternTarget& target) const;
  // Step 2: the pattern's literal fragments aligned through placeholders (a dynamic program).
  bool MatchesThroughPlaceholders(const PatternTarget& target) const;
  // How many bytes of the pattern's literal fragments the best alignment through placeholders lays on the
  // template's literal text (over the alternatives; -1 when none goes through a placeholder): of two
  // templates a pattern fits, the one with more is the more specific (`Cannot evaluate column: {clause}`
  // over `Cannot evaluate {kind}` for "Cannot evaluate column: foo"). Costs the full dynamic program.
  int Coverage(const PatternTarget& target) const;

  // One alternative of the pattern (top-level `|`), as literal fragments that must appear in order.
  struct Alternative {
    bool anchored_start = false;  // `^` or `\A` first
    bool anchored_end = false;    // `$` or `\Z` last
    std::vector<std::string> fragments;
  };
  const std::vector<Alternative>& alternatives() const { return alternatives_; }

 private:
  bool Aligns(const Alternative& alternative, const PatternTarget& target) const;
  bool AlignsWithin(const std::vector<int>& p, const std::vector<int>& t, size_t begin, size_t end,
                    const Alternative& alternative, size_t needed) const;

  std::unique_ptr<re2::RE2> re_;
  bool is_regex_ = false;
  bool ignore_case_ = false;
  std::vector<Alternative> alternatives_;
};

// The literal fragments of regular expression PATTERN in Python's syntax (exposed for tests). Sets
// *IGNORE_CASE when an inline `(?i)` flag is present.
std::vector<RaisesPattern::Alternative> LiteralFragments(std::string_view pattern, bool* ignore_case);

}  // namespace errdex
