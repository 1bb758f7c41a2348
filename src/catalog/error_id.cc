#include "catalog/error_id.h"

#include <xxhash.h>

#include <cstdio>

namespace errdex {

std::string ErrorId(const ErrorIdentity& e) {
  // Fields separated by a byte that cannot occur in them (US, 0x1f), nulls marked apart from "".
  std::string key;
  key.append(e.repo).push_back('\x1f');
  key.append(e.type).push_back('\x1f');
  if (e.normalized_template) {
    key.push_back('t');
    key.append(*e.normalized_template);
  } else {
    key.push_back('-');
  }
  if (e.anchored) {
    key.push_back('\x1f');
    key.append(e.path).push_back('\x1f');
    key.append(e.function);
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(XXH3_64bits(key.data(), key.size())));
  return hex;
}

}  // namespace errdex
