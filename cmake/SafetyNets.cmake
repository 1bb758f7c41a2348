# Safety nets (docs/safety-nets.md), included from CMakeLists.txt with one line.
#
# errdex_fuzz_link: what the fuzz targets (fuzz/, ERRDEX_FUZZ) link, one name for all of errdex's
# libraries, so that the fuzzers do not need to know how the code is cut into libraries.
set(ERRDEX_FUZZ_LINKED_LIBRARIES errdex_analysis)  # the fuzzed code: sources (archives), extraction, Python, matching, analysis
add_library(errdex_fuzz_link INTERFACE)
target_link_libraries(errdex_fuzz_link INTERFACE ${ERRDEX_FUZZ_LINKED_LIBRARIES})

if(ERRDEX_BUILD_TESTS)
  # The slow-client attack (docs/web.md "Connections"): hundreds of half-open connections, then a normal
  # request must be answered within a second.
  add_test(NAME e2e_slow_clients COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/e2e/run_slow_clients.py
    --errdex $<TARGET_FILE:errdex> --fixtures ${CMAKE_SOURCE_DIR}/tests/fixtures)
  set_tests_properties(e2e_slow_clients PROPERTIES TIMEOUT 120)
endif()
