// Stage 2 of an index run (pipeline/index_run.h): the facts of every file. A blob extracted before (in
// any revision or repository) is not parsed again: its cached facts are decoded by the workers, after
// the files to parse. A run without the analysis extracts no flow facts (only the analysis' call graph
// reads them) and caches its facts apart (python/python_extractor.h, kExtractorVersionWithoutFlow).
#include <algorithm>
#include <atomic>
#include <future>
#include <thread>
#include <unordered_map>

#include "catalog/blob_cache.h"
#include "extract/file_facts_json.h"
#include "extract/file_facts_json_text.h"
#include "pipeline/facts_memo.h"
#include "pipeline/index_run.h"
#include "pipeline/progress.h"
#include "python/python_extractor.h"

namespace errdex {
namespace {

// The blob of the same path in the revision indexed before (the repository's latest), with its payloads: the
// base a changed file is compressed against (catalog/blob_cache.h), cached under VERSION as the new blob will
// be. From the memo, or from a file of this revision that took it from there, or else decoded from the
// catalog. Null when there is none.
std::shared_ptr<const BlobBase> BaseOf(IndexRun& run, const std::string& base_oid, int version,
                                       const std::unordered_map<std::string, size_t>& remembered_at,
                                       std::unordered_map<std::string, std::shared_ptr<const BlobBase>>& bases) {
  auto known = bases.find(base_oid);
  if (known != bases.end()) return known->second;
  std::shared_ptr<BlobBase> base;
  const FactsMemo* memo = run.options.memo;
  auto from_memo = memo != nullptr ? memo->by_blob.find(base_oid) : decltype(memo->by_blob.end())();
  auto taken = remembered_at.find(base_oid);
  if (memo != nullptr && from_memo != memo->by_blob.end() && from_memo->second.snippets &&
      from_memo->second.cache_version == version) {
    base = std::make_shared<BlobBase>(
        BlobBase{base_oid, from_memo->second.depth, from_memo->second.json, *from_memo->second.snippets});
  } else if (taken != remembered_at.end() && run.work[taken->second].snippets &&
             run.work[taken->second].cache_version == version) {
    const FileWork& w = run.work[taken->second];
    base = std::make_shared<BlobBase>(BlobBase{base_oid, w.depth, w.facts_json, *w.snippets});
  } else if (auto decoded = run.catalog->FindBlobBase(base_oid, version)) {
    base = std::make_shared<BlobBase>(std::move(*decoded));
  }
  bases.emplace(base_oid, base);
  return base;
}

// Whether the cache holds the facts of ENTRY for this run: under kExtractorVersion, or, for a run that needs
// no flow facts, under kExtractorVersionWithoutFlow too. Sets W's frames, depth and cache version.
bool FindCached(IndexRun& run, const SourceEntry& entry, bool flow_facts, FileWork& w) {
  for (const int version : {kExtractorVersion, kExtractorVersionWithoutFlow}) {
    if (version != kExtractorVersion && flow_facts) break;
    if (run.catalog->FindBlobFrames(entry.blob_id, version, &w.cached_frames)) {
      w.depth = static_cast<int>(w.cached_frames.size()) - 1;
      w.cache_version = version;
      return true;
    }
  }
  return false;
}

// Which files come from the memo, the cache or the parser: the order in which the workers take them. FLOW_FACTS:
// whether the run needs the flow facts (ExtractOptions::flow_facts).
std::vector<size_t> PlanWork(IndexRun& run, bool flow_facts, size_t* to_extract) {
  run.work.resize(run.entries.size());
  FactsMemo* memo = run.options.memo;
  const std::unordered_map<std::string, std::string> previous = run.catalog->BlobsOfLatestRevision(run.summary->repo);
  std::unordered_map<std::string, size_t> remembered_at;  // blob -> the file of this revision that took it
  std::unordered_map<std::string, std::shared_ptr<const BlobBase>> bases;
  std::vector<size_t> queue;
  std::vector<size_t> cached;
  for (size_t i = 0; i < run.entries.size(); ++i) {
    FileWork& w = run.work[i];
    const SourceEntry& e = run.entries[i];
    w.entry = &e;
    auto from_memo = memo != nullptr ? memo->by_blob.find(e.blob_id) : decltype(memo->by_blob.end())();
    auto taken = remembered_at.find(e.blob_id);
    if (e.size > run.options.extract.max_file_size) {
      w.facts.status = "skipped";
      w.facts.reason = "too_large";
    } else if (memo != nullptr && from_memo != memo->by_blob.end()) {
      w.facts = std::move(from_memo->second.facts);
      w.facts_json = std::move(from_memo->second.json);
      w.snippets = std::move(from_memo->second.snippets);
      w.depth = from_memo->second.depth;
      w.cache_version = from_memo->second.cache_version;
      w.remembered = true;
      memo->by_blob.erase(from_memo);
      remembered_at.emplace(e.blob_id, i);
    } else if (taken != remembered_at.end()) {
      const FileWork& first = run.work[taken->second];
      w.facts = first.facts;
      w.facts_json = first.facts_json;
      w.snippets = first.snippets;
      w.depth = first.depth;
      w.cache_version = first.cache_version;
      w.remembered = true;
    } else if (FindCached(run, e, flow_facts, w)) {
      w.cached = true;
      cached.push_back(i);
    } else {
      w.extract = true;
      w.cache_version = CacheVersion(flow_facts);
      queue.push_back(i);
      auto before = previous.find(e.path);
      if (before != previous.end() && before->second != e.blob_id) {
        w.base = BaseOf(run, before->second, w.cache_version, remembered_at, bases);
      }
    }
  }
  // The largest files first: a worker that takes a large file last would finish alone while the others
  // wait (SQLAlchemy's three largest files hold 1.2-1.4% of its bytes each).
  std::stable_sort(queue.begin(), queue.end(),
                   [&run](size_t a, size_t b) { return run.entries[a].size > run.entries[b].size; });
  *to_extract = queue.size();
  queue.insert(queue.end(), cached.begin(), cached.end());
  return queue;
}

}  // namespace

bool ExtractFiles(IndexRun& run, std::string* error) {
  // The flow facts are read only by the analysis' call graph (pipeline/build_call_graph.cc).
  ExtractOptions extract_options = run.options.extract;
  extract_options.flow_facts = extract_options.flow_facts && run.options.analysis;
  size_t to_extract = 0;
  const std::vector<size_t> queue = PlanWork(run, extract_options.flow_facts, &to_extract);
  // Compiled since the run started (IndexRun::extractor), while the source was listed and the cache read; or
  // by an earlier revision of a run over many (IndexOptions::memo), which gets it back below.
  FactsMemo* memo = run.options.memo;
  std::unique_ptr<PythonExtractor> extractor =
      memo != nullptr && memo->extractor ? std::move(memo->extractor) : run.extractor.get();
  if (!extractor) {
    *error = run.extractor_error;
    return false;
  }

  // A pool of workers; each takes the next file by an atomic counter.
  ProgressBar progress("indexing", to_extract, run.options.progress);
  std::atomic<size_t> next{0};
  std::atomic<bool> corrupt_cache{false};
  auto worker = [&] {
    std::string content, read_error;
    for (size_t k; (k = next.fetch_add(1)) < queue.size();) {
      FileWork& w = run.work[queue[k]];
      if (w.cached) {
        std::string json_text;
        const bool decoded = DecodeFrames(w.cached_frames, &json_text);
        std::vector<std::string>().swap(w.cached_frames);
        if (decoded) {
          nlohmann::json json = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
          if (json.is_discarded() || !FileFactsFromJson(json, &w.facts)) corrupt_cache = true;
          if (run.options.memo != nullptr) w.facts_json.swap(json_text);  // for the next revision
          continue;
        }
        // A frame that does not decode: extracted again, as when the cache does not hold the blob.
        w.cached = false;
        w.extract = true;
        w.cache_version = CacheVersion(extract_options.flow_facts);
      }
      if (!run.source->Read(*w.entry, &content, &read_error)) {
        w.facts.status = "skipped";
        w.facts.reason = "unreadable";
        w.extract = false;  // not a property of the blob: do not cache it
      } else {
        w.facts = extractor->Extract(content, extract_options);
        // Encoded here, in parallel, rather than by the catalog's single writer; written directly (the
        // same text as FileFactsToJson(...).dump(), without building the JSON document).
        w.facts_json = FileFactsJsonText(w.facts);
        // Compressed here too, against the file's previous version when there is one.
        w.snippets = SnippetRecord(w.facts.sites);
        w.encoded =
            EncodeBlob(w.entry->blob_id, w.facts.status, w.facts.reason, w.facts_json, *w.snippets, w.base.get());
        w.depth = w.encoded.depth;
        w.base.reset();
        if (run.options.memo == nullptr) {
          std::string().swap(w.facts_json);
          w.snippets.reset();
        }
      }
      progress.Advance(1, w.entry->size);
    }
  };
  int jobs =
      run.options.jobs > 0 ? run.options.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  jobs = std::min<int>(jobs, static_cast<int>(std::max<size_t>(1, queue.size())));
  std::vector<std::thread> threads;
  for (int t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  progress.Finish();
  if (memo != nullptr) memo->extractor = std::move(extractor);
  if (corrupt_cache) {
    *error = "the catalog's extraction cache is damaged (undecodable facts); index into a new catalog";
    return false;
  }
  return true;
}

}  // namespace errdex

namespace errdex {

void RememberFacts(IndexRun& run) {
  FactsMemo* memo = run.options.memo;
  if (memo == nullptr) return;
  memo->by_blob.clear();
  for (FileWork& w : run.work) {
    // Only what the blob cache holds: a file it holds no facts for (too large, unreadable) is read again.
    if (!(w.cached || w.remembered || w.extract) || w.facts_json.empty()) continue;
    if (memo->by_blob.count(w.entry->blob_id) != 0) continue;
    for (Site& s : w.facts.sites) {  // as the cache gives them (catalog/blob_cache.h: snippets apart)
      std::string().swap(s.snippet);
      s.snippet_start = 0;
    }
    memo->by_blob.emplace(w.entry->blob_id, RememberedFacts{std::move(w.facts), std::move(w.facts_json),
                                                            std::move(w.snippets), w.depth, w.cache_version});
  }
}

}  // namespace errdex
