#include "analysis/advice.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace errdex {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool IsAlnum(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || static_cast<unsigned char>(c) >= 0x80;
}
bool IsLower(char c) { return c >= 'a' && c <= 'z'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// True when the '.' ending WORD_END (exclusive) in TEXT ends an abbreviation that does not end a sentence.
bool EndsWithAbbreviation(std::string_view text, size_t dot) {
  static constexpr std::array<std::string_view, 8> kAbbreviations = {"e.g.", "i.e.",    "etc.",  "vs.",
                                                                     "cf.",  "approx.", "resp.", "no."};
  const std::string lower = Lower(text.substr(0, dot + 1));
  for (std::string_view a : kAbbreviations) {
    if (lower.size() >= a.size() && lower.compare(lower.size() - a.size(), a.size(), a) == 0) {
      const size_t before = lower.size() - a.size();
      if (before == 0 || !IsAlnum(lower[before - 1])) return true;
    }
  }
  return false;
}

// The spans (begin, end exclusive) of quotes that close: "...", '...' (an apostrophe between two
// letters or digits is not a quote) and `...`.
std::vector<std::pair<size_t, size_t>> QuoteSpans(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> spans;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    const bool opens = c == '"' || c == '`' || (c == '\'' && (i == 0 || !IsAlnum(text[i - 1])));
    if (!opens) {
      ++i;
      continue;
    }
    size_t j = i + 1;
    size_t close = std::string_view::npos;
    for (; j < text.size() && text[j] != '\n'; ++j) {
      if (text[j] != c) continue;
      if (c == '\'' && j + 1 < text.size() && IsAlnum(text[j + 1])) continue;  // don't, it's
      close = j;
      break;
    }
    if (close == std::string_view::npos) {
      ++i;  // an unclosed quote protects nothing
      continue;
    }
    spans.emplace_back(i, close + 1);
    i = close + 1;
  }
  return spans;
}

// ---------------------------------------------------------------------------------------------------
// Classification.

// Words of a clause: runs of letters, digits, '\'' and '_'; a `code`, 'quote', "quote" or {placeholder}
// is one token spelled with its opening character.
std::vector<std::string> Tokens(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '`' || c == '"' || c == '{' || (c == '\'' && (i == 0 || !IsAlnum(s[i - 1])))) {
      const char close = c == '{' ? '}' : c;
      const size_t end = s.find(close, i + 1);
      out.emplace_back(1, c);
      i = end == std::string_view::npos ? s.size() : end + 1;
      continue;
    }
    if (IsAlnum(c) || c == '_') {
      size_t j = i;
      while (j < s.size() && (IsAlnum(s[j]) || s[j] == '_' || s[j] == '\'')) ++j;
      out.emplace_back(s.substr(i, j - i));
      i = j;
      continue;
    }
    ++i;
  }
  return out;
}

bool In(std::string_view word, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

// Imperative verbs that open advice.
const std::initializer_list<std::string_view>& Imperatives() {
  static const std::initializer_list<std::string_view> kVerbs = {
      "please",  "try",     "use",         "set",      "pass",   "install",  "call",    "consider",  "check",
      "ensure",  "run",     "specify",     "provide",  "add",    "remove",   "upgrade", "downgrade", "avoid",
      "either",  "instead", "see",         "update",   "change", "rename",   "switch",  "reinstall", "enable",
      "disable", "define",  "implement",   "import",   "wrap",   "move",     "follow",  "report",    "refer",
      "replace", "convert", "reduce",      "increase", "lower",  "raise",    "restart", "register",  "override",
      "choose",  "modify",  "delete",      "find",     "visit",  "read",     "look",    "make",      "simplify",
      "rewrite", "create",  "investigate", "verify",   "retry",  "decrease", "adjust",  "wait"};
  return kVerbs;
}

// Words after a sentence-initial imperative that show it is a noun there ("Use of", "Check failed").
bool NounContinuation(std::string_view next) {
  return In(next,
            {"of",       "is",        "was",    "are",     "were",     "has",     "had",        "have",     "must",
             "should",   "cannot",    "can't",  "can",     "could",    "will",    "would",      "may",      "might",
             "failed",   "not",       "id",     "ids",     "type",     "name",    "value",      "values",   "count",
             "size",     "mode",      "error",  "errors",  "already",  "does",    "did",        "for",      "on",
             "at",       "by",        "from",   "with",    "without",  "and",     "or",         "timed",    "returned",
             "exceeded", "operation", "object", "objects", "instance", "method",  "function",   "requires", "needs",
             "path",     "file",      "files",  "command", "config",   "timeout", "permission", "access"});
}

// Verbs that, after "Word `operand`", show that Word is a noun ("File `x` does not exist").
bool VerbAfterOperand(std::string_view next) {
  return In(next, {"is",     "was",      "are",      "were",     "has",     "had",   "have",   "must",
                   "should", "cannot",   "can't",    "can",      "could",   "will",  "would",  "may",
                   "might",  "failed",   "not",      "does",     "doesn't", "did",   "didn't", "already",
                   "timed",  "returned", "exceeded", "requires", "needs",   "isn't", "wasn't"});
}

// Operands that make a mid-sentence verb an imperative ("..., use `bar` instead").
bool ImperativeOperand(std::string_view next) {
  return next == "`" || next == "'" || next == "\"" || next == "{" ||
         In(next, {"the", "a",      "an",   "your", "it",  "them", "this",  "that",    "these", "those",
                   "one", "either", "both", "only", "all", "pip",  "conda", "another", "some",  "instead"});
}

bool StartsWith(const std::vector<std::string>& words, size_t at, std::initializer_list<std::string_view> phrase) {
  size_t i = at;
  for (std::string_view w : phrase) {
    if (i >= words.size() || words[i] != w) return false;
    ++i;
  }
  return true;
}

bool ContainsPhrase(const std::vector<std::string>& words, std::initializer_list<std::string_view> phrase) {
  for (size_t i = 0; i < words.size(); ++i) {
    if (StartsWith(words, i, phrase)) return true;
  }
  return false;
}

// Advice that may appear anywhere in a sentence.
bool AddressesReader(const std::vector<std::string>& w) {
  for (size_t i = 0; i + 1 < w.size(); ++i) {
    if (w[i] == "you" || w[i] == "you'll" || w[i] == "you'd") {
      const std::string& n = w[i + 1];
      if (w[i] == "you'll" && n == "need") return true;
      if (w[i] == "you'd" && In(n, {"better", "need", "have"})) return true;
      if (In(n, {"should", "shouldn't"}) && ContainsPhrase(w, {"be", "seeing"}))
        continue;  // "should not be seeing this"
      if (In(n, {"can", "should", "must", "need", "could"})) return true;
      if (n == "have" && i + 2 < w.size() && w[i + 2] == "to") return true;  // not "you have configured"
      if (In(n, {"will", "would"}) && i + 3 < w.size() && In(w[i + 2], {"need", "have"}) && w[i + 3] == "to") {
        return true;
      }
      if (In(n, {"may", "might", "probably"}) && i + 2 < w.size() && In(w[i + 2], {"want", "need", "have"})) {
        return true;
      }
      if (n == "want" && i > 0 && In(w[i - 1], {"if", "unless"})) return true;
    }
  }
  if (ContainsPhrase(w, {"did", "you", "mean"}) || ContainsPhrase(w, {"did", "you", "forget"}) ||
      ContainsPhrase(w, {"we", "recommend"}) || ContainsPhrase(w, {"it", "is", "recommended"}) ||
      ContainsPhrase(w, {"recommended", "to"}) || ContainsPhrase(w, {"requires", "you", "to"}) ||
      ContainsPhrase(w, {"require", "you", "to"}) || ContainsPhrase(w, {"is", "advised"}) ||
      ContainsPhrase(w, {"are", "advised"})) {
    return true;
  }
  for (size_t i = 0; i + 3 < w.size(); ++i) {
    if (w[i] == "can" && w[i + 1] == "be" &&
        In(w[i + 2], {"fixed", "avoided", "resolved", "disabled", "enabled", "silenced", "suppressed", "solved",
                      "installed", "changed", "set", "configured", "turned", "overridden"}) &&
        In(w[i + 3], {"by", "with", "via", "using", "through", "off", "on"})) {
      return true;
    }
  }
  return false;
}

// "use/pass/call/set ... instead" (not "got ... instead").
bool UseInstead(const std::vector<std::string>& w) {
  if (w.empty() || w.back() != "instead") return false;
  for (size_t i = 0; i + 1 < w.size(); ++i) {
    if (In(w[i], {"use", "pass", "call", "set", "import", "try", "install", "specify", "provide", "consider"})) {
      return true;
    }
  }
  return false;
}

bool IsRequirement(const std::vector<std::string>& w) {
  if (w.empty()) return false;
  if (In(w[0], {"expected", "expecting", "requires", "require", "needs"})) return true;
  for (size_t i = 0; i + 1 < w.size(); ++i) {
    if (In(w[i], {"should", "must", "shall"}) && In(w[i + 1], {"be", "have", "not", "contain", "match", "only"})) {
      return true;
    }
    if ((w[i] == "is" || w[i] == "are") && In(w[i + 1], {"required", "expected", "needed", "mandatory"})) return true;
    if (In(w[i], {"requires", "require", "needs", "expects", "expected", "accepts", "supports"})) return true;
    if (w[i] == "only" && In(w[i + 1], {"supports", "supported", "accepts", "allowed", "works"})) return true;
  }
  return false;
}

// The clauses of a sentence: cut after ',', ';', ':' and at " - ", " -- ", " — ", outside quotes.
std::vector<std::string_view> Clauses(std::string_view sentence) {
  const auto spans = QuoteSpans(sentence);
  auto quoted = [&](size_t i) {
    for (const auto& [b, e] : spans) {
      if (i > b && i < e - 1) return true;
    }
    return false;
  };
  std::vector<std::string_view> out;
  size_t start = 0;
  int depth = 0;  // braces, parentheses, brackets
  for (size_t i = 0; i < sentence.size(); ++i) {
    const char c = sentence[i];
    if (quoted(i)) continue;
    if (c == '{' || c == '(' || c == '[') ++depth;
    if ((c == '}' || c == ')' || c == ']') && depth > 0) --depth;
    if (depth > 0) continue;
    size_t cut = std::string_view::npos;
    size_t next = 0;
    if ((c == ',' || c == ';' || c == ':') && (i + 1 == sentence.size() || IsSpace(sentence[i + 1]))) {
      cut = i;
      next = i + 1;
    } else if (c == ' ' && sentence.substr(i, 3) == " - ") {
      cut = i;
      next = i + 3;
    } else if (c == ' ' && sentence.substr(i, 4) == " -- ") {
      cut = i;
      next = i + 4;
    } else if (c == ' ' && sentence.substr(i, 5) == " \xE2\x80\x94 ") {
      cut = i;
      next = i + 5;
    }
    if (cut == std::string_view::npos) continue;
    out.push_back(Trim(sentence.substr(start, cut - start)));
    start = next;
    i = next - 1;
  }
  out.push_back(Trim(sentence.substr(start)));
  return out;
}

SentenceKind Classify(std::string_view sentence) {
  const std::vector<std::string_view> clauses = Clauses(sentence);
  bool requirement = false;
  for (size_t c = 0; c < clauses.size(); ++c) {
    const std::string_view clause = clauses[c];
    const std::vector<std::string> raw = Tokens(clause);
    if (raw.empty()) continue;
    std::vector<std::string> raw_shifted;
    std::vector<std::string> w;
    for (const std::string& t : raw) w.push_back(Lower(t));
    const bool sentence_start = c == 0;
    // Connectives before an imperative: "Then create ...", "Alternatively use ...", "Or set ...".
    size_t skip = 0;
    while (skip + 1 < w.size() && In(w[skip], {"then", "and", "or", "also", "alternatively", "otherwise", "so"})) {
      ++skip;
    }
    if (skip > 0) {
      w.erase(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(skip));
      std::vector<std::string> rest(raw.begin() + static_cast<std::ptrdiff_t>(skip), raw.end());
      raw_shifted = std::move(rest);
    } else {
      raw_shifted = raw;
    }
    const std::vector<std::string>& r = raw_shifted;
    const std::string& first = w[0];
    const std::string next = w.size() > 1 ? w[1] : std::string();
    if (sentence_start && StartsWith(w, 0, {"did", "you"})) return SentenceKind::kAdvice;
    if (sentence_start && (StartsWith(w, 0, {"do", "not"}) || first == "don't")) {
      // "Don't know how to ...", "Do not support ...": the program speaking, not a prohibition.
      const std::string verb = first == "do" ? (w.size() > 2 ? w[2] : "") : next;
      if (!In(verb,
              {"know", "understand", "recognize", "support", "seem", "appear", "match", "exist", "have", "expect"})) {
        return SentenceKind::kAdvice;
      }
    }
    // "To mitigate this, do X": a short purpose clause at the start, then the advice.
    if (sentence_start && first == "to" && clauses.size() > 1 && w.size() <= 8 && w.size() >= 2) {
      return SentenceKind::kAdvice;
    }

    // Openers that are advice wherever a clause starts.
    if (In(first, {"please", "hint", "tip", "suggestion", "perhaps", "maybe"}) &&
        (first == "please" || next == "you" || In(first, {"hint", "tip", "suggestion"}))) {
      return SentenceKind::kAdvice;
    }
    if (StartsWith(w, 0, {"make", "sure"}) || StartsWith(w, 0, {"if", "you"}) || StartsWith(w, 0, {"refer", "to"}) ||
        StartsWith(w, 0, {"for", "more", "information"}) || StartsWith(w, 0, {"for", "more", "details"}) ||
        StartsWith(w, 0, {"for", "more", "info"})) {
      return SentenceKind::kAdvice;
    }
    if (first == "to" &&
        In(next, {"fix", "use", "enable", "disable",  "avoid", "resolve", "solve", "silence", "suppress", "install",
                  "run", "get", "keep",   "continue", "allow", "make",    "turn",  "change",  "prevent",  "work"})) {
      return SentenceKind::kAdvice;
    }
    if (first == "either") {
      // "Either provide X or remove Y" (advice), not "Either list of fields or keywords can be provided".
      const bool verb_follows =
          w.size() > 1 && (In(next, Imperatives()) || (next.size() > 2 && next.compare(next.size() - 2, 2, "ly") == 0 &&
                                                       w.size() > 2 && In(w[2], Imperatives())));
      if (sentence_start && verb_follows) return SentenceKind::kAdvice;
    } else if (In(first, Imperatives()) && first != "refer") {
      if (sentence_start) {
        // Capitalized at the start of the sentence, and a verb there.
        const bool capital = skip > 0 || (r[0][0] >= 'A' && r[0][0] <= 'Z');
        // "File `x.py` does not exist": an operand, then a verb, makes the first word a noun.
        const bool operand = next == "`" || next == "'" || next == "\"" || next == "{";
        const bool noun = NounContinuation(next) || (operand && w.size() > 2 && VerbAfterOperand(w[2]));
        if (capital && !noun && w.size() > 1) return SentenceKind::kAdvice;
      } else if (IsLower(r[0][0]) && first != "either" &&
                 (In(first, {"try", "consider", "ensure", "instead"}) ||
                  (w.size() > 1 && ImperativeOperand(next) &&
                   !(w.size() > 2 && In(next, {"`", "'", "\"", "{"}) && VerbAfterOperand(w[2]))))) {
        return SentenceKind::kAdvice;
      }
    }
    if (AddressesReader(w) || UseInstead(w)) return SentenceKind::kAdvice;
    if (std::find(w.begin(), w.end(), "please") != w.end()) return SentenceKind::kAdvice;  // "... Please upgrade"
    if (IsRequirement(w)) requirement = true;
  }
  return requirement ? SentenceKind::kRequirement : SentenceKind::kOther;
}

}  // namespace

std::vector<std::string> SplitSentences(std::string_view text) {
  const auto spans = QuoteSpans(text);
  size_t span = 0;
  std::vector<std::string> out;
  auto emit = [&](size_t from, size_t to) {
    std::string_view s = Trim(text.substr(from, to - from));
    // Leading bullets and list markers.
    while (!s.empty() && (s.front() == '-' || s.front() == '*' || s.front() == '\xE2')) {
      if (s.front() == '\xE2') {
        if (s.substr(0, 3) != "\xE2\x80\xA2") break;  // U+2022 BULLET
        s.remove_prefix(3);
      } else {
        if (s.size() > 1 && !IsSpace(s[1])) break;
        s.remove_prefix(1);
      }
      s = Trim(s);
    }
    if (!s.empty()) out.emplace_back(s);
  };
  size_t start = 0;
  int depth = 0;  // {placeholders}, (parentheses), [brackets]
  for (size_t i = 0; i < text.size(); ++i) {
    while (span < spans.size() && spans[span].second <= i) ++span;
    if (span < spans.size() && i >= spans[span].first) {
      i = spans[span].second - 1;  // skip the quote
      continue;
    }
    const char c = text[i];
    if (c == '{' || c == '(' || c == '[') ++depth;
    if ((c == '}' || c == ')' || c == ']') && depth > 0) --depth;
    if (c == '\n') {
      emit(start, i);
      start = i + 1;
      depth = 0;
      continue;
    }
    if (depth > 0 || (c != '.' && c != '!' && c != '?')) continue;
    // Runs of terminators ("...", "?!") end together.
    size_t end = i + 1;
    while (end < text.size() && (text[end] == '.' || text[end] == '!' || text[end] == '?')) ++end;
    if (end < text.size() && !IsSpace(text[end])) {
      i = end - 1;
      continue;  // "1.2", "x.py", "torch.cuda"
    }
    size_t next = end;
    while (next < text.size() && (text[next] == ' ' || text[next] == '\t')) ++next;
    if (next < text.size() && IsLower(text[next])) {
      i = end - 1;
      continue;
    }
    if (c == '.' && end == i + 1 && EndsWithAbbreviation(text, i)) continue;
    emit(start, end);
    start = end;
    i = end - 1;
  }
  emit(start, text.size());
  return out;
}

std::vector<MessageSentence> ClassifySentences(std::string_view template_text) {
  std::vector<MessageSentence> out;
  for (std::string& s : SplitSentences(template_text)) {
    MessageSentence m;
    m.kind = Classify(s);
    m.text = std::move(s);
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<std::string> AdviceInMessage(std::string_view template_text) {
  std::vector<std::string> out;
  for (MessageSentence& m : ClassifySentences(template_text)) {
    if (m.kind == SentenceKind::kAdvice) out.push_back(std::move(m.text));
  }
  return out;
}

}  // namespace errdex
