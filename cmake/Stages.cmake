# errdex_stage(NAME DEPS ... [SOURCES ...]): the static library errdex_NAME of src/NAME/*.cc (tests and
# cli/main.cc left out), linked PUBLIC to DEPS (the stages below it that it uses, and third-party targets).
#
# Each stage gets an include root of its own, BUILD/stage_include/NAME, holding one link NAME -> src/NAME,
# so `#include "NAME/x.h"` resolves for the stage itself and, through PUBLIC propagation, for the stages
# above it that link it, and for nobody else: an include of a higher stage does not compile.
set(ERRDEX_STAGE_INCLUDE_ROOT ${CMAKE_BINARY_DIR}/stage_include)

function(errdex_stage name)
  cmake_parse_arguments(STAGE "" "" "DEPS;SOURCES" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${name}/*.cc)
  list(FILTER sources EXCLUDE REGEX "_test\\.cc$|/cli/main\\.cc$")
  add_library(errdex_${name} STATIC ${sources} ${STAGE_SOURCES})
  set(root ${ERRDEX_STAGE_INCLUDE_ROOT}/${name})
  file(MAKE_DIRECTORY ${root})
  file(CREATE_LINK ${CMAKE_SOURCE_DIR}/src/${name} ${root}/${name} SYMBOLIC)
  target_include_directories(errdex_${name} PUBLIC ${root})
  target_compile_options(errdex_${name} PRIVATE ${ERRDEX_WARNINGS})
  target_link_libraries(errdex_${name} PUBLIC ${STAGE_DEPS})
endfunction()

# Test helpers (src/testing, header-only): their own include root; a test that uses one links what the
# helper needs through its stage.
function(errdex_testing_target)
  set(root ${ERRDEX_STAGE_INCLUDE_ROOT}/testing)
  file(MAKE_DIRECTORY ${root})
  file(CREATE_LINK ${CMAKE_SOURCE_DIR}/src/testing ${root}/testing SYMBOLIC)
  add_library(errdex_testing INTERFACE)
  target_include_directories(errdex_testing INTERFACE ${root})
  target_link_libraries(errdex_testing INTERFACE GTest::gtest_main)
endfunction()

# errdex_stage_tests(NAME): the GoogleTest executable errdex_NAME_tests of src/NAME/*_test.cc, linked to
# the stage and to every stage before it in ERRDEX_STAGES (a test may build its input with a lower stage,
# e.g. the web's tests index a fixture with the pipeline), discovered by CTest.
function(errdex_stage_tests name)
  file(GLOB tests CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${name}/*_test.cc)
  if(NOT tests)
    return()
  endif()
  add_executable(errdex_${name}_tests ${tests})
  target_compile_options(errdex_${name}_tests PRIVATE ${ERRDEX_WARNINGS})
  target_compile_definitions(errdex_${name}_tests PRIVATE ERRDEX_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
  set(stages_up_to_here "")
  foreach(stage ${ERRDEX_STAGES})
    list(APPEND stages_up_to_here errdex_${stage})
    if(stage STREQUAL name)
      break()
    endif()
  endforeach()
  list(REVERSE stages_up_to_here)  # higher stages first, for the static linker
  target_link_libraries(errdex_${name}_tests PRIVATE ${stages_up_to_here} errdex_testing)
  gtest_discover_tests(errdex_${name}_tests DISCOVERY_TIMEOUT 60)
endfunction()
