// `errdex explain`: from one paste (a message, a traceback, a log excerpt) to the errors of the catalog
// that produce it, ranked with the evidence for each (docs/matching.md).
//
// Candidates come from the exact matcher (anchors, src/match/error_matcher.h), from the word index
// (approximate: reworded messages) and from the traceback's frames (a file and function that raise).
// Each candidate site is scored on the template's literal text found in the message, exception type
// agreement, frames, and specificity; the best site of each error is kept.
//
// Threading: an Explainer uses one catalog and belongs to one thread. Ownership: borrows the catalog
// and the matcher, which must outlive it.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "match/error_matcher.h"

namespace errdex {

struct ExplainMatch {
  std::string error_id;
  std::string type;           // the site's type, qualified when it resolved
  std::string template_text;  // rendered; "" for a site without message
  double score = 0;           // 0..1
  // kExact: the site's own template matches; kClassMessage: the message is the text its exception class
  // renders (the site is one of those raising that class); kPinnedByFrame: the traceback's innermost
  // frame is the site's function; kByType: the site raises the pasted class (or a base of it) with a
  // message built at run time; kApproximate: most of the template, reworded; kClosest: not a match.
  enum class Kind { kExact, kClassMessage, kPinnedByFrame, kByType, kApproximate, kClosest } kind = Kind::kClosest;
  std::vector<std::pair<std::string, std::string>> bindings;  // placeholder expression → value
  SiteRow site;
  std::vector<std::string> why;
  // The site chooses its message among several texts (SiteRow::message_alternatives) and the paste is one of
  // the others than TEMPLATE_TEXT: that text; "" otherwise (docs/matching.md, "Messages chosen among several
  // texts").
  std::string matched_alternative;
  // Across indexed versions (match/version_step.h); empty when the repository has one revision or the
  // paste matches its newest one as is.
  struct Versions {
    std::string matched_revision;      // label of the newest revision whose wording, path or lines the paste fits
    std::string matched_template;      // the wording matched there, when SITE is its successor's
    std::string matched_error_id;      // the error matched there, when it is not ERROR_ID
    std::string removed_in;            // label of the revision that removed the error; SITE is its last site
    std::string probable_version;      // "1.9.x" (or a label) when the traceback fits some releases only
    std::vector<std::string> lineage;  // "reworded in 2.0.0", "moved to src/x.py in 2.1.0", oldest first
  } versions;
};

struct Explanation {
  std::string input_kind;  // "message", "traceback", "log"; "" for a blank paste
  std::string type;        // of the exception explained (the last one of a chain unless it found nothing)
  std::string message;
  std::string route;                  // how the user's code reached the library (UserCodeRoute); "" when unknown
  std::vector<ExplainMatch> matches;  // best first, at most `top`
  std::vector<ExplainMatch> closest;  // when nothing matched: the nearest candidates, marked as such
  // The other links of a chained traceback that match, outermost first (the best match of each); the
  // answer is the outermost link that matches.
  std::vector<ExplainMatch> chain;
  // Where the paste points when the catalog does not provide it: "the paste points at module requests,
  // which no repository of the catalog provides"; "" otherwise.
  std::string note;
};

class Explainer {
 public:
  Explainer(Catalog& catalog, const ErrorMatcher& matcher) : catalog_(catalog), matcher_(matcher) {}
  Explanation Explain(std::string_view paste, int top);

 private:
  Catalog& catalog_;
  const ErrorMatcher& matcher_;
};

}  // namespace errdex
