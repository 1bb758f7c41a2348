// Stage 3 of an index run (pipeline/index_run.h): types resolve across the whole revision (module names,
// classes, imports and re-exports); the revision's rows are built; the code model is built over them.
#include <ctime>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "catalog/error_id.h"
#include "extract/template.h"
#include "pipeline/index_run.h"
#include "pipeline/site_rows.h"
#include "python/wrapped_errors.h"
#include "util/utc_time.h"

namespace errdex {
namespace {

// The vendored packages of a source as docs/catalog.md stores them; null when none.
std::optional<std::string> VendoredJson(const SourceInfo& info) {
  if (info.vendored.empty()) return std::nullopt;
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [path, name] : info.vendored) list.push_back({{"path", path}, {"name", name}});
  return list.dump();
}

void FillRevisionRow(IndexRun& run) {
  const SourceInfo& info = run.source->info();
  RevisionData& data = run.data;
  data.repo = run.summary->repo;
  if (!run.options.url.empty()) {
    data.url = run.options.url;
  } else if (!info.web_url.empty()) {
    data.url = info.web_url;
  }
  RevisionRow& rev = data.revision;
  if (!info.commit.empty()) rev.commit = info.commit;
  if (!info.version.empty()) rev.version = info.version;
  if (!info.kind.empty()) rev.kind = info.kind;
  rev.vendored = VendoredJson(info);
  rev.source = info.location;
  rev.digest = run.digest;
  rev.extractor_version = kExtractorVersion;
  rev.indexed_at = NowUtc();
  if (!info.committed_at.empty()) rev.committed_at = info.committed_at;
}

// The file's row, its classes and its sites.
void AddFileRows(IndexRun& run, FileWork& w, std::unordered_set<std::string>& seen_blobs) {
  const SourceEntry& e = *w.entry;
  const PythonModuleIndex& modules = *run.modules;
  RevisionData& data = run.data;
  const bool is_test = IsTestPath(e.path);
  data.files.push_back({e.path, e.blob_id, static_cast<int64_t>(e.size), modules.ModuleOf(e.path), is_test,
                        w.facts.status, w.facts.reason});
  if (w.extract) {
    run.summary->parsed += 1;
    run.summary->bytes += static_cast<int64_t>(e.size);
    if (seen_blobs.insert(e.blob_id).second) {
      // Compressed by the worker (kept: the facts JSON goes on to the next revision), or left to the catalog.
      if (!w.encoded.facts.empty()) {
        data.new_blobs.push_back({e.blob_id, &w.facts, "", std::move(w.encoded), w.cache_version});
      } else {
        data.new_blobs.push_back({e.blob_id, &w.facts, std::move(w.facts_json), {}, w.cache_version});
      }
    }
  }
  if (w.facts.status == "skipped") run.summary->skipped[w.facts.reason] += 1;
  if (w.facts.status == "partial") run.summary->skipped[w.facts.reason + " (sites that parsed were kept)"] += 1;
  data.revision.bytes += static_cast<int64_t>(e.size);
  for (const ClassDef& c : w.facts.classes) {
    std::string qualified = modules.ModuleOf(e.path) + "." + c.qualname;
    data.classes.push_back({qualified,
                            e.path,
                            c.line,
                            modules.BasesOf(qualified),
                            c.docstring,
                            c.message,
                            c.message_from,
                            c.alternatives,
                            {}});
  }
  for (const Site& s : w.facts.sites) AddSiteRow(run, e.path, s, s.template_text, is_test, std::nullopt);
}

// What the revision's exception handlers print (FileFacts::handler_texts), on the classes they catch: a handled
// class resolved to a class of this revision (outside test files; builtins and other distributions' classes
// have no row here).
void AddPrintedTexts(IndexRun& run) {
  std::unordered_map<std::string, size_t> class_index;
  for (size_t i = 0; i < run.data.classes.size(); ++i) class_index.emplace(run.data.classes[i].qualified_name, i);
  for (const FileWork& w : run.work) {
    const std::string& path = w.entry->path;
    if (w.facts.handler_texts.empty() || IsTestPath(path)) continue;
    for (const HandlerText& h : w.facts.handler_texts) {
      const std::optional<std::string> resolved = run.modules->Resolve(path, h.caught);
      if (!resolved) continue;
      auto it = class_index.find(*resolved);
      if (it == class_index.end()) continue;
      std::vector<PrintedText>& printed = run.data.classes[it->second].printed;
      if (printed.size() >= kMaxPrintedTexts) continue;
      printed.push_back({h.template_text, path, h.line, h.function, h.handler_line, h.handler_function});
    }
  }
}

}  // namespace

void AddSiteRow(IndexRun& run, const std::string& path, const Site& s, const std::optional<std::string>& template_text,
                bool is_test, std::optional<std::string> via, const std::string& type_override,
                const std::string& type_path) {
  RevisionData& data = run.data;
  SiteRow row;
  row.path = path;
  row.line = s.line;
  row.col = s.col;
  row.end_line = s.end_line;
  row.kind = s.kind;
  row.type = s.type;
  if (s.type) row.type_qualified = run.modules->Resolve(path, *s.type);
  if (!type_override.empty()) {
    row.type = type_override;
    row.type_qualified = run.modules->Resolve(type_path, type_override);
  }
  row.template_text = template_text;
  row.function = s.function;
  row.is_test = is_test;
  // The texts the site's own message may be; a helper's call writes its own message.
  if (!via) {
    row.message_alternatives = s.message_alternatives;
    row.alternatives_capped = s.alternatives_capped;
  }
  row.via = std::move(via);
  row.conditions = s.conditions;
  row.class_texts = s.class_texts;
  // A caught type imported from another distribution (`from urllib3.exceptions import MaxRetryError`) is
  // not in this revision: its import names it.
  row.wraps = WrappedErrorsJson(s, [&](const std::string& type) {
    std::optional<std::string> resolved = run.modules->Resolve(path, type);
    return resolved ? resolved : run.modules->AbsoluteName(path, type);
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
  if (run.seen_errors.insert(row.error_id).second) {
    data.errors.push_back({row.error_id, data.repo, data.url, s.type, row.type_qualified, template_text, normalized});
  }
  data.sites.push_back(std::move(row));
}

void ResolveRevision(IndexRun& run) {
  std::vector<PythonModuleIndex::FileRef> refs;
  refs.reserve(run.work.size());
  for (const FileWork& w : run.work) refs.push_back({w.entry->path, &w.facts});
  // An installed distribution's paths start at site-packages: namespace packages (`lazr/uri/...`) count.
  const std::string& kind = run.source->info().kind;
  run.modules = std::make_unique<PythonModuleIndex>(refs, kind == "distribution" || kind == "stdlib");

  FillRevisionRow(run);
  std::unordered_set<std::string> seen_blobs;
  for (FileWork& w : run.work) AddFileRows(run, w, seen_blobs);
  AddPrintedTexts(run);

  // The code model (docs/analysis.md): resolves the calls of raising helpers, and the analysis reads it.
  run.model_files.reserve(run.work.size());
  for (const FileWork& w : run.work) run.model_files.push_back({w.entry->path, &w.facts, IsTestPath(w.entry->path)});
  run.model = std::make_unique<CodeModel>(*run.modules, run.model_files);
}

}  // namespace errdex
