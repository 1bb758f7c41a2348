// Tests of the in-memory httplib stream of `errdex serve` (src/web/buffered_http_stream.h).
#include "web/buffered_http_stream.h"

#include <gtest/gtest.h>

namespace errdex::web {
namespace {

TEST(BufferedHttpStreamTest, ReadsTheRequestThenEndOfInput) {
  const std::string request = "GET / HTTP/1.1\r\n\r\n";
  BufferedHttpStream stream(request, "10.1.2.3", 4567);
  char buffer[8];
  std::string read;
  ssize_t n;
  while ((n = stream.read(buffer, sizeof buffer)) > 0) read.append(buffer, static_cast<size_t>(n));
  EXPECT_EQ(n, 0);
  EXPECT_EQ(read, request);
  EXPECT_FALSE(stream.is_readable());
  std::string ip;
  int port = 0;
  stream.get_remote_ip_and_port(ip, port);
  EXPECT_EQ(ip, "10.1.2.3");
  EXPECT_EQ(port, 4567);
}

TEST(BufferedHttpStreamTest, CollectsTheAnswerWithoutTheInterim100Continue) {
  BufferedHttpStream stream("", "", 0);
  const std::string interim = "HTTP/1.1 100 Continue\r\n\r\n";
  EXPECT_EQ(stream.write(interim.data(), interim.size()), static_cast<ssize_t>(interim.size()));
  stream.write("HTTP/1.1 200 OK\r\n", 17);
  stream.write("\r\n", 2);
  EXPECT_EQ(stream.TakeAnswer(), "HTTP/1.1 200 OK\r\n\r\n");
}

}  // namespace
}  // namespace errdex::web
