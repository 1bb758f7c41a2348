#include "python/python_extractor.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <vector>

#include "python/class_definitions.h"
#include "python/class_text_conditions.h"
#include "python/definition_parts.h"
#include "python/error_regions.h"
#include "python/handler_texts.h"
#include "python/helper_definitions.h"
#include "python/import_bindings.h"
#include "python/message_calls.h"
#include "python/path_conditions.h"
#include "python/program_facts.h"
#include "python/python_fields.h"
#include "python/python_file_model.h"
#include "python/python_flow_facts.h"
#include "python/python_query.h"
#include "python/python_template_builder.h"
#include "python/query_captures.h"
#include "python/raises_tests.h"
#include "python/site_reader.h"
#include "python/source_lines.h"
#include "util/utf8.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace errdex {

struct PythonExtractor::Compiled {
  std::unique_ptr<PythonQuery> query;
};

namespace {

struct DeadlinePayload {
  std::chrono::steady_clock::time_point deadline;
  bool expired = false;
};

bool ParseProgress(TSParseState* state) {
  auto* payload = static_cast<DeadlinePayload*>(state->payload);
  if (std::chrono::steady_clock::now() > payload->deadline) payload->expired = true;
  return payload->expired;  // true cancels the parse
}

// Bracket depth of the raw text, as a cheap first test for absurd nesting.
int BracketDepth(std::string_view text) {
  int depth = 0, max_depth = 0;
  for (char c : text) {
    if (c == '(' || c == '[' || c == '{') {
      max_depth = std::max(max_depth, ++depth);
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return max_depth;
}

int TreeDepth(TSNode root, int limit) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  int depth = 0, max_depth = 0;
  while (true) {
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      max_depth = std::max(max_depth, ++depth);
      if (max_depth > limit) break;
      continue;
    }
    bool moved = false;
    while (!moved) {
      if (ts_tree_cursor_goto_next_sibling(&cursor)) {
        moved = true;
      } else if (ts_tree_cursor_goto_parent(&cursor)) {
        --depth;
      } else {
        ts_tree_cursor_delete(&cursor);
        return max_depth;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
  return max_depth;
}

// The extraction of one file: runs the query, then hands what it captured to each job in turn
// (docs/extraction.md). The order matters: the model's scopes, parameters and bindings come first; helpers
// and classes in source order (a class's message may inline an earlier helper); sites after the classes
// (a raise's class texts); message calls, expecting calls and handler texts after the sites; the program
// facts last.
class FileExtraction {
 public:
  FileExtraction(std::string_view source, const ExtractOptions& options)
      : source_(source), options_(options), model_(source), builder_(model_), lines_(source) {}

  // Fills FACTS from the parsed tree ROOT of the source. Returns false when scopes nest deeper than
  // the options allow (FACTS is then incomplete and must be dropped).
  bool Run(TSNode root, const PythonQuery& query, FileFacts* facts);

 private:
  // The parameters of every function and lambda, and the single-name bindings of every scope.
  void FinishModel();
  // Template helpers and classes, in source order.
  void ReadDefinitions(TSNode root, FileFacts* facts);
  // The sites, with their path conditions, and the callable instances of raising helpers.
  void ReadSites(TSNode root, FileFacts* facts);
  // Message calls, calls expecting an exception and texts printed by handlers, then expecting with statements.
  void ReadCalls(FileFacts* facts);

  std::string_view source_;
  const ExtractOptions& options_;
  PythonFileModel model_;
  PythonTemplateBuilder builder_;
  SourceLines lines_;
  QueryCaptures captures_;
  ErrorRegions errors_;
  ImportBindings imports_;
  ClassTextChoices class_texts_;
};

void FileExtraction::FinishModel() {
  for (Scope& scope : model_.scopes) {
    if (scope.kind != Scope::kFunction && scope.kind != Scope::kLambda) continue;
    TSNode params = ts_node_child_by_field_name(scope.node, "parameters", 10);
    if (!ts_node_is_null(params)) scope.parameters = AllParameterNames(model_, params);
  }
  for (const PendingBinding& b : captures_.bindings) {
    // Only single-name targets count: neither `a` nor `b` of `a = b = VALUE` is bound.
    if (Is(b.value, "assignment")) continue;
    TSNode parent = ts_node_parent(b.statement);
    if (!ts_node_is_null(parent) && Is(parent, "assignment")) continue;
    Binding binding;
    binding.start = ts_node_start_byte(b.statement);
    binding.end = ts_node_end_byte(b.statement);
    binding.is_augmented = b.augmented;
    binding.value = b.value;
    model_.AddBinding(model_.ScopeAt(binding.start, binding.end), model_.Text(b.name), binding);
  }
  model_.FinishBindings();
}

void FileExtraction::ReadDefinitions(TSNode root, FileFacts* facts) {
  ClassDefinitions classes(source_, root, model_, builder_, &class_texts_);
  for (int i = 1; i < static_cast<int>(model_.scopes.size()); ++i) {
    const Scope& scope = model_.scopes[static_cast<size_t>(i)];
    if (scope.parent == 0 && scope.kind != Scope::kLambda) NoteHelperFunction(&model_, i);
    if (scope.kind == Scope::kClass) classes.Read(i, facts);
  }
}

void FileExtraction::ReadSites(TSNode root, FileFacts* facts) {
  SiteReader sites(model_, builder_, root, errors_, lines_, imports_, &class_texts_, options_.snippet_context);
  for (const RawSite& raw : captures_.raw_sites) sites.Read(raw, facts);
  NoteCallableInstanceHelpers(model_, root, facts);
  std::vector<std::vector<Condition>> conditions;
  PathConditions(source_, root).Compute(sites.nodes(), &conditions);
  for (size_t i = 0; i < conditions.size() && i < facts->sites.size(); ++i) {
    facts->sites[i].conditions = std::move(conditions[i]);
  }
}

void FileExtraction::ReadCalls(FileFacts* facts) {
  RaisesTestReader raises_tests(model_, builder_, errors_, imports_);
  HandlerTextReader handler_texts(source_, model_, builder_, errors_);
  for (const PendingCall& call : captures_.calls) {
    ReadMessageCall(model_, builder_, errors_, imports_, call, facts);
    raises_tests.ReadCall(call, facts);
    handler_texts.Note(call, facts);
  }
  handler_texts.Link(facts);
  for (TSNode with : captures_.withs) raises_tests.ReadWith(with, facts);
}

bool FileExtraction::Run(TSNode root, const PythonQuery& query, FileFacts* facts) {
  CollectCaptures(root, query, &model_, &captures_);
  if (!model_.FinishScopes(options_.max_scope_depth)) return false;
  errors_.Set(std::move(captures_.errors));
  FinishModel();
  for (const PendingImport& im : captures_.imports) imports_.Add(model_, im, facts);
  ReadDefinitions(root, facts);
  ReadSites(root, facts);
  ReadCalls(facts);
  ProgramFactsReader(model_, builder_, root, errors_, lines_, captures_, options_.max_nesting).Read(facts);
  std::stable_sort(facts->raises_tests.begin(), facts->raises_tests.end(),
                   [](const RaisesTest& a, const RaisesTest& b) { return a.line < b.line; });
  std::sort(facts->sites.begin(), facts->sites.end(),
            [](const Site& a, const Site& b) { return a.line != b.line ? a.line < b.line : a.col < b.col; });
  if (ts_node_has_error(root)) {
    facts->status = "partial";
    facts->reason = "syntax_error";
  }
  return true;
}

}  // namespace

PythonExtractor::PythonExtractor(std::unique_ptr<Compiled> compiled) : compiled_(std::move(compiled)) {}

PythonExtractor::~PythonExtractor() = default;

std::unique_ptr<PythonExtractor> PythonExtractor::Create(std::string* error) {
  std::unique_ptr<PythonQuery> query = CompilePythonQuery(error);
  if (query == nullptr) return nullptr;
  auto compiled = std::make_unique<Compiled>();
  compiled->query = std::move(query);
  return std::unique_ptr<PythonExtractor>(new PythonExtractor(std::move(compiled)));
}

FileFacts PythonExtractor::Extract(std::string_view content, const ExtractOptions& options) const {
  FileFacts facts;
  auto skip = [&](const char* reason) {
    facts.status = "skipped";
    facts.reason = reason;
    return facts;
  };
  if (content.size() > options.max_file_size) return skip("too_large");
  if (content.substr(0, 3) == "\xEF\xBB\xBF") content.remove_prefix(3);  // CPython ignores a BOM
  if (std::memchr(content.data(), '\0', content.size()) != nullptr) return skip("binary");
  if (!IsValidUtf8(content)) return skip("not_utf8");

  // One parser per thread, reused across files: creating one per file costs allocations.
  struct ThreadParser {
    TSParser* parser = ts_parser_new();
    ThreadParser() { ts_parser_set_language(parser, tree_sitter_python()); }
    ~ThreadParser() { ts_parser_delete(parser); }
  };
  thread_local ThreadParser thread_parser;
  TSParser* parser = thread_parser.parser;
  DeadlinePayload deadline{std::chrono::steady_clock::now() + std::chrono::milliseconds(options.parse_timeout_ms)};
  TSParseOptions parse_options{&deadline, &ParseProgress};
  TSInput input{};
  struct Text {
    std::string_view text;
  } text{content};
  input.payload = &text;
  input.encoding = TSInputEncodingUTF8;
  input.read = [](void* payload, uint32_t byte, TSPoint, uint32_t* bytes_read) -> const char* {
    auto* t = static_cast<Text*>(payload);
    if (byte >= t->text.size()) {
      *bytes_read = 0;
      return "";
    }
    *bytes_read = static_cast<uint32_t>(t->text.size() - byte);
    return t->text.data() + byte;
  };
  TSTree* tree = ts_parser_parse_with_options(parser, nullptr, input, parse_options);
  ts_parser_reset(parser);
  if (tree == nullptr) return skip(deadline.expired ? "timeout" : "parse_failed");
  TSNode root = ts_tree_root_node(tree);
  if (BracketDepth(content) > 200 && TreeDepth(root, options.max_nesting) > options.max_nesting) {
    ts_tree_delete(tree);
    return skip("too_deep");
  }
  FileExtraction extraction(content, options);
  if (!extraction.Run(root, *compiled_->query, &facts)) {
    ts_tree_delete(tree);
    facts = FileFacts();
    return skip("too_deep");
  }
  if (options.flow_facts) facts.flow = ExtractPythonFlowFacts(root, content, &facts.flow_truncated);
  ts_tree_delete(tree);
  return facts;
}

}  // namespace errdex
