#include "analysis/meaning_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string_view>

#include "match/template_alignment.h"
#include "util/json_fields.h"
#include "util/utf8.h"

namespace errdex {

namespace {

constexpr size_t kMaxConditionsInSummary = 4;
constexpr size_t kMaxCodeInSummary = 120;
constexpr size_t kMaxStateInSummary = 2;
constexpr size_t kMaxEntriesInSummary = 3;
constexpr size_t kMaxDocstringSummaryBytes = 300;

std::string Code(std::string_view code) {
  std::string out = "`";  // appended, not concatenated: GCC 12 warns wrongly on "`" + std::string
  out += CutUtf8(NormalizeSpace(code), kMaxCodeInSummary);
  out += '`';
  return out;
}

// The header's expression: "if x is None:" → "x is None".
std::string HeaderExpression(std::string code) {
  code = NormalizeSpace(code);
  if (!code.empty() && code.back() == ':') code.pop_back();
  for (std::string_view keyword :
       {"if ", "elif ", "while ", "case ", "except ", "with ", "async with ", "for ", "async for "}) {
    if (code.rfind(keyword, 0) == 0) return code.substr(keyword.size());
  }
  return code;
}

// One condition as a clause: an expression that must hold ("`x is None`", "not `(a)`"), or a situation
// the raise is in ("while handling `E`", "inside the loop `for ...`"); empty when it says nothing a reader
// needs (a `while True:`, a `case` that did not match).
struct Clause {
  bool situation = false;
  std::string text;
};

Clause ClauseOf(const Condition& c) {
  const std::string expr = HeaderExpression(c.code);
  if (c.kind == "while" && !c.negated) {
    if (expr == "True" || expr == "1") return {};
    return {true, "inside the loop " + Code(NormalizeSpace(c.code))};
  }
  if (c.kind == "if" || c.kind == "elif" || c.kind == "while" || c.kind == "early_exit") {
    return {false, c.negated ? "not " + Code("(" + expr + ")") : Code(expr)};
  }
  if (c.kind == "case") return c.negated ? Clause{} : Clause{false, "the case " + Code(expr) + " matches"};
  if (c.kind == "except") return {true, "while handling " + Code(expr)};
  if (c.kind == "for") return {true, "inside the loop " + Code(NormalizeSpace(c.code))};
  if (c.kind == "with") return {true, "inside " + Code(NormalizeSpace(c.code))};
  if (c.kind == "loop_else") return {true, "after the loop " + Code(NormalizeSpace(c.code)) + " ends without break"};
  if (c.kind == "try_else") return {true, "after its try block raised nothing"};
  if (c.kind == "finally") return {true, "in a finally clause"};
  return {};
}

std::string JoinAnd(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += i + 1 == parts.size() ? (parts.size() > 2 ? ", and " : " and ") : ", ";
    out += parts[i];
  }
  return out;
}

std::string Where(const nlohmann::json& fact) {
  auto line = fact.find("line");
  return Str(fact, "path") + ":" +
         (line != fact.end() && line->is_number_integer() ? std::to_string(line->get<int>()) : "?");
}

std::string Action(const SummaryFacts& f) {
  if (f.kind == "warn") return f.type.empty() ? "warns" : "warns with " + f.type;
  if (f.kind == "assert") return "fails an `assert`";
  if (f.kind == "reraise" || f.type.empty()) return "re-raises the exception it is handling";
  return "raises " + f.type;
}

std::string StateSentence(const nlohmann::json& origin) {
  if (!origin.is_object()) return "";
  const nlohmann::json read = origin.value("read", nlohmann::json::object());
  if (!read.is_object()) return "";
  const std::string name = Str(read, "name");
  const std::string kind = Str(read, "kind");
  if (name.empty()) return "";
  const nlohmann::json writers = origin.value("writers", nlohmann::json::array());
  const int64_t more = origin.value("more", int64_t{0});
  if (!writers.is_array()) return "";
  if (writers.empty()) {
    return more > 0 ? "" : fmt::format("Nothing in the repository writes `{}`.", name);
  }
  // Writes by tests set up the error on purpose; the sentence is about the code.
  std::vector<std::string> places;
  std::set<std::string> installs;
  size_t test_writers = 0;
  for (const nlohmann::json& w : writers) {
    if (!w.is_object()) continue;
    if (w.value("is_test", false)) {
      ++test_writers;
      continue;
    }
    if (places.size() < 2) places.push_back(fmt::format("in `{}` ({})", Str(w, "function"), Where(w)));
    for (const nlohmann::json& i : w.value("installed_by", nlohmann::json::array())) {
      if (i.is_object() && installs.size() < 2) installs.insert(Code(Str(i, "code")) + " (" + Where(i) + ")");
    }
  }
  if (places.empty()) return "";
  const size_t total = writers.size() - test_writers + static_cast<size_t>(more);
  std::string s = total == 1 ? fmt::format("`{}` is written only {}", name, places.front())
                             : fmt::format("`{}` is written at {} places, such as {}", name, total, JoinAnd(places));
  if (!installs.empty()) {
    s += fmt::format(", installed at import time by {}",
                     JoinAnd(std::vector<std::string>(installs.begin(), installs.end())));
  }
  s += ".";
  if (kind == "getattr" || kind == "hasattr") s += " If that code never ran for the object, the attribute is missing.";
  return s;
}

}  // namespace

std::string DocstringSummary(const std::string& docstring) {
  const std::string text = NormalizeSpace(docstring.substr(0, docstring.find("\n\n")));
  size_t end = std::string::npos;
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if ((text[i] == '.' || text[i] == '!' || text[i] == '?') && text[i + 1] == ' ') {
      // "e.g. " and "i.e. " do not end a sentence.
      if (i >= 3 && (text.compare(i - 3, 4, "e.g.") == 0 || text.compare(i - 3, 4, "i.e.") == 0)) continue;
      end = i + 1;
      break;
    }
  }
  return CutUtf8(end == std::string::npos ? text : text.substr(0, end), kMaxDocstringSummaryBytes);
}

std::string ComposeSummary(const SummaryFacts& f) {
  std::vector<std::string> sentences;
  std::string subject =
      f.function == "<module>" || f.function.empty() ? "Importing the module" : "`" + f.function + "()`";
  if (!f.function_doc.empty() && f.function != "<module>") subject += " (“" + f.function_doc + "”)";
  // The innermost conditions, outermost first: expressions after "when", situations after them.
  std::vector<Clause> clauses;
  for (auto it = f.conditions.rbegin(); it != f.conditions.rend() && clauses.size() < kMaxConditionsInSummary; ++it) {
    if (Clause clause = ClauseOf(*it); !clause.text.empty()) clauses.insert(clauses.begin(), std::move(clause));
  }
  std::vector<std::string> expressions, situations;
  for (Clause& c : clauses) (c.situation ? situations : expressions).push_back(std::move(c.text));
  std::string first = subject + " " + Action(f);
  if (f.kind == "assert") {
    // The asserted expression is the last condition; the path conditions say when the assert runs at all.
    first += " when its asserted expression is false";
    if (!expressions.empty()) first += ", on the path where " + JoinAnd(expressions);
  } else if (!expressions.empty()) {
    first += " when " + JoinAnd(expressions);
  } else if (situations.empty()) {
    first += " whenever it runs";
  }
  if (!situations.empty()) first += (expressions.empty() && f.kind != "assert" ? " " : ", ") + JoinAnd(situations);
  if (f.conditions.size() > kMaxConditionsInSummary) first += " (among other conditions)";
  sentences.push_back(first + ".");
  if (!f.class_doc.empty() && !f.type.empty()) sentences.push_back("`" + f.type + "`: “" + f.class_doc + "”");
  size_t stated = 0;
  if (f.state.is_array()) {
    for (const nlohmann::json& origin : f.state) {
      if (stated >= kMaxStateInSummary) break;
      if (std::string s = StateSentence(origin); !s.empty()) {
        sentences.push_back(std::move(s));
        ++stated;
      }
    }
  }
  if (f.call_paths.is_array() && !f.call_paths.empty()) {
    std::vector<std::string> entries;
    bool uncertain = false;
    for (const nlohmann::json& path : f.call_paths) {
      if (!path.is_object()) continue;
      const nlohmann::json frames = path.value("frames", nlohmann::json::array());
      if (!frames.is_array() || frames.empty() || !frames.front().is_object()) continue;
      const std::string entry = "`" + Str(frames.front(), "function") + "`";
      if (entries.size() < kMaxEntriesInSummary && std::find(entries.begin(), entries.end(), entry) == entries.end()) {
        entries.push_back(entry);
        if (path.contains("certain") && path["certain"].is_boolean() && !path["certain"].get<bool>()) uncertain = true;
      }
    }
    if (!entries.empty()) {
      sentences.push_back("It is reached from the public API through " + JoinAnd(entries) +
                          (uncertain ? " (some calls resolved by name only)." : "."));
    }
  }
  if (!f.advice.empty()) {
    std::string advice;
    for (const std::string& a : f.advice) advice += (advice.empty() ? "" : " ") + a;
    sentences.push_back("The message itself advises: “" + advice + "”");
  }
  if (f.tests > 0) {
    sentences.push_back(f.tests == 1 ? "One test of the repository provokes it."
                                     : fmt::format("{} tests of the repository provoke it.", f.tests));
  }
  std::string out;
  for (const std::string& s : sentences) out += (out.empty() ? "" : " ") + s;
  return out;
}

}  // namespace errdex
