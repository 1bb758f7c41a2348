// The Python extractor shared by tests: compiled once per test binary (compiling the queries is the
// costly part) and never freed. PythonExtractor::Extract is thread-safe, so tests may share it freely.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "python/python_extractor.h"

namespace errdex::testing_util {

inline const PythonExtractor& TestExtractor() {
  static const PythonExtractor* extractor = [] {
    std::string error;
    std::unique_ptr<PythonExtractor> created = PythonExtractor::Create(&error);
    if (!created) {
      ADD_FAILURE() << "the embedded queries do not compile: " << error;
      std::abort();
    }
    return created.release();
  }();
  return *extractor;
}

}  // namespace errdex::testing_util
