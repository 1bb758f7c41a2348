// Error identity (docs/catalog.md): an error is (repository, exception type, normalized template); its id
// is 16 lowercase hex digits of a 64-bit XXH3 hash of that triple, stable while the message is unchanged.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace errdex {

struct ErrorIdentity {
  std::string_view repo;
  // The qualified type when it resolved, else the type as written, else empty (bare `raise`).
  std::string_view type;
  std::optional<std::string> normalized_template;  // null when the site has no message
  // Used only when neither the message nor a resolved class says what the error is (`raise e`, bare
  // `raise`): such sites are distinct errors, told apart by where they are.
  bool anchored = false;
  std::string_view path;
  std::string_view function;
};

std::string ErrorId(const ErrorIdentity& identity);

}  // namespace errdex
