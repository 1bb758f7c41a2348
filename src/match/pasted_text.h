// The text helpers of util/text_scan.h as the pasted-error parser uses them (internal to src/match/):
// brought into match_internal, with Capped cutting at a frame field's limit unless told otherwise. Pure
// functions on views into the caller's text (no ownership), safe from any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "util/paste_limits.h"
#include "util/text_scan.h"

namespace errdex::match_internal {

using std::string_view;
using text_scan::CutUtf8;
using text_scan::IndentOf;
using text_scan::IsAlpha;
using text_scan::IsDigit;
using text_scan::IsIdentChar;
using text_scan::IsIdentStart;
using text_scan::IsLower;
using text_scan::IsOneOf;
using text_scan::IsSpace;
using text_scan::IsUpper;
using text_scan::npos;
using text_scan::ScanDottedName;
using text_scan::Trim;
using text_scan::TrimLeft;
using text_scan::TrimRight;

inline std::string Capped(string_view s, size_t max = kPastedMaxFieldBytes) { return text_scan::Capped(s, max); }

}  // namespace errdex::match_internal
