// Where things are on the site, for the server and the static export alike (docs/web.md). Every page
// links with paths relative to itself, so the same bytes work served at /, exported to any directory of a
// static host, or under a sub-path: a page at depth D (slashes in its path after the first) links to
// "../" * D + "errors/ID.html". The server answers the exported file names too (/errors/ID.html as well
// as /errors/ID), so both resolve.
//
// A repository name OWNER/NAME becomes a path of "slug" components: the bytes A-Z a-z 0-9 - _ . are
// kept, every other byte is %XX (so a component is safe as a file name and never ".", ".." or empty; a
// leading "." is encoded too). A name with an empty component ("a//b", "/a") is one component with its
// slashes encoded.
//
// Threading: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace errdex::web {

// The slug path of repository NAME: "evil/%3Cb%3Ex%3C/b%3E" for "evil/<b>x</b>".
std::string RepoSlug(std::string_view name);
// The repository name a slug path stands for (the inverse of RepoSlug); nullopt when SLUG is not one
// (a byte outside the slug alphabet, a malformed %XX, an empty component).
std::optional<std::string> RepoNameFromSlug(std::string_view slug);

// "./" for a page at the root, "../" repeated once per directory level otherwise. PATH is the page's
// path as requested ("/errors/0123456789abcdef", "/repos/o/n.html").
std::string RootPrefix(std::string_view path);

// Links from a page whose RootPrefix is ROOT.
std::string HomeHref(std::string_view root);
std::string ErrorHref(std::string_view root, std::string_view id);
std::string ErrorJsonHref(std::string_view root, std::string_view id);
std::string RepoHref(std::string_view root, std::string_view name, int page = 1);
std::string StaticHref(std::string_view root, std::string_view file);

// Site paths (without the leading "/") of the exported files.
std::string ErrorPagePath(std::string_view id);                 // errors/ID.html
std::string ErrorJsonPath(std::string_view id);                 // api/errors/ID.json
std::string RepoPagePath(std::string_view name, int page = 1);  // repos/SLUG.html, repos/SLUG/page-N.html

// The diff of two indexed revisions of repository NAME, FROM and TO being their labels (a release tag, a
// short commit): repos/SLUG/diff/F..T.html and api/repos/SLUG/diff/F..T.json, where F and T are the labels
// as one slug component each ('/' encoded too; a git ref never holds "..", so the separator is unambiguous).
std::string DiffPagePath(std::string_view name, std::string_view from, std::string_view to);
std::string DiffJsonPath(std::string_view name, std::string_view from, std::string_view to);
std::string DiffHref(std::string_view root, std::string_view name, std::string_view from, std::string_view to);

// A diff route's rest (after "/repos/" or "/api/repos/", suffix removed): "SLUG/diff/F..T" read as
// (repository name, from label, to label); nullopt when REST is not one.
struct DiffRouteParts {
  std::string name, from, to;
};
std::optional<DiffRouteParts> ReadDiffRoute(std::string_view rest);

// The readings of a repository route (the part after "/repos/", ".html" already removed) as
// (name, page), the most likely first: the whole path as a name at page 1, then, when the last
// component is "page-N" (N >= 2), the rest at page N.
std::vector<std::pair<std::string, int>> RepoRouteCandidates(std::string_view rest);

// True for 16 lowercase hexadecimal digits (an error id).
bool IsErrorId(std::string_view text);

}  // namespace errdex::web
