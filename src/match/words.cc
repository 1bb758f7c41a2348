#include "match/words.h"

#include <cctype>

namespace errdex {
namespace {

template <typename IsWordByte>
std::vector<std::string_view> Split(std::string_view text, IsWordByte is_word) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !is_word(static_cast<unsigned char>(text[i]))) ++i;
    size_t start = i;
    while (i < text.size() && is_word(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

}  // namespace

std::vector<std::string_view> MatchWords(std::string_view text) {
  return Split(text, [](unsigned char c) { return std::isalnum(c) || c >= 0x80 || c == '_'; });
}

std::vector<std::string_view> FtsTokens(std::string_view text) {
  return Split(text, [](unsigned char c) { return std::isalnum(c) || c >= 0x80; });
}

}  // namespace errdex
