// Links the tests of a revision that expect an exception (RaisesTest, found by extraction) to the errors
// they provoke (docs/analysis.md, "Tests that provoke an error").
//
// A test provokes an error when
// - with a pattern: its type, resolved in the test's file, is the error's resolved type or one of that
//   type's bases (pytest.raises and assertRaises catch subclasses too), and the pattern can match the
//   error's template (RaisesPattern);
// - without one: its type is the error's resolved type, and the errors of that type are raised at
//   kMaxSitesWithoutPattern sites or fewer in code (else it says nothing about any one of them);
// - when either side's type is unresolved, the last components of the names are compared instead.
// Only errors with a site outside test files are candidates: tests provoke the code's errors.
//
// Threading: a linker belongs to one thread.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/raises_pattern.h"

namespace errdex {

inline constexpr int kMaxSitesWithoutPattern = 5;

// With the call graph, a test without a pattern links only when one error of its type is nearest its block.
inline constexpr size_t kMaxNearestWithoutPattern = 1;

// With the call graph, a test without a pattern links only to an error at most this many calls from its block:
// a farther one is reached through more of the graph's imprecision than the test's own calls.
inline constexpr int kMaxDistanceWithoutPattern = 3;

// With `Exception` or `BaseException` as the type, a pattern shorter than this links nothing.
inline constexpr size_t kMinCatchAllPatternBytes = 12;

class ErrorTestLinker {
 public:
  // TYPE_AND_BASES gives a resolved type followed by its bases, transitively (see TypeAndBases).
  explicit ErrorTestLinker(std::function<std::vector<std::string>(const std::string&)> type_and_bases)
      : type_and_bases_(std::move(type_and_bases)) {}

  // One site of error ID outside test files (call once per site; repeated ids count their sites).
  void AddCodeSite(const std::string& id, const std::optional<std::string>& type_qualified,
                   const std::optional<std::string>& type, const std::optional<std::string>& template_text);

  // The ids of the errors a test expecting TYPE (as written; RESOLVED when it resolved in the test's
  // file) with pattern MATCH ("" for none) provokes, in the order their first site was added.
  std::vector<std::string> Link(const std::string& type, const std::optional<std::string>& resolved,
                                const std::string& match);

  // With the call graph (docs/analysis.md, "Tests that provoke an error"): the errors whose raise the
  // test's expecting block reaches. DISTANCE(id), asked only of candidates, is how many calls from the block
  // the error's raise is (-1: not reached). With a pattern, as Link among the reached errors; without one,
  // the reached error of the type itself that is nearest the block, when no other is as near
  // (kMaxNearestWithoutPattern): the type alone never links, the reach does.
  std::vector<std::string> LinkReached(const std::string& type, const std::optional<std::string>& resolved,
                                       const std::string& match,
                                       const std::function<int(const std::string&)>& distance);

 private:
  std::vector<std::string> LinkUncached(const std::string& type, const std::optional<std::string>& resolved,
                                        const std::string& match);
  struct Error {
    std::string id;
    std::optional<std::string> template_text;
    std::optional<std::string> type_qualified;
    int sites = 0;
    std::unique_ptr<PatternTarget> target;  // prepared on first use
  };
  std::vector<size_t> Candidates(const std::string& type, const std::optional<std::string>& resolved,
                                 bool subclasses) const;
  // The CANDIDATES whose template MATCH can match (RaisesPattern): text first, through placeholders only
  // when the text fits none. Nothing for a catch-all type with a short pattern.
  // When the pattern fits several errors of one type through placeholders only, those whose literal text
  // the pattern covers less than another's (RaisesPattern::Coverage) are left out: "Cannot evaluate column:
  // foo" is `Cannot evaluate column: {clause}`, not `Cannot evaluate {kind}`.
  std::vector<size_t> PatternFits(const std::vector<size_t>& candidates, const std::optional<std::string>& resolved,
                                  const std::string& match);

  std::function<std::vector<std::string>(const std::string&)> type_and_bases_;
  std::vector<Error> errors_;
  // Link's answers by (type as written, resolved type, pattern): test suites repeat the same expectation
  // (SQLAlchemy: thousands of `expect_raises_message` calls, many alike).
  std::unordered_map<std::string, std::vector<std::string>> memo_;
  std::unordered_map<std::string, std::vector<size_t>> fits_memo_;      // PatternFits by the same key
  std::unordered_map<std::string, size_t> index_;                       // id → errors_
  std::unordered_map<std::string, std::vector<size_t>> by_type_;        // resolved type or base → errors
  std::unordered_map<std::string, std::vector<size_t>> by_exact_type_;  // resolved type → errors
  std::unordered_map<std::string, std::vector<size_t>> by_last_name_;   // of the type → errors
  std::unordered_map<std::string, std::vector<size_t>> unresolved_by_last_name_;
};

// The last dotted component of a type name ("errors.ConfigError" → "ConfigError").
std::string LastName(const std::string& type);

}  // namespace errdex
