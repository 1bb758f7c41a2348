// The anchor of a template: the one literal fragment Hyperscan looks for. A text can only match the
// template if it contains the anchor, so the anchor must be in every rendering of the template (a
// fragment of one literal piece) and should be rare, so that few texts pass on to verification.
//
// Threading: pure function.
#pragma once

#include <string>
#include <vector>

#include "match/template_alignment.h"
#include "match/words.h"

namespace errdex {

inline constexpr size_t kMinAnchorBytes = 4;
inline constexpr size_t kMaxAnchorBytes = 48;

// One anchor per template, "" when a template has no fragment of kMinAnchorBytes holding a word of three
// letters or more (such templates are found by words and frames only). The rarest window of whole words
// wins: rarity is the inverse document frequency of its words over TEMPLATES.
std::vector<std::string> ChooseAnchors(const std::vector<AlignableTemplate>& templates);

}  // namespace errdex
