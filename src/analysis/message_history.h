// The commit that introduced each error's message (docs/analysis.md, "History"): the messages' literal
// text looked up in git history with FindIntroducingCommits, one walk for every error of a revision.
//
// A template's text is not always written as one string in the file (implicit concatenation across
// lines, escapes), so each error gets up to kNeedlesPerError needles: windows of kNeedleBytes of text
// without backslashes, braces or control characters taken from its longest literal runs (runs of at least
// kShortNeedleBytes when the message has none longer). A needle whose quotes the source escapes is simply
// not found; the others answer. The message
// as a whole exists from the newest of its needles' introducing commits on; needles that are not in
// the file (split by the source) say nothing.
//
// Threading: runs on the calling thread, opening the repository for the call.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/introducing_commit.h"

namespace errdex {

inline constexpr size_t kNeedleBytes = 24;
inline constexpr size_t kShortNeedleBytes = 12;  // for messages without a run of kNeedleBytes
inline constexpr size_t kNeedlesPerError = 3;

struct MessageOfError {
  std::string error_id;
  std::string path;           // of the site whose file holds the message
  std::string template_text;  // rendered template
};

// The plain-text windows of TEMPLATE_TEXT to look for, best first (at most kNeedlesPerError).
std::vector<std::string> MessageNeedles(const std::string& template_text);

// error id → {"commit", "committed_at", "author", "summary", "bounded", "path"} for the errors whose
// message was found; errors without literal text or whose text the file does not hold are left out.
// Returns an empty map and sets *error on a fatal failure (the repository cannot be opened).
std::unordered_map<std::string, nlohmann::json> MessageHistory(const std::string& git_path, const std::string& commit,
                                                               const std::vector<MessageOfError>& messages,
                                                               const HistoryLimits& limits, std::string* error,
                                                               HistoryStats* stats = nullptr);

}  // namespace errdex
