#include "analysis/literal_value.h"

#include <string>

namespace errdex {

KnownValue LiteralValue(const FlowProgram& program, int expr) {
  KnownValue v;
  if (expr < 0) return v;
  const FlowExpr& e = program.exprs[static_cast<size_t>(expr)];
  const std::string* name = e.name >= 0 ? &program.NameOf(e.name) : nullptr;
  switch (e.tag) {
    case 'V':
      if (name == nullptr) break;
      v.kind = *name == "None"   ? KnownValue::Kind::kNone
               : *name == "True" ? KnownValue::Kind::kTrue
                                 : KnownValue::Kind::kFalse;
      break;
    case 'K':
      if (name != nullptr && name->size() > 2 && name->size() < 20 &&
          name->find_first_not_of("0123456789", 2) == std::string::npos) {
        v.kind = KnownValue::Kind::kInt;
        v.integer = std::stoll(name->substr(2));
      }
      break;
    case 'Q':
      if (name == nullptr) break;
      v.kind = KnownValue::Kind::kString;
      v.text = *name;
      break;
    case 'L':
    case 'D':
      v.kind = e.kids.empty() ? KnownValue::Kind::kEmpty : KnownValue::Kind::kNotNone;
      break;
    case 'G':
    case 'F':
      v.kind = KnownValue::Kind::kNotNone;
      break;
    default:
      break;
  }
  return v;
}

}  // namespace errdex
