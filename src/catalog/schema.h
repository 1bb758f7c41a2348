// The catalog's schema and its migrations (docs/catalog.md). The schema version is SQLite's
// user_version; each migration takes the catalog from version N-1 to N inside one transaction.
#pragma once

#include "catalog/sqlite_db.h"

namespace errdex {

inline constexpr int kSchemaVersion = 15;

// Brings DB up to kSchemaVersion. Throws SqliteError, or when the catalog is newer than this binary.
void MigrateSchema(SqliteDb& db);

// The version a catalog is at (0 for an empty file).
int SchemaVersion(SqliteDb& db);

}  // namespace errdex
