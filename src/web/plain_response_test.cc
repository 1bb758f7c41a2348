// Tests of the front end's own answers (src/web/plain_response.h).
#include "web/plain_response.h"

#include <gtest/gtest.h>

namespace errdex::web {
namespace {

TEST(PlainResponseTest, IsACompleteClosingAnswerWithTheSecurityHeaders) {
  const std::string r = PlainResponse(503, "busy", 7);
  EXPECT_EQ(r.rfind("HTTP/1.1 503 Service Unavailable\r\n", 0), 0u);
  EXPECT_NE(r.find("\r\nConnection: close\r\n"), std::string::npos);
  EXPECT_NE(r.find("\r\nRetry-After: 7\r\n"), std::string::npos);
  EXPECT_NE(r.find("\r\nX-Frame-Options: DENY\r\n"), std::string::npos);
  EXPECT_NE(r.find("\r\nContent-Security-Policy: default-src 'none'"), std::string::npos);
  const std::string body = r.substr(r.find("\r\n\r\n") + 4);
  EXPECT_EQ(body, "503 Service Unavailable: busy\n");
  EXPECT_NE(r.find("\r\nContent-Length: " + std::to_string(body.size()) + "\r\n"), std::string::npos);
  EXPECT_EQ(PlainResponse(408, "slow").find("Retry-After"), std::string::npos);
}

}  // namespace
}  // namespace errdex::web
