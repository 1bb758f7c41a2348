// Finds the passages of a repository's documentation that mention a message or a function
// (docs/analysis.md, "Solutions"): README/docs files (.md, .rst, .txt) and docstrings.
//
// How: all the query literals (message phrases, function names) go into one Hyperscan literal database
// (LiteralMatcher), and each document is scanned once: the cost is the size of the documents plus the
// number of hits, not queries × documents. Documents and phrases are compared with every run of white
// space collapsed into one space, so that a message wrapped over two lines of a .rst file is found.
// Matching is case-sensitive and byte-exact otherwise.
//
// What counts:
// - a message hit: the query's phrases that occur on one line (the caller passes the literal pieces of a
//   template between placeholders, preferably >= 12 bytes) add up to at least kMinMessageMatchBytes
//   (white space collapsed and trimmed): "When using the" alone is no mention of a message. A message
//   with less literal text than that is never found as a message (its function may still be). A phrase
//   without a space after collapsing ("`Trainer(monitor=") is code, not prose, and is ignored;
// - a function hit: FUNCTION_NAME occurs as a whole identifier (no letter, digit or '_' on either side),
//   only for names specific enough: at least 6 bytes or containing '_', and not a dunder (`__init__`).
//   A name made only of lowercase letters and digits ("predict", "trainer") is an English word or a
//   variable as often as not: it counts only in code form, right before a '(' or a closing backtick
//   ("``predict``", "`predict(`", "model.predict(x)"; not "``trainer.fit()``", not "we predict").
// Ranking, per query: message hits before function hits; among message hits, more distinct phrases of the
// query on the same line first, then more matched bytes; then documents in the given order, then lines.
// Hits on the same (path, line) are one mention (the best kind wins).
//
// A passage is the paragraph around the hit (the lines between blank lines; at most 40 lines each way),
// white space collapsed, at most 600 bytes: a longer one is a window around the hit, cut on UTF-8
// boundaries and marked with "…".
//
// Threading: a built finder is immutable; Find() may run concurrently from several threads.
// Ownership: the finder owns copies of the documents.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace errdex {

// A .md/.rst/.txt file (FIRST_LINE 1), or a docstring (FIRST_LINE: the line of its first character in
// its .py file, so that reported lines are lines of that file).
struct Document {
  std::string path;
  int first_line = 1;
  std::string text;
};

struct MentionQuery {
  std::vector<std::string> phrases;  // literal pieces of one message; empty ones are ignored
  std::string function_name;         // a function's bare name ("configure_optimizers"); "" for none
};

struct Mention {
  std::string path;
  int line = 0;         // 1-based line of the hit's first byte in PATH
  std::string passage;  // the paragraph around the hit, white space collapsed, <= 600 bytes
  std::string matched;  // the phrase (white space collapsed) or the function name that hit
  std::string kind;     // "message" | "function"
};

inline constexpr size_t kMaxPassageBytes = 600;
// The matched bytes of a query's phrases on one line needed for a message hit.
inline constexpr size_t kMinMessageMatchBytes = 20;
// A phrase asked for by more queries than this is dropped for them: it identifies no message (a common
// piece such as "must be a positive integer"), and its hits would be multiplied by its queries.
inline constexpr size_t kMaxQueriesPerPhrase = 32;
// At most this many distinct (path, line) candidates are collected per query, in document order; later
// ones are ignored (a very common function name), so ranking is over the first ones only.
inline constexpr size_t kMaxCandidatesPerQuery = 1000;

// True when NAME is specific enough to be looked for (see above).
bool IsSpecificFunctionName(const std::string& name);

class DocMentionFinder {
 public:
  explicit DocMentionFinder(std::vector<Document> docs);

  // For each query, in order, its mentions, best first, at most MAX_PER_QUERY. Throws
  // std::runtime_error only when Hyperscan cannot run on this CPU.
  std::vector<std::vector<Mention>> Find(const std::vector<MentionQuery>& queries, size_t max_per_query) const;

 private:
  struct Prepared {
    std::string text;                 // white space collapsed into single spaces
    std::vector<size_t> line_starts;  // offset in TEXT where each original line (0-based) starts
  };
  std::vector<Document> docs_;
  std::vector<Prepared> prepared_;
};

}  // namespace errdex
