// The classes of one Python file (FileFacts::classes; docs/extraction.md, "Class messages"): a class not
// nested in a function, with its bases, docstring, message (from `__str__`, `format_message`, or the text its
// `__init__` hands to its base) and the other texts its rendering methods may return. The texts its `__init__`
// builds in branches go, with their conditions, to the file's ClassTextChoices (class_text_conditions.h).
//
// Classes are read in source order: a class whose `__init__` calls the `__init__` of an earlier class of the
// file composes that class's message with its own arguments (the state this keeps between classes).
//
// Lifetime: borrows the model, the builder and the ClassTextChoices, which must outlive it; keeps no node.
// Not thread-safe (one per Extract() call).
#pragma once

#include <tree_sitter/api.h>

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "extract/file_facts.h"
#include "python/class_text_conditions.h"
#include "python/python_file_model.h"
#include "python/python_template_builder.h"

namespace errdex {

class ClassDefinitions {
 public:
  // SOURCE is the file's text and ROOT its parsed tree; CHOICES receives the conditional texts.
  ClassDefinitions(std::string_view source, TSNode root, const PythonFileModel& model, PythonTemplateBuilder& builder,
                   ClassTextChoices* choices)
      : source_(source), root_(root), model_(model), builder_(builder), choices_(choices) {}

  // Appends the class of scope CLASS_SCOPE (an index into the model's scopes) to FACTS->classes, unless it is
  // nested in a function.
  void Read(int class_scope, FileFacts* facts);

 private:
  void FindClassMessage(int class_scope, ClassDef* cls);
  void FindOwnMessage(const std::unordered_map<std::string, int>& methods, ClassDef* cls);
  void AddRenderedTexts(const std::unordered_map<std::string, int>& methods, ClassDef* cls);
  int SelfMethod(const std::unordered_map<std::string, int>& methods, TSNode value) const;
  Template ParameterDefault(int function_scope, TSNode argument);
  Template PropertyText(const std::unordered_map<std::string, int>& methods, TSNode value);
  // The message a base class of this file renders, its __init__ parameters replaced by the arguments the
  // class hands to the base's __init__ (ARGS from index FIRST on); empty when BASE_NAME is no such class.
  Template ComposeBaseMessage(const std::string& base_name, const CallArguments& args, size_t first, int scope,
                              uint32_t at);

  std::string_view source_;
  TSNode root_;
  const PythonFileModel& model_;
  PythonTemplateBuilder& builder_;
  ClassTextChoices* choices_;
  // Classes of this file whose message their __init__ hands to a base: message and __init__ parameters, for
  // the classes after them that call that __init__ (ComposeBaseMessage).
  struct InitMessage {
    std::string message;
    std::vector<std::string> parameters;
  };
  std::unordered_map<std::string, InitMessage> init_messages_;
  // The texts of the class being read that have conditions, with those conditions.
  std::vector<std::pair<std::string, std::vector<Condition>>> pending_conditions_;
};

}  // namespace errdex
