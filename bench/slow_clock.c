// LD_PRELOAD shim for instruction counts (docs/benchmarks.md, "Eighth round: resolver cost"): the monotonic
// clock runs 1000 times slower, so that the extractor's parse deadline (10 s of wall time) never expires
// under valgrind on a loaded machine (a file skipped as "timeout" changes the input, so the counts).
//   cc -O2 -shared -fPIC -o /tmp/slow_clock.so bench/slow_clock.c -ldl
//   LD_PRELOAD=/tmp/slow_clock.so valgrind --tool=callgrind ... errdex index ...
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>

int clock_gettime(clockid_t id, struct timespec* ts) {
  static int (*real)(clockid_t, struct timespec*);
  if (!real) real = (int (*)(clockid_t, struct timespec*))dlsym(RTLD_NEXT, "clock_gettime");
  const int r = real(id, ts);
  if (r == 0 && (id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_RAW || id == CLOCK_BOOTTIME)) {
    const long long ns = ((long long)ts->tv_sec * 1000000000LL + ts->tv_nsec) / 1000;
    ts->tv_sec = ns / 1000000000LL;
    ts->tv_nsec = ns % 1000000000LL;
  }
  return r;
}
