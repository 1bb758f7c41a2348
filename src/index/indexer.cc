#include "index/indexer.h"

#include <xxhash.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <future>
#include <thread>
#include <unordered_set>

#include "analysis/code_model.h"
#include "analysis/doc_mentions.h"
#include "analysis/error_analysis.h"
#include "analysis/message_history.h"
#include "analysis/test_links.h"
#include "catalog/catalog.h"
#include "catalog/error_id.h"
#include "extract/file_facts_json.h"
#include "extract/template.h"
#include "index/progress.h"
#include "index/python_module_index.h"
#include "index/raising_helpers.h"
#include "index/wrapped_errors.h"
#include "match/error_matcher.h"
#include "source/source.h"
#include "util/utf8.h"

namespace errdex {

namespace {

std::string NowUtc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

// Identifies a revision's content: its files and blobs, and the extractor that read them.
// What a revision's rows depend on besides its files: re-indexing with other options is not a no-op.
std::string Digest(const std::vector<SourceEntry>& files, const IndexOptions& options) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  std::string header = "errdex-" + std::to_string(kExtractorVersion) + "-" +
                       std::to_string(options.extract.max_file_size) + "-analysis" + std::to_string(kAnalysisVersion) +
                       (options.analysis ? "+" : "-") + (options.history ? "history" : "") +
                       "-wraps1";  // sites.wraps (index/wrapped_errors.h): revisions indexed before lack it
  XXH3_64bits_update(state, header.data(), header.size() + 1);
  for (const SourceEntry& f : files) {
    XXH3_64bits_update(state, f.path.data(), f.path.size() + 1);
    XXH3_64bits_update(state, f.blob_id.data(), f.blob_id.size() + 1);
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(XXH3_64bits_digest(state)));
  XXH3_freeState(state);
  return hex;
}

// The vendored packages of a source as docs/catalog.md stores them; null when none.
std::optional<std::string> VendoredJson(const SourceInfo& info) {
  if (info.vendored.empty()) return std::nullopt;
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [path, name] : info.vendored) list.push_back({{"path", path}, {"name", name}});
  return list.dump();
}

// What happened to one file of the revision.
struct FileWork {
  const SourceEntry* entry = nullptr;
  FileFacts facts;
  std::string cached_json;  // facts from the catalog, decoded by a worker
  std::string facts_json;   // facts extracted in this run, encoded by the worker for the blob cache
  bool cached = false;      // facts came from the catalog
  bool extract = false;     // facts must be extracted in this run
};

}  // namespace

namespace {

bool IndexOrThrow(const IndexOptions& options, IndexSummary* summary, std::string* error) {
  const auto started = std::chrono::steady_clock::now();
  // Compiling the queries takes ~15 ms: do it while the source is listed and the cache is read.
  struct Compiled {
    std::unique_ptr<PythonExtractor> extractor;
    std::string error;
  };
  std::future<Compiled> compiling = std::async(std::launch::async, [] {
    Compiled c;
    c.extractor = PythonExtractor::Create(&c.error);
    return c;
  });
  std::unique_ptr<Source> opened;
  Source* source = options.opened_source;
  if (source == nullptr) {
    opened = Source::Open(options.source, options.rev, error);
    if (!opened) return false;
    source = opened.get();
  }
  std::vector<SourceEntry> entries;
  std::vector<SourceSkip> source_skips;
  if (!source->List(&entries, &source_skips, error)) return false;
  const SourceInfo& info = source->info();

  std::unique_ptr<Catalog> catalog = Catalog::Open(options.catalog, /*read_only=*/false);

  summary->repo = options.name.empty() ? info.default_name : options.name;
  summary->commit = info.commit;
  summary->version = info.version;
  summary->files = static_cast<int64_t>(entries.size());
  const std::optional<std::string> commit =
      info.commit.empty() ? std::nullopt : std::optional<std::string>(info.commit);
  const std::optional<std::string> version =
      info.version.empty() ? std::nullopt : std::optional<std::string>(info.version);
  const std::string digest = Digest(entries, options);
  if (auto existing = catalog->FindRevision(summary->repo, commit, version); existing && existing->digest == digest) {
    summary->unchanged = true;
    summary->sites = existing->sites;
    summary->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return true;
  }

  // Cache look-ups: a blob extracted before (in any revision or repository) is not parsed again; its
  // facts are decoded by the workers, after the files to parse.
  std::vector<FileWork> work(entries.size());
  std::vector<size_t> queue;
  std::vector<size_t> cached;
  for (size_t i = 0; i < entries.size(); ++i) {
    work[i].entry = &entries[i];
    if (entries[i].size > options.extract.max_file_size) {
      work[i].facts.status = "skipped";
      work[i].facts.reason = "too_large";
    } else if (catalog->FindBlobJson(entries[i].blob_id, kExtractorVersion, &work[i].cached_json)) {
      work[i].cached = true;
      cached.push_back(i);
    } else {
      work[i].extract = true;
      queue.push_back(i);
    }
  }
  const size_t to_extract = queue.size();
  queue.insert(queue.end(), cached.begin(), cached.end());

  // A pool of workers; each takes the next file by an atomic counter.
  Compiled compiled = compiling.get();
  std::unique_ptr<PythonExtractor> extractor = std::move(compiled.extractor);
  if (!extractor) {
    *error = compiled.error;
    return false;
  }
  ProgressBar progress("indexing", to_extract, options.progress);
  std::atomic<size_t> next{0};
  std::atomic<bool> corrupt_cache{false};
  auto worker = [&] {
    std::string content, read_error;
    for (size_t k; (k = next.fetch_add(1)) < queue.size();) {
      FileWork& w = work[queue[k]];
      if (w.cached) {
        nlohmann::json json = nlohmann::json::parse(w.cached_json, nullptr, /*allow_exceptions=*/false);
        if (json.is_discarded() || !FileFactsFromJson(json, &w.facts)) corrupt_cache = true;
        std::string().swap(w.cached_json);
        continue;
      }
      if (!source->Read(*w.entry, &content, &read_error)) {
        w.facts.status = "skipped";
        w.facts.reason = "unreadable";
        w.extract = false;  // not a property of the blob: do not cache it
      } else {
        w.facts = extractor->Extract(content, options.extract);
        // Encoded here, in parallel, rather than by the catalog's single writer.
        w.facts_json = FileFactsToJson(w.facts).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      }
      progress.Advance(1, w.entry->size);
    }
  };
  int jobs = options.jobs > 0 ? options.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  jobs = std::min<int>(jobs, static_cast<int>(std::max<size_t>(1, queue.size())));
  std::vector<std::thread> threads;
  for (int t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  progress.Finish();
  if (corrupt_cache) {
    *error = "the catalog's extraction cache is damaged (undecodable facts); index into a new catalog";
    return false;
  }

  // Types resolve across the whole revision: module names, classes, imports and re-exports.
  std::vector<PythonModuleIndex::FileRef> refs;
  refs.reserve(work.size());
  for (const FileWork& w : work) refs.push_back({w.entry->path, &w.facts});
  PythonModuleIndex modules(refs);

  RevisionData data;
  data.repo = summary->repo;
  if (!options.url.empty()) {
    data.url = options.url;
  } else if (!info.web_url.empty()) {
    data.url = info.web_url;
  }
  RevisionRow& rev = data.revision;
  rev.commit = commit;
  rev.version = version;
  if (!info.kind.empty()) rev.kind = info.kind;
  rev.vendored = VendoredJson(info);
  rev.source = info.location;
  rev.digest = digest;
  rev.extractor_version = kExtractorVersion;
  rev.indexed_at = NowUtc();
  if (!info.committed_at.empty()) rev.committed_at = info.committed_at;

  std::unordered_set<std::string> seen_errors;
  std::unordered_set<std::string> seen_blobs;
  auto add_site = [&](const std::string& path, const Site& s, const std::optional<std::string>& template_text,
                      bool is_test, std::optional<std::string> via) {
    SiteRow row;
    row.path = path;
    row.line = s.line;
    row.col = s.col;
    row.end_line = s.end_line;
    row.kind = s.kind;
    row.type = s.type;
    if (s.type) row.type_qualified = modules.Resolve(path, *s.type);
    row.template_text = template_text;
    row.function = s.function;
    row.is_test = is_test;
    row.via = std::move(via);
    row.conditions = s.conditions;
    // A caught type imported from another distribution (`from urllib3.exceptions import MaxRetryError`)
    // is not in this revision: its import names it.
    row.wraps = WrappedErrorsJson(s, [&](const std::string& type) {
      std::optional<std::string> resolved = modules.Resolve(path, type);
      return resolved ? resolved : modules.AbsoluteName(path, type);
    });
    std::optional<std::string> normalized;
    if (template_text) normalized = NormalizeTemplate(*template_text);
    const std::string type_key = row.type_qualified ? *row.type_qualified : s.type.value_or("");
    ErrorIdentity identity;
    identity.repo = data.repo;
    identity.type = type_key;
    identity.normalized_template = normalized;
    identity.anchored = !normalized && !row.type_qualified;
    identity.path = path;
    identity.function = s.function;
    row.error_id = ErrorId(identity);
    if (seen_errors.insert(row.error_id).second) {
      data.errors.push_back({row.error_id, data.repo, data.url, s.type, row.type_qualified, template_text, normalized});
    }
    data.sites.push_back(std::move(row));
  };
  for (FileWork& w : work) {
    const SourceEntry& e = *w.entry;
    const bool is_test = IsTestPath(e.path);
    data.files.push_back({e.path, e.blob_id, static_cast<int64_t>(e.size), modules.ModuleOf(e.path), is_test,
                          w.facts.status, w.facts.reason});
    if (w.extract) {
      summary->parsed += 1;
      summary->bytes += static_cast<int64_t>(e.size);
      if (seen_blobs.insert(e.blob_id).second) data.new_blobs.push_back({e.blob_id, &w.facts, std::move(w.facts_json)});
    }
    if (w.facts.status == "skipped") summary->skipped[w.facts.reason] += 1;
    if (w.facts.status == "partial") summary->skipped[w.facts.reason + " (sites that parsed were kept)"] += 1;
    rev.bytes += static_cast<int64_t>(e.size);
    for (const ClassDef& c : w.facts.classes) {
      std::string qualified = modules.ModuleOf(e.path) + "." + c.qualname;
      data.classes.push_back(
          {qualified, e.path, c.line, modules.BasesOf(qualified), c.docstring, c.message, c.message_from});
    }
    for (const Site& s : w.facts.sites) add_site(e.path, s, s.template_text, is_test, std::nullopt);
  }
  // Calls of raising helpers are sites of their own: the helper's raise with the caller's message.
  std::vector<FileFactsRef> file_refs;
  file_refs.reserve(work.size());
  for (const FileWork& w : work) file_refs.push_back({w.entry->path, &w.facts});
  // The code model (docs/analysis.md): resolves the calls of raising helpers, and the analysis reads it.
  std::vector<CodeModel::File> model_files;
  model_files.reserve(work.size());
  for (const FileWork& w : work) model_files.push_back({w.entry->path, &w.facts, IsTestPath(w.entry->path)});
  const CodeModel model(modules, model_files);
  // A helper whose exception class writes its own message (`ObjectNotExecutableError(target)` renders
  // "Not an executable object: {target}") does not raise the text it is handed: no site for those calls.
  std::unordered_set<std::string> classes_with_message;
  for (const ClassRow& c : data.classes) {
    if (!c.message.empty()) classes_with_message.insert(c.qualified_name);
  }
  for (const HelperCallSite& h : LinkRaisingHelpers(file_refs)) {
    const std::string& helper_path = file_refs[h.helper_file].path;
    if (h.raise->type) {
      const std::optional<std::string> type = modules.Resolve(helper_path, *h.raise->type);
      if (type && classes_with_message.count(*type) != 0) continue;
    }
    const std::string& call_path = file_refs[h.call_file].path;
    // Only calls that can reach the helper: `os.remove(...)` or `items.add(...)` do not reach a `remove`
    // or `add` method of the repository (CodeModel::Resolve: library calls and builtin-type methods).
    CallFact call;
    call.function = h.call->function;
    call.callee = h.call->receiver.empty() ? h.call->name : h.call->receiver + "." + h.call->name;
    call.line = h.call->line;
    call.col = h.call->col;
    bool reaches = false;
    for (const CodeModel::Target& t : model.Resolve(call_path, call)) {
      const CodeModel::Function& fn = model.function(t.function);
      if (fn.path == helper_path && fn.qualname == h.raise->function) reaches = true;
    }
    if (!reaches) continue;
    add_site(helper_path, *h.raise, h.template_text, IsTestPath(helper_path) || IsTestPath(call_path),
             call_path + ":" + std::to_string(h.call->line) + " in " + h.call->function);
  }
  // Tests that provoke errors (docs/analysis.md): the raises-tests of test files, linked by type and pattern.
  const auto analysis_started = std::chrono::steady_clock::now();
  auto since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  if (options.analysis) {
    ErrorTestLinker linker([&modules](const std::string& type) { return modules.TypeAndBases(type); });
    for (const SiteRow& s : data.sites) {
      if (!s.is_test) linker.AddCodeSite(s.error_id, s.type_qualified, s.type, s.template_text);
    }
    for (const FileWork& w : work) {
      const std::string& path = w.entry->path;
      if (w.facts.raises_tests.empty() || !IsTestPath(path)) continue;
      for (const RaisesTest& t : w.facts.raises_tests) {
        for (std::string& id : linker.Link(t.type, modules.Resolve(path, t.type), t.match)) {
          data.error_tests.push_back({std::move(id), path, t.line, t.function, t.kind, t.type, t.match, t.code});
        }
      }
    }
  }
  // The rest of the analysis (docs/analysis.md): meaning, state, call paths, solutions, history.
  if (options.analysis) {
    AnalysisInput input;
    input.modules = &modules;
    input.files = model_files;
    input.model = &model;
    input.sites = &data.sites;
    input.classes = &data.classes;
    input.error_tests = &data.error_tests;
    // Documentation: the revision's .md/.rst/.txt files and the docstrings of its code.
    std::vector<Document> documents;
    std::vector<SourceEntry> doc_entries;
    std::vector<SourceSkip> doc_skips;
    std::string doc_error;
    if (source->ListDocuments(&doc_entries, &doc_skips, &doc_error)) {
      for (const SourceEntry& e : doc_entries) {
        std::string text;
        if (source->Read(e, &text, &doc_error) && IsValidUtf8(text)) documents.push_back({e.path, 1, std::move(text)});
      }
    }
    for (const CodeModel::File& f : input.files) {
      if (f.is_test || f.facts == nullptr) continue;
      for (const FunctionDef& fn : f.facts->functions) {
        if (!fn.docstring.empty()) documents.push_back({f.path, fn.line, fn.docstring});
      }
    }
    DocMentionFinder docs(std::move(documents));
    input.docs = &docs;
    // History: the commit that introduced each message, for a git revision.
    if (options.history && info.is_git) {
      std::vector<MessageOfError> messages;
      for (const SiteRow* row : PrimarySites(data.sites)) {
        if (row->template_text) messages.push_back({row->error_id, row->path, *row->template_text});
      }
      std::string history_error;
      const auto history_started = std::chrono::steady_clock::now();
      // Bounded so that the analysis stays within the cost of the rest of the run (docs/analysis.md,
      // "History"): a third of the time spent before the analysis, between 0.3 s and 5 s, unless set.
      HistoryLimits limits;
      const double before = std::chrono::duration<double>(analysis_started - started).count();
      limits.max_seconds = options.history_seconds > 0 ? options.history_seconds : std::clamp(before / 3, 0.3, 5.0);
      input.history = MessageHistory(info.location, info.commit, messages, limits, &history_error);
      summary->history_seconds = since(history_started);
      if (!history_error.empty()) summary->notes.push_back("history skipped: " + history_error);
    }
    data.analyses = AnalyzeErrors(input);
  }
  summary->analysis_seconds = since(analysis_started);
  for (const SourceSkip& skip : source_skips) {
    data.files.push_back({skip.path, std::nullopt, 0, "", IsTestPath(skip.path), "skipped", skip.reason});
    summary->skipped[skip.reason] += 1;
  }
  rev.files = static_cast<int64_t>(entries.size());
  rev.sites = static_cast<int64_t>(data.sites.size());
  for (const auto& [reason, count] : summary->skipped) rev.skipped += count;
  summary->sites = rev.sites;
  summary->errors = static_cast<int64_t>(seen_errors.size());
  // The matcher is rebuilt in the same transaction, so it always describes the errors it sits beside.
  if (options.rebuild_matcher) {
    catalog->WriteRevision(data, [](SqliteDb& db) { ErrorMatcher::Rebuild(db); });
  } else {
    catalog->WriteRevision(data);
  }
  summary->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return true;
}

}  // namespace

bool Index(const IndexOptions& options, IndexSummary* summary, std::string* error) {
  // The catalog reports its failures (unwritable file, locked past the timeout, damaged database) as
  // exceptions; the whole run is one transaction, so failing here leaves the catalog as it was.
  try {
    return IndexOrThrow(options, summary, error);
  } catch (const SqliteError& e) {
    *error = e.what();
  } catch (const std::bad_alloc&) {
    *error = "out of memory";
  }
  return false;
}

}  // namespace errdex
