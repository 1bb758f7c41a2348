#include "catalog/blob_cache.h"

#include <gtest/gtest.h>

#include <string>

#include "catalog/catalog.h"
#include "testing/catalog_test_peer.h"
#include "testing/temp_dir.h"

namespace errdex {
namespace {

using testing_util::TempDir;

std::string Facts(int version) {
  std::string out = "{\"sites\": [";
  for (int i = 0; i < 300; ++i)
    out += "{\"line\": " + std::to_string(i) + ", \"v\": " + std::to_string(i == 7 ? version : 0) + "},";
  return out + "{}]}";
}

std::vector<Site> Snippets(int version) {
  Site s;
  s.line = 10;
  s.col = 4;
  s.snippet_start = 8;
  s.snippet = "def f():\n    # version " + std::to_string(version) + "\n    raise ValueError('x')";
  return {s};
}

std::string Oid(int version) {
  return std::string(38, 'a') + static_cast<char>('0' + version / 10 % 10) + static_cast<char>('0' + version % 10);
}

class BlobCacheTest : public ::testing::Test {
 protected:
  void SetUp() override { catalog_ = Catalog::Open(dir_.File("c.db"), false); }
  SqliteDb& db() { return CatalogTestPeer::Db(*catalog_); }
  // Writes versions 0..N-1 of one file, each against the one before.
  void WriteChain(int n) {
    BlobCache cache(db());
    std::optional<BlobBase> base;
    for (int v = 0; v < n; ++v) {
      EncodedBlob blob = EncodeBlob(Oid(v), "ok", "", Facts(v), SnippetRecord(Snippets(v)), base ? &*base : nullptr);
      cache.Put(blob, 5);
      base = cache.FindBase(Oid(v), 5);
      ASSERT_TRUE(base.has_value());
    }
  }
  TempDir dir_;
  std::unique_ptr<Catalog> catalog_;
};

TEST_F(BlobCacheTest, AChainOfVersionsDecodesEachOne) {
  WriteChain(5);
  BlobCache cache(db());
  for (int v = 0; v < 5; ++v) {
    std::string json;
    int depth = -1;
    ASSERT_TRUE(cache.FindFacts(Oid(v), 5, &json, &depth));
    EXPECT_EQ(json, Facts(v));
    EXPECT_EQ(depth, v);
    int start = 0;
    std::string text;
    ASSERT_TRUE(cache.FindSnippet(Oid(v), 10, 4, &start, &text));
    EXPECT_EQ(start, 8);
    EXPECT_EQ(text, Snippets(v)[0].snippet);
    EXPECT_FALSE(cache.FindSnippet(Oid(v), 11, 4, &start, &text));
  }
  std::string json;
  EXPECT_FALSE(cache.FindFacts(Oid(1), 6, &json));  // another extractor version
}

TEST_F(BlobCacheTest, TheDepthIsBoundedAndAMissingBaseIsAMiss) {
  WriteChain(kMaxDeltaDepth + 3);
  BlobCache cache(db());
  std::string json;
  int depth = -1;
  ASSERT_TRUE(cache.FindFacts(Oid(kMaxDeltaDepth + 2), 5, &json, &depth));
  EXPECT_LE(depth, kMaxDeltaDepth);
  EXPECT_EQ(json, Facts(kMaxDeltaDepth + 2));
  // A base missing makes its dependents misses, never wrong text.
  db().Exec("DELETE FROM blob_cache WHERE depth = 0 AND oid = '" + Oid(0) + "'");
  EXPECT_FALSE(cache.FindFacts(Oid(2), 5, &json));
}

TEST_F(BlobCacheTest, FramesReadHereDecodeElsewhereToTheSameFacts) {
  WriteChain(4);
  BlobCache cache(db());
  std::vector<std::string> frames;
  ASSERT_TRUE(cache.FindFactsFrames(Oid(3), 5, &frames));
  EXPECT_EQ(frames.size(), 4u);  // depth 3: three deltas and the self-contained blob
  std::string json;
  ASSERT_TRUE(DecodeFrames(frames, &json));
  EXPECT_EQ(json, Facts(3));
  // A damaged frame fails the decoding instead of giving wrong text.
  frames.back()[frames.back().size() / 2] ^= 0x5A;
  EXPECT_FALSE(DecodeFrames(frames, &json));
}

TEST_F(BlobCacheTest, RowsAreNeverRewritten) {
  BlobCache cache(db());
  cache.Put(EncodeBlob(Oid(1), "ok", "", Facts(1), "[]", nullptr), 5);
  cache.Put(EncodeBlob(Oid(1), "ok", "", Facts(2), "[]", nullptr), 5);
  std::string json;
  ASSERT_TRUE(cache.FindFacts(Oid(1), 5, &json));
  EXPECT_EQ(json, Facts(1));
}

}  // namespace
}  // namespace errdex
