// The connection layer of `errdex serve` (docs/web.md, "Connections"): one event-loop thread accepts
// connections and reads them with epoll, non-blocking, until a request is complete (web/request_framer.h);
// only then does a worker (web/worker_pool.h) run the handler on it. An idle or slow client costs a file
// descriptor and its buffered bytes, never a thread, so slow or idle clients cannot starve the others.
//
// Limits: a head must arrive within `head_timeout_ms` of its first byte (of the connection's opening for
// the first request), a body within `body_timeout_ms` of its head; an idle keep-alive connection is closed
// after `idle_timeout_ms`; an answer must make progress every `write_timeout_ms`. A slow head or body is
// answered 408. At most `max_connections` connections, `max_connections_per_address` of one client
// address: a connection beyond a limit sheds the connection that has waited longest for input
// (web/connection_registry.h) and, when every connection is busy, is answered 503 with `Retry-After`. When
// `max_queued_requests` requests already wait for a worker, a complete request is answered 503 as well.
// A worker that has answered may wait `worker_linger_us` for the same client's next request (bounded, and
// only for a request that arrives complete; any other bytes go back to the event loop).
// After a connection's last answer the write side is shut and unread input is drained for up to 2 s, so
// that the client reads the whole answer before the socket closes.
//
// Threading: Run blocks its thread (the event loop); the handler runs on the workers, many at once. Stop
// may be called from any thread, also before Run: the listening socket closes, idle and incomplete
// connections close, requests being served finish and their answers are written, then Run returns.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "web/request_framer.h"

namespace errdex::web {

struct FrontEndOptions {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: a free port
  FramingLimits framing;
  int head_timeout_ms = 5000;
  int body_timeout_ms = 30000;
  int idle_timeout_ms = 5000;
  int write_timeout_ms = 5000;
  size_t keep_alive_requests = 1000;  // requests per connection
  size_t max_connections = 4096;
  size_t max_connections_per_address = 256;
  size_t threads = 64;
  size_t max_queued_requests = 1024;
  int retry_after_seconds = 1;
  // After an answer sent in full on a connection that stays open, its worker waits this long for the
  // client's next request and serves it itself when it arrives complete (an active client then costs one
  // thread wake-up per request, not two); 0: never. Skipped while requests wait for a worker.
  int worker_linger_us = 2000;
};

// One complete request, as received.
struct IncomingRequest {
  std::string bytes;  // head and body, exactly as framed
  std::string peer_address;
  int peer_port = 0;
  bool close_after = false;  // the connection closes after this answer (keep it out of a keep-alive reply)
  std::chrono::steady_clock::time_point started;  // when its first byte arrived
};

struct HandlerAnswer {
  std::string bytes;   // a complete HTTP response
  bool close = false;  // close the connection after it
};

// Runs on a worker thread; must not throw.
using RequestHandler = std::function<HandlerAnswer(const IncomingRequest&)>;
// What the front end did on its own, for the access log: EVENT ("timeout: request head", "shed: ...")
// and the status answered (0: none, the connection was closed). Called from the event loop's thread.
using FrontEndLog = std::function<void(const std::string& peer_address, std::string_view event, int status)>;

class HttpFrontEnd {
 public:
  // LOG may be empty (no log).
  HttpFrontEnd(FrontEndOptions options, RequestHandler handler, FrontEndLog log);
  ~HttpFrontEnd();
  HttpFrontEnd(const HttpFrontEnd&) = delete;
  HttpFrontEnd& operator=(const HttpFrontEnd&) = delete;

  // Binds and listens. Throws std::runtime_error when it cannot. Returns the port.
  int Bind();
  // Serves until Stop. False when the listening socket failed (or Bind was not called).
  bool Run();
  void Stop();

 private:
  class Loop;
  std::unique_ptr<Loop> loop_;
};

}  // namespace errdex::web
