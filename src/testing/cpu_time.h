// The CPU time of this process, for tests that bound what hostile input may cost (a parser that turns
// quadratic on it). Wall time measures the machine's load as much as the code: beside a build on two
// cores a test sees several times its own time. The process's CPU time does not grow with the load.
// Bounds stay generous (the work they guard against is orders of magnitude slower); speed itself is
// measured by the scripts in bench/, not by tests.
//
// Threading: counts every thread of the process; call from the test's thread. Header-only, tests only.
#pragma once

#include <time.h>

namespace errdex::testing {

inline double ProcessCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

// Milliseconds of CPU time since STARTED (a ProcessCpuSeconds() reading).
inline long CpuMillisecondsSince(double started) { return static_cast<long>((ProcessCpuSeconds() - started) * 1000); }

}  // namespace errdex::testing
