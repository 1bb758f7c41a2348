// Class texts chosen by the raise's arguments (docs/extraction.md): an exception class whose `__init__` builds
// its message in branches that test its parameters (configparser's `DuplicateSectionError(section,
// source=None, lineno=None)` says "While reading from {source!r} [line {lineno}]: section ..." only when
// `source is not None`, else "Section ... already exists") renders, at a given raise, only the texts its
// arguments allow. Each text keeps the conditions of the branches that build it; a raise binds its arguments
// to the `__init__` parameters (an omitted one takes its default) and the texts whose conditions are decidably
// false (python/condition_truth.h) are dropped.
//
// Conditions of a text, from the steps PythonTemplateBuilder::BuildAlternatives took for it: every condition
// around a binding or a list change that ran; for one that did not run, the one `if` around it that is not
// around its use, negated (when more than one is, nothing is known).
//
// The functions are pure functions of the parse tree; not thread-safe only in that the model and the builder
// are not. ClassTextChoices keeps, for one file, the texts of its classes with their conditions: it copies
// what it keeps, holds no node, and is not thread-safe (one per Extract() call).
#pragma once

#include <tree_sitter/api.h>

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "extract/file_facts.h"
#include "python/condition_truth.h"
#include "python/python_file_model.h"
#include "python/python_template_builder.h"

namespace errdex {

// The conditions of each text built with STEPS (one list per text), in the file SOURCE parsed as ROOT.
std::vector<std::vector<Condition>> ConditionsOfSteps(
    std::string_view source, TSNode root, const std::vector<std::vector<PythonTemplateBuilder::Step>>& steps);

// The known values that CALL binds to the parameters of the function SCOPE (a method: its first parameter,
// self, is not passed): literal arguments (None, True, False, integers, plain strings; a display: empty or not
// None) and the literal defaults of omitted parameters. False when the arguments do not fit the parameters,
// or a `*args`/`**kwargs` (of the call or of the function) makes the binding unknown.
bool BindLiteralArguments(const PythonFileModel& model, PythonTemplateBuilder& builder, int scope, TSNode call,
                          std::unordered_map<std::string, KnownValue>* values);

struct ConditionalText {
  std::string text;
  std::vector<Condition> conditions;  // empty: rendered whatever the arguments
};

// The texts of TEXTS whose conditions may hold with VALUES, in order; empty when that is all of them or none
// (nothing is then known against the class's texts).
std::vector<std::string> TextsRendered(const std::vector<ConditionalText>& texts,
                                       const std::unordered_map<std::string, KnownValue>& values,
                                       ConditionTruth& truth);

// The classes of one file whose `__init__` builds texts in branches, and what a raise of one renders.
class ClassTextChoices {
 public:
  // The texts of the class CLS (its message and alternatives), each with its conditions from CONDITIONS (pairs
  // of a text and its conditions; a text not there has none), kept for its raises: its `__init__` is the
  // function scope INIT.
  void Keep(const ClassDef& cls, int init,
            const std::vector<std::pair<std::string, std::vector<Condition>>>& conditions);

  // The texts of the class TYPE (as kept) that the raise's CALL can render (its arguments bound to INIT's
  // parameters in MODEL), when they rule some out; else empty.
  std::vector<std::string> TextsOfRaise(const PythonFileModel& model, PythonTemplateBuilder& builder,
                                        const std::string& type, TSNode call);

 private:
  struct ClassTexts {
    int init = 0;
    std::vector<ConditionalText> texts;
  };
  std::unordered_map<std::string, ClassTexts> class_texts_;  // by class qualname
  std::unique_ptr<ConditionTruth> truth_;                    // made on first use
};

}  // namespace errdex
