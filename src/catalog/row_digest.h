// errdex_digest(...): an SQL function over any number of values, the 64-bit XXH3 of their types and bytes.
// The catalog keys the rows that many revisions share (site_rows, class_rows: docs/catalog.md, "Rows shared
// by revisions") by it, so that a row identical across revisions is stored once and referenced.
//
// Threading: registered per connection; the function itself keeps no state.
#pragma once

#include <sqlite3.h>

namespace errdex {

// Registers errdex_digest on DB (deterministic, so usable in indexes and in migrations' SQL).
void RegisterRowDigest(sqlite3* db);

}  // namespace errdex
