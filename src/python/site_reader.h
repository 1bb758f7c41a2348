// The sites of one Python file (FileFacts::sites; docs/extraction.md, "Sites"): each raise, assert and
// `warnings.warn` call the query captured, read into a Site with its type, message template, class texts
// (class_text_conditions.h), message alternatives and location; a function raising its parameter's text is
// noted as a raising helper (helper_definitions.h) on the way.
//
// Lifetime: borrows the model, builder, error regions, lines, import bindings and class texts, which must
// outlive it; nodes() are nodes of the parsed tree. Not thread-safe (one per Extract() call).
#pragma once

#include <tree_sitter/api.h>

#include <vector>

#include "extract/file_facts.h"
#include "python/class_text_conditions.h"
#include "python/error_regions.h"
#include "python/import_bindings.h"
#include "python/python_file_model.h"
#include "python/python_template_builder.h"
#include "python/query_captures.h"
#include "python/source_lines.h"

namespace errdex {

class SiteReader {
 public:
  // ROOT is the parsed tree of MODEL's source; SNIPPET_CONTEXT the lines kept around each site.
  SiteReader(const PythonFileModel& model, PythonTemplateBuilder& builder, TSNode root, const ErrorRegions& errors,
             const SourceLines& lines, const ImportBindings& imports, ClassTextChoices* class_texts,
             int snippet_context)
      : model_(model),
        builder_(builder),
        root_(root),
        errors_(errors),
        lines_(lines),
        imports_(imports),
        class_texts_(class_texts),
        snippet_context_(snippet_context) {}

  // Appends the site RAW to FACTS->sites, unless its position is unsound (error_regions.h), it is an assert
  // without a message, or a call that is no `warnings.warn`.
  void Read(const RawSite& raw, FileFacts* facts);

  // The node of each site appended, in order.
  const std::vector<TSNode>& nodes() const { return site_nodes_; }

 private:
  const PythonFileModel& model_;
  PythonTemplateBuilder& builder_;
  TSNode root_;
  const ErrorRegions& errors_;
  const SourceLines& lines_;
  const ImportBindings& imports_;
  ClassTextChoices* class_texts_;
  int snippet_context_;
  std::vector<TSNode> site_nodes_;
  int site_checks_ = ErrorRegions::kMaxAncestorChecks;  // ancestor walks left for sites
};

}  // namespace errdex
