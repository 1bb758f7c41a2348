// Tag names read as versions ("v1.2.3", "1.2", "2.0.0rc1"): their numbers, pre-release suffix, order and
// series (docs/catalog.md "Releases and lineage").
//
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace errdex {

// A tag name read as a version: the numbers and whether it is a pre-release.
struct VersionName {
  std::vector<int64_t> numbers;  // "v1.2.3" -> {1, 2, 3}; at least two
  bool pre = false;              // "rc1", "a2", "b0", ".dev3", "-beta", "-alpha.1", "pre"
  std::string pre_tag;           // the pre-release suffix, lower-cased, for ordering ("rc1"); "" for a release
};

// Reads NAME as a version: an optional "v"/"V", two to five dot-separated numbers, then nothing, a
// post-release (".post1"), or a pre-release suffix. Anything else ("latest", "1", "foo-1.2", "1.2.x")
// is not a version.
std::optional<VersionName> ParseVersionName(std::string_view name);

// A before B in release order (1.2rc1 < 1.2 < 1.2.1 < 1.10).
bool VersionLess(const VersionName& a, const VersionName& b);

// "1.9.x" for 1.9.4, "2.x" for 2.1: the series a version belongs to (all but its last number).
std::string VersionSeries(const VersionName& version);

}  // namespace errdex
