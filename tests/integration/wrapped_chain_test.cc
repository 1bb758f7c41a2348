// Tests of wrapped errors in `explain` (docs/matching.md, "Wrapped errors"): a final line whose text the
// wrapped exception of another distribution wrote is answered with the wrapping site first and the inner
// origin as the next link of the chain, both with bindings.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "match/explainer.h"
#include "pipeline/indexer.h"
#include "testing/git_test_util.h"
#include "testing/temp_dir.h"

namespace errdex {
namespace {

using namespace testing_util;

const char* const kLowExceptions = R"py(class HTTPError(Exception):
    pass


class PoolError(HTTPError):
    def __init__(self, pool, message):
        self.pool = pool
        HTTPError.__init__(self, "%s: %s" % (pool, message))


class RequestError(PoolError):
    def __init__(self, pool, url, message):
        self.url = url
        PoolError.__init__(self, pool, message)


class MaxRetryError(RequestError):
    def __init__(self, pool, url, reason=None):
        self.reason = reason
        message = "Max retries exceeded with url: %s (Caused by %r)" % (url, reason)
        RequestError.__init__(self, pool, url, message)


class ProtocolError(HTTPError):
    pass


class NewConnectionError(PoolError):
    pass
)py";

const char* const kLowPool = R"py(from .exceptions import MaxRetryError, NewConnectionError, ProtocolError


class HTTPPool:
    def __str__(self):
        return "%s(host=%r, port=%r)" % (type(self).__name__, self.host, self.port)

    def connect(self):
        raise NewConnectionError(self, "Failed to establish a new connection: refused")

    def urlopen(self, url):
        try:
            self.connect()
        except NewConnectionError as e:
            raise MaxRetryError(self, url, e)

    def read(self):
        raise ProtocolError("Connection aborted.", self)
)py";

const char* const kHighApi = R"py(from low.exceptions import MaxRetryError, ProtocolError

from .exceptions import ConnectionError


def get(pool, url):
    try:
        return pool.urlopen(url)
    except ProtocolError as err:
        raise ConnectionError(err)
    except MaxRetryError as e:
        raise ConnectionError(e, request=url)
)py";

class WrappedChainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteFile(dir_ / "low/low/__init__.py", "");
    WriteFile(dir_ / "low/low/exceptions.py", kLowExceptions);
    WriteFile(dir_ / "low/low/pool.py", kLowPool);
    WriteFile(dir_ / "high/high/__init__.py", "");
    WriteFile(dir_ / "high/high/exceptions.py", "class ConnectionError(IOError):\n    pass\n");
    WriteFile(dir_ / "high/high/api.py", kHighApi);
    for (const char* name : {"low", "high"}) {
      IndexOptions options;
      options.source = dir_ / name;
      options.name = std::string("pypi/") + name;
      options.catalog = dir_ / "catalog.db";
      options.jobs = 1;
      IndexSummary summary;
      std::string error;
      ASSERT_TRUE(Index(options, &summary, &error)) << error;
    }
  }

  Explanation Explain(std::string_view paste) {
    auto catalog = Catalog::Open(dir_ / "catalog.db", /*read_only=*/true);
    std::string note;
    auto matcher = ErrorMatcher::Load(catalog->matcher_tables(), false, &note);
    return Explainer(*catalog, *matcher).Explain(paste, 5);
  }

  TempDir dir_;
};

constexpr char kMessage[] =
    "HTTPPool(host='h', port=1): Max retries exceeded with url: /x (Caused by NewConnectionError(\"HTTPPool(host='h', "
    "port=1): Failed to establish a new connection: refused\"))";

TEST_F(WrappedChainTest, TheWrappingSiteFirstAndTheInnerOriginNext) {
  Explanation e = Explain(std::string("high.exceptions.ConnectionError: ") + kMessage);
  ASSERT_FALSE(e.matches.empty());
  const ExplainMatch& outer = e.matches[0];
  EXPECT_EQ(outer.site.repo, "pypi/high");
  EXPECT_EQ(outer.site.path, "high/api.py");
  EXPECT_EQ(outer.site.line, 12);  // the clause that catches MaxRetryError, not the ProtocolError one
  ASSERT_EQ(outer.bindings.size(), 1u);
  EXPECT_EQ(outer.bindings[0], std::make_pair(std::string("e"), std::string(kMessage)));
  EXPECT_NE(outer.why[0].find("catches low.exceptions.MaxRetryError as e"), std::string::npos) << outer.why[0];
  ASSERT_FALSE(e.chain.empty());
  const ExplainMatch& inner = e.chain[0];
  EXPECT_EQ(inner.site.repo, "pypi/low");
  EXPECT_EQ(inner.site.path, "low/pool.py");
  EXPECT_EQ(inner.type, "low.exceptions.MaxRetryError");
  // The text of MaxRetryError, through RequestError's and PoolError's __init__: the right bindings.
  std::map<std::string, std::string> bindings(inner.bindings.begin(), inner.bindings.end());
  EXPECT_EQ(bindings["url"], "/x");
  EXPECT_EQ(bindings["pool"], "HTTPPool(host='h', port=1)");
}

TEST_F(WrappedChainTest, TheInnerClassItselfIsAnsweredBeforeTheCausePrintedInItsText) {
  Explanation e = Explain(std::string("low.exceptions.MaxRetryError: ") + kMessage);
  ASSERT_FALSE(e.matches.empty());
  EXPECT_EQ(e.matches[0].type, "low.exceptions.MaxRetryError");
  EXPECT_TRUE(e.chain.empty());
}

TEST_F(WrappedChainTest, ABareClassNameIsNoWrappingChain) {
  // Python prints a library's exception with its module; a bare ConnectionError is the builtin.
  Explanation e = Explain(std::string("ConnectionError: ") + kMessage);
  for (const ExplainMatch& m : e.matches) {
    for (const std::string& why : m.why) EXPECT_EQ(why.find("wraps:"), std::string::npos) << why;
  }
  EXPECT_TRUE(e.chain.empty());
}

}  // namespace
}  // namespace errdex
