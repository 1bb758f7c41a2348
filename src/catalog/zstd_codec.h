// zstd compression of catalog payloads (the blob cache, docs/catalog.md "Blob cache"), optionally against a
// prefix: the decoded payload of an earlier version of the same file, so that a new version costs only what
// changed (zstd's "reference prefix", the mechanism of `zstd --patch-from`).
//
// Frames carry their content size and a checksum: decoding with the wrong prefix, or a damaged frame, fails
// instead of returning wrong text. Decoding never allocates more than the caller's bound.
//
// Threading: call them from any thread; each thread keeps one compression and one decompression context,
// reset before every call, for the life of the thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace errdex {

// A zstd frame of TEXT, compressed at LEVEL against PREFIX (may be empty). Never fails on valid input;
// throws std::bad_alloc when memory runs out.
std::string ZstdCompress(std::string_view text, std::string_view prefix, int level);

// Decodes FRAME (made by ZstdCompress with the same PREFIX) into *TEXT. False, with *TEXT unspecified, when
// the frame is damaged, was made against another prefix, or decodes to more than MAX_SIZE bytes.
bool ZstdDecompress(std::string_view frame, std::string_view prefix, size_t max_size, std::string* text);

}  // namespace errdex
