#include "python/definition_parts.h"

#include <algorithm>

#include "python/python_fields.h"
#include "python/python_template_builder.h"

namespace errdex {

std::string CleanDoc(const std::string& doc) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= doc.size()) {
    size_t nl = doc.find('\n', start);
    if (nl == std::string::npos) nl = doc.size();
    std::string line = doc.substr(start, nl - start);
    for (size_t p; (p = line.find('\t')) != std::string::npos;) line.replace(p, 1, 8 - p % 8, ' ');
    lines.push_back(std::move(line));
    start = nl + 1;
  }
  size_t indent = std::string::npos;
  for (size_t i = 1; i < lines.size(); ++i) {
    size_t first = lines[i].find_first_not_of(' ');
    if (first != std::string::npos) indent = std::min(indent, first);
  }
  if (!lines.empty()) {
    size_t first = lines[0].find_first_not_of(' ');
    lines[0] = first == std::string::npos ? "" : lines[0].substr(first);
  }
  for (size_t i = 1; i < lines.size(); ++i) {
    lines[i] = indent != std::string::npos && lines[i].size() >= indent ? lines[i].substr(indent) : "";
    while (!lines[i].empty() && lines[i].back() == ' ') lines[i].pop_back();
  }
  auto blank = [](const std::string& l) { return l.find_first_not_of(" \t\r") == std::string::npos; };
  while (!lines.empty() && blank(lines.back())) lines.pop_back();
  size_t begin = 0;
  while (begin < lines.size() && blank(lines[begin])) ++begin;
  std::string out;
  for (size_t i = begin; i < lines.size(); ++i) {
    if (i > begin) out.push_back('\n');
    out += lines[i];
  }
  return out;
}

std::vector<std::string> ParameterNames(const PythonFileModel& model, TSNode parameters) {
  std::vector<std::string> names;
  for (TSNode p : NamedChildren(parameters)) {
    if (Is(p, "identifier")) {
      names.emplace_back(model.Text(p));
    } else if (Is(p, "default_parameter") || Is(p, "typed_default_parameter")) {
      TSNode name = ts_node_child_by_field_name(p, "name", 4);
      if (!ts_node_is_null(name)) names.emplace_back(model.Text(name));
    } else if (Is(p, "typed_parameter")) {
      std::vector<TSNode> inner = NamedChildren(p);
      if (!inner.empty() && Is(inner[0], "identifier")) names.emplace_back(model.Text(inner[0]));
    }
  }
  return names;
}

std::vector<std::string> AllParameterNames(const PythonFileModel& model, TSNode parameters) {
  std::vector<std::string> names = ParameterNames(model, parameters);
  for (TSNode p : NamedChildren(parameters)) {
    TSNode target = p;
    if (Is(p, "typed_parameter")) {
      std::vector<TSNode> inner = NamedChildren(p);
      if (inner.empty()) continue;
      target = inner[0];
    }
    if (Is(target, "list_splat_pattern") || Is(target, "dictionary_splat_pattern")) {
      std::vector<TSNode> inner = NamedChildren(target);
      if (!inner.empty() && Is(inner[0], "identifier")) names.emplace_back(model.Text(inner[0]));
    }
  }
  return names;
}

std::vector<TSNode> BodyStatements(TSNode block, TSNode* docstring) {
  std::vector<TSNode> statements = NamedChildren(block);
  if (!statements.empty() && Is(statements[0], "expression_statement")) {
    std::vector<TSNode> inner = NamedChildren(statements[0]);
    TSNode value = inner.size() == 1 ? Unparenthesize(inner[0]) : TSNode{};  // `("doc")` is one too
    if (!ts_node_is_null(value) && (Is(value, "string") || Is(value, "concatenated_string"))) {
      if (docstring) *docstring = value;
      statements.erase(statements.begin());
    }
  }
  return statements;
}

void NoteHelperFunction(PythonFileModel* model, int i) {
  const Scope& scope = model->scopes[static_cast<size_t>(i)];
  TSNode body = ts_node_child_by_field_name(scope.node, "body", 4);
  bool is_helper = false;
  const bool is_async = ts_node_child_count(scope.node) > 0 && Is(ts_node_child(scope.node, 0), "async");
  if (scope.kind == Scope::kFunction && !is_async && !ts_node_is_null(body)) {
    std::vector<TSNode> statements = BodyStatements(body, nullptr);
    if (statements.size() == 1 && Is(statements[0], "return_statement")) {
      std::vector<TSNode> value = NamedChildren(statements[0]);
      if (value.size() == 1) {
        HelperFunction helper;
        helper.return_value = value[0];
        helper.scope = i;
        TSNode params = ts_node_child_by_field_name(scope.node, "parameters", 10);
        if (!ts_node_is_null(params)) helper.params = ParameterNames(*model, params);
        model->helpers[scope.name] = std::move(helper);
        is_helper = true;
      }
    }
  }
  if (!is_helper) model->helpers.erase(scope.name);
}

}  // namespace errdex
