// Tests of `scan` (src/match/log_scanner.h): line numbers, error context, chunking, long lines.
#include "match/log_scanner.h"

#include <gtest/gtest.h>

#include <string>

#include "pipeline/indexer.h"
#include "testing/git_test_util.h"
#include "testing/temp_dir.h"

namespace errdex {
namespace {

using namespace testing_util;

class LogScannerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteFile(
        dir_ / "src/shop/cart.py",
        "def add(sku, qty):\n"
        "    if qty <= 0:\n"
        "        raise ValueError(f\"quantity must be positive, got {qty!r}\")\n"
        "    raise KeyError(f\"unknown SKU {sku!r} in the warehouse\")\n"
        "\n"
        "def pay():\n"
        "    raise RuntimeError(\"payment gateway timed out\")\n"
        "\n"
        "def body(x):\n"
        "    raise TypeError(f\"{type(x)} is not a body type\")\n"
        "\n"
        "def run(fn):\n"
        "    raise TypeError(f\"expecting an async function, but got {fn!r}\\n\\nProbably you did: run(fn())\")\n");
    IndexOptions options;
    options.source = dir_ / "src";
    options.name = "acme/shop";
    options.catalog = dir_ / "catalog.db";
    options.jobs = 1;
    IndexSummary summary;
    std::string error;
    ASSERT_TRUE(Index(options, &summary, &error)) << error;
    catalog_ = Catalog::Open(dir_ / "catalog.db", /*read_only=*/true);
    std::string note;
    matcher_ = ErrorMatcher::Load(catalog_->matcher_tables(), /*with_anchor_table=*/true, &note);
  }

  // "line:function" of each finding, feeding LOG in pieces of CHUNK bytes.
  std::vector<std::string> Scan(const std::string& log, size_t chunk = 1 << 20) {
    std::vector<std::string> out;
    LogScanner scanner(*catalog_, *matcher_, [&](const ScanFinding& f) {
      auto sites = catalog_->SitesOfError(f.error_id);
      out.push_back(std::to_string(f.line) + ":" + (sites.empty() ? "?" : sites[0].function) + ":" +
                    (sites.empty() ? "?" : std::to_string(sites[0].line)));
    });
    for (size_t i = 0; i < log.size(); i += chunk) scanner.Feed(std::string_view(log).substr(i, chunk));
    scanner.Finish();
    return out;
  }

  TempDir dir_;
  std::unique_ptr<Catalog> catalog_;
  std::unique_ptr<ErrorMatcher> matcher_;
};

const char* const kLog =
    "2026-11-29 10:00:00,001 INFO web: GET /cart 200\n"
    "2026-11-29 10:00:01,002 ERROR shop.cart: ValueError: quantity must be positive, got -2\n"
    "2026-11-29 10:00:02,003 INFO web: retrying: payment gateway timed out was logged before\n"
    "Traceback (most recent call last):\n"
    "  File \"/srv/shop/cart.py\", line 7, in pay\n"
    "    raise RuntimeError(\"payment gateway timed out\")\n"
    "RuntimeError: payment gateway timed out\n"
    "\n"
    "[worker-3] KeyError: \"unknown SKU 'A-7' in the warehouse\"\r\n"
    "2026-11-29 10:00:09,000 ERROR shop.cart: ValueError: quantity must be positive, got 0";

TEST_F(LogScannerTest, FindsErrorLinesWithTheirNumbers) {
  std::vector<std::string> want{"2:add:3", "7:pay:7", "9:add:4", "10:add:3"};
  EXPECT_EQ(Scan(kLog), want);
}

TEST_F(LogScannerTest, MessagesStartingWithAValueAndFirstLinesOfLongMessages) {
  EXPECT_EQ(Scan("TypeError: <class 'app.models.Order'> is not a body type\n"
                 "INFO <class 'app.models.Order'> is not a body type, fine\n"
                 "2026-11-29 10:00:00 ERROR app: TypeError: expecting an async function, but got 'record'\n"
                 "\n"
                 "Probably you did: run(fn())\n"),
            (std::vector<std::string>{"1:body:10", "3:run:13"}));
}

TEST_F(LogScannerTest, ChunkingDoesNotChangeFindings) {
  std::vector<std::string> whole = Scan(kLog);
  EXPECT_EQ(Scan(kLog, 1), whole);
  EXPECT_EQ(Scan(kLog, 7), whole);
  EXPECT_EQ(Scan(kLog, 64), whole);
}

TEST_F(LogScannerTest, InfoLinesAndCodeLinesAreNotErrors) {
  EXPECT_TRUE(Scan("INFO the text quantity must be positive, got 3 appears in prose\n"
                   "    raise ValueError(f\"quantity must be positive, got {qty!r}\")\n")
                  .empty());
}

TEST_F(LogScannerTest, LongLinesAreCutAndNumberingGoesOn) {
  std::string log = "ERROR " + std::string(3 * kScanMaxLineBytes, 'z') + "\n" +
                    "ERROR ValueError: quantity must be positive, got 5\n";
  EXPECT_EQ(Scan(log), std::vector<std::string>{"2:add:3"});
  EXPECT_EQ(Scan(log, 4096), std::vector<std::string>{"2:add:3"});
  // Binary garbage and a block-sized log without newlines do not break the scan.
  std::string garbage;
  for (size_t i = 0; i < kScanBlockBytes + 100; ++i) {
    char c = static_cast<char>((i * 7919) % 251 + 1);
    garbage.push_back(c == '\n' ? ' ' : c);
  }
  EXPECT_TRUE(Scan(garbage).empty());
  EXPECT_EQ(Scan(garbage + "\nERROR ValueError: quantity must be positive, got 5\n"),
            std::vector<std::string>{"2:add:3"});
}

}  // namespace
}  // namespace errdex
