// Tests only: the catalog's database, so that a test can check the rows the catalog wrote. Code outside
// src/catalog/ reads and writes the catalog through its typed API; this door is for tests alone
// (tests/check_layers.py refuses src/testing/ outside tests).
#pragma once

#include "catalog/catalog.h"

namespace errdex {

struct CatalogTestPeer {
  static SqliteDb& Db(Catalog& catalog) { return *catalog.db_; }
};

}  // namespace errdex
