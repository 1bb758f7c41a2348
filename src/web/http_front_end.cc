#include "web/http_front_end.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "web/connection_registry.h"
#include "web/plain_response.h"
#include "web/worker_pool.h"

namespace errdex::web {

namespace {

using Clock = std::chrono::steady_clock;

constexpr uint64_t kListenKey = 0;
constexpr uint64_t kWakeKey = 1;
constexpr int kLingerMs = 2000;
constexpr size_t kReadChunk = 64 << 10;

std::string AddressOf(const sockaddr_storage& addr, int* port) {
  char text[INET6_ADDRSTRLEN] = "";
  *port = 0;
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

// Sends what the socket takes now; returns the bytes sent, or -1 when the connection is broken.
ssize_t SendSome(int fd, std::string_view data) {
  size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      sent += static_cast<size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      break;
    } else {
      return -1;
    }
  }
  return static_cast<ssize_t>(sent);
}

// Enough file descriptors for the connection limit (the soft limit is often 1024).
size_t RaiseFileLimit(size_t wanted) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return wanted;
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < wanted) {
    limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? wanted : std::min<rlim_t>(limit.rlim_max, wanted);
    ::setrlimit(RLIMIT_NOFILE, &limit);
    ::getrlimit(RLIMIT_NOFILE, &limit);
  }
  return limit.rlim_cur == RLIM_INFINITY ? wanted : static_cast<size_t>(limit.rlim_cur);
}

}  // namespace

class HttpFrontEnd::Loop {
 public:
  Loop(FrontEndOptions options, RequestHandler handler, FrontEndLog log)
      : options_(std::move(options)), handler_(std::move(handler)), log_(std::move(log)) {
    // Room for the connections, the worker threads' files (catalogs) and a margin.
    const size_t reserve = 64 + 4 * options_.threads;
    const size_t files = RaiseFileLimit(options_.max_connections + reserve);
    if (files < options_.max_connections + reserve) {
      options_.max_connections = files > reserve + 16 ? files - reserve : 16;
      std::fprintf(stderr, "errdex serve: the file limit (%zu) allows %zu connections\n", files,
                   options_.max_connections);
    }
    epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
    wake_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (epoll_ < 0 || wake_ < 0) throw std::runtime_error("cannot create the event loop");
    Watch(wake_, kWakeKey, EPOLLIN, EPOLL_CTL_ADD);
  }

  ~Loop() {
    for (auto& [id, c] : connections_) ::close(c.fd);
    if (listen_ >= 0) ::close(listen_);
    ::close(wake_);
    ::close(epoll_);
  }

  int Bind();
  bool Run();
  void Stop() {
    stopping_.store(true);
    Wake();
  }

 private:
  enum class Phase { kIdle, kHead, kBody, kBusy, kWriting, kLingering };
  struct Connection {
    int fd = -1;
    uint64_t id = 0;
    std::string address;
    int port = 0;
    Phase phase = Phase::kBusy;  // WaitFor starts the wait
    std::string in;              // bytes of the current request and any after it
    RequestFramer framer;
    bool continue_sent = false;
    std::string out;  // the answer's bytes not yet sent
    size_t out_sent = 0;
    bool close_after_write = false;
    size_t requests = 0;
    Clock::time_point deadline;
    Clock::time_point started;  // the current request's first byte
  };
  struct Completion {
    uint64_t id;
    std::string rest;  // what the worker could not send at once
    bool close;
    bool broken;
    bool rearmed;        // sent in full and armed for reading by the worker: the loop only books it as idle
    std::string unread;  // bytes the worker read while lingering that are not one complete request
    size_t served = 1;   // requests answered (more than one when the worker lingered)
  };

  void Watch(int fd, uint64_t key, uint32_t events, int op) {
    epoll_event ev{};
    ev.events = events;
    ev.data.u64 = key;
    ::epoll_ctl(epoll_, op, fd, &ev);
  }
  void Wake() {
    const uint64_t one = 1;
    [[maybe_unused]] ssize_t n = ::write(wake_, &one, sizeof one);
  }
  void Log(const Connection& c, std::string_view event, int status) {
    if (log_) log_(c.address, event, status);
  }

  void Accept();
  bool Admit(const std::string& address);
  void OnEvent(uint64_t key, uint32_t events);
  void Read(Connection& c);
  void Frame(Connection& c);
  void Dispatch(Connection& c, size_t request_bytes, bool close_after);
  void RunRequest(uint64_t id, int fd, bool pipelined, size_t requests_left, IncomingRequest request);
  bool LingerForNext(int fd, IncomingRequest* request, Completion* done);
  void TakeCompletions();
  void StartWriting(Connection& c, std::string bytes, bool close);
  void Write(Connection& c);
  void AfterAnswer(Connection& c);
  void Refuse(Connection& c, int status, std::string_view why, int retry_after = 0);
  void WaitFor(Connection& c, Phase phase, int timeout_ms);
  void Rearm(uint64_t id);
  void Shed(uint64_t id, std::string_view why);
  void Close(uint64_t id);
  void SweepDeadlines();
  void BeginShutdown();

  FrontEndOptions options_;
  RequestHandler handler_;
  FrontEndLog log_;
  int epoll_ = -1, wake_ = -1, listen_ = -1;
  bool accepting_ = false;
  Clock::time_point resume_accepting_{};
  std::atomic<bool> stopping_{false};
  bool shutting_down_ = false;
  uint64_t next_id_ = 2;
  std::unordered_map<uint64_t, Connection> connections_;
  ConnectionRegistry registry_;
  std::unique_ptr<WorkerPool> workers_;
  std::mutex completions_mutex_;
  std::vector<Completion> completions_;
  bool loop_wake_pending_ = false;  // a Wake is on its way (guarded by completions_mutex_)
};

int HttpFrontEnd::Loop::Bind() {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(options_.port);
  if (::getaddrinfo(options_.host.empty() ? nullptr : options_.host.c_str(), port.c_str(), &hints, &found) != 0) {
    throw std::runtime_error(fmt::format("cannot listen on {}:{}", options_.host, options_.port));
  }
  int fd = -1;
  for (addrinfo* a = found; a != nullptr && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd, 4096) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(found);
  if (fd < 0) throw std::runtime_error(fmt::format("cannot listen on {}:{}", options_.host, options_.port));
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  int bound_port = 0;
  AddressOf(addr, &bound_port);
  listen_ = fd;
  return bound_port;
}

bool HttpFrontEnd::Loop::Run() {
  if (listen_ < 0) return false;
  workers_ = std::make_unique<WorkerPool>(options_.threads, options_.max_queued_requests);
  Watch(listen_, kListenKey, EPOLLIN, EPOLL_CTL_ADD);
  accepting_ = true;
  std::vector<epoll_event> events(256);
  auto next_sweep = Clock::now();
  while (!(shutting_down_ && connections_.empty())) {
    const int n = ::epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), 100);
    if (n < 0 && errno != EINTR) break;
    TakeCompletions();  // before the events: an event may be for a connection a worker has just re-armed
    for (int i = 0; i < n; ++i) OnEvent(events[i].data.u64, events[i].events);
    if (stopping_.load() && !shutting_down_) BeginShutdown();
    const auto now = Clock::now();
    if (now >= next_sweep) {
      SweepDeadlines();
      next_sweep = now + std::chrono::milliseconds(100);
    }
  }
  workers_->Stop();
  TakeCompletions();
  return true;
}

void HttpFrontEnd::Loop::OnEvent(uint64_t key, uint32_t events) {
  if (key == kListenKey) return Accept();
  if (key == kWakeKey) {
    uint64_t count = 0;
    [[maybe_unused]] ssize_t n = ::read(wake_, &count, sizeof count);
    return TakeCompletions();
  }
  auto it = connections_.find(key);
  if (it == connections_.end()) return;
  Connection& c = it->second;
  switch (c.phase) {
    case Phase::kBusy:
      return;  // a busy connection is not armed (one-shot): cannot happen
    case Phase::kWriting:
      if (events & (EPOLLERR | EPOLLHUP)) return Close(c.id);
      Write(c);
      break;
    default:
      Read(c);
      break;
  }
  Rearm(key);
}

// Connections are registered one-shot: after each event (and each change of phase by the loop) the loop
// arms the next one. A busy connection is not armed, so the worker serving it owns its descriptor alone.
void HttpFrontEnd::Loop::Rearm(uint64_t id) {
  auto it = connections_.find(id);
  if (it == connections_.end()) return;
  Connection& c = it->second;
  if (c.phase == Phase::kBusy) return;
  Watch(c.fd, c.id, (c.phase == Phase::kWriting ? EPOLLOUT : EPOLLIN) | EPOLLONESHOT, EPOLL_CTL_MOD);
}

// Accepts what is waiting (a bounded batch, so that the loop keeps serving the others).
void HttpFrontEnd::Loop::Accept() {
  for (int batch = 0; batch < 256 && accepting_; ++batch) {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    const int fd = ::accept4(listen_, reinterpret_cast<sockaddr*>(&addr), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        // Out of descriptors: shed a waiting connection, or pause accepting for a moment.
        if (auto victim = registry_.OldestWaiting()) {
          Shed(*victim, "shed: out of file descriptors");
          continue;
        }
        Watch(listen_, kListenKey, 0, EPOLL_CTL_DEL);
        accepting_ = false;
        resume_accepting_ = Clock::now() + std::chrono::milliseconds(100);
      }
      return;
    }
    int port = 0;
    std::string address = AddressOf(addr, &port);
    if (!Admit(address)) {
      // Logged before the answer: once the client has read its 503 the event is in the log (a test reading
      // both must not race the loop thread between the close and the log).
      if (log_) log_(address, "refused: connection limit", 503);
      const std::string answer =
          PlainResponse(503, "too many connections; try again later", options_.retry_after_seconds);
      SendSome(fd, answer);
      ::close(fd);
      continue;
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    const uint64_t id = next_id_++;
    Connection& c = connections_.try_emplace(id).first->second;
    c.fd = fd;
    c.id = id;
    c.address = std::move(address);
    c.port = port;
    c.framer = RequestFramer(options_.framing);
    registry_.Add(id, c.address);
    // A new connection owes its head from the start: one that says nothing is as slow as a slow head.
    WaitFor(c, Phase::kHead, options_.head_timeout_ms);
    Watch(fd, id, EPOLLIN | EPOLLONESHOT, EPOLL_CTL_ADD);
  }
}

// Makes room for one more connection from ADDRESS; false when every connection in the way is busy.
bool HttpFrontEnd::Loop::Admit(const std::string& address) {
  if (registry_.CountOf(address) >= options_.max_connections_per_address) {
    auto victim = registry_.OldestWaitingOf(address);
    if (!victim) return false;
    Shed(*victim, "shed: connections per address");
  }
  if (registry_.total() >= options_.max_connections) {
    auto victim = registry_.OldestWaiting();
    if (!victim) return false;
    Shed(*victim, "shed: connections");
  }
  return true;
}

void HttpFrontEnd::Loop::WaitFor(Connection& c, Phase phase, int timeout_ms) {
  const bool was_waiting =
      c.phase == Phase::kIdle || c.phase == Phase::kHead || c.phase == Phase::kBody || c.phase == Phase::kLingering;
  if (!was_waiting) registry_.MarkWaiting(c.id);
  c.phase = phase;
  c.deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
}

void HttpFrontEnd::Loop::Read(Connection& c) {
  char buffer[kReadChunk];
  const ssize_t n = ::recv(c.fd, buffer, sizeof buffer, 0);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
  if (n <= 0) return Close(c.id);            // the client left (or the connection broke)
  if (c.phase == Phase::kLingering) return;  // draining after the last answer
  if (c.in.empty()) c.started = Clock::now();
  c.in.append(buffer, static_cast<size_t>(n));
  Frame(c);
}

void HttpFrontEnd::Loop::Frame(Connection& c) {
  if (c.phase == Phase::kIdle) WaitFor(c, Phase::kHead, options_.head_timeout_ms);
  const Framing framing = c.framer.Frame(c.in);
  switch (framing.state) {
    case Framing::State::kRefused:
      Log(c, framing.status == 413 ? "refused: body too large" : "refused: request head", framing.status);
      return Refuse(c, framing.status,
                    framing.status == 414   ? "the request's first line is too long"
                    : framing.status == 431 ? "the request's head is too large"
                    : framing.status == 413 ? "the request's body is too large"
                                            : "the request's body is not valid chunked encoding");
    case Framing::State::kComplete:
      return Dispatch(c, framing.request_bytes, framing.close_after);
    case Framing::State::kIncomplete:
      if (framing.head_complete && c.phase == Phase::kHead) {
        WaitFor(c, Phase::kBody, options_.body_timeout_ms);
      }
      if (framing.expects_continue && !c.continue_sent) {
        c.continue_sent = true;
        SendSome(c.fd, "HTTP/1.1 100 Continue\r\n\r\n");
      }
      return;
  }
}

void HttpFrontEnd::Loop::Dispatch(Connection& c, size_t request_bytes, bool close_after) {
  IncomingRequest request;
  request.bytes = c.in.substr(0, request_bytes);
  c.in.erase(0, request_bytes);
  if (c.in.capacity() > 4 * kReadChunk) c.in.shrink_to_fit();
  request.peer_address = c.address;
  request.peer_port = c.port;
  request.started = c.started;
  ++c.requests;
  request.close_after = close_after || c.requests >= options_.keep_alive_requests || shutting_down_;
  c.framer.Reset();
  c.continue_sent = false;
  registry_.MarkBusy(c.id);
  c.phase = Phase::kBusy;
  const uint64_t id = c.id;
  const int fd = c.fd;
  const bool pipelined = !c.in.empty();
  const size_t requests_left = options_.keep_alive_requests - std::min(c.requests, options_.keep_alive_requests);
  if (!workers_->TryPost([this, id, fd, pipelined, requests_left, r = std::move(request)]() mutable {
        RunRequest(id, fd, pipelined, requests_left, std::move(r));
      })) {
    Log(c, "refused: request queue full", 503);
    Refuse(c, 503, "the server is busy; try again later", options_.retry_after_seconds);
  }
}

// On a worker: runs the handler and sends what the socket takes at once (the event loop does not touch a
// busy connection, so the descriptor stays open and unused until the completion is taken). The usual case,
// an answer sent in full on a connection that stays open with nothing more received, needs no turn of the
// loop: the worker arms the connection for reading and leaves the completion for the loop's next turn.
void HttpFrontEnd::Loop::RunRequest(uint64_t id, int fd, bool pipelined, size_t requests_left,
                                    IncomingRequest request) {
  Completion done{id, {}, false, false, false, {}, 1};
  while (true) {
    HandlerAnswer answer = handler_(request);
    const ssize_t sent = SendSome(fd, answer.bytes);
    done.close = answer.close || request.close_after;
    done.broken = sent < 0;
    if (sent >= 0 && static_cast<size_t>(sent) < answer.bytes.size()) {
      answer.bytes.erase(0, static_cast<size_t>(sent));
      done.rest = std::move(answer.bytes);
    }
    if (done.broken || done.close || !done.rest.empty() || pipelined || requests_left == 0) break;
    if (!LingerForNext(fd, &request, &done)) break;
    ++done.served;
    --requests_left;
    request.close_after = request.close_after || requests_left == 0;
  }
  done.rearmed = !done.broken && !done.close && done.rest.empty() && !pipelined && done.unread.empty();
  bool wake = false;
  {
    // Armed under the lock: an event for the connection reaches the loop only after its completion is
    // queued, and the loop takes completions before it handles events.
    std::lock_guard<std::mutex> lock(completions_mutex_);
    if (done.rearmed) Watch(fd, id, EPOLLIN | EPOLLONESHOT, EPOLL_CTL_MOD);
    wake = !done.rearmed && !loop_wake_pending_;
    if (wake) loop_wake_pending_ = true;
    completions_.push_back(std::move(done));
  }
  if (wake) Wake();
}

// On a worker, after an answer on a connection that stays open: waits `worker_linger_us` for the next
// request. True with REQUEST replaced when exactly one complete request arrived; otherwise what arrived
// is left in DONE->unread for the loop (or DONE->broken set when the client left).
bool HttpFrontEnd::Loop::LingerForNext(int fd, IncomingRequest* request, Completion* done) {
  if (options_.worker_linger_us <= 0 || stopping_.load() || workers_->queued() > 0) return false;
  pollfd p{fd, POLLIN, 0};
  const timespec linger{0, static_cast<long>(options_.worker_linger_us) * 1000};
  if (::ppoll(&p, 1, &linger, nullptr) <= 0) return false;
  char buffer[16 << 10];
  const ssize_t n = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return false;
  if (n <= 0) {
    done->broken = true;  // the client left: the loop closes the connection
    return false;
  }
  std::string bytes(buffer, static_cast<size_t>(n));
  RequestFramer framer(options_.framing);
  const Framing framing = framer.Frame(bytes);
  if (framing.state != Framing::State::kComplete || framing.request_bytes != bytes.size()) {
    done->unread = std::move(bytes);
    return false;
  }
  request->bytes = std::move(bytes);
  request->started = Clock::now();
  request->close_after = framing.close_after || stopping_.load();
  return true;
}

void HttpFrontEnd::Loop::TakeCompletions() {
  std::vector<Completion> done;
  {
    std::lock_guard<std::mutex> lock(completions_mutex_);
    if (completions_.empty()) return;
    done.swap(completions_);
    loop_wake_pending_ = false;
  }
  for (Completion& d : done) {
    auto it = connections_.find(d.id);
    if (it == connections_.end()) continue;
    Connection& c = it->second;
    c.requests += d.served - 1;
    if (d.broken || (d.rearmed && shutting_down_)) {
      Close(c.id);
    } else if (d.rearmed) {
      WaitFor(c, Phase::kIdle, options_.idle_timeout_ms);
    } else {
      if (!d.unread.empty()) {
        c.in = std::move(d.unread);  // empty before: the request was not pipelined
        c.started = Clock::now();
      }
      StartWriting(c, std::move(d.rest), d.close);
      Rearm(d.id);
    }
  }
}

void HttpFrontEnd::Loop::StartWriting(Connection& c, std::string bytes, bool close) {
  registry_.MarkBusy(c.id);
  c.out = std::move(bytes);
  c.out_sent = 0;
  c.close_after_write = close || shutting_down_;
  c.phase = Phase::kWriting;
  c.deadline = Clock::now() + std::chrono::milliseconds(options_.write_timeout_ms);
  if (c.out.empty()) return AfterAnswer(c);
  Write(c);
}

void HttpFrontEnd::Loop::Write(Connection& c) {
  const ssize_t n = SendSome(c.fd, std::string_view(c.out).substr(c.out_sent));
  if (n < 0) return Close(c.id);
  if (n > 0) c.deadline = Clock::now() + std::chrono::milliseconds(options_.write_timeout_ms);
  c.out_sent += static_cast<size_t>(n);
  if (c.out_sent == c.out.size()) AfterAnswer(c);
}

void HttpFrontEnd::Loop::AfterAnswer(Connection& c) {
  c.out.clear();
  c.out.shrink_to_fit();
  if (c.close_after_write) {
    // Lingering close: the client gets the whole answer even if it sent more than was read.
    ::shutdown(c.fd, SHUT_WR);
    c.in.clear();
    WaitFor(c, Phase::kLingering, kLingerMs);
    return;
  }
  c.phase = Phase::kBusy;  // WaitFor re-arms reading
  if (c.in.empty()) {
    WaitFor(c, Phase::kIdle, options_.idle_timeout_ms);
  } else {
    c.started = Clock::now();  // a pipelined request: its first bytes are here already
    WaitFor(c, Phase::kHead, options_.head_timeout_ms);
    Frame(c);
  }
}

// Answers STATUS on the front end's own and closes the connection after it.
void HttpFrontEnd::Loop::Refuse(Connection& c, int status, std::string_view why, int retry_after) {
  c.in.clear();
  StartWriting(c, PlainResponse(status, why, retry_after), /*close=*/true);
}

void HttpFrontEnd::Loop::Shed(uint64_t id, std::string_view why) {
  auto it = connections_.find(id);
  if (it == connections_.end()) return;
  Connection& c = it->second;
  // A client in the middle of a request is told why; an idle keep-alive client just sees the close.
  const bool mid_request = (c.phase == Phase::kHead || c.phase == Phase::kBody) && !c.in.empty();
  if (c.phase != Phase::kLingering) Log(c, why, mid_request ? 503 : 0);  // before the client can see the answer
  if (mid_request)
    SendSome(c.fd, PlainResponse(503, "too many connections; try again later", options_.retry_after_seconds));
  Close(id);
}

void HttpFrontEnd::Loop::Close(uint64_t id) {
  auto it = connections_.find(id);
  if (it == connections_.end()) return;
  registry_.Remove(id);
  ::close(it->second.fd);  // also removes it from epoll
  connections_.erase(it);
}

void HttpFrontEnd::Loop::SweepDeadlines() {
  const auto now = Clock::now();
  if (!accepting_ && !shutting_down_ && now >= resume_accepting_) {
    Watch(listen_, kListenKey, EPOLLIN, EPOLL_CTL_ADD);
    accepting_ = true;
  }
  std::vector<uint64_t> expired;
  for (auto& [id, c] : connections_) {
    if (c.phase != Phase::kBusy && now >= c.deadline) expired.push_back(id);
  }
  for (uint64_t id : expired) {
    Connection& c = connections_.at(id);
    switch (c.phase) {
      case Phase::kHead:
      case Phase::kBody:
        if (!c.in.empty() || c.requests == 0) {
          Log(c, c.phase == Phase::kHead ? "timeout: request head" : "timeout: request body", 408);
          SendSome(c.fd, PlainResponse(408, "the request did not arrive in time"));
        }
        Close(id);
        break;
      case Phase::kWriting:
        Log(c, "timeout: writing the answer", 0);
        Close(id);
        break;
      default:  // idle keep-alive or lingering: an ordinary end
        Close(id);
        break;
    }
  }
}

void HttpFrontEnd::Loop::BeginShutdown() {
  shutting_down_ = true;
  if (listen_ >= 0) {
    ::close(listen_);
    listen_ = -1;
    accepting_ = false;
  }
  std::vector<uint64_t> waiting;
  for (auto& [id, c] : connections_) {
    if (c.phase == Phase::kBusy || c.phase == Phase::kWriting) {
      c.close_after_write = true;
    } else {
      waiting.push_back(id);
    }
  }
  for (uint64_t id : waiting) Close(id);
}

HttpFrontEnd::HttpFrontEnd(FrontEndOptions options, RequestHandler handler, FrontEndLog log)
    : loop_(std::make_unique<Loop>(std::move(options), std::move(handler), std::move(log))) {}

HttpFrontEnd::~HttpFrontEnd() = default;

int HttpFrontEnd::Bind() { return loop_->Bind(); }
bool HttpFrontEnd::Run() { return loop_->Run(); }
void HttpFrontEnd::Stop() { loop_->Stop(); }

}  // namespace errdex::web
