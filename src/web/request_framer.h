// Finds where one HTTP/1.1 request ends in the bytes a connection has received, without parsing more of it
// than its framing needs (docs/web.md, "Connections"): the head ends at the first empty line; the body is
// `Content-Length` bytes or a chunked body up to its last chunk and trailers. The front end hands only a
// complete request to a worker; what the request means (method, target, headers) is the handler's business.
//
// Bounds: a head longer than `max_head_bytes` is refused with 414 (the first line is not complete yet) or
// 431; a chunked body whose chunks carry more than `max_body_bytes` with 413, a chunked framing that is not
// one with 400. A declared `Content-Length` above `max_body_bytes`, an unreadable length or a transfer
// coding other than `chunked` is not refused here: the request is complete at the end of its head, and the
// connection closes after the answer (the handler answers 413, 400, ...: it knows the route), because
// where the next request would begin is unknown.
//
// Threading: a RequestFramer belongs to one connection and is used by one thread at a time.
#pragma once

#include <cstddef>
#include <string_view>

namespace errdex::web {

struct FramingLimits {
  size_t max_head_bytes = 32 << 10;
  size_t max_body_bytes = 1 << 20;
};

struct Framing {
  enum class State {
    kIncomplete,  // more bytes are needed
    kComplete,    // the first `request_bytes` bytes are one request
    kRefused,     // answer `status` and close the connection
  };
  State state = State::kIncomplete;
  size_t request_bytes = 0;
  bool close_after = false;       // close the connection after answering this request
  bool head_complete = false;     // the head has arrived (a body may still be missing)
  bool expects_continue = false;  // the head asks for `100 Continue` before the body
  int status = 0;                 // kRefused: 400, 413, 414 or 431
};

class RequestFramer {
 public:
  explicit RequestFramer(FramingLimits limits = {}) : limits_(limits) {}

  // Forgets the request framed so far: the next Frame call starts a new request at the buffer's start.
  void Reset();

  // BUFFER: the bytes received since the current request began (earlier bytes of the same request
  // included: a call continues where the previous one stopped, so BUFFER may only grow between calls).
  Framing Frame(std::string_view buffer);

 private:
  enum class Body { kNone, kLength, kChunked };
  bool ScanHead(std::string_view buffer, Framing* out);
  void ReadHeader(std::string_view name, std::string_view value);
  Framing FrameChunked(std::string_view buffer);

  FramingLimits limits_;
  size_t scanned_ = 0;     // bytes of the head searched for its end so far
  size_t head_bytes_ = 0;  // 0 until the head has been read
  Body body_ = Body::kNone;
  size_t content_length_ = 0;
  bool length_seen_ = false;
  bool close_after_ = false;
  bool expects_continue_ = false;
  // Chunked body: the position of the next chunk-size line (or of the trailers, once the last chunk is
  // seen) relative to the buffer's start, and the payload counted so far.
  size_t chunk_at_ = 0;
  size_t chunk_payload_ = 0;
  bool in_trailers_ = false;
};

}  // namespace errdex::web
