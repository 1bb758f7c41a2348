// A set of literal strings compiled into one Hyperscan database: reports, for any text, which literals
// occur in it and where they end. Linear in the text whatever it holds (no backtracking, no regex over
// user input). The database can be serialized into the catalog so that `explain` never compiles.
//
// Threading: a built LiteralMatcher is immutable and may be shared between threads; each thread scans
// with its own Scratch. Ownership: the matcher owns its Hyperscan database, a Scratch its scratch space.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace errdex {

class LiteralMatcher {
 public:
  ~LiteralMatcher();
  LiteralMatcher(const LiteralMatcher&) = delete;
  LiteralMatcher& operator=(const LiteralMatcher&) = delete;

  // Compiles LITERALS (case-sensitive, any bytes); literal i is reported with id i. Empty literals are
  // not allowed. Throws std::runtime_error with Hyperscan's message when it cannot compile, or when this
  // CPU cannot run Hyperscan (it needs SSSE3).
  static std::unique_ptr<LiteralMatcher> Build(const std::vector<std::string>& literals);
  // A database written by Serialize(), possibly on another machine. Returns null when the bytes are not
  // a database this build of Hyperscan can run on this CPU (the caller then rebuilds).
  static std::unique_ptr<LiteralMatcher> Deserialize(std::string_view bytes);
  std::string Serialize() const;

  // Scan space for one thread.
  class Scratch {
   public:
    explicit Scratch(const LiteralMatcher& matcher);
    ~Scratch();
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;

   private:
    friend class LiteralMatcher;
    struct Impl;
    std::unique_ptr<Impl> impl_;
  };

  // Calls ON_MATCH(id, end) for every occurrence of a literal in TEXT, END being the offset just past
  // it; occurrences come in order of END. ON_MATCH returns false to stop the scan. TEXT is at most 4 GiB.
  void Scan(std::string_view text, Scratch& scratch,
            const std::function<bool(uint32_t id, size_t end)>& on_match) const;

 private:
  struct Database;
  explicit LiteralMatcher(std::unique_ptr<Database> db);
  std::unique_ptr<Database> db_;
};

}  // namespace errdex
