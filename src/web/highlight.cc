#include "web/highlight.h"

#include <array>

#include "web/html.h"

namespace errdex::web {

namespace {

constexpr std::array<std::string_view, 35> kKeywords = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};

bool IsKeyword(std::string_view word) {
  for (std::string_view k : kKeywords) {
    if (k == word) return true;
  }
  return false;
}

bool IsIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}
bool IsIdentifierChar(char c) { return IsIdentifierStart(c) || (c >= '0' && c <= '9'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// A string prefix: one or two of r, b, u, f (any case).
bool IsStringPrefix(std::string_view word) {
  if (word.empty() || word.size() > 2) return false;
  for (char c : word) {
    switch (c) {
      case 'r':
      case 'R':
      case 'b':
      case 'B':
      case 'u':
      case 'U':
      case 'f':
      case 'F':
        break;
      default:
        return false;
    }
  }
  return true;
}

class Highlighter {
 public:
  explicit Highlighter(std::string_view code) : code_(code) {}

  std::vector<std::string> Run() {
    size_t i = 0;
    const size_t n = code_.size();
    while (i < n) {
      const char c = code_[i];
      if (c == '#') {
        size_t end = code_.find('\n', i);
        if (end == std::string_view::npos) end = n;
        Emit("cm", i, end);
        i = end;
      } else if (c == '"' || c == '\'') {
        i = String(i, i);
      } else if (IsIdentifierStart(c)) {
        size_t end = i + 1;
        while (end < n && IsIdentifierChar(code_[end])) ++end;
        std::string_view word = code_.substr(i, end - i);
        if (end < n && (code_[end] == '"' || code_[end] == '\'') && IsStringPrefix(word)) {
          i = String(i, end);
        } else {
          Emit(IsKeyword(word) ? "kw" : nullptr, i, end);
          i = end;
        }
      } else if (IsDigit(c) || (c == '.' && i + 1 < n && IsDigit(code_[i + 1]))) {
        size_t end = i + 1;
        while (end < n && (IsIdentifierChar(code_[end]) || code_[end] == '.' ||
                           ((code_[end] == '+' || code_[end] == '-') &&
                            (code_[end - 1] == 'e' || code_[end - 1] == 'E') && code_[i] != '0'))) {
          ++end;
        }
        Emit("nu", i, end);
        i = end;
      } else if (c == '@' && AtLineStart(i)) {
        size_t end = i + 1;
        while (end < n && (IsIdentifierChar(code_[end]) || code_[end] == '.')) ++end;
        Emit("dc", i, end);
        i = end;
      } else {
        size_t end = i + 1;
        while (end < n && !IsIdentifierStart(code_[end]) && !IsDigit(code_[end]) && code_[end] != '#' &&
               code_[end] != '"' && code_[end] != '\'' && code_[end] != '@' && code_[end] != '.') {
          ++end;
        }
        Emit(nullptr, i, end);
        i = end;
      }
    }
    FinishLine();
    return std::move(lines_);
  }

 private:
  // Only blanks before I on its line.
  bool AtLineStart(size_t i) const {
    while (i > 0) {
      const char c = code_[--i];
      if (c == '\n') return true;
      if (c != ' ' && c != '\t') return false;
    }
    return true;
  }

  // A string literal whose prefix starts at BEGIN and whose quote is at QUOTE; returns its end.
  size_t String(size_t begin, size_t quote) {
    const size_t n = code_.size();
    const char q = code_[quote];
    const bool triple = quote + 2 < n && code_[quote + 1] == q && code_[quote + 2] == q;
    size_t i = quote + (triple ? 3 : 1);
    while (i < n) {
      const char c = code_[i];
      if (c == '\\') {
        i += 2;
        continue;
      }
      if (!triple && c == '\n') break;  // unterminated: ends with the line
      if (c == q) {
        if (!triple) {
          ++i;
          break;
        }
        if (i + 2 < n && code_[i + 1] == q && code_[i + 2] == q) {
          i += 3;
          break;
        }
      }
      ++i;
    }
    if (i > n) i = n;
    Emit("st", begin, i);
    return i;
  }

  // Appends CODE[BEGIN, END) in a span of class CLS (none when null), split at line ends.
  void Emit(const char* cls, size_t begin, size_t end) {
    while (begin < end) {
      const size_t nl = code_.find('\n', begin);
      const bool line_ends = nl != std::string_view::npos && nl < end;
      const size_t piece_end = line_ends ? nl : end;
      std::string_view piece = code_.substr(begin, piece_end - begin);
      if (line_ends && !piece.empty() && piece.back() == '\r') piece.remove_suffix(1);
      if (!piece.empty()) {
        if (cls != nullptr) {
          current_ += "<span class=\"";
          current_ += cls;
          current_ += "\">";
        }
        AppendEscaped(current_, piece);
        if (cls != nullptr) current_ += "</span>";
      }
      if (line_ends) {
        FinishLine();
        begin = nl + 1;
      } else {
        begin = piece_end;
      }
    }
  }

  void FinishLine() {
    if (!current_.empty() && current_.back() == '\r') current_.pop_back();
    lines_.push_back(std::move(current_));
    current_.clear();
  }

  std::string_view code_;
  std::string current_;
  std::vector<std::string> lines_;
};

}  // namespace

std::vector<std::string> HighlightPython(std::string_view code) {
  if (code.empty()) return {};
  std::vector<std::string> lines = Highlighter(code).Run();
  // Text ending with a newline has no extra empty line after it.
  if (!code.empty() && code.back() == '\n' && !lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

}  // namespace errdex::web
