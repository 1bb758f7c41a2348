#include "python/class_text_conditions.h"

#include <algorithm>

#include "python/path_conditions.h"
#include "python/python_fields.h"

namespace errdex {
namespace {

bool SameCondition(const Condition& a, const Condition& b) {
  return a.kind == b.kind && a.line == b.line && a.negated == b.negated && a.code == b.code;
}

void AddCondition(const Condition& c, std::vector<Condition>* out) {
  for (const Condition& o : *out) {
    if (SameCondition(o, c)) return;
  }
  out->push_back(c);
}

// The value of a literal argument or default; kUnknown for anything else.
KnownValue LiteralValue(const PythonFileModel& model, PythonTemplateBuilder& builder, TSNode node) {
  KnownValue v;
  node = Unparenthesize(node);
  if (Is(node, "none")) {
    v.kind = KnownValue::Kind::kNone;
  } else if (Is(node, "true")) {
    v.kind = KnownValue::Kind::kTrue;
  } else if (Is(node, "false")) {
    v.kind = KnownValue::Kind::kFalse;
  } else if (Is(node, "integer")) {
    const std::string_view text = model.Text(node);
    if (!text.empty() && text.size() < 18 && text.find_first_not_of("0123456789") == std::string_view::npos) {
      v.kind = KnownValue::Kind::kInt;
      v.integer = std::stoll(std::string(text));
    }
  } else if (Is(node, "string")) {
    if (builder.LiteralValue(node, &v.text)) v.kind = KnownValue::Kind::kString;
  } else if (Is(node, "list") || Is(node, "tuple") || Is(node, "dictionary") || Is(node, "set")) {
    v.kind = ts_node_named_child_count(node) == 0 ? KnownValue::Kind::kEmpty : KnownValue::Kind::kNotNone;
  } else if (Is(node, "lambda")) {
    v.kind = KnownValue::Kind::kNotNone;
  }
  return v;
}

struct Parameter {
  std::string name;
  TSNode default_value{};
  bool keyword_only = false;
};

// The parameters of a `parameters` node; false when one is `*args` or `**kwargs`.
bool ParametersOf(const PythonFileModel& model, TSNode params, std::vector<Parameter>* out) {
  bool keyword_only = false;
  for (TSNode p : NamedChildren(params)) {
    Parameter param;
    param.keyword_only = keyword_only;
    if (Is(p, "identifier")) {
      param.name = model.Text(p);
    } else if (Is(p, "default_parameter") || Is(p, "typed_default_parameter")) {
      TSNode name = ts_node_child_by_field_name(p, "name", 4);
      if (!Is(name, "identifier")) return false;
      param.name = model.Text(name);
      param.default_value = ts_node_child_by_field_name(p, "value", 5);
    } else if (Is(p, "typed_parameter")) {
      std::vector<TSNode> parts = NamedChildren(p);
      if (parts.empty() || !Is(parts[0], "identifier")) return false;
      param.name = model.Text(parts[0]);
    } else if (Is(p, "keyword_separator")) {
      keyword_only = true;
      continue;
    } else if (Is(p, "positional_separator")) {
      continue;
    } else {
      return false;  // *args, **kwargs
    }
    out->push_back(std::move(param));
  }
  return true;
}

}  // namespace

std::vector<std::vector<Condition>> ConditionsOfSteps(
    std::string_view source, TSNode root, const std::vector<std::vector<PythonTemplateBuilder::Step>>& steps) {
  std::vector<TSNode> targets;
  for (const auto& list : steps) {
    for (const PythonTemplateBuilder::Step& s : list) {
      targets.push_back(s.node);
      targets.push_back(ts_node_descendant_for_byte_range(root, s.use, s.use));
    }
  }
  std::vector<std::vector<Condition>> of_target;
  if (!targets.empty()) PathConditions(source, root).Compute(targets, &of_target);
  of_target.resize(targets.size());
  std::vector<std::vector<Condition>> out;
  size_t k = 0;
  for (const auto& list : steps) {
    std::vector<Condition> conditions;
    for (const PythonTemplateBuilder::Step& s : list) {
      const std::vector<Condition>& around = of_target[k];
      const std::vector<Condition>& around_use = of_target[k + 1];
      k += 2;
      if (s.ran) {
        for (const Condition& c : around) AddCondition(c, &conditions);
        continue;
      }
      std::vector<Condition> own;
      for (const Condition& c : around) {
        if (std::none_of(around_use.begin(), around_use.end(), [&](const Condition& u) { return SameCondition(u, c); }))
          own.push_back(c);
      }
      if (own.size() != 1 || own[0].kind != "if") continue;
      Condition negated = own[0];
      negated.negated = !negated.negated;
      AddCondition(negated, &conditions);
    }
    out.push_back(std::move(conditions));
  }
  return out;
}

bool BindLiteralArguments(const PythonFileModel& model, PythonTemplateBuilder& builder, int scope, TSNode call,
                          std::unordered_map<std::string, KnownValue>* values) {
  if (scope <= 0 || scope >= static_cast<int>(model.scopes.size()) || !Is(call, "call")) return false;
  TSNode params = ts_node_child_by_field_name(model.scopes[static_cast<size_t>(scope)].node, "parameters", 10);
  std::vector<Parameter> list;
  if (ts_node_is_null(params) || !ParametersOf(model, params, &list) || list.empty()) return false;
  list.erase(list.begin());  // self
  CallArguments args = SplitArguments(model, ts_node_child_by_field_name(call, "arguments", 9));
  if (args.has_splat) return false;
  std::vector<TSNode> bound(list.size());
  if (args.positional.size() > list.size()) return false;
  for (size_t i = 0; i < args.positional.size(); ++i) {
    if (list[i].keyword_only) return false;
    bound[i] = args.positional[i];
  }
  for (const auto& [keyword, value] : args.keywords) {
    const std::string& name = keyword;  // a structured binding cannot be captured before C++20's clang 16
    auto it = std::find_if(list.begin(), list.end(), [&](const Parameter& p) { return p.name == name; });
    if (it == list.end()) return false;
    const size_t i = static_cast<size_t>(it - list.begin());
    if (!ts_node_is_null(bound[i])) return false;
    bound[i] = value;
  }
  for (size_t i = 0; i < list.size(); ++i) {
    TSNode value = ts_node_is_null(bound[i]) ? list[i].default_value : bound[i];
    if (ts_node_is_null(value)) return false;  // a required parameter without an argument
    KnownValue v = LiteralValue(model, builder, value);
    if (v.kind != KnownValue::Kind::kUnknown) (*values)[list[i].name] = std::move(v);
  }
  return true;
}

std::vector<std::string> TextsRendered(const std::vector<ConditionalText>& texts,
                                       const std::unordered_map<std::string, KnownValue>& values,
                                       ConditionTruth& truth) {
  std::vector<std::string> out;
  if (values.empty()) return out;
  for (const ConditionalText& t : texts) {
    if (t.conditions.empty() || truth.Possible(t.conditions, values)) out.push_back(t.text);
  }
  if (out.size() == texts.size()) out.clear();
  return out;
}

void ClassTextChoices::Keep(const ClassDef& cls, int init,
                            const std::vector<std::pair<std::string, std::vector<Condition>>>& conditions) {
  auto conditions_of = [&](const std::string& text) {
    for (const auto& [t, c] : conditions) {
      if (t == text) return c;
    }
    return std::vector<Condition>();
  };
  ClassTexts kept;
  kept.init = init;
  kept.texts.push_back({cls.message, conditions_of(cls.message)});
  for (const std::string& a : cls.alternatives) kept.texts.push_back({a, conditions_of(a)});
  class_texts_[cls.qualname] = std::move(kept);
}

std::vector<std::string> ClassTextChoices::TextsOfRaise(const PythonFileModel& model, PythonTemplateBuilder& builder,
                                                        const std::string& type, TSNode call) {
  auto it = class_texts_.find(type);
  if (it == class_texts_.end()) return {};
  std::unordered_map<std::string, KnownValue> values;
  if (!BindLiteralArguments(model, builder, it->second.init, call, &values)) return {};
  if (!truth_) truth_ = std::make_unique<ConditionTruth>();
  return TextsRendered(it->second.texts, values, *truth_);
}

}  // namespace errdex
