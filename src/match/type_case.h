// A type name from a paste lower-cased whole (`hfhubhttperror: 500 server error: ...`, docs/matching.md,
// "Lower-cased pastes"): the paste reader keeps it as printed; the catalog's classes give its capitals back
// before matching, so that type evidence works as for any paste.
//
// Threading: reads the catalog; one call at a time per Catalog.
#pragma once

#include <string>
#include <string_view>

#include "catalog/catalog.h"

namespace errdex {

// For an exception the paste reader marked `lowercased` (a paste with no capital at all; Python's own
// lower-case names such as `socket.timeout` are not such types): TYPE with its last component spelled as the one
// builtin exception, or else the one class name of the catalog, that it is ignoring case; TYPE unchanged when it has a
// capital already, or when none or several spellings fit.
std::string RestoreTypeCase(Catalog& catalog, std::string_view type);

}  // namespace errdex
