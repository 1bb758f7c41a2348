#include "extract/file_facts_json_text.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <vector>

#include "util/utf8.h"

namespace errdex {

namespace {

// Appends TEXT as a JSON string literal, escaped like nlohmann's serializer with ensure_ascii off: the
// short escapes for \b \t \n \f \r " and backslash, \u00xx (lower-case hex) for the other control
// characters, every other byte as is. Text that is not valid UTF-8 (which extraction never produces)
// goes through nlohmann itself, so that its replacement of bad bytes stays the reference.
void AppendString(std::string_view text, std::string* out) {
  if (!IsValidUtf8(text)) {
    *out += nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t run = 0;  // start of the bytes not yet copied
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(text.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '\b':
        *out += "\\b";
        break;
      case '\t':
        *out += "\\t";
        break;
      case '\n':
        *out += "\\n";
        break;
      case '\f':
        *out += "\\f";
        break;
      case '\r':
        *out += "\\r";
        break;
      case '"':
        *out += "\\\"";
        break;
      case '\\':
        *out += "\\\\";
        break;
      default:
        *out += "\\u00";
        out->push_back(kHex[c >> 4]);
        out->push_back(kHex[c & 0xF]);
    }
  }
  out->append(text.data() + run, text.size() - run);
  out->push_back('"');
}

// Writes JSON values with the separators between them: Key() and the value functions insert the comma
// that the previous sibling needs.
class JsonWriter {
 public:
  explicit JsonWriter(std::string* out) : out_(out) {}

  JsonWriter& BeginObject() {
    Open('{');
    return *this;
  }
  JsonWriter& EndObject() {
    Close('}');
    return *this;
  }
  JsonWriter& BeginArray() {
    Open('[');
    return *this;
  }
  JsonWriter& EndArray() {
    Close(']');
    return *this;
  }
  JsonWriter& Key(const char* key) {
    Separate();
    out_->push_back('"');
    *out_ += key;
    *out_ += "\":";
    after_key_ = true;
    return *this;
  }
  JsonWriter& String(std::string_view text) {
    Separate();
    AppendString(text, out_);
    return *this;
  }
  JsonWriter& Int(int value) {
    Separate();
    *out_ += std::to_string(value);
    return *this;
  }
  JsonWriter& Bool(bool value) {
    Separate();
    *out_ += value ? "true" : "false";
    return *this;
  }
  JsonWriter& Null() {
    Separate();
    *out_ += "null";
    return *this;
  }
  JsonWriter& OptionalString(const std::optional<std::string>& value) { return value ? String(*value) : Null(); }
  JsonWriter& Strings(const std::vector<std::string>& values) {
    BeginArray();
    for (const std::string& v : values) String(v);
    EndArray();
    return *this;
  }

 private:
  // Before a value or a key: a comma when a sibling came before it in the same container.
  void Separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!has_sibling_.empty()) {
      if (has_sibling_.back()) out_->push_back(',');
      has_sibling_.back() = true;
    }
  }
  void Open(char bracket) {
    Separate();
    out_->push_back(bracket);
    has_sibling_.push_back(false);
  }
  void Close(char bracket) {
    out_->push_back(bracket);
    has_sibling_.pop_back();
  }

  std::string* out_;
  std::vector<bool> has_sibling_;
  bool after_key_ = false;
};

// Objects below list their keys in sorted (byte) order, as nlohmann's std::map-backed objects print them.

void WriteConditions(const std::vector<Condition>& conditions, JsonWriter* w) {
  w->BeginArray();
  for (const Condition& c : conditions) {
    w->BeginObject();
    w->Key("code").String(c.code);
    w->Key("kind").String(c.kind);
    w->Key("line").Int(c.line);
    w->Key("negated").Bool(c.negated);
    if (!c.reads.empty()) {
      w->Key("reads");
      w->BeginArray();
      for (const StateRead& r : c.reads) {
        w->BeginObject();
        w->Key("kind").String(r.kind);
        w->Key("name").String(r.name);
        w->Key("target").String(r.target);
        w->EndObject();
      }
      w->EndArray();
    }
    w->EndObject();
  }
  w->EndArray();
}

void WriteSites(const std::vector<Site>& sites, JsonWriter* w) {
  w->BeginArray();
  for (const Site& s : sites) {
    w->BeginObject();
    if (s.alternatives_capped) w->Key("alternatives_capped").Bool(true);
    if (!s.class_texts.empty()) w->Key("class_texts").Strings(s.class_texts);
    w->Key("col").Int(s.col);
    if (!s.conditions.empty()) {
      w->Key("conditions");
      WriteConditions(s.conditions, w);
    }
    w->Key("end_line").Int(s.end_line);
    w->Key("function").String(s.function);
    w->Key("kind").String(s.kind);
    w->Key("line").Int(s.line);
    if (!s.message_alternatives.empty()) w->Key("message_alternatives").Strings(s.message_alternatives);
    w->Key("template").OptionalString(s.template_text);
    w->Key("type").OptionalString(s.type);
    w->EndObject();
  }
  w->EndArray();
}

void WriteClasses(const std::vector<ClassDef>& classes, JsonWriter* w) {
  w->BeginArray();
  for (const ClassDef& c : classes) {
    w->BeginObject();
    w->Key("bases").Strings(c.bases);
    w->Key("docstring").String(c.docstring);
    w->Key("line").Int(c.line);
    if (!c.message_from.empty()) {
      w->Key("message").String(c.message);
      if (!c.alternatives.empty()) w->Key("message_alternatives").Strings(c.alternatives);
      w->Key("message_from").String(c.message_from);
    }
    w->Key("qualname").String(c.qualname);
    w->EndObject();
  }
  w->EndArray();
}

void WriteFunctions(const std::vector<FunctionDef>& functions, JsonWriter* w) {
  w->BeginArray();
  for (const FunctionDef& f : functions) {
    w->BeginObject();
    if (!f.decorators.empty()) w->Key("decorators").Strings(f.decorators);
    if (!f.docstring.empty()) w->Key("docstring").String(f.docstring);
    w->Key("end_line").Int(f.end_line);
    if (f.is_method) w->Key("is_method").Bool(true);
    w->Key("line").Int(f.line);
    w->Key("params").Strings(f.params);
    w->Key("qualname").String(f.qualname);
    w->EndObject();
  }
  w->EndArray();
}

// [function, callee, line, col, code], with function "" when it is that of the previous call and code ""
// when the previous call is on the same line (FileFactsToJson).
void WriteCalls(const std::vector<CallFact>& calls, JsonWriter* w) {
  w->BeginArray();
  const CallFact* previous = nullptr;
  for (const CallFact& c : calls) {
    w->BeginArray();
    w->String(previous != nullptr && previous->function == c.function ? std::string_view() : c.function);
    w->String(c.callee);
    w->Int(c.line);
    w->Int(c.col);
    w->String(previous != nullptr && previous->line == c.line ? std::string_view() : c.code);
    w->EndArray();
    previous = &c;
  }
  w->EndArray();
}

void WriteHelpersAndCalls(const FileFacts& facts, JsonWriter* w) {
  if (!facts.message_calls.empty()) {
    w->Key("message_calls");
    w->BeginArray();
    for (const MessageCall& c : facts.message_calls) {
      w->BeginObject();
      w->Key("arguments");
      w->BeginArray();
      for (const MessageCall::Argument& a : c.arguments) {
        w->BeginArray();
        w->Int(a.index).String(a.keyword).String(a.template_text);
        if (!a.instance_type.empty()) w->String(a.instance_type);
        w->EndArray();
      }
      w->EndArray();
      if (!c.class_arguments.empty()) {
        w->Key("class_arguments");
        w->BeginArray();
        for (const auto& [index, cls] : c.class_arguments) {
          w->BeginArray();
          w->Int(index).String(cls);
          w->EndArray();
        }
        w->EndArray();
      }
      w->Key("col").Int(c.col);
      w->Key("function").String(c.function);
      w->Key("line").Int(c.line);
      w->Key("name").String(c.name);
      w->Key("receiver").String(c.receiver);
      w->EndObject();
    }
    w->EndArray();
  }
  if (!facts.raises_tests.empty()) {
    w->Key("raises_tests");
    w->BeginArray();
    for (const RaisesTest& t : facts.raises_tests) {
      w->BeginObject();
      w->Key("code").String(t.code);
      w->Key("function").String(t.function);
      w->Key("kind").String(t.kind);
      w->Key("line").Int(t.line);
      w->Key("match").String(t.match);
      w->Key("type").String(t.type);
      w->EndObject();
    }
    w->EndArray();
  }
  if (!facts.raising_helpers.empty()) {
    w->Key("raising_helpers");
    w->BeginArray();
    for (const RaisingHelper& h : facts.raising_helpers) {
      w->BeginObject();
      w->Key("col").Int(h.col);
      w->Key("function").String(h.function);
      w->Key("is_method").Bool(h.is_method);
      w->Key("line").Int(h.line);
      w->Key("name").String(h.name);
      w->Key("param").String(h.param);
      w->Key("param_index").Int(h.param_index);
      if (h.type_param_index >= 0) {
        w->Key("type_param").String(h.type_param);
        w->Key("type_param_index").Int(h.type_param_index);
      }
      w->EndObject();
    }
    w->EndArray();
  }
}

void WriteStateWrites(const std::vector<StateWrite>& writes, JsonWriter* w) {
  w->BeginArray();
  for (const StateWrite& s : writes) {
    w->BeginArray();
    w->String(s.function).String(s.target).String(s.name).String(s.kind).Int(s.line);
    w->String(s.code);
    w->EndArray();
  }
  w->EndArray();
}

}  // namespace

std::string FileFactsJsonText(const FileFacts& facts) {
  std::string out;
  out.reserve(256 + facts.calls.size() * 64 + facts.sites.size() * 128);
  JsonWriter w(&out);
  w.BeginObject();
  if (facts.has_all) w.Key("all_names").Strings(facts.all_names);
  if (!facts.calls.empty()) {
    w.Key("calls");
    WriteCalls(facts.calls, &w);
  }
  w.Key("classes");
  WriteClasses(facts.classes, &w);
  if (!facts.flow.empty()) w.Key("flow").String(facts.flow);
  if (facts.flow_truncated) w.Key("flow_truncated").Bool(true);
  if (!facts.functions.empty()) {
    w.Key("functions");
    WriteFunctions(facts.functions, &w);
  }
  if (!facts.handler_texts.empty()) {
    w.Key("handler_texts");
    w.BeginArray();
    for (const HandlerText& h : facts.handler_texts) {
      w.BeginObject();
      w.Key("caught").String(h.caught);
      w.Key("function").String(h.function);
      w.Key("handler_function").String(h.handler_function);
      w.Key("handler_line").Int(h.handler_line);
      w.Key("line").Int(h.line);
      w.Key("template").String(h.template_text);
      w.EndObject();
    }
    w.EndArray();
  }
  w.Key("imports");
  w.BeginArray();
  for (const ImportBinding& i : facts.imports) {
    w.BeginArray();
    w.String(i.name).String(i.target);
    w.EndArray();
  }
  w.EndArray();
  // "message_calls" < "raises_tests" < "raising_helpers" < "reason"
  WriteHelpersAndCalls(facts, &w);
  w.Key("reason").String(facts.reason);
  w.Key("sites");
  WriteSites(facts.sites, &w);
  if (!facts.state_writes.empty()) {
    w.Key("state_writes");
    WriteStateWrites(facts.state_writes, &w);
  }
  w.Key("status").String(facts.status);
  w.Key("wildcard_imports").Strings(facts.wildcard_imports);
  w.EndObject();
  return out;
}

}  // namespace errdex
