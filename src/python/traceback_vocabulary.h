// The words and phrases of Python's printed tracebacks (src/python/data/traceback_format.tsv, embedded at
// build time): the header, the separators of chained exceptions, the suffixes and words that make a name an
// exception type or not, the keywords that make a line code, the folders of installed distributions. The
// grammar of whole lines is src/python/traceback_line.h; the paste reader of src/match/ asks both.
//
// Threading: the vocabulary is built once, on first use (thread-safe), and lives for the whole program;
// its views point into the embedded table.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace errdex::python_paste {

struct TracebackVocabulary {
  std::string_view header;                       // "Traceback (most recent call last)"
  std::string header_line;                       // the header as Python prints it, with its ':'
  std::string_view group_header;                 // "Exception Group", before the header of a group
  std::string_view django_type;                  // "Exception Type:" (then a space) of Django's technical 500 page
  std::string_view django_value;                 // "Exception Value:", the line of its message
  std::vector<std::string_view> chain_prefixes;  // a line starting with one separates chained tracebacks
  std::vector<std::string_view> chain_lines;     // the separators in full
  std::vector<std::string_view> repeated_frames;
  std::vector<std::string_view> type_suffixes;      // "Error", "Exception", ...
  std::vector<std::string_view> log_type_suffixes;  // a name printed before a message in a log is a type
  std::vector<std::string_view> lowercase_types;
  std::vector<std::string_view> not_types;
  std::vector<std::string_view> code_keywords;
  std::vector<std::string_view> source_extensions;
  std::vector<std::string_view> notebook_inputs;
  std::vector<std::string_view> package_directories;  // "site-packages", "dist-packages"
  std::vector<std::string_view> vendor_directories;   // "_vendor": a copy of another library inside one
  std::vector<std::string_view> example_directories;  // "docs_src", "examples": not the library's code
  // A line of its own that opens a traceback embedded in a library's report ("Traceback:" in pytest's
  // collection errors): the text before it is the report's message (match/pasted_error.h).
  std::vector<std::string_view> embedded_headers;
};

const TracebackVocabulary& PythonTracebackVocabulary();

// NAME, printed right before a message in a log line ("... SolveFailure: msg"), ends like an exception
// type's name (the log_type_suffix rows).
bool EndsLikeLoggedType(std::string_view name);

// NAME is a folder of an installation that holds distributions ("site-packages").
bool IsPackageDirectory(std::string_view name);

// WORD is one of LIST.
bool IsListed(const std::vector<std::string_view>& list, std::string_view word);

}  // namespace errdex::python_paste
