// `errdex serve`: the site (web/site.h) over HTTP/1.1 (docs/web.md). Connections are held by an epoll
// front end (web/http_front_end.h) that reads each request in full, without a thread, and hands it to a
// worker; cpp-httplib then parses, routes and answers it in memory (web/buffered_http_stream.h). The
// catalog is opened read-only, once per worker thread (a Catalog belongs to one thread); the matcher is
// loaded once and shared (it is immutable).
//
// Limits: a request's head (request line and headers) is at most `max_head_bytes` and must arrive within
// `head_timeout_seconds`; a body at most `max_body_bytes`, within `body_timeout_seconds` of its head; an
// answer must make progress every `io_timeout_seconds`; an idle keep-alive connection is closed after
// `keep_alive_seconds` or `keep_alive_requests`. At most `max_connections` connections and
// `max_connections_per_address` of one client address (the longest-waiting idle or incomplete connection
// is shed for a new one; 503 with Retry-After when all are busy), at most `max_queued_requests` complete
// requests waiting for a worker (then 503). Too large a head gets 414 (request line) or 431 (headers),
// too large a body 413, a malformed request 400, an unknown method 405, a slow one 408; the connection
// is then closed.
//
// GET responses of addresses without a query string are cached (web/response_cache.h); a thread watches
// the catalog and, when an index run changed it, reloads the matcher and drops the cache.
//
// Threading: Run blocks the calling thread; Stop may be called from any thread (a signal handler thread)
// and lets requests in progress finish.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>

namespace errdex::web {

struct ServerOptions {
  std::string catalog;  // catalog file
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: a free port, chosen by the system (see WebServer::port)
  int threads = 0;  // worker threads; 0: 64
  size_t max_head_bytes = 32 << 10;
  size_t max_body_bytes = 1 << 20;
  int head_timeout_seconds = 5;
  int body_timeout_seconds = 30;
  int io_timeout_seconds = 5;
  int keep_alive_seconds = 5;
  size_t keep_alive_requests = 1000;
  size_t max_connections = 4096;
  size_t max_connections_per_address = 256;
  size_t max_queued_requests = 1024;
  bool access_log = true;         // one line per request on stderr
  size_t cache_bytes = 64 << 20;  // rendered GET responses kept until the catalog changes; 0: no cache
};

// Parses "HOST:PORT", "[V6]:PORT" or "PORT" into OPTIONS. False when it is not one.
bool ParseListenAddress(const std::string& text, ServerOptions* options);

class WebServer {
 public:
  // Opens the catalog read-only and loads the matcher. Throws std::runtime_error (or SqliteError) with a
  // one-line message when it cannot.
  explicit WebServer(ServerOptions options);
  ~WebServer();
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  // Binds the listening socket. Throws std::runtime_error when it cannot. Returns the port.
  int Bind();
  int port() const { return port_; }
  // Serves until Stop. Returns false when the listening socket failed.
  bool Run();
  void Stop();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

}  // namespace errdex::web
