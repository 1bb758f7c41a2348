// A Python traceback whose newlines were lost (`Traceback (most recent call last):   File "a.py", line 1,
// in f     g()   File ...`, as issue titles, chat and some log exporters show it): split back into its
// header, frame, code and exception lines, which the paste reader of src/match/ then reads like any
// traceback (docs/input-formats.md). Output goes to caller-owned strings; a pure function, safe from any
// thread, time linear in the line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace errdex::python_paste {

// When LINE holds a flattened traceback (two frames, or a header before a frame), appends its logical
// lines to OUT and returns true; else leaves OUT alone and returns false.
bool SplitFlattenedTraceback(std::string_view line, std::vector<std::string>* out);

}  // namespace errdex::python_paste
