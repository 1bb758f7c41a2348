// The JSON lists the catalog stores in a column (docs/catalog.md): lists of strings (a class's bases, a class's
// or a site's other texts, a site's class texts) and a class's printed texts (schema 14). One owner for both
// directions, so that the writer, the row readers and the matcher tables agree on the format.
//
// Pure functions; bad stored text reads as an empty list (or skips the bad items), never an error.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"

namespace errdex {

// The strings of a stored JSON array (`["a.B", "C"]`); nothing for "" (no list), anything else than an array,
// or items that are not strings. Lists without escapes (nearly all) are split without the JSON parser: the
// cold path of `explain` reads many of them.
std::vector<std::string> StoredStrings(std::string_view text);
// LIST as stored: a JSON array, or nothing (NULL) when empty.
std::optional<std::string> StoredStringsText(const std::vector<std::string>& list);

// A class's printed texts as stored: `[[template, path, line, function, handler_line, handler_function], ...]`,
// "" when none. Reading skips items of another shape.
std::string StoredPrintedTextsText(const std::vector<PrintedText>& texts);
std::vector<PrintedText> StoredPrintedTexts(std::string_view text);

}  // namespace errdex
