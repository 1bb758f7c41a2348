// Which library a paste comes from (docs/matching.md, "Where the paste points"): the top-level module
// named by its qualified exception type (`requests.exceptions.ConnectionError`) or by its innermost
// frame inside an installed package (`.../site-packages/urllib3/connectionpool.py`), and the repository
// of the catalog that provides it, if any.
//
// Threading: uses the given catalog, which belongs to the calling thread.
#pragma once

#include <string>

#include "catalog/catalog.h"
#include "match/pasted_error.h"

namespace errdex {

struct PasteOrigin {
  std::string module;      // "" when the paste names none
  std::string repository;  // the catalog's repository providing it; "" when none (or not known)
};

PasteOrigin OriginOfPaste(Catalog& catalog, const PastedException& exception);

}  // namespace errdex
