// A thin RAII layer over SQLite: a connection, prepared statements with typed binds and columns, and
// transactions. Errors surface as SqliteError exceptions carrying SQLite's message; the catalog turns
// them into one-line diagnostics at the command boundary.
//
// Threading: a SqliteDb and its statements belong to one thread at a time.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace errdex {

class SqliteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class SqliteDb {
 public:
  // Opens PATH (read-only, or read-write creating it). Throws SqliteError.
  SqliteDb(const std::string& path, bool read_only);
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  sqlite3* handle() const { return db_; }
  void Exec(const std::string& sql);
  int64_t LastInsertId() const { return sqlite3_last_insert_rowid(db_); }

 private:
  sqlite3* db_ = nullptr;
};

class Statement {
 public:
  Statement(SqliteDb& db, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Binds are 1-based, as in SQLite. A null optional binds NULL.
  Statement& Bind(int index, int64_t value);
  Statement& Bind(int index, std::string_view value);
  Statement& Bind(int index, const std::string& value) { return Bind(index, std::string_view(value)); }
  Statement& Bind(int index, const char* value) { return Bind(index, std::string_view(value)); }
  Statement& Bind(int index, const std::optional<std::string>& value);
  Statement& BindNull(int index);
  Statement& BindBlob(int index, std::string_view value);

  // Advances to the next row; false when done. Throws on error.
  bool Step();
  // Runs a statement that returns no rows, then resets it for reuse.
  void Run();
  void Reset();

  int64_t Int(int column) const;
  std::string Text(int column) const;
  std::string Blob(int column) const;
  std::optional<std::string> OptionalText(int column) const;
  bool IsNull(int column) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// A statement borrowed from a cache of prepared statements: used like a Statement, reset when the borrow
// ends, so that no read stays open (an open read holds an old snapshot of the database and keeps the WAL
// from being checkpointed). Movable, not copyable; the cache must outlive it.
class BorrowedStatement {
 public:
  explicit BorrowedStatement(Statement& s) : s_(&s) {}
  ~BorrowedStatement() {
    if (s_ != nullptr) s_->Reset();
  }
  BorrowedStatement(BorrowedStatement&& other) noexcept : s_(other.s_) { other.s_ = nullptr; }
  BorrowedStatement(const BorrowedStatement&) = delete;
  BorrowedStatement& operator=(const BorrowedStatement&) = delete;
  BorrowedStatement& operator=(BorrowedStatement&&) = delete;

  template <typename T>
  Statement& Bind(int index, const T& value) {
    return s_->Bind(index, value);
  }
  bool Step() { return s_->Step(); }
  int64_t Int(int column) const { return s_->Int(column); }
  std::string Text(int column) const { return s_->Text(column); }
  std::string Blob(int column) const { return s_->Blob(column); }
  std::optional<std::string> OptionalText(int column) const { return s_->OptionalText(column); }
  bool IsNull(int column) const { return s_->IsNull(column); }
  operator Statement&() { return *s_; }  // for row readers that take a Statement

 private:
  Statement* s_;
};

// BEGIN IMMEDIATE on construction (waits for other writers), ROLLBACK on destruction unless Commit().
class Transaction {
 public:
  explicit Transaction(SqliteDb& db);
  ~Transaction();
  void Commit();

 private:
  SqliteDb& db_;
  bool done_ = false;
};

}  // namespace errdex
