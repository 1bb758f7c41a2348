// The advice a message gives about itself (docs/analysis.md, "Solutions"): the sentences of a template
// that tell the reader what to do ("Please install `rich`.", "Use `trainer.fit` instead.").
//
// Splitting. A template is cut into sentences after '.', '!' or '?' followed by white space and then by
// something other than a lowercase letter, and at line breaks. Never inside `backticks`, quotes
// ('...' or "...", an apostrophe inside a word is not a quote), placeholders ({device}, nested braces
// too), parentheses or brackets; never after the abbreviations e.g., i.e., etc., vs., cf., approx. A dot
// without white space after it (`1.2`, `x.py`, `torch.cuda`) never ends a sentence. Placeholders are
// kept as they are in the returned sentences, which are trimmed of white space and of leading bullets.
//
// Classification (precision over recall): a sentence, or a clause of it after ',' ';' ':' or a dash, is
// - advice when it starts with an imperative ("Make sure", "Please", "Try", "Use", "Set", "Pass",
//   "Install", "Call", "Consider", "Check", "Ensure", "Run", "Specify", "Provide", "Add", "Remove",
//   "Upgrade", "Downgrade", "Avoid", "Either", "Instead", "See", "Refer to", ...; at the start of a
//   sentence the verb must be capitalized and not be a noun there: "Use of x", "Set name", "Check
//   failed", "Run id" are not), with "Did you mean", "Did you forget", "Perhaps/Maybe you", "If you",
//   "To fix/use/enable/avoid/...", "Hint:", "Tip:", "For more information/details"; or when it
//   addresses the reader anywhere: "you can", "you should", "you must", "you may/might want", "you
//   need to", "you have to", "you'll need", "can be fixed/avoided/resolved/disabled by"; or "use/pass/
//   call/set ... instead". Inside a sentence (after a comma) a plain imperative verb counts only when
//   followed by a quoted, backticked or placeholder operand, an article or a pronoun ("..., use `bar`
//   instead", not "expected a list, set or tuple").
// - a requirement when it only states what the input should be ("Device should be CUDA, got {device}
//   instead.", "`x` must be positive", "`rich` is required", "Expected a tensor"). RULE: requirements
//   are NOT advice. The message is shown anyway; the requirement is the violated condition, which the
//   path conditions already cite; repeating it under "Solutions" would turn most messages into their own
//   solution. A requirement addressed to the reader ("you must pass ...") is advice.
// - other: everything else (statements of what went wrong).
//
// Threading: pure functions, safe from any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace errdex {

enum class SentenceKind { kAdvice, kRequirement, kOther };

struct MessageSentence {
  std::string text;  // trimmed, placeholders kept
  SentenceKind kind = SentenceKind::kOther;
};

// The sentences of TEMPLATE_TEXT in order, each classified. Empty sentences are dropped.
std::vector<MessageSentence> ClassifySentences(std::string_view template_text);

// The sentences of TEMPLATE_TEXT split as ClassifySentences does, unclassified.
std::vector<std::string> SplitSentences(std::string_view template_text);

// The advice sentences of TEMPLATE_TEXT, in order (kind kAdvice of ClassifySentences).
std::vector<std::string> AdviceInMessage(std::string_view template_text);

}  // namespace errdex
