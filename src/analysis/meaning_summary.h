// The one-paragraph summary of an error (docs/analysis.md, "Meaning"), composed from the facts the
// analysis found, with no language model: which function raises what under which conditions, where the
// state those conditions read is written (and installed at import time), how the public API reaches it,
// what the message advises, and which tests provoke it. Every sentence restates a fact that the JSON
// gives with its path:line; nothing is guessed.
//
// Pure functions; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "extract/file_facts.h"

namespace errdex {

struct SummaryFacts {
  std::string function;        // qualified name of the raising function ("<module>" at module level)
  std::string type;            // the exception as written ("RuntimeError"); "" for a re-raise
  std::string kind = "raise";  // Site::kind
  std::string function_doc;    // first sentence of the function's docstring; "" when none
  std::string class_doc;       // first sentence of the repository exception class's docstring; "" when none
  std::vector<Condition> conditions;
  nlohmann::json state = nlohmann::json::array();       // the analysis "state" list
  nlohmann::json call_paths = nlohmann::json::array();  // the analysis "call_paths" list
  std::vector<std::string> advice;                      // advice sentences of the message
  size_t tests = 0;                                     // tests that provoke the error
};

std::string ComposeSummary(const SummaryFacts& facts);

// The first sentence (or first paragraph, when it has no sentence end) of a docstring, whitespace
// collapsed, at most 300 bytes (cut on a UTF-8 boundary, ending in "…").
std::string DocstringSummary(const std::string& docstring);

}  // namespace errdex
