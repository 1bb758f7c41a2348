#include "python/message_alternatives.h"

#include <set>
#include <string>
#include <vector>

namespace errdex {

void NoteMessageAlternatives(PythonTemplateBuilder& builder, TSNode message, int scope, uint32_t pos, Site* site) {
  // Lists are read as the class texts read them (docs/extraction.md): `*errors`, `"\n".join(errors)`.
  builder.set_assembled_lists(true);
  bool capped = false;
  // (Two more than kept: the template itself and its form with a placeholder for each choice come first.)
  std::vector<Template> texts =
      builder.BuildAlternatives(message, scope, pos, kMaxSiteMessageAlternatives + 2, &capped);
  builder.set_assembled_lists(false);
  // An alternative that differs from the template only in what its placeholders hold says nothing more.
  std::set<std::string> seen{NormalizeTemplate(*site->template_text)};
  for (const Template& t : texts) {
    std::string text = t.Render();
    if (!seen.insert(NormalizeTemplate(text)).second) continue;
    if (site->message_alternatives.size() >= kMaxSiteMessageAlternatives) {
      capped = true;
      break;
    }
    site->message_alternatives.push_back(std::move(text));
  }
  site->alternatives_capped = capped;
}

}  // namespace errdex
