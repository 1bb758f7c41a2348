// How Python prints an exception, as pastes show it: how Python-like a type name is, and where a printed
// exception (`Type: message`, `Type('message')`, `raise Type("message")`) sits in a line. The words it
// trusts are data (python/data/traceback_format.tsv, python/data/builtins.tsv). Used by the paste reader
// of src/match/. Results are plain values owned by the caller (messages cut at kPastedMaxMessageBytes);
// pure functions, safe from any thread, linear in the line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace errdex::python_paste {

enum class TypeRank { kNone, kWord, kCamel, kStrong };

// kStrong: `ValueError`, `SystemExit`, `pkg.mod.Anything`, builtins such as `StopIteration`;
// kCamel: `NoSuchOption`; kWord: a capitalised word (`Failed`), only trusted where Python prints a type.
TypeRank RankTypeName(std::string_view name);

// The name ends with Error/Exception/Warning/Exit/Interrupt (trusted even without ": ").
bool HasTypeSuffix(std::string_view name);

// NAME as a paste lower-cased whole prints a type: its last component has no capital and ends with one of
// the suffixes above in lower case (`hfhubhttperror`, `requests.exceptions.connectionerror`), longer than it.
bool HasLowercasedTypeSuffix(std::string_view name);

// The word before S[I] is a Python keyword that makes S[I...] code rather than a printed exception.
bool PrecededByKeyword(std::string_view s, size_t i);

struct ExcParse {
  bool found = false;
  std::string type;
  std::string message;  // first line, or the whole message when complete
  TypeRank rank = TypeRank::kNone;
  bool complete = false;  // nothing on later lines continues it
  bool repr = false;      // from `Type('message')`
  bool colon = false;     // `Type:` (a message may follow on later lines)
};

// `Type: message`, `Type:` or (when its rank reaches BARE_MIN) a lone `Type` at the start of T.
bool ParseAtStart(std::string_view t, TypeRank min_rank, TypeRank bare_min, ExcParse* out);

// The first `Type: message` or `Type('message')` inside a line of prose or log text; only strong names.
bool FindInLine(std::string_view s, ExcParse* out);

// `raise Name(...)` in a frame's code: the type, and the message when it is a plain string literal.
bool ParseRaiseCode(std::string_view code, std::string* type, std::string* message);

}  // namespace errdex::python_paste
