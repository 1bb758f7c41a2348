#include "web/request_framer.h"

#include <algorithm>
#include <charconv>
#include <cstdint>

namespace errdex::web {

namespace {

constexpr size_t kMaxChunkLine = 1024;  // "SIZE[;extensions]" of one chunk

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x >= 'A' && x <= 'Z' ? x + 32 : x) == (y >= 'A' && y <= 'Z' ? y + 32 : y);
         });
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

Framing Refuse(int status) {
  Framing out;
  out.state = Framing::State::kRefused;
  out.status = status;
  return out;
}

}  // namespace

void RequestFramer::Reset() { *this = RequestFramer(limits_); }

void RequestFramer::ReadHeader(std::string_view name, std::string_view value) {
  value = Trim(value);
  if (EqualsIgnoringCase(name, "content-length")) {
    uint64_t n = 0;
    auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    const bool valid = !value.empty() && ec == std::errc() && ptr == value.data() + value.size();
    if (!valid || (length_seen_ && n != content_length_) || n > limits_.max_body_bytes) {
      close_after_ = true;  // the handler refuses it; where the next request starts is unknown
      content_length_ = 0;
      length_seen_ = true;
      if (body_ == Body::kLength) body_ = Body::kNone;
      return;
    }
    if (!length_seen_) {
      length_seen_ = true;
      content_length_ = static_cast<size_t>(n);
      if (body_ == Body::kNone && n > 0) body_ = Body::kLength;
    }
  } else if (EqualsIgnoringCase(name, "transfer-encoding")) {
    if (EqualsIgnoringCase(value, "chunked") && body_ != Body::kChunked) {
      if (length_seen_) close_after_ = true;  // both framings given: chunked wins, then the connection closes
      body_ = Body::kChunked;
    } else {
      close_after_ = true;  // another coding (or two): the handler refuses it
      body_ = Body::kNone;
    }
  } else if (EqualsIgnoringCase(name, "expect")) {
    expects_continue_ = EqualsIgnoringCase(value, "100-continue");
  }
}

// Searches the head's end; when found, reads the framing headers. False while the head is incomplete.
bool RequestFramer::ScanHead(std::string_view buffer, Framing* out) {
  // Empty lines before the request line are ignored (RFC 9112 2.2).
  size_t start = 0;
  while (start + 1 < buffer.size() && buffer[start] == '\r' && buffer[start + 1] == '\n') start += 2;
  const size_t from = std::max(start, scanned_ >= 3 ? scanned_ - 3 : 0);
  const size_t end = buffer.find("\r\n\r\n", from);
  if (end == std::string_view::npos) {
    scanned_ = buffer.size();
    if (buffer.size() > limits_.max_head_bytes) {
      *out = Refuse(buffer.find('\n', start) == std::string_view::npos ? 414 : 431);
    }
    return false;
  }
  head_bytes_ = end + 4;
  if (head_bytes_ > limits_.max_head_bytes) {
    *out = Refuse(buffer.find('\n', start) >= limits_.max_head_bytes ? 414 : 431);
    return false;
  }
  std::string_view head = buffer.substr(start, end - start);
  size_t line_end = head.find("\r\n");
  while (line_end != std::string_view::npos) {
    head.remove_prefix(line_end + 2);
    line_end = head.find("\r\n");
    const std::string_view line = head.substr(0, line_end);
    const size_t colon = line.find(':');
    if (colon != std::string_view::npos) ReadHeader(line.substr(0, colon), line.substr(colon + 1));
  }
  chunk_at_ = head_bytes_;
  return true;
}

Framing RequestFramer::FrameChunked(std::string_view buffer) {
  while (true) {
    const size_t line_end = buffer.find("\r\n", chunk_at_);
    if (line_end == std::string_view::npos) {
      if (buffer.size() - chunk_at_ > kMaxChunkLine) return Refuse(in_trailers_ ? 431 : 400);
      return {};
    }
    if (line_end - chunk_at_ > kMaxChunkLine) return Refuse(in_trailers_ ? 431 : 400);
    const std::string_view line = buffer.substr(chunk_at_, line_end - chunk_at_);
    if (in_trailers_) {
      chunk_at_ = line_end + 2;
      if (line.empty()) {
        Framing out;
        out.state = Framing::State::kComplete;
        out.request_bytes = chunk_at_;
        return out;
      }
      if (chunk_at_ - head_bytes_ > limits_.max_body_bytes + limits_.max_head_bytes) return Refuse(431);
      continue;
    }
    const std::string_view digits = Trim(line.substr(0, line.find(';')));
    uint64_t size = 0;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), size, 16);
    if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size()) {
      return Refuse(ec == std::errc::result_out_of_range ? 413 : 400);
    }
    if (size > limits_.max_body_bytes - chunk_payload_) return Refuse(413);
    // Many tiny chunks: their framing is bounded too (a chunk line per payload byte would be 6x the body).
    if (chunk_at_ - head_bytes_ > 2 * limits_.max_body_bytes + (64 << 10)) return Refuse(413);
    if (size == 0) {
      in_trailers_ = true;
      chunk_at_ = line_end + 2;
      continue;
    }
    const size_t data_end = line_end + 2 + static_cast<size_t>(size);
    if (buffer.size() < data_end + 2) return {};
    if (buffer.compare(data_end, 2, "\r\n") != 0) return Refuse(400);
    chunk_payload_ += static_cast<size_t>(size);
    chunk_at_ = data_end + 2;
  }
}

Framing RequestFramer::Frame(std::string_view buffer) {
  Framing out;
  if (head_bytes_ == 0 && !ScanHead(buffer, &out)) return out;
  if (body_ == Body::kChunked) {
    out = FrameChunked(buffer);
  } else if (buffer.size() >= head_bytes_ + content_length_ * (body_ == Body::kLength ? 1 : 0)) {
    out.state = Framing::State::kComplete;
    out.request_bytes = head_bytes_ + (body_ == Body::kLength ? content_length_ : 0);
  }
  out.head_complete = true;
  out.close_after = close_after_;
  out.expects_continue = expects_continue_ && body_ != Body::kNone;
  return out;
}

}  // namespace errdex::web
