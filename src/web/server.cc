#include "web/server.h"

#include <fmt/format.h>
#include <httplib.h>

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
#include "web/buffered_http_stream.h"
#include "web/html.h"
#include "web/http_front_end.h"
#include "web/plain_response.h"
#include "web/response_cache.h"
#include "web/router.h"
#include "web/security_headers.h"

namespace errdex::web {

namespace {

using Clock = std::chrono::steady_clock;

// The headers every response carries (also those httplib writes itself for malformed requests).
httplib::Headers SecurityHeaders() {
  httplib::Headers headers;
  for (const auto& [name, value] : kSecurityHeaders) headers.emplace(name, value);
  return headers;
}

// The request this thread is serving: when it began (access log) and whether a handler asked to close
// the connection after the answer.
struct Exchange {
  Clock::time_point started;
  bool close_requested = false;
};
thread_local Exchange* t_exchange = nullptr;

void CloseAfterResponse() {
  if (t_exchange != nullptr) t_exchange->close_requested = true;
}

// httplib's request parsing, routing and response writing, run on a request already read in full.
class RequestProcessor : public httplib::Server {
 public:
  using httplib::Server::process_request;
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
  explicit Impl(ServerOptions options) : options_(std::move(options)), cache_(options_.cache_bytes) {
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
    front_ = std::make_unique<HttpFrontEnd>(
        FrontEndOptionsOf(options_), [this](const IncomingRequest& request) { return Handle(request); },
        options_.access_log ? FrontEndLog(LogFrontEndEvent) : FrontEndLog());
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

  HttpFrontEnd& front() { return *front_; }

 private:
  static FrontEndOptions FrontEndOptionsOf(const ServerOptions& o) {
    FrontEndOptions f;
    f.host = o.host;
    f.port = o.port;
    f.framing = {o.max_head_bytes, o.max_body_bytes};
    f.head_timeout_ms = o.head_timeout_seconds * 1000;
    f.body_timeout_ms = o.body_timeout_seconds * 1000;
    f.idle_timeout_ms = o.keep_alive_seconds * 1000;
    f.write_timeout_ms = o.io_timeout_seconds * 1000;
    f.keep_alive_requests = std::max<size_t>(1, o.keep_alive_requests);
    f.max_connections = std::max<size_t>(1, o.max_connections);
    f.max_connections_per_address = std::max<size_t>(1, o.max_connections_per_address);
    f.threads = o.threads > 0 ? static_cast<size_t>(o.threads) : 64;
    f.max_queued_requests = std::max<size_t>(1, o.max_queued_requests);
    return f;
  }

  static void LogFrontEndEvent(const std::string& address, std::string_view event, int status) {
    LogLine(fmt::format("{} - [{}] \"({})\" {} 0\n", address, Timestamp(), event, status));
  }

  // On a worker: httplib parses, routes and answers the complete request held in memory.
  HandlerAnswer Handle(const IncomingRequest& request) {
    BufferedHttpStream stream(request.bytes, request.peer_address, request.peer_port);
    Exchange exchange{request.started, false};
    t_exchange = &exchange;
    bool connection_closed = false;
    bool ok = false;
    try {
      ok = server_.process_request(stream, request.close_after, connection_closed, nullptr);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "errdex serve: %s\n", EscapeControls(e.what()).c_str());
    }
    t_exchange = nullptr;
    HandlerAnswer answer{stream.TakeAnswer(), !ok || connection_closed || exchange.close_requested};
    if (answer.bytes.empty()) {
      answer.bytes = PlainResponse(500, "internal error");
      answer.close = true;
    }
    return answer;
  }

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
    server_.set_default_headers(SecurityHeaders());
    server_.set_payload_max_length(options_.max_body_bytes);
    server_.set_keep_alive_timeout(options_.keep_alive_seconds);
    server_.set_keep_alive_max_count(std::max<size_t>(1, options_.keep_alive_requests));

    server_.set_pre_routing_handler(
        [this](const httplib::Request& req, httplib::Response& res) { return Route(req, res); });
    auto post = [this](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
      Post(req, res, reader);
    };
    server_.Post("/search", post);
    server_.Post("/api/match", post);

    // Bodies for the answers httplib gives by itself (400 malformed, 413, 414, 416).
    server_.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request& req,
                                                                      httplib::Response& res) {
      if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
      CloseAfterResponse();  // a request httplib could not read: what follows it is unknown
      Apply(Router::Problem(res.status, fmt::format("{} {}", res.status, ReasonPhrase(res.status)), IsApi(req)), res);
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
        const double ms = t_exchange != nullptr
                              ? std::chrono::duration<double, std::milli>(Clock::now() - t_exchange->started).count()
                              : 0.0;
        LogLine(fmt::format("{} - [{}] \"{} {} {}\" {} {} {:.2f}ms\n", req.remote_addr, Timestamp(),
                            EscapeControls(req.method), EscapeControls(ShortenText(req.target, 300)),
                            EscapeControls(req.version), res.status, res.body.size(), ms));
      });
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
  RequestProcessor server_;
  ResponseCache cache_;
  std::mutex matcher_mutex_;
  std::shared_ptr<const ErrorMatcher> matcher_;  // replaced when the catalog changes
  uint64_t generation_ = 0;
  std::mutex watch_mutex_;
  std::condition_variable watch_wake_;
  bool stop_watching_ = false;
  std::thread watcher_;
  std::unique_ptr<HttpFrontEnd> front_;  // last: destroyed first, its workers use everything above
};

WebServer::WebServer(ServerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

WebServer::~WebServer() { Stop(); }

int WebServer::Bind() {
  port_ = impl_->front().Bind();
  return port_;
}

bool WebServer::Run() { return impl_->front().Run(); }

void WebServer::Stop() {
  if (impl_) impl_->front().Stop();
}

}  // namespace errdex::web
