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
    sites.push_back({{"kind", s.kind},
                     {"type", Optional(s.type)},
                     {"template", Optional(s.template_text)},
                     {"line", s.line},
                     {"col", s.col},
                     {"end_line", s.end_line},
                     {"function", s.function}});
  }
  nlohmann::json classes = nlohmann::json::array();
  for (const ClassDef& c : facts.classes) {
    nlohmann::json j = {{"qualname", c.qualname}, {"line", c.line}, {"bases", c.bases}, {"docstring", c.docstring}};
    if (!c.message_from.empty()) {
      j["message"] = c.message;
      j["message_from"] = c.message_from;
    }
    classes.push_back(std::move(j));
  }
  nlohmann::json imports = nlohmann::json::array();
  for (const ImportBinding& i : facts.imports) imports.push_back({i.name, i.target});
  return {{"status", facts.status}, {"reason", facts.reason},     {"sites", sites},
          {"classes", classes},     {"imports", imports},         {"wildcard_imports", facts.wildcard_imports}};
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
      facts->sites.push_back(std::move(site));
    }
    for (const auto& c : json.at("classes")) {
      facts->classes.push_back({c.at("qualname").get<std::string>(), c.at("line").get<int>(),
                                c.at("bases").get<std::vector<std::string>>(), c.at("docstring").get<std::string>(),
                                c.value("message", std::string()), c.value("message_from", std::string())});
    }
    for (const auto& i : json.at("imports")) {
      facts->imports.push_back({i.at(0).get<std::string>(), i.at(1).get<std::string>()});
    }
    facts->wildcard_imports = json.at("wildcard_imports").get<std::vector<std::string>>();
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

}  // namespace errdex
