#include "web/plain_response.h"

#include <fmt/format.h>

#include "web/security_headers.h"

namespace errdex::web {

const char* ReasonPhrase(int status) {
  switch (status) {
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 411:
      return "Length Required";
    case 413:
      return "Payload Too Large";
    case 414:
      return "URI Too Long";
    case 415:
      return "Unsupported Media Type";
    case 416:
      return "Range Not Satisfiable";
    case 417:
      return "Expectation Failed";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    default:
      return status >= 500 ? "Server Error" : "Client Error";
  }
}

std::string PlainResponse(int status, std::string_view message, int retry_after_seconds) {
  const std::string body = fmt::format("{} {}: {}\n", status, ReasonPhrase(status), message);
  std::string out = fmt::format(
      "HTTP/1.1 {} {}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n",
      status, ReasonPhrase(status), body.size());
  if (retry_after_seconds > 0) out += fmt::format("Retry-After: {}\r\n", retry_after_seconds);
  for (const auto& [name, value] : kSecurityHeaders) out += fmt::format("{}: {}\r\n", name, value);
  out += "\r\n";
  out += body;
  return out;
}

}  // namespace errdex::web
