#include "match/handler_printed.h"

#include <fmt/format.h>

namespace errdex {

std::string HandlerPrintedWhy(const PrintedText& text, const std::string& class_name) {
  std::string by = text.function == text.handler_function
                       ? fmt::format("{}:{}", text.path, text.line)
                       : fmt::format("{} at {}:{}", text.function, text.path, text.line);
  return fmt::format(
      "the message is what the handler of {} prints, not the exception's own text: `except` in {} ({}:{}), written by "
      "{}; the exception is raised here",
      class_name, text.handler_function, text.path, text.handler_line, by);
}

}  // namespace errdex
