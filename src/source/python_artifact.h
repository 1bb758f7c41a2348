// What a released Python artifact is and says about itself (docs/environments.md, "Wheels and source
// archives"): its kind from its file name, its distribution name and version from its core metadata
// (a wheel's *.dist-info/METADATA, an sdist's PKG-INFO) or, failing that, from its file name as the
// binary distribution format and source distribution format specifications spell them, and where a wheel's
// members land when installed.
//
// Threading: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace errdex {

enum class ArtifactKind { kWheel, kSdistTarGz, kSdistZip };

// The kind FILE_NAME (a path or a bare name) names by its extension, compared case-insensitively:
// ".whl", ".tar.gz" or ".tgz", ".zip". Nothing for any other name.
std::optional<ArtifactKind> ArtifactKindOf(std::string_view file_name);

struct ArtifactName {
  std::string name;     // as spelled ("PyYAML"); NormalizeDistributionName gives the repository's name
  std::string version;  // as spelled ("6.0.1")
};

// The "Name" and "Version" fields of core metadata TEXT (RFC 822 style headers, up to the first empty
// line). Nothing when either is missing or not valid (IsValidDistributionName, IsValidVersionText).
std::optional<ArtifactName> ArtifactNameFromMetadata(std::string_view text);

// From the file name (directories ignored): a wheel's "{name}-{version}(-{build})?-{python}-{abi}-
// {platform}.whl", an sdist's "{name}-{version}.tar.gz" (the version after the last '-', so that legacy
// names with '-' work). Nothing when the name does not have that shape or its parts are not valid.
std::optional<ArtifactName> ArtifactNameFromFileName(std::string_view file_name, ArtifactKind kind);

// PEP 508 names: ASCII letters and digits, with '.', '-', '_' inside; at most 200 bytes.
bool IsValidDistributionName(std::string_view name);

// A version as the catalog keeps it: 1-64 bytes of ASCII letters, digits and ".+!_-", starting with a
// letter or digit (every PEP 440 version, and the legacy ones seen on PyPI, normalized or not).
bool IsValidVersionText(std::string_view version);

// Where the wheel member PATH is installed, relative to site-packages: PATH itself at the top level,
// "{name}.data/purelib/x" and ".../platlib/x" as "x"; nothing for the other ".data/" schemes (scripts,
// headers, data: not importable) and for the "*.dist-info/" metadata.
std::optional<std::string> WheelInstalledPath(std::string_view path);

}  // namespace errdex
