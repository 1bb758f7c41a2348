#include "match/traceback_line.h"

#include "match/pasted_text.h"

namespace errdex::match_internal {

void Classify(Line* l, bool group_separator) {
  const python_paste::TraceLine t = python_paste::ClassifyTraceLine(l->content, group_separator);
  l->trimmed = t.trimmed;
  l->indent = t.indent;
  l->kind = t.kind;
  l->header_type = t.header_type;
  l->group_header = t.group_header;
  l->test_boundary = t.test_boundary;
  if (t.kind == Kind::kFrame || t.kind == Kind::kPytestLocation) {  // the only kinds whose frame is read
    l->frame.path = Capped(t.frame.path);
    l->frame.line = t.frame.line;
    l->frame.function = Capped(t.frame.function);
  }
  l->style = t.style;
  l->loc = t.loc;
  l->loc_type = t.loc_type;
  l->loc_message = t.loc_message;
  l->e_spaces = t.e_spaces;
  l->e_text = t.e_text;
  l->arrow_line = t.arrow_line;
  l->arrow_code = t.arrow_code;
}

}  // namespace errdex::match_internal
