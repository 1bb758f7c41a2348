// Words of a message or template, as the matcher counts them. Threading: pure functions.
#pragma once

#include <string_view>
#include <vector>

namespace errdex {

// Runs of ASCII letters, digits and '_', and of non-ASCII bytes: identifiers stay whole ("errno_2").
std::vector<std::string_view> MatchWords(std::string_view text);

// Runs of ASCII letters and digits, and of non-ASCII bytes: what SQLite FTS5's unicode61 tokenizer
// indexes, so that a query asks for the tokens the index holds ("errno_2" is "errno", "2").
std::vector<std::string_view> FtsTokens(std::string_view text);

}  // namespace errdex
