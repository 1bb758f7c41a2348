// Tests of the request framing of `errdex serve`'s front end (src/web/request_framer.h).
#include "web/request_framer.h"

#include <gtest/gtest.h>

#include <string>

namespace errdex::web {
namespace {

Framing FrameAll(std::string_view bytes, FramingLimits limits = {}) {
  RequestFramer framer(limits);
  return framer.Frame(bytes);
}

TEST(RequestFramerTest, AHeadWithoutBodyEndsAtTheEmptyLine) {
  const std::string request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
  const Framing f = FrameAll(request + "GET /next HTTP/1.1\r\n");
  EXPECT_EQ(f.state, Framing::State::kComplete);
  EXPECT_EQ(f.request_bytes, request.size());
  EXPECT_FALSE(f.close_after);
}

TEST(RequestFramerTest, ContinuesWhereItStoppedAsBytesArrive) {
  const std::string request = "POST /api/match HTTP/1.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\nhello";
  RequestFramer framer;
  Framing f;
  for (size_t n = 1; n < request.size(); ++n) {
    f = framer.Frame(std::string_view(request).substr(0, n));
    ASSERT_EQ(f.state, Framing::State::kIncomplete) << n;
    EXPECT_EQ(f.head_complete, n >= request.size() - 5) << n;
  }
  EXPECT_TRUE(f.expects_continue);
  f = framer.Frame(request);
  EXPECT_EQ(f.state, Framing::State::kComplete);
  EXPECT_EQ(f.request_bytes, request.size());
}

TEST(RequestFramerTest, ResetStartsTheNextRequest) {
  RequestFramer framer;
  EXPECT_EQ(framer.Frame("POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi").request_bytes, 40u);
  framer.Reset();
  EXPECT_EQ(framer.Frame("GET / HTTP/1.1\r\n\r\n").request_bytes, 18u);
}

TEST(RequestFramerTest, ChunkedBodiesEndAfterTheLastChunkAndTrailers) {
  const std::string head = "POST /search HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
  const std::string body = "5;ext=1\r\nhello\r\nA\r\n0123456789\r\n0\r\nTrailer: t\r\n\r\n";
  RequestFramer framer;
  EXPECT_EQ(framer.Frame(head + body.substr(0, 20)).state, Framing::State::kIncomplete);
  const Framing f = framer.Frame(head + body + "GET");
  EXPECT_EQ(f.state, Framing::State::kComplete);
  EXPECT_EQ(f.request_bytes, head.size() + body.size());
}

TEST(RequestFramerTest, RefusesWhatIsTooLargeOrMalformed) {
  FramingLimits limits{100, 10};
  EXPECT_EQ(FrameAll("GET /" + std::string(200, 'a'), limits).status, 414);
  EXPECT_EQ(FrameAll("GET / HTTP/1.1\r\nX: " + std::string(200, 'a'), limits).status, 431);
  EXPECT_EQ(FrameAll("GET / HTTP/1.1\r\nX: " + std::string(200, 'a') + "\r\n\r\n", limits).status, 431);
  const std::string chunked = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
  EXPECT_EQ(FrameAll(chunked + "B\r\n", limits).status, 413);
  EXPECT_EQ(FrameAll(chunked + "6\r\nabcdef\r\n6\r\n", limits).status, 413);
  EXPECT_EQ(FrameAll(chunked + "zz\r\n", limits).status, 400);
  EXPECT_EQ(FrameAll(chunked + "2\r\nabXY", limits).status, 400);
  EXPECT_EQ(FrameAll(chunked + "FFFFFFFFFFFFFFFFFFFFFFFF\r\n", limits).status, 413);
  EXPECT_EQ(FrameAll(chunked + std::string(2000, '1'), limits).status, 400);
}

TEST(RequestFramerTest, UnreadableFramingEndsAtTheHeadAndClosesTheConnection) {
  for (const char* header : {"Content-Length: abc", "Content-Length: 2000000", "Transfer-Encoding: gzip",
                             "Content-Length: 3\r\nContent-Length: 4"}) {
    const std::string request = std::string("POST / HTTP/1.1\r\n") + header + "\r\n\r\n";
    const Framing f = FrameAll(request + "body");
    EXPECT_EQ(f.state, Framing::State::kComplete) << header;
    EXPECT_EQ(f.request_bytes, request.size()) << header;
    EXPECT_TRUE(f.close_after) << header;
  }
  // Both framings: chunked wins, and the connection closes after the answer.
  const std::string both = "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n";
  const Framing f = FrameAll(both);
  EXPECT_EQ(f.state, Framing::State::kComplete);
  EXPECT_EQ(f.request_bytes, both.size());
  EXPECT_TRUE(f.close_after);
}

TEST(RequestFramerTest, EmptyLinesBeforeTheRequestLineAreSkipped) {
  const Framing f = FrameAll("\r\n\r\nGET / HTTP/1.1\r\n\r\n");
  EXPECT_EQ(f.state, Framing::State::kComplete);
  EXPECT_EQ(f.request_bytes, 22u);
}

}  // namespace
}  // namespace errdex::web
