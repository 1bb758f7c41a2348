#include "catalog/zstd_codec.h"

#include <zstd.h>

#include <memory>
#include <new>

namespace errdex {

namespace {

struct CctxFree {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DctxFree {
  void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

// zstd's window bounds (kMinWindowLog and kMaxWindowLog of its experimental API): every
// build of the library accepts windows of 2^10 to 2^30 bytes.
constexpr int kMinWindowLog = 10;
constexpr int kMaxWindowLog = 30;

// This thread's contexts, reset before each use. Making a context allocates and initialises its tables
// (hundreds of kilobytes): for the small frames of the blob cache that cost more than the compression.
ZSTD_CCtx* ThreadCompressionContext() {
  thread_local std::unique_ptr<ZSTD_CCtx, CctxFree> cctx(ZSTD_createCCtx());
  if (!cctx) throw std::bad_alloc();
  ZSTD_CCtx_reset(cctx.get(), ZSTD_reset_session_and_parameters);
  return cctx.get();
}

ZSTD_DCtx* ThreadDecompressionContext() {
  thread_local std::unique_ptr<ZSTD_DCtx, DctxFree> dctx(ZSTD_createDCtx());
  if (!dctx) throw std::bad_alloc();
  ZSTD_DCtx_reset(dctx.get(), ZSTD_reset_session_and_parameters);
  return dctx.get();
}

}  // namespace

std::string ZstdCompress(std::string_view text, std::string_view prefix, int level) {
  ZSTD_CCtx* cctx = ThreadCompressionContext();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
  if (!prefix.empty()) {
    // The window must reach back over the whole prefix for the matches against it to be found.
    int window_log = kMinWindowLog;
    while (window_log < kMaxWindowLog && (size_t{1} << window_log) < prefix.size() + text.size()) ++window_log;
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_windowLog, window_log);
    ZSTD_CCtx_refPrefix(cctx, prefix.data(), prefix.size());
  }
  std::string out(ZSTD_compressBound(text.size()), '\0');
  const size_t n = ZSTD_compress2(cctx, out.data(), out.size(), text.data(), text.size());
  if (ZSTD_isError(n)) throw std::bad_alloc();  // only allocation can fail with a bound-sized output
  out.resize(n);
  return out;
}

bool ZstdDecompress(std::string_view frame, std::string_view prefix, size_t max_size, std::string* text) {
  const unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > max_size) return false;
  ZSTD_DCtx* dctx = ThreadDecompressionContext();
  ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, kMaxWindowLog);
  if (!prefix.empty() && ZSTD_isError(ZSTD_DCtx_refPrefix(dctx, prefix.data(), prefix.size()))) return false;
  text->resize(static_cast<size_t>(size));
  const size_t n = ZSTD_decompressDCtx(dctx, text->data(), text->size(), frame.data(), frame.size());
  return !ZSTD_isError(n) && n == size;
}

}  // namespace errdex
