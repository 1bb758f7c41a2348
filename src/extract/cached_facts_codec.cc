#include "extract/cached_facts_codec.h"

#include <zstd.h>

namespace errdex {
namespace {

// Level 1: the fastest of the standard levels. On SQLAlchemy's facts it keeps a quarter of the bytes;
// higher levels save a few percent more at two to three times the cost (docs/benchmarks.md).
constexpr int kCompressionLevel = 1;

}  // namespace

bool IsCompressedFacts(std::string_view stored) {
  return stored.size() >= 4 && static_cast<unsigned char>(stored[0]) == 0x28 &&
         static_cast<unsigned char>(stored[1]) == 0xB5 && static_cast<unsigned char>(stored[2]) == 0x2F &&
         static_cast<unsigned char>(stored[3]) == 0xFD;
}

std::string EncodeCachedFacts(std::string_view json_text) {
  // One compression context per thread, reused: creating one per call costs more than compressing a small file.
  struct Context {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    ~Context() { ZSTD_freeCCtx(cctx); }
  };
  thread_local Context context;
  std::string out(ZSTD_compressBound(json_text.size()), '\0');
  const size_t written =
      context.cctx == nullptr
          ? ZSTD_compress(out.data(), out.size(), json_text.data(), json_text.size(), kCompressionLevel)
          : ZSTD_compressCCtx(context.cctx, out.data(), out.size(), json_text.data(), json_text.size(),
                              kCompressionLevel);
  if (ZSTD_isError(written)) return std::string(json_text);  // cannot happen with a bound-sized buffer; stay readable
  out.resize(written);
  return out;
}

bool DecodeCachedFacts(std::string_view stored, std::string* json_text) {
  if (!IsCompressedFacts(stored)) {
    json_text->assign(stored);
    return true;
  }
  const unsigned long long size = ZSTD_getFrameContentSize(stored.data(), stored.size());
  // EncodeCachedFacts always records the content size; a frame without it, or with an error, is damage.
  if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR || size > kMaxCachedFactsBytes) return false;
  json_text->resize(static_cast<size_t>(size));
  const size_t got = ZSTD_decompress(json_text->data(), json_text->size(), stored.data(), stored.size());
  if (ZSTD_isError(got) || got != size) {
    json_text->clear();
    return false;
  }
  return true;
}

}  // namespace errdex
