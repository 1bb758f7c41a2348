// Reworded messages (docs/matching.md, tier "approximate: similar words"): how much a message and a
// template share their words when case and the common English endings are ignored: "Only http proxies are
// supported" and "aiohttp only supports http(s) proxies (got: {x})" share `only`, `http`, `proxies` and
// `support`. Words of fewer than three letters (`in`, `or`, `is`) count for nothing; each distinct word
// counts once, weighted by its length. Values are not wording: a run of non-space text holding a digit, a
// URL or a path (`401`, `https://huggingface.co/cakiki/...`, `hMJcPE_5pIw`) gives no words on either side,
// so a message's URL and request id neither dilute nor fake its likeness to a template.
//
// Threading: pure function.
#pragma once

#include <cstddef>
#include <string_view>

#include "match/template_alignment.h"

namespace errdex {

struct LooseSimilarity {
  double message_share = 0;   // of the message's word bytes, the share found in the template's literal text
  double template_share = 0;  // of the template's literal word bytes, the share found in the message
  size_t shared_words = 0;
  size_t shared_bytes = 0;
};

LooseSimilarity CompareLoosely(const AlignableTemplate& tmpl, std::string_view message);

}  // namespace errdex
