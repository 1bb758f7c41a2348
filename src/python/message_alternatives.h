// The message alternatives of a site (Site::message_alternatives; docs/extraction.md, "Message
// alternatives"): the other texts its message expression may render, each branch's binding taken in turn.
//
// A pure function of the builder's file; not thread-safe only in that the builder is not.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>

#include "extract/file_facts.h"
#include "python/python_template_builder.h"

namespace errdex {

// Sets SITE's message alternatives and alternatives_capped from MESSAGE (the expression of its message,
// evaluated in SCOPE as of byte POS): the texts that differ from SITE's template in more than what its
// placeholders hold, at most kMaxSiteMessageAlternatives. SITE must have a template.
void NoteMessageAlternatives(PythonTemplateBuilder& builder, TSNode message, int scope, uint32_t pos, Site* site);

}  // namespace errdex
