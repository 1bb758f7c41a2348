// The per-file model that template reconstruction needs: scopes, name bindings and helper functions of
// one parsed Python file. Built by the extractor from query captures; internal to src/extract.
//
// Lifetime: holds TSNodes and string_views into the tree and the source text; it must not outlive
// either. Not thread-safe (one model per Extract() call).
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace errdex {

struct Scope {
  enum Kind { kModule, kFunction, kClass, kLambda };
  Kind kind = kModule;
  uint32_t start = 0;  // byte range of the defining node
  uint32_t end = 0;
  int parent = -1;       // index into PythonFileModel::scopes; -1 for the module
  std::string name;      // "f", "C", "<lambda>"; empty for the module
  std::string qualname;  // "<module>", "C.m", "f.<locals>.g"
  TSNode node{};
  std::vector<std::string> parameters;  // every parameter name of a function or lambda, *args included
};

// One `name = value` (is_augmented false) or `name += value` (true).
struct Binding {
  uint32_t start = 0;
  uint32_t end = 0;
  bool is_augmented = false;
  TSNode value{};
};

struct HelperFunction {
  TSNode return_value{};            // the single returned expression
  int scope = 0;                    // the helper's own scope
  std::vector<std::string> params;  // parameter names in order
};

class PythonFileModel {
 public:
  explicit PythonFileModel(std::string_view source) : source_(source) { scopes.push_back({}); }

  std::string_view Text(TSNode node) const {
    uint32_t s = ts_node_start_byte(node), e = ts_node_end_byte(node);
    if (e > source_.size() || s > e) return {};
    return source_.substr(s, e - s);
  }
  std::string_view source() const { return source_; }

  // Sorts scopes by position, links parents and names them; call once after all scopes were added.
  // Returns false (and names nothing) when scopes nest deeper than MAX_DEPTH: qualified names would
  // grow with the square of the depth.
  bool FinishScopes(int max_depth);
  // Index of the innermost scope whose range contains [start, end).
  int ScopeAt(uint32_t start, uint32_t end) const;

  void AddBinding(int scope, std::string_view name, Binding binding);
  // Sorts every name's bindings by position; call once after all bindings were added.
  void FinishBindings();
  // The bindings of NAME in SCOPE, sorted by position; null when there are none.
  const std::vector<Binding>* BindingsOf(int scope, std::string_view name) const;

  std::vector<Scope> scopes;                                // [0] is the module
  std::unordered_map<std::string, HelperFunction> helpers;  // module-level single-return functions

 private:
  static std::string Key(int scope, std::string_view name);
  std::string_view source_;
  std::unordered_map<std::string, std::vector<Binding>> bindings_;
};

}  // namespace errdex
