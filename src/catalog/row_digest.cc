#include "catalog/row_digest.h"

#include <xxhash.h>

#include <cstdint>

namespace errdex {

namespace {

void RowDigest(sqlite3_context* context, int argc, sqlite3_value** argv) {
  XXH3_state_t* state = XXH3_createState();
  if (state == nullptr) {
    sqlite3_result_error_nomem(context);
    return;
  }
  XXH3_64bits_reset(state);
  for (int i = 0; i < argc; ++i) {
    // Each value is its type, its length and its bytes: ("a", "bc") and ("ab", "c") differ, NULL differs
    // from "", and 1 from "1".
    const unsigned char type = static_cast<unsigned char>(sqlite3_value_type(argv[i]));
    XXH3_64bits_update(state, &type, 1);
    if (type == SQLITE_INTEGER) {
      const int64_t v = sqlite3_value_int64(argv[i]);
      XXH3_64bits_update(state, &v, sizeof v);
    } else if (type == SQLITE_FLOAT) {
      const double v = sqlite3_value_double(argv[i]);
      XXH3_64bits_update(state, &v, sizeof v);
    } else if (type != SQLITE_NULL) {
      const void* bytes = type == SQLITE_BLOB ? sqlite3_value_blob(argv[i]) : sqlite3_value_text(argv[i]);
      const int64_t n = sqlite3_value_bytes(argv[i]);
      XXH3_64bits_update(state, &n, sizeof n);
      if (bytes != nullptr) XXH3_64bits_update(state, bytes, static_cast<size_t>(n));
    }
  }
  sqlite3_result_int64(context, static_cast<sqlite3_int64>(XXH3_64bits_digest(state)));
  XXH3_freeState(state);
}

}  // namespace

void RegisterRowDigest(sqlite3* db) {
  sqlite3_create_function_v2(db, "errdex_digest", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr, RowDigest, nullptr,
                             nullptr, nullptr);
}

}  // namespace errdex
