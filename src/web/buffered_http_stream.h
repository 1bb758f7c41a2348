// An httplib::Stream over one complete request held in memory, collecting the answer in memory: how
// `errdex serve` runs cpp-httplib's request parsing, routing and response writing (web/server.cc) on a
// request that the front end (web/http_front_end.h) has already read, without httplib touching a socket.
// Reading past the request gives end of input; a `100 Continue` interim answer that httplib writes is
// dropped (the front end sent it when the body was still to come).
//
// Threading: one thread at a time. The request bytes must outlive the stream.
#pragma once

#include <httplib.h>

#include <string>
#include <string_view>

namespace errdex::web {

class BufferedHttpStream : public httplib::Stream {
 public:
  BufferedHttpStream(std::string_view request, std::string peer_address, int peer_port)
      : request_(request), peer_address_(std::move(peer_address)), peer_port_(peer_port) {}

  bool is_readable() const override { return read_ < request_.size(); }
  bool is_writable() const override { return true; }
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = peer_address_;
    port = peer_port_;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip.clear();
    port = 0;
  }
  // No socket: httplib then never refuses a descriptor number above FD_SETSIZE.
  socket_t socket() const override { return INVALID_SOCKET; }

  std::string TakeAnswer() { return std::move(answer_); }

 private:
  std::string_view request_;
  size_t read_ = 0;
  std::string peer_address_;
  int peer_port_ = 0;
  std::string answer_;
};

}  // namespace errdex::web
