// The error catalog: one SQLite file holding repositories, revisions, the per-blob extraction cache,
// each revision's files, classes and sites, and the errors they raise (docs/catalog.md).
//
// Writing a revision is one transaction: a failed or killed run leaves the catalog as it was, and two
// writers wait for each other (BEGIN IMMEDIATE with a busy timeout) instead of corrupting it.
//
// Threading: a Catalog belongs to one thread at a time; open one per thread to read in parallel.
// Lifetime: the destructor must run before the SqliteDb is gone (it owns both).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "catalog/blob_cache.h"
#include "catalog/listings.h"
#include "catalog/matcher_tables.h"
#include "catalog/sqlite_db.h"
#include "extract/file_facts.h"

namespace errdex {

struct RevisionRow {
  int64_t id = 0;
  std::string repo;
  std::optional<std::string> url;
  std::optional<std::string> commit;   // null for a plain directory, a distribution or an archive
  std::optional<std::string> version;  // a distribution's (or the standard library's) version; else null
  std::string kind = "directory";      // "git", "directory", "distribution", "stdlib", "archive"
  // The vendored packages a distribution ships, as a JSON list of {"path", "name"} ("pip/_vendor/urllib3",
  // "urllib3"); null when none.
  std::optional<std::string> vendored;
  std::string source;
  std::string digest;
  int extractor_version = 0;
  std::string indexed_at;
  std::optional<std::string> committed_at;
  int64_t files = 0, bytes = 0, sites = 0, skipped = 0;
};

// One site of a revision, as `errdex list` shows it.
struct SiteRow {
  std::string error_id;
  std::string repo;
  std::optional<std::string> url;
  std::optional<std::string> commit;
  std::optional<std::string> version;  // the revision's version when it has no commit (a distribution)
  std::string path;
  int line = 0, col = 0, end_line = 0;
  std::string kind;
  std::optional<std::string> type, type_qualified, template_text;
  std::string function;
  bool is_test = false;
  std::optional<std::string> blob_id;
  int64_t revision_id = 0;
  // For a site made by a call of a raising helper: where the message is written ("path:line in f").
  std::optional<std::string> via;
  // For a site inside an except clause: what it wraps, JSON {"types", "name", "passes"}
  // (index/wrapped_errors.h); null otherwise.
  std::optional<std::string> wraps;
  // How directly the site is reached from the public API (analysis/site_reach.h): the calls on the shortest
  // path from a public function (0: the raising function is public) and how many public functions reach it
  // within the bounds; reach_calls is null without the analysis or when none does.
  std::optional<int> reach_calls;
  int reach_entries = 0;
  // For a site whose error is raised at several places of the revision (twins): the names a caller writes
  // to call the public functions that reach it (`Header` for `Header.__init__`, `get` for `Session.get`),
  // sorted, space-separated; a paste's own call of one of them picks the twin (match/twin_order.h). Null
  // otherwise.
  std::optional<std::string> reach_via;
  // The other texts the site's message may be (Site::message_alternatives; schema 12), and whether more were
  // left out (Site::alternatives_capped).
  std::vector<std::string> message_alternatives;
  bool alternatives_capped = false;
  // The texts of its exception class that this raise can render, when its arguments rule others out
  // (Site::class_texts; docs/extraction.md, "Class texts chosen by the raise's arguments"; schema 13); empty:
  // any of the class's texts.
  std::vector<std::string> class_texts;
  // The path condition (docs/analysis.md). Written by WriteRevision; not filled by the readers of
  // sites (ConditionsOfSite reads it).
  std::vector<Condition> conditions;
};

// A test of a revision that provokes an error (docs/analysis.md): `pytest.raises`, `assertRaises*`.
struct ErrorTestRow {
  std::string error_id;
  std::string path;
  int line = 0;
  std::string function;
  std::string kind;   // RaisesTest::kind
  std::string type;   // as written in the test
  std::string match;  // the pattern, "" when none
  std::string code;
  // The error's raise (one of its sites) that the block's calls reach nearest in the call graph: the site
  // the test provokes when the error has several (a bare `{name}` template groups unrelated raises). ""
  // and 0 when the test was linked without the call graph.
  std::string site_path;
  int site_line = 0;
};

// The analysis of an error in a revision (docs/analysis.md): a JSON object with meaning, state,
// call_paths, solutions and history, and the public entry points the error is reachable from
// ("module.Class.method").
struct ErrorAnalysisRow {
  std::string error_id;
  std::string analysis;  // JSON text
  std::vector<std::string> entry_points;
};

// An error related to another one, with the reason ("same function", ...), from RelatedErrors.
struct RelatedErrorRow {
  std::string id;
  std::optional<std::string> type, template_text;
  std::string reason;
};

struct ErrorRow {
  std::string id;
  std::string repo;
  std::optional<std::string> url;
  std::optional<std::string> type, type_qualified, template_text, normalized;
};

// A text an exception handler prints for a class (FileFacts::handler_texts, resolved to the class by the index
// run; docs/extraction.md, "Texts printed by exception handlers"; schema 14).
struct PrintedText {
  std::string template_text;
  std::string path;      // file of the output call
  int line = 0;          // of the output call
  std::string function;  // of the output call ("print_conftest_import_error")
  int handler_line = 0;  // of the `except` clause, in the same file
  std::string handler_function;
};

struct ClassRow {
  std::string qualified_name;
  std::string path;
  int line = 0;
  std::vector<std::string> bases;  // resolved to qualified names where possible
  std::string docstring;
  std::string message;                    // the class's own message template (ClassDef::message); "" when none
  std::string message_from;               // "__str__", "format_message", "__init__"; "" when none
  std::vector<std::string> alternatives;  // the other texts it may render (ClassDef::alternatives)
  std::vector<PrintedText> printed;       // what handlers of the revision print for it; at most kMaxPrintedTexts
};

inline constexpr size_t kMaxPrintedTexts = 16;

// Everything one index run writes for a revision.
struct RevisionData {
  std::string repo;
  std::optional<std::string> url;
  RevisionRow revision;  // id and repo fields are ignored
  struct File {
    std::string path;
    std::optional<std::string> blob_id;
    int64_t size = 0;
    std::string module;
    bool is_test = false;
    std::string status;  // "ok", "partial", "skipped"
    std::string reason;
  };
  std::vector<File> files;
  // Facts extracted in this run, to add to the blob cache.
  struct NewBlob {
    std::string oid;
    const FileFacts* facts = nullptr;
    std::string json;  // FileFactsToJson of FACTS when the caller has it (workers serialize in parallel);
                       // "": WriteRevision serializes
    // The blob compressed by the caller (EncodeBlob: workers compress in parallel, against the blob of the
    // same path in the revision before); empty frames: WriteRevision compresses it self-contained.
    EncodedBlob encoded;
    int cache_version = 0;  // the blob cache version to store it under; 0: the revision's extractor_version
  };
  std::vector<NewBlob> new_blobs;
  std::vector<SiteRow> sites;  // error_id, path, location, kind, types, template, function, is_test
  std::vector<ErrorRow> errors;
  std::vector<ClassRow> classes;
  std::vector<ErrorTestRow> error_tests;
  std::vector<ErrorAnalysisRow> analyses;
};

struct SiteFilter {
  std::optional<std::string> repo;
  // A commit (or unique prefix), "all" for every revision; empty: the latest revision of each repository.
  std::string rev;
  std::optional<std::string> type;  // as written or qualified, exactly
  std::optional<std::string> path;  // path prefix
  int64_t limit = -1;               // at most this many rows; -1: all
};

class Catalog {
 public:
  // Opens (read-write: creating and migrating) the catalog at PATH. Throws SqliteError with a one-line
  // message when it cannot be opened or written.
  static std::unique_ptr<Catalog> Open(const std::string& path, bool read_only);
  // For a process whose threads each open their own read-only catalog (errdex serve): SQLite without
  // allocation statistics (a global mutex on every allocation) and without per-connection mutexes. Call
  // before the first catalog is opened; later it is a harmless no-op.
  static void ConfigureForThreadPerConnection();

  // The cached facts of a blob extracted by extractor version VERSION (sites without snippets).
  bool FindBlob(const std::string& blob_id, int version, FileFacts* facts);
  // The same, undecoded (FileFactsFromJson decodes it), so that callers can decode in parallel; *DEPTH, when
  // given, is the blob's depth in the cache (catalog/blob_cache.h).
  bool FindBlobJson(const std::string& blob_id, int version, std::string* json, int* depth = nullptr);
  // The same still compressed (BlobCache::FindFactsFrames; DecodeFrames of catalog/blob_cache.h decodes them,
  // on any thread): the index's workers decompress in parallel.
  bool FindBlobFrames(const std::string& blob_id, int version, std::vector<std::string>* frames);
  // A cached blob's payloads, as the base of its file's next version (catalog/blob_cache.h, catalog_blobs.cc).
  std::optional<BlobBase> FindBlobBase(const std::string& blob_id, int version);
  // path -> blob of the Python files of the latest revision of REPO (none when it has no revision): the bases
  // of the next revision's new blobs.
  std::unordered_map<std::string, std::string> BlobsOfLatestRevision(const std::string& repo);

  struct Snippet {
    int start_line = 0;
    std::string text;
  };
  // The source lines around the site at LINE:COL of a blob.
  std::optional<Snippet> FindSnippet(const std::string& blob_id, int line, int col);

  // A revision is (repository, commit, version): VERSION is set for a distribution, COMMIT for git.
  std::optional<RevisionRow> FindRevision(const std::string& repo, const std::optional<std::string>& commit,
                                          const std::optional<std::string>& version = std::nullopt);

  // Replaces the revision (repository, commit) by DATA in one transaction, updates the blob cache and
  // drops the errors no revision raises any more. BEFORE_COMMIT, when set, runs last inside the same
  // transaction (the indexer rebuilds derived tables there). Returns the revision id.
  int64_t WriteRevision(const RevisionData& data, const std::function<void(MatcherTables&)>& before_commit = {});

  void ListSites(const SiteFilter& filter, const std::function<void(const SiteRow&)>& visit);
  std::optional<ErrorRow> FindError(const std::string& id);
  // Latest indexed revision first.
  std::vector<SiteRow> SitesOfError(const std::string& id);
  // Sites in files whose path ends with "/" + FILE_NAME (or is FILE_NAME), latest revision first, at
  // most LIMIT. Reads the index of file names (schema 6): meant for one traceback's frames.
  std::vector<SiteRow> SitesInFilesNamed(const std::string& file_name, int64_t limit);
  std::vector<RevisionRow> RevisionsOfError(const std::string& id);
  // The path condition of the site at PATH:LINE:COL of a revision (empty when it has none).
  std::vector<Condition> ConditionsOfSite(int64_t revision_id, const std::string& path, int line, int col);
  // The tests of a revision that provoke error ID, by path and line.
  std::vector<ErrorTestRow> TestsOfError(const std::string& id, int64_t revision_id);
  // The stored analysis JSON of error ID in a revision; null when there is none.
  std::optional<std::string> AnalysisOfError(const std::string& id, int64_t revision_id);
  // Errors of the revision that share a public entry point with error ID: (error id, entry point), at
  // most LIMIT, the entry points ID reaches through fewest others first.
  std::vector<std::pair<std::string, std::string>> ErrorsSharingEntryPoints(const std::string& id, int64_t revision_id,
                                                                            int64_t limit);
  // Errors raised (outside tests) in function FUNCTION of PATH in a revision, or, when CLASS_PREFIX is not
  // empty, in methods of that class ("Class." prefix) in PATH. Error ids, at most LIMIT.
  std::vector<std::string> ErrorsInScope(int64_t revision_id, const std::string& path, const std::string& function,
                                         const std::string& class_prefix, int64_t limit);
  std::vector<RevisionRow> Revisions();
  // True when a revision was written after the matcher was last built (or there is no matcher): a run
  // that defers the rebuild (IndexOptions::rebuild_matcher) was interrupted before it.
  bool MatcherIsStale();
  // Runs REBUILD (ErrorMatcher::Rebuild) in one write transaction of its own: for a run that wrote many
  // revisions with the rebuild deferred.
  void RebuildMatcher(const std::function<void(MatcherTables&)>& rebuild);
  std::optional<ClassRow> FindClass(const std::string& repo, const std::string& qualified_name);
  // The name of repository ID, if there is one.
  std::optional<std::string> RepositoryName(int64_t id);
  // Every class of the latest revision of REPO, by qualified name, without its docstring (left empty: the
  // matcher, which reads this on the cold path of `explain`, has no use for it).
  std::vector<ClassRow> ClassesOfLatestRevision(const std::string& repo);
  // The class QUALIFIED_NAME of the latest revision of REPO (the first of ClassesOfLatestRevision's rows of
  // that name), likewise without its docstring; by the name index, not a read of every class.
  std::optional<ClassRow> ClassOfLatestRevision(const std::string& repo, const std::string& qualified_name);
  // Sites of the latest revision of REPO whose resolved type is one of TYPES, at most LIMIT.
  // Classes of the latest revision of each repository whose last name component is LAST_NAME, with the
  // repository's name; at most LIMIT.
  std::vector<std::pair<std::string, ClassRow>> ClassesNamed(const std::string& last_name, int64_t limit);
  // The qualified names of the classes of the latest revision of each repository whose last name component
  // is LAST_NAME ignoring ASCII case (a paste lower-cased whole: `hfhubhttperror`); at most LIMIT.
  std::vector<std::string> ClassNamesIgnoringCase(const std::string& last_name, int64_t limit);
  std::vector<SiteRow> SitesRaising(const std::string& repo, const std::vector<std::string>& types, int64_t limit);

  // Listings (catalog/listings.h, catalog_listings.cc).
  // Every repository as of its latest revision, by name.
  std::vector<RepositorySummary> RepositorySummaries();
  bool HasRepository(const std::string& name);
  // The latest revision of repository REPO; nullopt when there is no such repository.
  std::optional<LatestRevision> LatestRevisionOf(const std::string& repo);
  // Every site of a revision with its error and module, by path, line and column.
  std::vector<ListedSite> ListedSitesOfRevision(int64_t revision_id);
  // Every site of the latest revision of every repository, by repository name, path, line and column.
  std::vector<LatestSite> SitesOfLatestRevisions();
  // Every error id of the catalog, sorted.
  std::vector<std::string> AllErrorIds();

  // The matcher's tables (catalog/matcher_tables.h), on this catalog's database.
  MatcherTables& matcher_tables() { return matcher_tables_; }
  // SQLite's PRAGMA data_version: changes when another connection commits (the server reloads then).
  int64_t DataVersion();

 private:
  friend struct CatalogTestPeer;     // src/testing/catalog_test_peer.h: tests read the tables directly
  friend struct VersionStoreAccess;  // catalog/version_store.cc: releases, labels and lineage
  explicit Catalog(std::unique_ptr<SqliteDb> db)
      : db_(std::move(db)), matcher_tables_(*db_), blob_cache_(std::make_unique<BlobCache>(*db_)) {}
  // catalog_blobs.cc: the blobs, sites and classes of a revision being written (WriteRevision's transaction).
  void WriteBlobs(const RevisionData& data);
  void WriteSites(const RevisionData& data, int64_t revision_id);
  void WriteClasses(const RevisionData& data, int64_t revision_id);
  // Rows of site_rows and class_rows that no revision refers to any more (after a revision was replaced).
  void DropUnreferencedRows();
  RevisionRow ReadRevision(Statement& s);
  // The statement of SQL, prepared on first use and kept for the next (reset when the borrow ends):
  // indexing looks up every blob, explain, scan and every page look up many errors. Not re-entrant: a
  // borrow must end before anything asks for the same SQL again.
  BorrowedStatement Prepared(const std::string& sql);

  std::unique_ptr<SqliteDb> db_;
  MatcherTables matcher_tables_;
  std::unique_ptr<BlobCache> blob_cache_;                                 // on db_, destroyed before it
  std::unordered_map<std::string, std::unique_ptr<Statement>> prepared_;  // destroyed before db_
};

}  // namespace errdex
