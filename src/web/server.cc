#include "web/server.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <httplib.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "catalog/catalog.h"
#include "match/error_matcher.h"
#include "report/explain_report.h"
#include "web/html.h"
#include "web/response_cache.h"
#include "web/router.h"

namespace errdex::web {

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

// The headers every response carries (also those httplib writes itself for malformed requests).
httplib::Headers SecurityHeaders() {
  return {{"X-Content-Type-Options", "nosniff"},
          {"Content-Security-Policy", kContentSecurityPolicy},
          {"Referrer-Policy", "no-referrer"},
          {"X-Frame-Options", "DENY"}};
}

int Poll(int fd, short events, int timeout_ms) {
  pollfd p{fd, events, 0};
  while (true) {
    const int r = ::poll(&p, 1, timeout_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return r;
    return (p.revents & (events | POLLHUP | POLLERR)) != 0 ? 1 : 0;
  }
}

std::string AddressOf(const sockaddr_storage& addr, int* port) {
  char text[INET6_ADDRSTRLEN] = "";
  if (addr.ss_family == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(&addr);
    inet_ntop(AF_INET, &a->sin_addr, text, sizeof text);
    *port = ntohs(a->sin_port);
  } else if (addr.ss_family == AF_INET6) {
    const auto* a = reinterpret_cast<const sockaddr_in6*>(&addr);
    inet_ntop(AF_INET6, &a->sin6_addr, text, sizeof text);
    *port = ntohs(a->sin6_port);
  }
  return text;
}

struct Limits {
  size_t max_head_bytes;
  size_t max_body_bytes;
  int head_timeout_ms;
  int io_timeout_ms;
  int keep_alive_ms;
  size_t keep_alive_requests;
};

// The socket of one connection, as httplib reads and writes it, with the request limits enforced where
// the bytes arrive: a head larger than the limit is answered (414 or 431) and cut off before httplib
// buffers it, a head that takes too long is cut off, and no request reads more than its head and body
// limits. One stream serves every request of a keep-alive connection (pipelined bytes are kept).
class BoundedStream : public httplib::Stream {
 public:
  BoundedStream(int sock, const Limits& limits) : sock_(sock), limits_(limits) {}

  void BeginRequest() {
    in_head_ = true;
    head_bytes_ = 0;
    body_bytes_ = 0;
    crlf_ = 0;
    first_line_ = true;
    close_requested_ = false;
    started_ = Clock::now();
    head_deadline_ = started_ + std::chrono::milliseconds(limits_.head_timeout_ms);
  }
  bool HasBuffered() const { return pos_ < len_; }
  bool failed() const { return failed_; }
  void RequestClose() { close_requested_ = true; }
  bool close_requested() const { return close_requested_; }
  Clock::time_point started() const { return started_; }

  bool is_readable() const override { return pos_ < len_ || Poll(sock_, POLLIN, limits_.io_timeout_ms) > 0; }
  bool is_writable() const override { return Poll(sock_, POLLOUT, limits_.io_timeout_ms) > 0; }

  ssize_t read(char* ptr, size_t size) override {
    if (failed_ || size == 0) return -1;
    if (pos_ == len_) {
      int timeout = limits_.io_timeout_ms;
      if (in_head_) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(head_deadline_ - Clock::now()).count();
        if (left <= 0) return Fail();
        timeout = std::min<int>(timeout, static_cast<int>(left));
      }
      if (Poll(sock_, POLLIN, timeout) <= 0) return Fail();
      const ssize_t n = ::recv(sock_, buffer_, sizeof buffer_, 0);
      if (n <= 0) return Fail();
      pos_ = 0;
      len_ = static_cast<size_t>(n);
    }
    size_t n = std::min(size, len_ - pos_);
    if (in_head_) {
      // Byte by byte up to the end of the head ("\r\n\r\n"); httplib reads the head a byte at a time.
      size_t i = 0;
      while (i < n && in_head_) {
        const char c = buffer_[pos_ + i];
        ++i;
        ++head_bytes_;
        if (c == '\n') first_line_ = false;
        crlf_ = (c == '\r' && (crlf_ == 0 || crlf_ == 2)) || (c == '\n' && (crlf_ == 1 || crlf_ == 3)) ? crlf_ + 1
                : c == '\r'                                                                            ? 1
                                                                                                       : 0;
        if (crlf_ == 4) in_head_ = false;
        if (head_bytes_ > limits_.max_head_bytes) {
          Reject(first_line_ ? 414 : 431);
          return Fail();
        }
      }
      n = i;
    } else {
      body_bytes_ += n;
      // Chunked bodies carry their framing too: allow for it, the handler enforces the exact limit.
      if (body_bytes_ > limits_.max_body_bytes + limits_.max_body_bytes / 8 + 4096) return Fail();
    }
    std::memcpy(ptr, buffer_ + pos_, n);
    pos_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (responded_) return static_cast<ssize_t>(size);  // answered already (Reject): swallow httplib's answer
    if (!is_writable()) return -1;
    return ::send(sock_, ptr, size, MSG_NOSIGNAL);
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    port = 0;
    if (::getpeername(sock_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) ip = AddressOf(addr, &port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    port = 0;
    if (::getsockname(sock_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) ip = AddressOf(addr, &port);
  }
  socket_t socket() const override { return sock_; }

  // The status and size of the response written by Reject, for the access log; 0 when none.
  int rejected_status() const { return rejected_status_; }

 private:
  ssize_t Fail() {
    failed_ = true;
    return -1;
  }

  // Answers the request now, before httplib has seen all of it, and closes the connection after it.
  void Reject(int status) {
    const char* reason = status == 414 ? "URI Too Long" : "Request Header Fields Too Large";
    std::string body = fmt::format("{} {}: the request's {} is larger than {} bytes\n", status, reason,
                                   status == 414 ? "first line" : "head", limits_.max_head_bytes);
    std::string head = fmt::format(
        "HTTP/1.1 {} {}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n"
        "Connection: close\r\n",
        status, reason, body.size());
    for (const auto& [name, value] : SecurityHeaders()) head += name + ": " + value + "\r\n";
    head += "\r\n";
    head += body;
    size_t sent = 0;
    while (sent < head.size() && Poll(sock_, POLLOUT, limits_.io_timeout_ms) > 0) {
      const ssize_t n = ::send(sock_, head.data() + sent, head.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<size_t>(n);
    }
    responded_ = true;
    rejected_status_ = status;
    close_requested_ = true;
  }

  int sock_;
  const Limits& limits_;
  char buffer_[16384];
  size_t pos_ = 0, len_ = 0;
  bool in_head_ = true, first_line_ = true;
  int crlf_ = 0;
  size_t head_bytes_ = 0, body_bytes_ = 0;
  bool failed_ = false, responded_ = false, close_requested_ = false;
  int rejected_status_ = 0;
  Clock::time_point started_{}, head_deadline_{};
};

// The stream of the request this thread is serving (for handlers that must close the connection).
thread_local BoundedStream* t_stream = nullptr;

void CloseAfterResponse() {
  if (t_stream != nullptr) t_stream->RequestClose();
}

// httplib's server with its connection loop replaced by one that reads through a BoundedStream.
class BoundedServer : public httplib::Server {
 public:
  explicit BoundedServer(const Limits& limits) : limits_(limits) {}

  std::function<void(const BoundedStream&)> on_rejected;  // a request answered by the stream itself

  // httplib listens with a backlog of 5: too few for a burst of connections. Listening again on the
  // bound socket only changes the backlog.
  void WidenBacklog() {
    if (svr_sock_ != INVALID_SOCKET) ::listen(svr_sock_, 1024);
  }

 private:
  bool process_and_close_socket(socket_t sock) override {
    const int one = 1;
    ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    BoundedStream stream(sock, limits_);
    bool ret = false;
    for (size_t count = limits_.keep_alive_requests; count > 0; --count) {
      if (!stream.HasBuffered() && !WaitForRequest(sock)) break;
      stream.BeginRequest();
      t_stream = &stream;
      bool connection_closed = false;
      ret = process_request(stream, count == 1, connection_closed, nullptr);
      t_stream = nullptr;
      if (stream.rejected_status() != 0 && on_rejected) on_rejected(stream);
      if (!ret || connection_closed || stream.failed() || stream.close_requested()) break;
    }
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    return ret;
  }

  // Waits for the next request of a keep-alive connection; false on timeout, hang-up or server stop.
  bool WaitForRequest(int sock) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(limits_.keep_alive_ms);
    while (svr_sock_ != INVALID_SOCKET) {
      const int r = Poll(sock, POLLIN, 100);
      if (r < 0) return false;
      if (r > 0) return true;
      if (Clock::now() >= deadline) return false;
    }
    return false;
  }

  const Limits& limits_;
};

std::string Timestamp() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

const char* StatusText(int status) {
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

void LogLine(const std::string& line) { std::fwrite(line.data(), 1, line.size(), stderr); }

}  // namespace

bool ParseListenAddress(const std::string& text, ServerOptions* options) {
  std::string host, port;
  if (!text.empty() && text.front() == '[') {
    const size_t close = text.find(']');
    if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':') return false;
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else if (const size_t colon = text.rfind(':'); colon != std::string::npos) {
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.find(':') != std::string::npos) return false;  // an IPv6 address needs brackets
  } else {
    port = text;
  }
  int n = -1;
  auto [ptr, ec] = std::from_chars(port.data(), port.data() + port.size(), n);
  if (port.empty() || ec != std::errc() || ptr != port.data() + port.size() || n < 0 || n > 65535) return false;
  if (!host.empty()) options->host = host;
  options->port = n;
  return true;
}

class WebServer::Impl {
 public:
  explicit Impl(ServerOptions options)
      : options_(std::move(options)),
        limits_{options_.max_head_bytes,
                options_.max_body_bytes,
                options_.head_timeout_seconds * 1000,
                options_.io_timeout_seconds * 1000,
                options_.keep_alive_seconds * 1000,
                std::max<size_t>(1, options_.keep_alive_requests)},
        server_(limits_),
        cache_(options_.cache_bytes) {
    // Each worker thread has its own connection and never shares it (Catalog::ConfigureForThreadPerConnection).
    Catalog::ConfigureForThreadPerConnection();
    // Opening once here checks the catalog (and brings an older one up to date) before any thread starts.
    std::unique_ptr<Catalog> catalog = Catalog::Open(options_.catalog, /*read_only=*/true);
    std::string note;
    matcher_ = ErrorMatcher::Load(catalog->matcher_tables(), /*with_anchor_table=*/false, &note);
    if (!note.empty()) std::fprintf(stderr, "errdex: %s\n", note.c_str());
    catalog.reset();
    static std::atomic<uint64_t> generation{0};
    generation_ = ++generation;
    Configure();
    watcher_ = std::thread([this] { WatchCatalog(); });
  }

  ~Impl() {
    {
      std::lock_guard<std::mutex> lock(watch_mutex_);
      stop_watching_ = true;
    }
    watch_wake_.notify_all();
    if (watcher_.joinable()) watcher_.join();
  }

  BoundedServer& server() { return server_; }
  const ServerOptions& options() const { return options_; }

 private:
  // This thread's catalog, opened read-only on first use.
  Catalog& ThreadCatalog() {
    thread_local std::unique_ptr<Catalog> catalog;
    thread_local uint64_t owner = 0;
    if (owner != generation_ || !catalog) {
      catalog = Catalog::Open(options_.catalog, /*read_only=*/true);
      owner = generation_;
    }
    return *catalog;
  }

  static void Apply(WebResponse response, httplib::Response& res) {
    res.status = response.status;
    res.set_header("Content-Type", response.content_type);
    res.body = std::move(response.body);
  }

  static void ApplyCopy(const WebResponse& response, httplib::Response& res) {
    res.status = response.status;
    res.set_header("Content-Type", response.content_type);
    res.body = response.body;
  }

  std::shared_ptr<const ErrorMatcher> Matcher() {
    std::lock_guard<std::mutex> lock(matcher_mutex_);
    return matcher_;
  }

  // Notices when an index run changed the catalog (SQLite's data_version moves when another connection
  // commits): then loads the new matcher and drops the cached responses. Polls every 250 ms.
  void WatchCatalog() {
    std::unique_ptr<Catalog> catalog;
    int64_t seen = -1;
    std::unique_lock<std::mutex> lock(watch_mutex_);
    while (!stop_watching_) {
      lock.unlock();
      try {
        if (!catalog) catalog = Catalog::Open(options_.catalog, /*read_only=*/true);
        const int64_t now = catalog->DataVersion();
        if (seen >= 0 && now != seen) {
          std::string note;
          std::shared_ptr<const ErrorMatcher> fresh =
              ErrorMatcher::Load(catalog->matcher_tables(), /*with_anchor_table=*/false, &note);
          {
            std::lock_guard<std::mutex> matcher_lock(matcher_mutex_);
            matcher_ = std::move(fresh);
          }
          cache_.Invalidate();
          std::fprintf(stderr, "errdex serve: the catalog changed; matcher reloaded, cache cleared\n");
        }
        seen = now;
      } catch (const std::exception& e) {
        std::fprintf(stderr, "errdex serve: watching the catalog: %s\n", EscapeControls(e.what()).c_str());
        catalog.reset();
      }
      lock.lock();
      watch_wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stop_watching_; });
    }
  }

  static void Refuse(httplib::Response& res, int status, const std::string& message, bool api) {
    Apply(Router::Problem(status, message, api), res);
    CloseAfterResponse();
  }

  static QueryParams Query(const httplib::Request& req) {
    QueryParams out;
    out.reserve(req.params.size());
    for (const auto& [k, v] : req.params) out.emplace_back(k, v);
    return out;
  }

  // The path of the request as sent: percent-encoded, without the query.
  static std::string_view TargetPath(const httplib::Request& req) {
    std::string_view target = req.target;
    return target.substr(0, target.find('?'));
  }

  static bool IsApi(const httplib::Request& req) { return req.path.rfind("/api/", 0) == 0; }

  void Configure() {
    server_.new_task_queue = [n = options_.threads > 0 ? options_.threads : 64] {
      return new httplib::ThreadPool(static_cast<size_t>(n));
    };
    server_.set_default_headers(SecurityHeaders());
    server_.set_payload_max_length(options_.max_body_bytes);
    server_.set_read_timeout(options_.io_timeout_seconds, 0);
    server_.set_write_timeout(options_.io_timeout_seconds, 0);
    server_.set_keep_alive_timeout(options_.keep_alive_seconds);
    server_.set_keep_alive_max_count(limits_.keep_alive_requests);
    server_.set_tcp_nodelay(true);

    server_.set_pre_routing_handler(
        [this](const httplib::Request& req, httplib::Response& res) { return Route(req, res); });
    auto post = [this](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
      Post(req, res, reader);
    };
    server_.Post("/search", post);
    server_.Post("/api/match", post);

    // Bodies for the answers httplib gives by itself (400 malformed, 413, 414, 416).
    server_.set_error_handler(
        httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
          if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
          Apply(Router::Problem(res.status, fmt::format("{} {}", res.status, StatusText(res.status)), IsApi(req)), res);
          return httplib::Server::HandlerResponse::Handled;
        }));
    server_.set_exception_handler([](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
      std::string what = "unknown";
      try {
        std::rethrow_exception(ep);
      } catch (const std::exception& e) {
        what = e.what();
      } catch (...) {
      }
      std::fprintf(stderr, "errdex serve: %s %s: %s\n", req.method.c_str(), EscapeControls(req.target).c_str(),
                   EscapeControls(what).c_str());
      Apply(Router::Problem(500, "internal error", IsApi(req)), res);
    });
    if (options_.access_log) {
      server_.set_logger([](const httplib::Request& req, const httplib::Response& res) {
        const double ms = t_stream != nullptr
                              ? std::chrono::duration<double, std::milli>(Clock::now() - t_stream->started()).count()
                              : 0.0;
        LogLine(fmt::format("{} - [{}] \"{} {} {}\" {} {} {:.2f}ms\n", req.remote_addr, Timestamp(),
                            EscapeControls(req.method), EscapeControls(ShortenText(req.target, 300)),
                            EscapeControls(req.version), res.status, res.body.size(), ms));
      });
      server_.on_rejected = [](const BoundedStream& stream) {
        std::string ip;
        int port = 0;
        stream.get_remote_ip_and_port(ip, port);
        LogLine(
            fmt::format("{} - [{}] \"(request head too large)\" {} 0\n", ip, Timestamp(), stream.rejected_status()));
      };
    }
  }

  httplib::Server::HandlerResponse Route(const httplib::Request& req, httplib::Response& res) {
    using HR = httplib::Server::HandlerResponse;
    const bool api = IsApi(req);
    if (req.target.empty() || req.target.front() != '/') {
      Refuse(res, 400, "the request target must be a path", api);
      return HR::Handled;
    }
    if (req.get_header_value_count("Range") > 0 && req.get_header_value("Range").find(',') != std::string::npos) {
      Refuse(res, 416, "one range at most", api);
      return HR::Handled;
    }
    if (req.method == "GET" || req.method == "HEAD") {
      if (req.has_header("Transfer-Encoding") ||
          (req.has_header("Content-Length") && req.get_header_value("Content-Length") != "0")) {
        Refuse(res, 400, "a GET request has no body", api);
        return HR::Handled;
      }
      // Pages without a query string are cached until the catalog changes (web/response_cache.h).
      const bool cacheable = req.target.find('?') == std::string::npos;
      const uint64_t epoch = cache_.epoch();
      if (cacheable) {
        if (std::shared_ptr<const WebResponse> hit = cache_.Find(req.target, epoch)) {
          ApplyCopy(*hit, res);
          return HR::Handled;
        }
      }
      std::shared_ptr<const ErrorMatcher> matcher = Matcher();
      Router site(ThreadCatalog(), matcher.get());
      WebResponse response = site.Get(TargetPath(req), Query(req));
      if (cacheable && response.status == 200) {
        auto shared = std::make_shared<const WebResponse>(std::move(response));
        cache_.Store(req.target, epoch, shared);
        ApplyCopy(*shared, res);
      } else {
        Apply(std::move(response), res);
      }
      return HR::Handled;
    }
    if (req.method == "POST" && (req.path == "/search" || req.path == "/api/match")) {
      const std::string length = req.get_header_value("Content-Length");
      uint64_t n = 0;
      if (!length.empty()) {
        auto [ptr, ec] = std::from_chars(length.data(), length.data() + length.size(), n);
        if (ec != std::errc() || ptr != length.data() + length.size()) {
          Refuse(res, 400, "bad Content-Length", api);
          return HR::Handled;
        }
      } else if (!req.has_header("Transfer-Encoding")) {
        Refuse(res, 411, "a POST needs a Content-Length", api);
        return HR::Handled;
      }
      if (n > options_.max_body_bytes) {
        Refuse(res, 413, fmt::format("the text is larger than {} bytes", options_.max_body_bytes), api);
        return HR::Handled;
      }
      if (req.is_multipart_form_data()) {
        Refuse(res, 415, "send the text as text/plain or as the form field q (urlencoded)", api);
        return HR::Handled;
      }
      return HR::Unhandled;  // the content-reader handlers below read the body
    }
    if (req.method == "POST") {
      Refuse(res, 404, "nothing to POST to at this address", api);
      return HR::Handled;
    }
    res.set_header("Allow", "GET, HEAD, POST");
    Refuse(res, 405, "errdex answers GET, HEAD and POST", api);
    return HR::Handled;
  }

  void Post(const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
    const bool api = req.path == "/api/match";
    std::string body;
    bool too_large = false;
    const bool ok = reader([&](const char* data, size_t length) {
      if (body.size() + length > options_.max_body_bytes) {
        too_large = true;
        return false;
      }
      body.append(data, length);
      return true;
    });
    if (!ok) {
      const int status = too_large ? 413 : res.status >= 400 ? res.status : 400;
      Refuse(res, status, too_large ? "the text is too large" : "the request body could not be read", api);
      return;
    }
    std::string paste;
    if (req.get_header_value("Content-Type").rfind("application/x-www-form-urlencoded", 0) == 0) {
      for (auto& [key, value] : ParseFormEncoded(body)) {
        if (key == "q") {
          paste = std::move(value);
          break;
        }
      }
    } else {
      paste = std::move(body);
    }
    std::shared_ptr<const ErrorMatcher> matcher = Matcher();
    Router site(ThreadCatalog(), matcher.get());
    if (api) {
      std::optional<std::string> top;
      if (req.has_param("top")) top = req.get_param_value("top");
      Apply(site.Match(paste, top), res);
    } else {
      Apply(site.Search(paste), res);
    }
  }

  ServerOptions options_;
  Limits limits_;
  BoundedServer server_;
  ResponseCache cache_;
  std::mutex matcher_mutex_;
  std::shared_ptr<const ErrorMatcher> matcher_;  // replaced when the catalog changes
  uint64_t generation_ = 0;
  std::mutex watch_mutex_;
  std::condition_variable watch_wake_;
  bool stop_watching_ = false;
  std::thread watcher_;
};

WebServer::WebServer(ServerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

WebServer::~WebServer() { Stop(); }

int WebServer::Bind() {
  const ServerOptions& o = impl_->options();
  BoundedServer& server = impl_->server();
  int port = o.port;
  if (port == 0) {
    port = server.bind_to_any_port(o.host);
  } else if (!server.bind_to_port(o.host, port)) {
    port = -1;
  }
  if (port < 0) throw std::runtime_error(fmt::format("cannot listen on {}:{}", o.host, o.port));
  server.WidenBacklog();
  port_ = port;
  return port;
}

bool WebServer::Run() { return impl_->server().listen_after_bind(); }

void WebServer::Stop() {
  if (impl_) impl_->server().stop();
}

}  // namespace errdex::web
