// libFuzzer target: runs the Python extractor on arbitrary bytes and checks what it promises
// (src/python/python_extractor.h, docs/extraction.md): it never crashes or hangs, skips what it cannot
// read with a reason, and what it returns is well-formed and survives the catalog's JSON cache.
//
// Build and run: fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "extract/file_facts.h"
#include "extract/file_facts_json.h"
#include "extract/file_facts_json_text.h"
#include "extract/template.h"
#include "python/python_extractor.h"
#include "util/utf8.h"

namespace {

// Small limits so that the fuzzer explores content rather than size, and a slow parse surfaces as a
// "timeout" skip long before libFuzzer's own -timeout.
constexpr size_t kMaxFileSize = 6 * 1024;  // run with -max_len=8192: larger inputs test the skip
constexpr uint64_t kParseTimeoutMs = 1000;

[[noreturn]] void Fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "extract_fuzzer: invariant violated: %s: %s\n", what, detail.c_str());
  std::abort();
}

void Check(bool ok, const char* what, const std::string& detail = "") {
  if (!ok) Fail(what, detail);
}

const errdex::PythonExtractor& Extractor() {
  static const std::unique_ptr<errdex::PythonExtractor> extractor = [] {
    std::string error;
    auto e = errdex::PythonExtractor::Create(&error);
    if (!e) Fail("the embedded queries do not compile", error);
    return e;
  }();
  return *extractor;
}

bool IsReason(const std::string& r) {
  return r == "syntax_error" || r == "binary" || r == "not_utf8" || r == "too_large" || r == "too_deep" ||
         r == "timeout" || r == "parse_failed";
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  Extractor();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view content(reinterpret_cast<const char*>(data), size);
  errdex::ExtractOptions options;
  options.max_file_size = kMaxFileSize;
  options.parse_timeout_ms = kParseTimeoutMs;
  const errdex::FileFacts facts = Extractor().Extract(content, options);

  // Status and reason.
  Check(facts.status == "ok" || facts.status == "partial" || facts.status == "skipped", "status", facts.status);
  if (facts.status == "ok") {
    Check(facts.reason.empty(), "an ok file has a reason", facts.reason);
  } else {
    Check(IsReason(facts.reason), "unknown reason", facts.reason);
  }
  if (facts.status == "skipped") {
    Check(facts.sites.empty() && facts.classes.empty() && facts.imports.empty(), "a skipped file has facts");
  }
  if (size > kMaxFileSize) Check(facts.status == "skipped" && facts.reason == "too_large", "too large not skipped");
  if (facts.status != "skipped") Check(errdex::IsValidUtf8(content), "non-UTF-8 content was extracted");

  // Sites: positions inside the file, kinds of the contract, well-formed text.
  int lines = 1;
  for (char c : content) lines += c == '\n';
  for (const errdex::Site& s : facts.sites) {
    const std::string where = std::to_string(s.line) + ":" + std::to_string(s.col);
    Check(s.kind == "raise" || s.kind == "reraise" || s.kind == "assert" || s.kind == "warn", "kind", s.kind);
    Check(s.line >= 1 && s.line <= lines + 1, "line out of the file", where);
    Check(s.end_line >= s.line && s.end_line <= lines + 1, "end_line", where + "-" + std::to_string(s.end_line));
    Check(s.col >= 0 && static_cast<size_t>(s.col) <= size, "col", where);
    Check(!s.function.empty(), "empty function", where);
    Check(errdex::IsValidUtf8(s.function), "function is not UTF-8", where);
    Check(errdex::IsValidUtf8(s.snippet), "snippet is not UTF-8", where);
    if (s.kind == "reraise") Check(!s.type && !s.template_text, "a bare raise has a type or template", where);
    if (s.kind == "assert") Check(s.type == "AssertionError", "assert type", where);
    if (s.kind != "reraise") Check(s.type.has_value() && !s.type->empty(), "missing type", where);
    if (s.type) Check(errdex::IsValidUtf8(*s.type), "type is not UTF-8", where);
    if (s.template_text) {
      Check(errdex::IsValidUtf8(*s.template_text), "template is not UTF-8", where);
      // Normalizing never fails and is idempotent.
      const std::string normalized = errdex::NormalizeTemplate(*s.template_text);
      Check(errdex::NormalizeTemplate(normalized) == normalized, "normalization is not idempotent", *s.template_text);
    }
  }
  // Path conditions (docs/analysis.md): bounded, inside the file, before their site, well-formed text.
  static const std::set<std::string> kConditionKinds = {"if",        "elif",  "while",    "for",
                                                        "loop_else", "with",  "try_else", "except",
                                                        "finally",   "match", "case",     "early_exit"};
  for (const errdex::Site& s : facts.sites) {
    Check(s.conditions.size() <= errdex::kMaxConditionsPerSite, "too many conditions", std::to_string(s.line));
    for (const errdex::Condition& c : s.conditions) {
      Check(kConditionKinds.count(c.kind) > 0, "condition kind", c.kind);
      Check(c.line >= 1 && c.line <= s.line, "condition line", std::to_string(c.line));
      Check(c.code.size() <= errdex::kMaxConditionCodeBytes && errdex::IsValidUtf8(c.code), "condition code", c.code);
    }
  }
  // Tests that expect an exception.
  for (const errdex::RaisesTest& t : facts.raises_tests) {
    Check(t.line >= 1 && t.line <= lines, "raises test line", std::to_string(t.line));
    Check(!t.function.empty() && !t.type.empty() && !t.kind.empty(), "raises test fields", t.code);
    Check(t.code.size() <= errdex::kMaxRaisesTestCodeBytes && t.match.size() <= errdex::kMaxRaisesTestCodeBytes,
          "raises test size", t.code);
    Check(errdex::IsValidUtf8(t.code) && errdex::IsValidUtf8(t.match) && errdex::IsValidUtf8(t.type),
          "raises test is not UTF-8", t.code);
  }
  for (const errdex::ClassDef& c : facts.classes) {
    Check(!c.qualname.empty() && c.line >= 1 && c.line <= lines, "class", c.qualname);
    Check(errdex::IsValidUtf8(c.docstring), "docstring is not UTF-8", c.qualname);
  }
  for (const errdex::ImportBinding& b : facts.imports) Check(!b.name.empty() && !b.target.empty(), "import", b.name);

  // The catalog caches facts as JSON: they must come back the same (snippets are not cached).
  const nlohmann::json json = errdex::FileFactsToJson(facts);
  const std::string text = json.dump();  // throws on invalid UTF-8, which would abort the run
  // The indexer writes that text directly (extract/file_facts_json_text.h): it must be the same bytes.
  Check(errdex::FileFactsJsonText(facts) == text, "FileFactsJsonText differs from the JSON document's dump");
  errdex::FileFacts back;
  Check(errdex::FileFactsFromJson(nlohmann::json::parse(text), &back), "cached facts do not decode");
  Check(back.status == facts.status && back.reason == facts.reason, "status after the cache");
  Check(back.sites.size() == facts.sites.size(), "sites after the cache");
  for (size_t i = 0; i < facts.sites.size(); ++i) {
    const errdex::Site& a = facts.sites[i];
    const errdex::Site& b = back.sites[i];
    Check(a.kind == b.kind && a.type == b.type && a.template_text == b.template_text && a.line == b.line &&
              a.col == b.col && a.end_line == b.end_line && a.function == b.function,
          "a site changed in the cache", std::to_string(a.line));
    Check(a.conditions.size() == b.conditions.size(), "conditions changed in the cache", std::to_string(a.line));
    for (size_t k = 0; k < a.conditions.size() && k < b.conditions.size(); ++k) {
      const errdex::Condition& x = a.conditions[k];
      const errdex::Condition& y = b.conditions[k];
      Check(x.kind == y.kind && x.code == y.code && x.line == y.line && x.negated == y.negated,
            "a condition changed in the cache", x.code);
    }
  }
  Check(back.raises_tests.size() == facts.raises_tests.size(), "raises tests changed in the cache");
  for (size_t k = 0; k < facts.raises_tests.size() && k < back.raises_tests.size(); ++k) {
    const errdex::RaisesTest& x = facts.raises_tests[k];
    const errdex::RaisesTest& y = back.raises_tests[k];
    Check(x.function == y.function && x.line == y.line && x.type == y.type && x.match == y.match && x.kind == y.kind &&
              x.code == y.code,
          "a raises test changed in the cache", x.code);
  }
  Check(back.classes.size() == facts.classes.size() && back.imports.size() == facts.imports.size() &&
            back.wildcard_imports == facts.wildcard_imports,
        "classes or imports changed in the cache");
  return 0;
}
