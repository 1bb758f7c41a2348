// Calls that hand a text to a function of the revision (FileFacts::message_calls; docs/extraction.md,
// "Raising helpers"): `self.fail("... {x}")`, `_warn(PytestConfigWarning("text"))`. raising_helpers.h links
// them to the helpers that raise the text; logging and output calls are not kept.
//
// A pure function of the model, builder, error regions and import bindings it is given; not thread-safe
// only in that those are not.
#pragma once

#include "extract/file_facts.h"
#include "python/error_regions.h"
#include "python/import_bindings.h"
#include "python/python_file_model.h"
#include "python/python_template_builder.h"
#include "python/query_captures.h"

namespace errdex {

// Appends the call CALL to FACTS->message_calls when it hands literal text (or a capitalized class's instance
// with literal text, or a class) to a function that may raise it.
void ReadMessageCall(const PythonFileModel& model, PythonTemplateBuilder& builder, const ErrorRegions& errors,
                     const ImportBindings& imports, const PendingCall& call, FileFacts* facts);

}  // namespace errdex
