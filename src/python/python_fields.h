// Field ids of the Python grammar, looked up once: ts_node_child_by_field_name looks the name up on every
// call (a scan of the grammar's field names), which costs more than the child lookup itself on hot paths.
#pragma once

#include <tree_sitter/api.h>

#include <cstring>

extern "C" const TSLanguage* tree_sitter_python(void);

namespace errdex {

struct PythonFieldIds {
  TSFieldId alias, alternative, arguments, attribute, body, condition, definition, function, guard, key, left,
      module_name, name, object, operator_, parameters, return_type, right, subject, subscript, superclasses, type,
      value;
};

// Whether NODE is of the grammar's node type TYPE ("call", "except_clause"); false for a null node.
inline bool Is(TSNode node, const char* type) {
  return !ts_node_is_null(node) && std::strcmp(ts_node_type(node), type) == 0;
}

// Thread-safe (initialized once).
inline const PythonFieldIds& PythonFields() {
  static const PythonFieldIds ids = [] {
    const TSLanguage* language = tree_sitter_python();
    auto id = [&](const char* name) {
      return ts_language_field_id_for_name(language, name, static_cast<uint32_t>(std::strlen(name)));
    };
    return PythonFieldIds{id("alias"),        id("alternative"), id("arguments"), id("attribute"), id("body"),
                          id("condition"),    id("definition"),  id("function"),  id("guard"),     id("key"),
                          id("left"),         id("module_name"), id("name"),      id("object"),    id("operator"),
                          id("parameters"),   id("return_type"), id("right"),     id("subject"),   id("subscript"),
                          id("superclasses"), id("type"),        id("value")};
  }();
  return ids;
}

inline TSNode FieldOf(TSNode node, TSFieldId field) { return ts_node_child_by_field_id(node, field); }

}  // namespace errdex
