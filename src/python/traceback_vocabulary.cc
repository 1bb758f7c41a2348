#include "python/traceback_vocabulary.h"

#include <map>

#include "python/embedded_data.h"

namespace errdex::python_paste {
namespace {

TracebackVocabulary Load() {
  TracebackVocabulary v;
  const std::map<std::string_view, std::vector<std::string_view>*> lists = {
      {"chain_prefix", &v.chain_prefixes},
      {"chain_line", &v.chain_lines},
      {"repeated_frames", &v.repeated_frames},
      {"type_suffix", &v.type_suffixes},
      {"lowercase_type", &v.lowercase_types},
      {"not_a_type", &v.not_types},
      {"code_keyword", &v.code_keywords},
      {"source_extension", &v.source_extensions},
      {"notebook_input", &v.notebook_inputs},
      {"package_directory", &v.package_directories},
      {"vendor_directory", &v.vendor_directories},
      {"log_type_suffix", &v.log_type_suffixes},
      {"example_directory", &v.example_directories},
      {"embedded_header", &v.embedded_headers},
  };
  for (const std::vector<std::string_view>& row : EmbeddedPythonTable("data/traceback_format.tsv")) {
    if (row.size() < 2) continue;
    if (row[0] == "header") {
      v.header = row[1];
    } else if (row[0] == "group_header") {
      v.group_header = row[1];
    } else if (row[0] == "django_type") {
      v.django_type = row[1];
    } else if (row[0] == "django_value") {
      v.django_value = row[1];
    } else if (auto it = lists.find(row[0]); it != lists.end()) {
      it->second->push_back(row[1]);
    }
  }
  v.header_line = std::string(v.header) + ":";
  return v;
}

}  // namespace

const TracebackVocabulary& PythonTracebackVocabulary() {
  static const TracebackVocabulary vocabulary = Load();
  return vocabulary;
}

bool IsPackageDirectory(std::string_view name) {
  return IsListed(PythonTracebackVocabulary().package_directories, name);
}

bool IsListed(const std::vector<std::string_view>& list, std::string_view word) {
  for (std::string_view w : list) {
    if (w == word) return true;
  }
  return false;
}

bool EndsLikeLoggedType(std::string_view name) {
  for (std::string_view suffix : PythonTracebackVocabulary().log_type_suffixes) {
    if (name.ends_with(suffix)) return true;
  }
  return false;
}

}  // namespace errdex::python_paste
