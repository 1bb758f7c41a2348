// Tests of `errdex serve`'s connection layer (src/web/http_front_end.h) over loopback sockets, with a
// handler that the test holds busy.
#include "web/http_front_end.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace errdex::web {
namespace {

int Connect(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval timeout{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  return fd;
}

void Send(int fd, std::string_view data) { ASSERT_EQ(::send(fd, data.data(), data.size(), 0), ssize_t(data.size())); }

// One read: the test's answers are small.
std::string ReadSome(int fd) {
  char buffer[4096];
  const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
  return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : std::string();
}

std::string ReadToEnd(int fd) {
  std::string out;
  char buffer[4096];
  ssize_t n;
  while ((n = ::recv(fd, buffer, sizeof buffer, 0)) > 0) out.append(buffer, static_cast<size_t>(n));
  ::close(fd);
  return out;
}

// The front end shows no sign that it has read a request the one worker cannot take yet: give its event loop
// time. 100 ms was not always enough on a loaded machine (two sanitized test processes per core).
void WaitForTheLoopToReadIt() { std::this_thread::sleep_for(std::chrono::milliseconds(500)); }

// A front end whose handler waits until released and answers the request's first line.
class HeldServer {
 public:
  explicit HeldServer(FrontEndOptions options) {
    options.port = 0;
    front_ = std::make_unique<HttpFrontEnd>(
        options,
        [this](const IncomingRequest& request) {
          ++started_;
          std::unique_lock<std::mutex> lock(mutex_);
          wake_.wait(lock, [this] { return released_; });
          const std::string line = request.bytes.substr(0, request.bytes.find('\r'));
          return HandlerAnswer{"HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(line.size()) + "\r\n\r\n" + line,
                               false};
        },
        [this](const std::string&, std::string_view event, int status) {
          std::lock_guard<std::mutex> lock(mutex_);
          events_ += std::string(event) + " " + std::to_string(status) + "\n";
        });
    port_ = front_->Bind();
    loop_ = std::thread([this] { front_->Run(); });
  }
  ~HeldServer() {
    Release();
    front_->Stop();
    loop_.join();
  }
  void Release() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      released_ = true;
    }
    wake_.notify_all();
  }
  void WaitStarted(int n) {
    while (started_ < n) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::string events() {
    std::lock_guard<std::mutex> lock(mutex_);
    return events_;
  }
  int port() const { return port_; }
  HttpFrontEnd& front() { return *front_; }

 private:
  std::unique_ptr<HttpFrontEnd> front_;
  std::thread loop_;
  int port_ = 0;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool released_ = false;
  std::atomic<int> started_{0};
  std::string events_;
};

TEST(HttpFrontEndTest, WhenEveryConnectionIsBusyANewOneGets503WithRetryAfter) {
  FrontEndOptions options;
  options.max_connections = 2;
  options.threads = 1;
  HeldServer server(options);
  const int a = Connect(server.port());
  Send(a, "GET /a HTTP/1.1\r\n\r\n");
  server.WaitStarted(1);
  const int b = Connect(server.port());
  Send(b, "GET /b HTTP/1.1\r\n\r\n");  // complete: queued for the one worker, so busy as well
  WaitForTheLoopToReadIt();
  const std::string refused = ReadToEnd(Connect(server.port()));
  EXPECT_EQ(refused.rfind("HTTP/1.1 503 Service Unavailable\r\n", 0), 0u) << refused;
  EXPECT_NE(refused.find("\r\nRetry-After: 1\r\n"), std::string::npos);
  EXPECT_NE(refused.find("\r\nContent-Security-Policy: "), std::string::npos);
  server.Release();
  EXPECT_NE(ReadSome(a).find("\r\n\r\nGET /a HTTP/1.1"), std::string::npos);
  EXPECT_NE(ReadSome(b).find("\r\n\r\nGET /b HTTP/1.1"), std::string::npos);
  ::close(a);
  ::close(b);
  EXPECT_NE(server.events().find("refused: connection limit 503"), std::string::npos) << server.events();
}

TEST(HttpFrontEndTest, AFullQueueAnswers503) {
  FrontEndOptions options;
  options.threads = 1;
  options.max_queued_requests = 1;
  HeldServer server(options);
  const int a = Connect(server.port());
  Send(a, "GET /a HTTP/1.1\r\n\r\n");
  server.WaitStarted(1);
  const int b = Connect(server.port());
  Send(b, "GET /b HTTP/1.1\r\n\r\n");
  WaitForTheLoopToReadIt();
  const int c = Connect(server.port());
  Send(c, "GET /c HTTP/1.1\r\n\r\n");
  const std::string refused = ReadToEnd(c);
  EXPECT_EQ(refused.rfind("HTTP/1.1 503 ", 0), 0u) << refused;
  server.Release();
  EXPECT_NE(ReadSome(a).find("GET /a"), std::string::npos);
  EXPECT_NE(ReadSome(b).find("GET /b"), std::string::npos);  // the queued one is served once the worker is free
  ::close(a);
  ::close(b);
}

TEST(HttpFrontEndTest, StopLetsTheRequestInProgressFinish) {
  FrontEndOptions options;
  auto server = std::make_unique<HeldServer>(options);
  const int a = Connect(server->port());
  Send(a, "GET /slow HTTP/1.1\r\n\r\n");
  server->WaitStarted(1);
  const int idle = Connect(server->port());
  server->front().Stop();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(ReadToEnd(idle), "");  // an idle connection is closed at once
  server->Release();
  const std::string answer = ReadToEnd(a);
  EXPECT_NE(answer.find("GET /slow"), std::string::npos) << answer;
  server.reset();
}

}  // namespace
}  // namespace errdex::web
