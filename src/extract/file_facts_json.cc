#include "extract/file_facts_json.h"

namespace errdex {

namespace {

nlohmann::json Optional(const std::optional<std::string>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

std::optional<std::string> OptionalFrom(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  return std::nullopt;
}

}  // namespace

nlohmann::json FileFactsToJson(const FileFacts& facts) {
  nlohmann::json sites = nlohmann::json::array();
  for (const Site& s : facts.sites) {
    nlohmann::json site = {{"kind", s.kind},
                           {"type", Optional(s.type)},
                           {"template", Optional(s.template_text)},
                           {"line", s.line},
                           {"col", s.col},
                           {"end_line", s.end_line},
                           {"function", s.function}};
    if (!s.conditions.empty()) site["conditions"] = ConditionsToJson(s.conditions);
    if (!s.message_alternatives.empty()) site["message_alternatives"] = s.message_alternatives;
    if (s.alternatives_capped) site["alternatives_capped"] = true;
    if (!s.class_texts.empty()) site["class_texts"] = s.class_texts;
    sites.push_back(std::move(site));
  }
  nlohmann::json classes = nlohmann::json::array();
  for (const ClassDef& c : facts.classes) {
    nlohmann::json j = {{"qualname", c.qualname}, {"line", c.line}, {"bases", c.bases}, {"docstring", c.docstring}};
    if (!c.message_from.empty()) {
      j["message"] = c.message;
      j["message_from"] = c.message_from;
      if (!c.alternatives.empty()) j["message_alternatives"] = c.alternatives;
    }
    classes.push_back(std::move(j));
  }
  nlohmann::json imports = nlohmann::json::array();
  for (const ImportBinding& i : facts.imports) imports.push_back({i.name, i.target});
  nlohmann::json out = {{"status", facts.status}, {"reason", facts.reason},
                        {"sites", sites},         {"classes", classes},
                        {"imports", imports},     {"wildcard_imports", facts.wildcard_imports}};
  if (!facts.raising_helpers.empty()) {
    nlohmann::json helpers = nlohmann::json::array();
    for (const RaisingHelper& h : facts.raising_helpers) {
      helpers.push_back({{"function", h.function},
                         {"name", h.name},
                         {"is_method", h.is_method},
                         {"param_index", h.param_index},
                         {"param", h.param},
                         {"line", h.line},
                         {"col", h.col}});
      if (h.type_param_index >= 0) {
        helpers.back()["type_param_index"] = h.type_param_index;
        helpers.back()["type_param"] = h.type_param;
      }
    }
    out["raising_helpers"] = std::move(helpers);
  }
  if (!facts.message_calls.empty()) {
    nlohmann::json calls = nlohmann::json::array();
    for (const MessageCall& c : facts.message_calls) {
      nlohmann::json args = nlohmann::json::array();
      for (const MessageCall::Argument& a : c.arguments) {
        nlohmann::json arg = {a.index, a.keyword, a.template_text};
        if (!a.instance_type.empty()) arg.push_back(a.instance_type);
        args.push_back(std::move(arg));
      }
      calls.push_back({{"name", c.name},
                       {"receiver", c.receiver},
                       {"function", c.function},
                       {"line", c.line},
                       {"col", c.col},
                       {"arguments", std::move(args)}});
      if (!c.class_arguments.empty()) calls.back()["class_arguments"] = c.class_arguments;
    }
    out["message_calls"] = std::move(calls);
  }
  if (!facts.raises_tests.empty()) {
    nlohmann::json tests = nlohmann::json::array();
    for (const RaisesTest& t : facts.raises_tests) {
      tests.push_back({{"function", t.function},
                       {"line", t.line},
                       {"type", t.type},
                       {"match", t.match},
                       {"kind", t.kind},
                       {"code", t.code}});
    }
    out["raises_tests"] = std::move(tests);
  }
  if (!facts.handler_texts.empty()) {
    nlohmann::json texts = nlohmann::json::array();
    for (const HandlerText& h : facts.handler_texts) {
      texts.push_back({{"caught", h.caught},
                       {"template", h.template_text},
                       {"line", h.line},
                       {"function", h.function},
                       {"handler_line", h.handler_line},
                       {"handler_function", h.handler_function}});
    }
    out["handler_texts"] = std::move(texts);
  }
  // The program facts: each list only when it has entries, to keep cached facts small.
  if (!facts.functions.empty()) {
    nlohmann::json functions = nlohmann::json::array();
    for (const FunctionDef& f : facts.functions) {
      nlohmann::json j = {{"qualname", f.qualname}, {"line", f.line}, {"end_line", f.end_line}, {"params", f.params}};
      if (!f.docstring.empty()) j["docstring"] = f.docstring;
      if (!f.decorators.empty()) j["decorators"] = f.decorators;
      if (f.is_method) j["is_method"] = true;
      functions.push_back(std::move(j));
    }
    out["functions"] = std::move(functions);
  }
  if (!facts.calls.empty()) {
    // Calls are many (a fifth of a file's lines): [function, callee, line, col, code], with function ""
    // when it is that of the previous call and code "" when the previous call is on the same line.
    nlohmann::json calls = nlohmann::json::array();
    calls.get_ref<nlohmann::json::array_t&>().reserve(facts.calls.size());
    const CallFact* previous = nullptr;
    for (const CallFact& c : facts.calls) {
      const bool same_function = previous != nullptr && previous->function == c.function;
      const bool same_line = previous != nullptr && previous->line == c.line;
      nlohmann::json::array_t row;
      row.reserve(5);
      row.emplace_back(same_function ? std::string() : c.function);
      row.emplace_back(c.callee);
      row.emplace_back(c.line);
      row.emplace_back(c.col);
      row.emplace_back(same_line ? std::string() : c.code);
      calls.get_ref<nlohmann::json::array_t&>().emplace_back(std::move(row));
      previous = &c;
    }
    out["calls"] = std::move(calls);
  }
  if (!facts.state_writes.empty()) {
    // [function, target, name, kind, line, code]
    nlohmann::json writes = nlohmann::json::array();
    for (const StateWrite& w : facts.state_writes) {
      writes.push_back(nlohmann::json::array({w.function, w.target, w.name, w.kind, w.line, w.code}));
    }
    out["state_writes"] = std::move(writes);
  }
  if (facts.has_all) out["all_names"] = facts.all_names;  // present (maybe empty) exactly when has_all
  if (!facts.flow.empty()) out["flow"] = facts.flow;
  if (facts.flow_truncated) out["flow_truncated"] = true;
  return out;
}

nlohmann::json ConditionsToJson(const std::vector<Condition>& conditions) {
  nlohmann::json out = nlohmann::json::array();
  for (const Condition& c : conditions) {
    nlohmann::json j = {{"kind", c.kind}, {"code", c.code}, {"line", c.line}, {"negated", c.negated}};
    if (!c.reads.empty()) {
      nlohmann::json reads = nlohmann::json::array();
      for (const StateRead& r : c.reads) reads.push_back({{"kind", r.kind}, {"target", r.target}, {"name", r.name}});
      j["reads"] = std::move(reads);
    }
    out.push_back(std::move(j));
  }
  return out;
}

bool ConditionsFromJson(const nlohmann::json& json, std::vector<Condition>* conditions) {
  conditions->clear();
  if (!json.is_array()) return false;
  try {
    for (const auto& c : json) {
      Condition condition{c.at("kind").get<std::string>(),
                          c.at("code").get<std::string>(),
                          c.at("line").get<int>(),
                          c.at("negated").get<bool>(),
                          {}};
      if (c.contains("reads")) {
        for (const auto& r : c.at("reads")) {
          condition.reads.push_back(
              {r.at("kind").get<std::string>(), r.at("target").get<std::string>(), r.at("name").get<std::string>()});
        }
      }
      conditions->push_back(std::move(condition));
    }
  } catch (const nlohmann::json::exception&) {
    conditions->clear();
    return false;
  }
  return true;
}

bool FileFactsFromJson(const nlohmann::json& json, FileFacts* facts) {
  try {
    *facts = FileFacts();
    facts->status = json.at("status").get<std::string>();
    facts->reason = json.at("reason").get<std::string>();
    for (const auto& s : json.at("sites")) {
      Site site;
      site.kind = s.at("kind").get<std::string>();
      site.type = OptionalFrom(s.at("type"));
      site.template_text = OptionalFrom(s.at("template"));
      site.line = s.at("line").get<int>();
      site.col = s.at("col").get<int>();
      site.end_line = s.at("end_line").get<int>();
      site.function = s.at("function").get<std::string>();
      if (s.contains("conditions") && !ConditionsFromJson(s.at("conditions"), &site.conditions)) return false;
      site.message_alternatives = s.value("message_alternatives", std::vector<std::string>());
      site.alternatives_capped = s.value("alternatives_capped", false);
      site.class_texts = s.value("class_texts", std::vector<std::string>());
      facts->sites.push_back(std::move(site));
    }
    for (const auto& c : json.at("classes")) {
      facts->classes.push_back({c.at("qualname").get<std::string>(), c.at("line").get<int>(),
                                c.at("bases").get<std::vector<std::string>>(), c.at("docstring").get<std::string>(),
                                c.value("message", std::string()), c.value("message_from", std::string()),
                                c.value("message_alternatives", std::vector<std::string>())});
    }
    for (const auto& i : json.at("imports")) {
      facts->imports.push_back({i.at(0).get<std::string>(), i.at(1).get<std::string>()});
    }
    facts->wildcard_imports = json.at("wildcard_imports").get<std::vector<std::string>>();
    if (json.contains("raising_helpers")) {
      for (const auto& h : json.at("raising_helpers")) {
        facts->raising_helpers.push_back(
            {h.at("function").get<std::string>(), h.at("name").get<std::string>(), h.at("is_method").get<bool>(),
             h.at("param_index").get<int>(), h.at("param").get<std::string>(), h.at("line").get<int>(),
             h.at("col").get<int>(), h.value("type_param_index", -1), h.value("type_param", std::string())});
      }
    }
    if (json.contains("message_calls")) {
      for (const auto& c : json.at("message_calls")) {
        MessageCall call;
        call.name = c.at("name").get<std::string>();
        call.receiver = c.at("receiver").get<std::string>();
        call.function = c.at("function").get<std::string>();
        call.line = c.at("line").get<int>();
        call.col = c.at("col").get<int>();
        for (const auto& a : c.at("arguments")) {
          call.arguments.push_back({a.at(0).get<int>(), a.at(1).get<std::string>(), a.at(2).get<std::string>(),
                                    a.size() > 3 ? a.at(3).get<std::string>() : std::string()});
        }
        if (c.contains("class_arguments")) {
          for (const auto& a : c.at("class_arguments")) {
            call.class_arguments.emplace_back(a.at(0).get<int>(), a.at(1).get<std::string>());
          }
        }
        facts->message_calls.push_back(std::move(call));
      }
    }
    if (json.contains("raises_tests")) {
      for (const auto& t : json.at("raises_tests")) {
        facts->raises_tests.push_back({t.at("function").get<std::string>(), t.at("line").get<int>(),
                                       t.at("type").get<std::string>(), t.at("match").get<std::string>(),
                                       t.at("kind").get<std::string>(), t.at("code").get<std::string>()});
      }
    }
    if (json.contains("handler_texts")) {
      for (const auto& h : json.at("handler_texts")) {
        facts->handler_texts.push_back({h.at("caught").get<std::string>(), h.at("template").get<std::string>(),
                                        h.at("line").get<int>(), h.at("function").get<std::string>(),
                                        h.at("handler_line").get<int>(), h.at("handler_function").get<std::string>()});
      }
    }
    if (json.contains("functions")) {
      for (const auto& f : json.at("functions")) {
        FunctionDef def;
        def.qualname = f.at("qualname").get<std::string>();
        def.line = f.at("line").get<int>();
        def.end_line = f.at("end_line").get<int>();
        def.params = f.at("params").get<std::vector<std::string>>();
        def.docstring = f.value("docstring", std::string());
        if (f.contains("decorators")) def.decorators = f.at("decorators").get<std::vector<std::string>>();
        def.is_method = f.value("is_method", false);
        facts->functions.push_back(std::move(def));
      }
    }
    if (json.contains("calls")) {
      const auto& calls = json.at("calls");
      facts->calls.reserve(calls.size());
      for (const auto& c : calls) {
        CallFact call{c.at(0).get<std::string>(), c.at(1).get<std::string>(), c.at(2).get<int>(), c.at(3).get<int>(),
                      c.at(4).get<std::string>()};
        if (!facts->calls.empty()) {
          const CallFact& previous = facts->calls.back();
          if (call.function.empty()) call.function = previous.function;
          if (call.code.empty() && previous.line == call.line) call.code = previous.code;
        }
        if (call.function.empty()) return false;
        facts->calls.push_back(std::move(call));
      }
    }
    if (json.contains("state_writes")) {
      for (const auto& w : json.at("state_writes")) {
        facts->state_writes.push_back({w.at(0).get<std::string>(), w.at(1).get<std::string>(),
                                       w.at(2).get<std::string>(), w.at(3).get<std::string>(), w.at(4).get<int>(),
                                       w.at(5).get<std::string>()});
      }
    }
    if (json.contains("all_names")) {
      facts->has_all = true;
      facts->all_names = json.at("all_names").get<std::vector<std::string>>();
    }
    if (json.contains("flow")) facts->flow = json.at("flow").get<std::string>();
    if (json.contains("flow_truncated")) facts->flow_truncated = json.at("flow_truncated").get<bool>();
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

}  // namespace errdex
