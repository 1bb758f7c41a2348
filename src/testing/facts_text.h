// The text form of FileFacts used by the extraction corpus (tests/corpus/README.md): one fact per line,
// every field of FileFacts written out, strings as JSON strings (so that tabs, newlines, NUL and quotes
// stay visible). Lossless: a snippet is written as the line range of the source it copies ("snippet=3-7")
// when it is exactly those lines (checked against the source), and in full otherwise.
// Header-only test helper; pure functions, thread-safe.
#pragma once

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "extract/file_facts.h"

namespace errdex::testing_util {

// A JSON string literal of TEXT (invalid UTF-8, which facts never hold, is written as U+FFFD).
inline std::string Quoted(std::string_view text) {
  return nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

inline std::string QuotedList(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + Quoted(items[i]);
  return out + "]";
}

// Lines START..START+count-1 of SOURCE joined by '\n' (the way the extractor cuts snippets), or "" when
// SNIPPET is not exactly such a range; then the range "START-END".
inline std::string SnippetRange(std::string_view source, int start, const std::string& snippet) {
  std::vector<std::string_view> lines;
  size_t begin = 0;
  while (begin <= source.size()) {
    size_t end = source.find('\n', begin);
    if (end == std::string_view::npos) end = source.size();
    std::string_view line = source.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (end == source.size()) break;
    begin = end + 1;
  }
  size_t count = 1 + static_cast<size_t>(std::count(snippet.begin(), snippet.end(), '\n'));
  if (start < 1 || static_cast<size_t>(start) - 1 + count > lines.size()) return "";
  std::string joined;
  for (size_t i = 0; i < count; ++i) {
    if (i) joined += '\n';
    joined += lines[static_cast<size_t>(start) - 1 + i];
  }
  if (joined != snippet) return "";
  return std::to_string(start) + "-" + std::to_string(start + static_cast<int>(count) - 1);
}

inline void AppendConditions(const std::vector<Condition>& conditions, std::string* out) {
  for (const Condition& c : conditions) {
    *out += "  condition " + std::to_string(c.line) + " " + c.kind + (c.negated ? " negated " : " ") + Quoted(c.code) +
            "\n";
    for (const StateRead& r : c.reads) {
      *out += "    read " + r.kind + " target=" + Quoted(r.target) + " name=" + Quoted(r.name) + "\n";
    }
  }
}

inline void AppendSites(std::string_view source, const FileFacts& facts, std::string* out) {
  for (const Site& s : facts.sites) {
    std::string range = SnippetRange(source, s.snippet_start, s.snippet);
    *out += "site " + std::to_string(s.line) + ":" + std::to_string(s.col) + "-" + std::to_string(s.end_line) + " " +
            s.kind + " type=" + (s.type ? Quoted(*s.type) : "null") +
            " template=" + (s.template_text ? Quoted(*s.template_text) : "null") + " function=" + Quoted(s.function) +
            " snippet=" + (range.empty() ? std::to_string(s.snippet_start) + ":" + Quoted(s.snippet) : range) + "\n";
    for (const std::string& a : s.message_alternatives) *out += "  message_alternative " + Quoted(a) + "\n";
    if (s.alternatives_capped) *out += "  alternatives_capped\n";
    AppendConditions(s.conditions, out);
    for (const std::string& t : s.class_texts) *out += "  class_text " + Quoted(t) + "\n";
  }
}

inline void AppendDefinitions(const FileFacts& facts, std::string* out) {
  for (const ClassDef& c : facts.classes) {
    *out += "class " + c.qualname + " line=" + std::to_string(c.line) + " bases=" + QuotedList(c.bases) +
            " message=" + Quoted(c.message) + " message_from=" + Quoted(c.message_from) + "\n";
    if (!c.docstring.empty()) *out += "  docstring " + Quoted(c.docstring) + "\n";
    for (const std::string& a : c.alternatives) *out += "  message_alternative " + Quoted(a) + "\n";
  }
  for (const FunctionDef& f : facts.functions) {
    *out += "function " + f.qualname + " lines=" + std::to_string(f.line) + "-" + std::to_string(f.end_line) +
            " params=" + QuotedList(f.params) + " decorators=" + QuotedList(f.decorators) +
            (f.is_method ? " method" : "") + "\n";
    if (!f.docstring.empty()) *out += "  docstring " + Quoted(f.docstring) + "\n";
  }
  for (const ImportBinding& b : facts.imports) *out += "import " + Quoted(b.name) + " = " + Quoted(b.target) + "\n";
  for (const std::string& m : facts.wildcard_imports) *out += "import_all " + Quoted(m) + "\n";
  if (facts.has_all) *out += "__all__ " + QuotedList(facts.all_names) + "\n";
}

inline void AppendHelpers(const FileFacts& facts, std::string* out) {
  for (const RaisingHelper& h : facts.raising_helpers) {
    *out += "raising_helper " + h.function + " name=" + Quoted(h.name) + (h.is_method ? " method" : "") +
            " param=" + std::to_string(h.param_index) + ":" + Quoted(h.param) + " raise=" + std::to_string(h.line) +
            ":" + std::to_string(h.col) +
            (h.type_param_index >= 0 ? " class_param=" + std::to_string(h.type_param_index) + ":" + Quoted(h.type_param)
                                     : std::string()) +
            "\n";
  }
  for (const MessageCall& m : facts.message_calls) {
    *out += "message_call " + std::to_string(m.line) + ":" + std::to_string(m.col) + " name=" + Quoted(m.name) +
            " receiver=" + Quoted(m.receiver) + " function=" + Quoted(m.function) + "\n";
    for (const MessageCall::Argument& a : m.arguments) {
      *out += "  argument " + (a.index >= 0 ? std::to_string(a.index) : "keyword=" + Quoted(a.keyword)) +
              " template=" + Quoted(a.template_text) +
              (a.instance_type.empty() ? std::string() : " instance=" + Quoted(a.instance_type)) + "\n";
    }
    for (const auto& [index, cls] : m.class_arguments) {
      *out += "  class_argument " + std::to_string(index) + " " + Quoted(cls) + "\n";
    }
  }
  for (const RaisesTest& t : facts.raises_tests) {
    *out += "raises_test " + std::to_string(t.line) + " " + t.kind + " type=" + Quoted(t.type) +
            " match=" + Quoted(t.match) + " function=" + Quoted(t.function) + "\n  code " + Quoted(t.code) + "\n";
  }
  for (const HandlerText& h : facts.handler_texts) {
    *out += "handler_text " + std::to_string(h.line) + " caught=" + Quoted(h.caught) +
            " template=" + Quoted(h.template_text) + " function=" + Quoted(h.function) +
            " handler=" + std::to_string(h.handler_line) + ":" + Quoted(h.handler_function) + "\n";
  }
}

// The flow records (docs/callgraph.md), one line of them per "flow" line.
inline void AppendFlow(const FileFacts& facts, std::string* out) {
  if (!facts.flow.empty()) {
    size_t begin = 0;
    while (true) {
      size_t end = facts.flow.find('\n', begin);
      *out += "flow " +
              Quoted(std::string_view(facts.flow).substr(begin, end == std::string::npos ? end : end - begin)) + "\n";
      if (end == std::string::npos) break;
      begin = end + 1;
    }
  }
  if (facts.flow_truncated) *out += "flow_truncated\n";
}

inline void AppendCodeModel(const FileFacts& facts, std::string* out) {
  for (const CallFact& c : facts.calls) {
    *out += "call " + std::to_string(c.line) + ":" + std::to_string(c.col) + " " + Quoted(c.callee) +
            " function=" + Quoted(c.function) + " code=" + Quoted(c.code) + "\n";
  }
  for (const StateWrite& w : facts.state_writes) {
    *out += "write " + std::to_string(w.line) + " " + w.kind + " target=" + Quoted(w.target) +
            " name=" + Quoted(w.name) + " function=" + Quoted(w.function) + " code=" + Quoted(w.code) + "\n";
  }
}

// FACTS of SOURCE as text, in the order: status, sites (with their conditions), classes, functions,
// imports, __all__, raising helpers, message calls, raises-tests, calls, state writes, flow records.
inline std::string FactsText(std::string_view source, const FileFacts& facts) {
  std::string out = "status " + facts.status + (facts.reason.empty() ? "" : " " + facts.reason) + "\n";
  AppendSites(source, facts, &out);
  AppendDefinitions(facts, &out);
  AppendHelpers(facts, &out);
  AppendCodeModel(facts, &out);
  AppendFlow(facts, &out);
  return out;
}

}  // namespace errdex::testing_util
