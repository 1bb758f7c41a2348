// Finds, for literal pieces of messages, the commit that introduced them: walking the first-parent
// history of a git repository backwards from the indexed commit, the oldest commit of the unbroken run
// in which the file still holds the text (docs/analysis.md, "Solutions": the history of a message).
//
// How (cheap on big histories): one walk over first parents for all needles at once. At each step from a
// commit C to its first parent P, the trees of C and P are compared top-down along the needle paths
// only: a subtree is entered only when its oid differs between C and P and a still-unresolved needle
// path lies below it. A changed file's blob in P is read once and every unresolved needle of that file
// is tested against it (memmem). A needle resolves at C when its text is absent from P's blob, when P
// has no file at the path (or something other than a blob there), or when C is a root commit. The walk
// stops when every needle resolved, or at the limits: the unresolved needles then get the oldest commit
// reached and `bounded` = true (the text is older than that).
//
// Limits of the method (documented, not hidden):
// - renames and moves are followed when git's rename detection (content similarity, at most 2000
//   candidate files per commit) pairs the added file with a deleted one, and only on the commits that
//   add a needle's path; a file moved with heavy changes is "introduced" by the move;
// - first parents only: text that came in on a merged branch is attributed to the merge commit;
// - a commit whose first parent is absent (shallow clone) or whose blob cannot be read (partial mirror)
//   stops the needles concerned there, with `bounded` = true;
// - the test is byte-exact: a message whose literal was reformatted (quotes, line breaks, concatenation)
//   is "introduced" by the reformatting commit.
//
// Threading: a call uses REPO from the calling thread only; libgit2 repositories must not be shared
// between threads during the call. Ownership: the caller owns REPO; nothing is kept after the call.
#pragma once

#include <optional>
#include <string>
#include <vector>

struct git_repository;

namespace errdex {

// The literal TEXT of a message, present in the file PATH ('/'-separated, relative to the repository
// root, no leading '/') at the indexed commit.
struct HistoryNeedle {
  std::string path;
  std::string text;
};

struct IntroducingCommit {
  std::string commit;        // 40 lowercase hex: the oldest commit of the unbroken first-parent run, from
                             // the indexed commit backwards, whose file PATH holds the text
  std::string committed_at;  // committer time, ISO 8601 UTC "2026-08-28T10:00:00Z"
  std::string author;        // author name only (no e-mail)
  std::string summary;       // first line of the commit message, at most 200 bytes (UTF-8 safe, "…" when cut)
  bool bounded = false;      // the walk stopped (limits, shallow history, missing blob) while the text was
                             // still there: the text is older than `commit`
};

struct HistoryLimits {
  int max_commits = 5000;    // first-parent steps (parent comparisons) at most
  double max_seconds = 5.0;  // wall-clock time at most (checked at every step)
};

// Counters of one call, for benchmarks and logs.
struct HistoryStats {
  int commits_walked = 0;    // first-parent steps taken
  int blobs_read = 0;        // parent blobs loaded and searched
  int resolved = 0;          // needles with a result that is not bounded
  int bounded = 0;           // needles with a bounded result
  int absent = 0;            // needles not in their file at COMMIT (nullopt)
  int renames_followed = 0;  // files followed to their old path across a move
};

// One result per needle, in the order of NEEDLES: nullopt when the text is empty or is not in PATH at
// COMMIT (or PATH is not a file there). COMMIT is anything git rev-parse accepts that peels to a commit.
// On a fatal failure (COMMIT unknown, its tree unreadable) returns an empty vector and sets *error to a
// one-line message; otherwise *error is left untouched. STATS, when not null, is filled.
std::vector<std::optional<IntroducingCommit>> FindIntroducingCommits(git_repository* repo, const std::string& commit,
                                                                     const std::vector<HistoryNeedle>& needles,
                                                                     const HistoryLimits& limits, std::string* error,
                                                                     HistoryStats* stats = nullptr);

// The same on the repository whose git dir (or work tree holding ".git") is GIT_PATH, opened for the
// call only (no search in parent directories). A repository that cannot be opened is a fatal failure.
std::vector<std::optional<IntroducingCommit>> FindIntroducingCommits(const std::string& git_path,
                                                                     const std::string& commit,
                                                                     const std::vector<HistoryNeedle>& needles,
                                                                     const HistoryLimits& limits, std::string* error,
                                                                     HistoryStats* stats = nullptr);

}  // namespace errdex
