#include "util/version_name.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace errdex {

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The pre-release words PEP 440 and semver tags use ("1.2rc1", "1.2.0-beta.2", "1.2.dev0").
bool IsPreReleaseSuffix(std::string_view suffix) {
  size_t i = 0;
  while (i < suffix.size() && (suffix[i] == '-' || suffix[i] == '.' || suffix[i] == '_')) ++i;
  if (i > 1) return false;
  std::string word;
  while (i < suffix.size() && std::isalpha(static_cast<unsigned char>(suffix[i]))) {
    word += static_cast<char>(std::tolower(static_cast<unsigned char>(suffix[i++])));
  }
  static const std::set<std::string> kWords = {"a", "b", "c", "rc", "alpha", "beta", "dev", "pre", "preview"};
  if (!kWords.contains(word)) return false;
  if (i < suffix.size() && (suffix[i] == '.' || suffix[i] == '-')) ++i;
  while (i < suffix.size() && IsDigit(suffix[i])) ++i;
  return i == suffix.size() && suffix.size() <= 16;
}

bool IsPostReleaseSuffix(std::string_view suffix) {
  if (suffix.size() < 5 || suffix.size() > 12) return false;
  if (suffix.substr(0, 5) != ".post" && suffix.substr(0, 5) != "-post") return false;
  return std::all_of(suffix.begin() + 5, suffix.end(), IsDigit);
}

// Orders pre-release words: dev < a/alpha < b/beta < c/rc/pre, then by their number.
std::pair<int, int64_t> PreRank(const std::string& tag) {
  std::string word;
  int64_t number = 0;
  for (char c : tag) {
    if (std::isalpha(static_cast<unsigned char>(c))) word += c;
    if (IsDigit(c) && number < 1000000) number = number * 10 + (c - '0');
  }
  int rank = 3;
  if (word == "dev") rank = 0;
  if (word == "a" || word == "alpha") rank = 1;
  if (word == "b" || word == "beta") rank = 2;
  return {rank, number};
}

}  // namespace

std::optional<VersionName> ParseVersionName(std::string_view name) {
  if (name.size() > 64) return std::nullopt;
  size_t i = 0;
  if (i < name.size() && (name[i] == 'v' || name[i] == 'V')) ++i;
  VersionName v;
  while (true) {
    if (i >= name.size() || !IsDigit(name[i])) return std::nullopt;
    int64_t n = 0;
    size_t digits = 0;
    while (i < name.size() && IsDigit(name[i])) {
      if (++digits > 9) return std::nullopt;
      n = n * 10 + (name[i++] - '0');
    }
    v.numbers.push_back(n);
    if (i + 1 < name.size() && name[i] == '.' && IsDigit(name[i + 1]) && v.numbers.size() < 5) {
      ++i;
      continue;
    }
    break;
  }
  if (v.numbers.size() < 2) return std::nullopt;
  const std::string_view suffix = name.substr(i);
  if (suffix.empty() || IsPostReleaseSuffix(suffix)) return v;
  if (!IsPreReleaseSuffix(suffix)) return std::nullopt;
  v.pre = true;
  for (char c : suffix) v.pre_tag += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return v;
}

bool VersionLess(const VersionName& a, const VersionName& b) {
  const size_t n = std::max(a.numbers.size(), b.numbers.size());
  for (size_t k = 0; k < n; ++k) {
    const int64_t x = k < a.numbers.size() ? a.numbers[k] : 0;
    const int64_t y = k < b.numbers.size() ? b.numbers[k] : 0;
    if (x != y) return x < y;
  }
  if (a.pre != b.pre) return a.pre;  // 1.2rc1 < 1.2
  if (a.pre) return PreRank(a.pre_tag) < PreRank(b.pre_tag);
  return false;
}

std::string VersionSeries(const VersionName& version) {
  std::string out;
  for (size_t k = 0; k + 1 < version.numbers.size(); ++k) out += std::to_string(version.numbers[k]) + ".";
  return out + "x";
}

}  // namespace errdex
