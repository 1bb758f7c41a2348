// Where a traceback frame's file is inside a Python installation (docs/environments.md): the path below
// "site-packages" or "dist-packages" (a distribution's file, "requests/adapters.py"), or below
// "lib/pythonX.Y" (the standard library, "json/decoder.py"). Installed distributions and the standard
// library are indexed with exactly these relative paths, so such a frame names one file of one
// distribution: a vendored copy ("pip/_vendor/requests/adapters.py") is a different file.
//
// The folder names are data (python/data/traceback_format.tsv: package_directory, vendor_directory).
//
// Threading: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace errdex {

struct InstalledPath {
  std::string relative;  // '/'-separated, below the marker
  bool stdlib = false;   // below lib/pythonX.Y (and not below its site-packages)
};

// The installed location of FRAME_PATH, or nothing when it is not below an installation's marker
// (a user's own file: "app.py", "/home/me/project/app.py").
std::optional<InstalledPath> InstalledPathOf(std::string_view frame_path);

// True when a site of a revision indexed from an installation (one with a version: a distribution, the
// standard library, an archive) at SITE_PATH is the file FRAME_PATH names: equal relative paths when the
// frame is installed (a site path "src/pkg/x.py" of an sdist's src/ layout is "pkg/x.py" installed). For
// other sites or frames, false (callers fall back to the path suffix).
bool SameInstalledFile(std::string_view frame_path, std::string_view site_path);

// True when PATH lies below a "_vendor" or "vendored" directory: a copy of another library shipped inside
// a distribution (source/python_environment.h, FindVendoredPackages).
bool IsVendoredPath(std::string_view path);

// True when the repository-relative PATH starts in a folder of documentation examples or scripts
// (`docs_src/`, `examples/`, `scripts/`, ...: data/traceback_format.tsv): code users copy or run, not the
// library they import.
bool IsExampleOrScriptPath(std::string_view path);

}  // namespace errdex
