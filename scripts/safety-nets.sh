#!/usr/bin/env bash
# The safety nets CI runs after the ordinary build and tests (README.md, the test command; docs/safety-nets.md):
# one clang build in build-sanitize/ of errdex, its tests and the libFuzzer targets of fuzz/, all with
# AddressSanitizer and UndefinedBehaviorSanitizer (-O1, assertions on), then
#   1. the whole CTest suite (unit, e2e, e2e_web, e2e_slow_clients, e2e_browser, ...) on that build;
#   2. every fuzzer for ERRDEX_FUZZ_SECONDS (60) seconds, from the seed corpus kept in fuzz/corpus/<fuzzer>/
#      plus, for extract_fuzzer, the extraction corpus tests/corpus/extraction/ and the fixtures' Python files,
#      and for match_fuzzer the paste corpus tests/corpus/pastes/ (each paste after an empty template).
# One build serves both because a third full compile would not fit CI's time on 2 cores. Any sanitizer
# report, test failure, crash, timeout, leak or invariant violation fails the script; a fuzzer's findings are
# kept in build-sanitize/fuzz-artifacts/. Needs what scripts/install-deps.sh installs (clang,
# libclang-rt-14-dev). Each phase prints its wall time.
#
#   bash scripts/safety-nets.sh [tests|fuzz]      (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
WHAT=${1:-all}
FUZZ_SECONDS=${ERRDEX_FUZZ_SECONDS:-60}
FUZZERS=(extract_fuzzer template_fuzzer match_fuzzer archive_fuzzer)
T0=$(date +%s)
phase_start=$T0
phase() {  # phase NAME: ends the previous phase (its time is printed) and names the next
  local now
  now=$(date +%s)
  echo "safety-nets: $1 (previous phase $((now - phase_start)) s, total $((now - T0)) s)" >&2
  phase_start=$now
}

BUILD=build-sanitize
phase "sanitizer build ($BUILD, clang, ASan+UBSan, fuzzers)"
CC=clang CXX=clang++ cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=None -DCMAKE_C_FLAGS="-O1 -gline-tables-only" \
  -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" -DERRDEX_SANITIZE=ON -DERRDEX_FUZZ=ON -DERRDEX_BUILD_TESTS=ON >/dev/null
cmake --build "$BUILD" -j2

if [ "$WHAT" = all ] || [ "$WHAT" = tests ]; then
  phase "the test suite under ASan+UBSan"
  # halt_on_error: a UBSan finding fails its test instead of scrolling by; leaks are reported at exit.
  # Tests that bound CPU time (a hostile input must finish within ~1 s of CPU, src/testing/cpu_time.h) are left out here: they assert the
  # speed of the optimized build, and ASan at -O1 runs 2-4x slower; their inputs still run under the
  # sanitizers in the other tests and the fuzzers, and the timing in the ordinary build.
  TIME_BOUND='ArchiveReaderTest\.DefaultLimitsStopADeflateBombQuickly|PythonExtractorTest\.(DeeplyNestedLambdas|MegabyteSingleLineString|ManyOpenBracesAsFormatString|ManyFieldsAndConversions|ManySites)|PathConditionsTest\.LongHeadersAreCutAndConditionsBounded|PastedErrorHostileTest\.(HundredThousandTracebackHeaders|ManyLinesOfMixedShapes)|DocMentionsTest\.ScalesToManyQueriesOverLargeDocuments'
  ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1 \
    LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp:print_suppressions=0 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ctest --test-dir "$BUILD" --output-on-failure -j2 -E "$TIME_BOUND"
fi

if [ "$WHAT" = all ] || [ "$WHAT" = fuzz ]; then
  mkdir -p "$BUILD/fuzz-artifacts"
  for fuzzer in "${FUZZERS[@]}"; do
    phase "$fuzzer for ${FUZZ_SECONDS} s"
    work=$BUILD/fuzz-corpus/$fuzzer
    extra=$BUILD/fuzz-seeds-extra/$fuzzer
    rm -rf "$work" "$extra"
    mkdir -p "$work" "$extra"
    if [ "$fuzzer" = extract_fuzzer ]; then
      # The fixtures' Python files: real code, hostile encodings and syntax errors.
      find tests/fixtures -name '*.py' -size -8k -print0 |
        while IFS= read -r -d '' f; do cp "$f" "$extra/$(echo "$f" | md5sum | cut -c1-12).py"; done
    fi
    if [ "$fuzzer" = match_fuzzer ] && [ -d tests/corpus/pastes ]; then
      # The paste corpus of the tests (tests/corpus/pastes/README.md), each as `\0 PASTE` (an empty
      # template), so that the whole paste reaches the parsers.
      for f in tests/corpus/pastes/*.txt; do
        { printf '\0'; cat "$f"; } >"$extra/paste-$(basename "$f" .txt)"
      done
    fi
    seeds=("fuzz/corpus/$fuzzer" "$extra")
    # The extraction corpus of the tests (tests/corpus/README.md), read recursively.
    if [ "$fuzzer" = extract_fuzzer ] && [ -d tests/corpus/extraction ]; then seeds+=(tests/corpus/extraction); fi
    # New inputs go to the first directory (in the build directory), never into the repository's corpus.
    "$BUILD/$fuzzer" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
      -print_final_stats=1 -artifact_prefix="$BUILD/fuzz-artifacts/$fuzzer-" \
      "$work" "${seeds[@]}" 2>"$BUILD/$fuzzer.log" ||
      { tail -n 60 "$BUILD/$fuzzer.log" >&2; echo "safety-nets: $fuzzer found a problem" >&2; exit 1; }
    grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)|cov: .*(DONE|INITED)' "$BUILD/$fuzzer.log" >&2 || true
  done
fi
phase "done"
