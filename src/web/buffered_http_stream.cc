#include "web/buffered_http_stream.h"

#include <algorithm>
#include <cstring>

namespace errdex::web {

ssize_t BufferedHttpStream::read(char* ptr, size_t size) {
  const size_t n = std::min(size, request_.size() - read_);
  std::memcpy(ptr, request_.data() + read_, n);
  read_ += n;
  return static_cast<ssize_t>(n);
}

ssize_t BufferedHttpStream::write(const char* ptr, size_t size) {
  constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
  if (answer_.empty() && std::string_view(ptr, size) == kContinue) return static_cast<ssize_t>(size);
  answer_.append(ptr, size);
  return static_cast<ssize_t>(size);
}

}  // namespace errdex::web
