// Extracts the error sites, classes and imports of one Python file (docs/extraction.md) with
// tree-sitter. Which syntax counts is said by the query files queries/python/*.scm; how templates are
// reconstructed from expressions is code (python_template_builder.cc), since it is recursive evaluation
// rather than pattern matching.
//
// Threading: one PythonExtractor is shared by all workers; Extract() is thread-safe (each call uses its
// own parser and query cursor). The extractor must outlive every call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "extract/file_facts.h"

namespace errdex {

struct ExtractOptions {
  size_t max_file_size = 5 * 1024 * 1024;  // larger files are skipped as "too_large"
  uint64_t parse_timeout_ms = 10'000;      // a parse that runs longer is skipped as "timeout"
  int max_nesting = 1000;                  // a deeper syntax tree is skipped as "too_deep"
  int max_scope_depth = 200;               // so are functions, classes and lambdas nested deeper
  int snippet_context = 15;                // source lines kept before and after each site
  // The flow facts of docs/callgraph.md (FileFacts::flow), which only the analysis' call graph reads; a run
  // without the analysis leaves them out, and caches such facts under kExtractorVersionWithoutFlow.
  bool flow_facts = true;
};

// Bumped whenever extraction output changes, so that cached per-blob facts are recomputed (33: the caught
// exceptions of flow record k and the sites' message alternatives, each 32 on its own branch; 34: bindings
// in another arm of an `if` are no alternatives; 35: class texts chosen by the raise's arguments; 36: callable
// instances as raising helpers; 37: texts printed by exception handlers, FileFacts::handler_texts).
inline constexpr int kExtractorVersion = 37;

// The blob cache's version (catalog/blob_cache.h) for the facts of kExtractorVersion extracted without the
// flow facts (ExtractOptions::flow_facts false). Such entries serve only runs that do not need the flow facts;
// a run that does extracts the blob again and caches it under kExtractorVersion.
inline constexpr int kExtractorVersionWithoutFlow = -kExtractorVersion;

// The blob cache's version for facts extracted with or without the flow facts.
constexpr int CacheVersion(bool flow_facts) { return flow_facts ? kExtractorVersion : kExtractorVersionWithoutFlow; }

class PythonExtractor {
 public:
  // Compiles the embedded python queries. Returns null and sets *error when they do not compile
  // (a broken query file is a build defect, reported with the file and offset).
  static std::unique_ptr<PythonExtractor> Create(std::string* error);
  ~PythonExtractor();
  PythonExtractor(const PythonExtractor&) = delete;
  PythonExtractor& operator=(const PythonExtractor&) = delete;

  // Never throws on bad content: binary, non-UTF-8, oversized, too deep or unparsable files come back
  // as FileFacts with status "skipped" (or "partial") and a reason.
  FileFacts Extract(std::string_view content, const ExtractOptions& options) const;

 private:
  struct Compiled;  // the query and the meaning of its captures and predicates
  explicit PythonExtractor(std::unique_ptr<Compiled> compiled);
  std::unique_ptr<Compiled> compiled_;
};

}  // namespace errdex
