#include "python/raises_apis.h"

#include <vector>

#include "python/embedded_data.h"

namespace errdex {
namespace {

RaisesApiRule::CalledAs ParseCalledAs(std::string_view text) {
  if (text == "pytest") return RaisesApiRule::CalledAs::kPytest;
  if (text == "name_or_attribute") return RaisesApiRule::CalledAs::kNameOrAttribute;
  return RaisesApiRule::CalledAs::kAttribute;
}

std::vector<RaisesApiRule> ParseRules() {
  std::vector<RaisesApiRule> rules;
  for (const std::vector<std::string_view>& f : EmbeddedPythonTable("data/raises_apis.tsv")) {
    if (f.size() != 6) continue;
    RaisesApiRule rule;
    rule.name = std::string(f[0]);
    rule.called_as = ParseCalledAs(f[1]);
    rule.api = std::string(f[2]);
    rule.call_form = f[3] != "with";
    rule.with_form = f[3] != "call";
    if (f[4].starts_with("keyword:")) {
      rule.pattern_keyword = std::string(f[4].substr(8));
    } else if (f[4].starts_with("second:")) {
      rule.pattern_keyword = std::string(f[4].substr(7));
      rule.pattern_positional = true;
    }
    rule.substring = f[5] == "substring";
    rules.push_back(std::move(rule));
  }
  return rules;
}

const std::vector<RaisesApiRule>& Rules() {
  static const std::vector<RaisesApiRule> kRules = ParseRules();
  return kRules;
}

}  // namespace

const RaisesApiRule* FindRaisesApi(std::string_view name, bool attribute) {
  for (const RaisesApiRule& rule : Rules()) {
    if (rule.name != name) continue;
    if (rule.called_as == RaisesApiRule::CalledAs::kAttribute && !attribute) continue;
    return &rule;
  }
  return nullptr;
}

const RaisesApiRule* RaisesApiNamed(std::string_view api) {
  for (const RaisesApiRule& rule : Rules()) {
    if (rule.api == api) return &rule;
  }
  return nullptr;
}

bool IsTestFrameworkCall(std::string_view callee) {
  const size_t dot = callee.rfind('.');
  const std::string_view last = dot == std::string_view::npos ? callee : callee.substr(dot + 1);
  if (FindRaisesApi(last, dot != std::string_view::npos) != nullptr) return true;
  if (callee.substr(0, 7) == "pytest.") {
    for (std::string_view name : {"warns", "deprecated_call", "fail", "skip", "xfail", "importorskip", "exit"}) {
      if (last == name && dot == 6) return true;
    }
  }
  if (callee.substr(0, 5) == "self." && dot == 4) return last.substr(0, 6) == "assert" || last == "fail";
  return false;
}

}  // namespace errdex
