// `errdex index --python-env`: every distribution installed for an interpreter, each as its own
// repository "pypi/<normalized name>" at its version, and the interpreter's standard library as
// "python/stdlib" at the Python version (docs/environments.md). Each is one Index() run (one catalog
// transaction), so an unchanged distribution is a digest comparison and an upgraded one re-indexes alone.
//
// Threading: IndexPythonEnvironment() is called from one thread; each Index() starts its own workers.
#pragma once

#include <string>
#include <vector>

#include "pipeline/indexer.h"
#include "source/python_environment.h"

namespace errdex {

struct EnvironmentIndexOptions {
  std::string python = "python3";  // interpreter: a path or a name on PATH
  bool stdlib = true;              // index the standard library too
  IndexOptions index;              // catalog, jobs, analysis...: applied to every distribution
};

struct DistributionOutcome {
  std::string repo;  // "pypi/requests", "python/stdlib"
  std::string name;  // as the metadata spells it
  std::string version;
  std::string skipped;  // why nothing of it was indexed ("compiled only: 12 files, no Python source"); else ""
  std::vector<VendoredPackage> vendored;
  IndexSummary summary;  // files, sites, unchanged...
};

struct EnvironmentSummary {
  std::string executable;
  std::string python_version;
  std::vector<DistributionOutcome> outcomes;  // the standard library first, then by normalized name
  double seconds = 0;
};

// Returns false and sets *error (one line) when the interpreter cannot be asked or a catalog write
// fails; distributions indexed before the failure stay in the catalog.
bool IndexPythonEnvironment(const EnvironmentIndexOptions& options, EnvironmentSummary* summary, std::string* error);

// Why a distribution cannot be indexed, or "" when it can: no Python source at all.
std::string DistributionSkipReason(const InstalledDistribution& dist);

}  // namespace errdex
