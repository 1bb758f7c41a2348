#include "match/literal_matcher.h"

#include <hs.h>

#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace errdex {

struct LiteralMatcher::Database {
  hs_database_t* db = nullptr;  // null for an empty set: Hyperscan cannot compile zero patterns
  ~Database() {
    if (db) hs_free_database(db);
  }
};

struct LiteralMatcher::Scratch::Impl {
  hs_scratch_t* scratch = nullptr;
  ~Impl() {
    if (scratch) hs_free_scratch(scratch);
  }
};

LiteralMatcher::LiteralMatcher(std::unique_ptr<Database> db) : db_(std::move(db)) {}
LiteralMatcher::~LiteralMatcher() = default;

std::unique_ptr<LiteralMatcher> LiteralMatcher::Build(const std::vector<std::string>& literals) {
  auto database = std::make_unique<Database>();
  if (literals.empty()) return std::unique_ptr<LiteralMatcher>(new LiteralMatcher(std::move(database)));
  if (hs_valid_platform() != HS_SUCCESS) throw std::runtime_error("this CPU cannot run Hyperscan (no SSSE3)");
  if (literals.size() > std::numeric_limits<unsigned>::max()) throw std::runtime_error("too many literals");
  std::vector<const char*> expressions;
  std::vector<size_t> lengths;
  std::vector<unsigned> ids, flags;
  expressions.reserve(literals.size());
  for (size_t i = 0; i < literals.size(); ++i) {
    if (literals[i].empty()) throw std::runtime_error("empty literal");
    expressions.push_back(literals[i].data());
    lengths.push_back(literals[i].size());
    ids.push_back(static_cast<unsigned>(i));
    flags.push_back(0);
  }
  hs_compile_error_t* error = nullptr;
  if (hs_compile_lit_multi(expressions.data(), flags.data(), ids.data(), lengths.data(),
                           static_cast<unsigned>(literals.size()), HS_MODE_BLOCK, nullptr, &database->db,
                           &error) != HS_SUCCESS) {
    std::string message = error && error->message ? error->message : "unknown error";
    hs_free_compile_error(error);
    throw std::runtime_error("Hyperscan could not compile the literals: " + message);
  }
  return std::unique_ptr<LiteralMatcher>(new LiteralMatcher(std::move(database)));
}

std::unique_ptr<LiteralMatcher> LiteralMatcher::Deserialize(std::string_view bytes) {
  auto database = std::make_unique<Database>();
  if (bytes.empty()) return std::unique_ptr<LiteralMatcher>(new LiteralMatcher(std::move(database)));
  if (hs_valid_platform() != HS_SUCCESS) return nullptr;
  if (hs_deserialize_database(bytes.data(), bytes.size(), &database->db) != HS_SUCCESS) return nullptr;
  // A database built for other CPU features deserializes but cannot scan: allocating scratch tells.
  hs_scratch_t* probe = nullptr;
  if (hs_alloc_scratch(database->db, &probe) != HS_SUCCESS) return nullptr;
  hs_free_scratch(probe);
  return std::unique_ptr<LiteralMatcher>(new LiteralMatcher(std::move(database)));
}

std::string LiteralMatcher::Serialize() const {
  if (!db_->db) return {};
  char* bytes = nullptr;
  size_t length = 0;
  if (hs_serialize_database(db_->db, &bytes, &length) != HS_SUCCESS) {
    throw std::runtime_error("Hyperscan could not serialize its database");
  }
  std::string out(bytes, length);
  std::free(bytes);
  return out;
}

LiteralMatcher::Scratch::Scratch(const LiteralMatcher& matcher) : impl_(std::make_unique<Impl>()) {
  if (matcher.db_->db && hs_alloc_scratch(matcher.db_->db, &impl_->scratch) != HS_SUCCESS) {
    throw std::runtime_error("Hyperscan could not allocate scratch space");
  }
}
LiteralMatcher::Scratch::~Scratch() = default;

namespace {
struct ScanContext {
  const std::function<bool(uint32_t, size_t)>* on_match;
};
int OnEvent(unsigned int id, unsigned long long /*from*/, unsigned long long to, unsigned int /*flags*/,
            void* context) {
  auto* scan = static_cast<ScanContext*>(context);
  return (*scan->on_match)(id, static_cast<size_t>(to)) ? 0 : 1;
}
}  // namespace

void LiteralMatcher::Scan(std::string_view text, Scratch& scratch,
                          const std::function<bool(uint32_t id, size_t end)>& on_match) const {
  if (!db_->db || text.empty()) return;
  if (text.size() > std::numeric_limits<unsigned>::max()) throw std::invalid_argument("text too large to scan at once");
  ScanContext context{&on_match};
  hs_error_t rc =
      hs_scan(db_->db, text.data(), static_cast<unsigned>(text.size()), 0, scratch.impl_->scratch, OnEvent, &context);
  if (rc != HS_SUCCESS && rc != HS_SCAN_TERMINATED) throw std::runtime_error("Hyperscan scan failed");
}

}  // namespace errdex
