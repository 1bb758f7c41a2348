// Stage 2 of an index run (pipeline/index_run.h): the facts of every file. A blob extracted before (in
// any revision or repository) is not parsed again: its cached facts are decoded by the workers, after
// the files to parse.
#include <algorithm>
#include <atomic>
#include <future>
#include <thread>

#include "extract/cached_facts_codec.h"
#include "extract/file_facts_json.h"
#include "extract/file_facts_json_text.h"
#include "pipeline/index_run.h"
#include "pipeline/progress.h"
#include "python/python_extractor.h"

namespace errdex {
namespace {

// Which files come from the cache and which are parsed: the order in which the workers take them.
std::vector<size_t> PlanWork(IndexRun& run, size_t* to_extract) {
  run.work.resize(run.entries.size());
  std::vector<size_t> queue;
  std::vector<size_t> cached;
  for (size_t i = 0; i < run.entries.size(); ++i) {
    FileWork& w = run.work[i];
    w.entry = &run.entries[i];
    if (run.entries[i].size > run.options.extract.max_file_size) {
      w.facts.status = "skipped";
      w.facts.reason = "too_large";
    } else if (run.catalog->FindBlobJson(run.entries[i].blob_id, kExtractorVersion, &w.cached_json)) {
      w.cached = true;
      cached.push_back(i);
    } else {
      w.extract = true;
      queue.push_back(i);
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
  size_t to_extract = 0;
  const std::vector<size_t> queue = PlanWork(run, &to_extract);
  // Compiled since the run started (IndexRun::extractor), while the source was listed and the cache read.
  std::unique_ptr<PythonExtractor> extractor = run.extractor.get();
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
        const bool decoded = DecodeCachedFacts(w.cached_json, &content);
        nlohmann::json json = decoded ? nlohmann::json::parse(content, nullptr, /*allow_exceptions=*/false) : nullptr;
        if (!decoded || json.is_discarded() || !FileFactsFromJson(json, &w.facts)) corrupt_cache = true;
        std::string().swap(w.cached_json);
        continue;
      }
      if (!run.source->Read(*w.entry, &content, &read_error)) {
        w.facts.status = "skipped";
        w.facts.reason = "unreadable";
        w.extract = false;  // not a property of the blob: do not cache it
      } else {
        w.facts = extractor->Extract(content, run.options.extract);
        // Encoded and compressed here, in parallel, rather than by the catalog's single writer; the JSON is
        // written directly (the same text as FileFactsToJson(...).dump(), without building the document).
        w.facts_json = EncodeCachedFacts(FileFactsJsonText(w.facts));
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
  if (corrupt_cache) {
    *error = "the catalog's extraction cache is damaged (undecodable facts); index into a new catalog";
    return false;
  }
  return true;
}

}  // namespace errdex
