// What a Python interpreter has installed: its version, its standard library and its distributions,
// asked of the interpreter itself by a small embedded script (importlib.metadata, sysconfig; no network,
// nothing imported from the distributions). docs/environments.md describes the answer.
//
// Threading: ProbePythonEnvironment() runs one child process and waits for it; call it from one thread.
#pragma once

#include <string>
#include <vector>

namespace errdex {

// A vendored package inside a distribution: "pip/_vendor/urllib3" is urllib3 shipped by pip.
struct VendoredPackage {
  std::string path;  // relative to the distribution's location, '/'-separated
  std::string name;  // the vendored package's import name
};

struct InstalledDistribution {
  std::string name;        // as its metadata spells it ("PyYAML")
  std::string normalized;  // PEP 503: lowercase, runs of "-", "_", "." as one "-" ("pyyaml")
  std::string version;
  std::string location;            // the directory its paths are relative to (site-packages, dist-packages)
  std::vector<std::string> files;  // *.py files, relative to LOCATION, sorted, each present on disk
  std::string files_from;          // "RECORD", "top_level.txt" or "" (nothing said where its files are)
  int64_t other_files = 0;         // recorded files that are not Python source (.so, data)
  std::vector<VendoredPackage> vendored;
};

struct PythonEnvironment {
  std::string interpreter;                           // as given
  std::string executable;                            // sys.executable
  std::string version;                               // "3.11.2"
  std::string stdlib;                                // sysconfig's "stdlib" path
  std::vector<std::string> stdlib_files;             // *.py under STDLIB, relative, sorted, without site/dist-packages
  std::vector<InstalledDistribution> distributions;  // sorted by normalized name, first of a name on sys.path
};

// Runs INTERPRETER (a path or a name looked up on PATH) in isolated mode (-I: no PYTHON* variables, no
// user site, the current directory not on sys.path) with the embedded probe, bounded to 60 s and 64 MB
// of output. Returns false and sets *error (one line) when the interpreter cannot be run or answers
// something unreadable.
bool ProbePythonEnvironment(const std::string& interpreter, PythonEnvironment* env, std::string* error);

// Parses the probe's JSON answer (exposed for tests). Paths that are not safe relative paths are dropped.
bool ParsePythonEnvironment(const std::string& json, PythonEnvironment* env, std::string* error);

// PEP 503 normalization of a distribution name.
std::string NormalizeDistributionName(const std::string& name);

// The vendored packages among FILES: a directory right below a "_vendor" or "vendored" component.
std::vector<VendoredPackage> FindVendoredPackages(const std::vector<std::string>& files);

}  // namespace errdex
