// Tests of the receiver's state in the feasibility check of call paths (src/analysis/receiver_state.h): small
// packages extracted for real, their call paths read from the call graph.
#include "analysis/receiver_state.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/graph_triggers_test_util.h"

namespace errdex {
namespace {

using graph_triggers_test::Repo;
using graph_triggers_test::SiteAt;

// The entry points of the call paths to the site at LINE of FUNCTION in pkg/api.py, sorted.
std::vector<std::string> EntriesTo(const Repo& repo, const std::string& function, int line) {
  const GraphTriggers::NodeId node = repo.triggers->NodeOf("pkg/api.py", function, line);
  std::vector<std::string> out;
  for (const CallPath& p : repo.triggers->PathsTo(node, SiteAt(repo, "pkg/api.py", line))) {
    out.push_back(p.frames.front().function);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ReceiverStateTest, AWithRunsExitAfterEnterAndInit) {
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/api.py",
              "class Info:\n"                                    // 1
              "    pass\n"                                       // 2
              "class Catcher:\n"                                 // 3
              "    def __init__(self, kind):\n"                  // 4
              "        self.kind = kind\n"                       // 5
              "        self.info = None\n"                       // 6
              "    def __enter__(self):\n"                       // 7
              "        self.info: Info[int] = Info.later()\n"    // 8
              "        return self.info\n"                       // 9
              "    def __exit__(self, t, v, tb):\n"              // 10
              "        assert self.info is not None, 'enter'\n"  // 11
              "        if self.kind == 'strict':\n"              // 12
              "            raise ValueError('strict')\n"         // 13
              "        return False\n"                           // 14
              "def lax():\n"                                     // 15
              "    with Catcher('lax') as info:\n"               // 16
              "        pass\n"                                   // 17
              "def strict():\n"                                  // 18
              "    with Catcher('strict'):\n"                    // 19
              "        pass\n"                                   // 20
              "def either(kind):\n"                              // 21
              "    with Catcher(kind):\n"                        // 22
              "        pass\n"}});                               // 23
  // `__enter__` always sets `info` (annotated with a class): no `with` makes the assert fail; only the
  // `__exit__` itself, called by anyone.
  EXPECT_EQ(EntriesTo(repo, "Catcher.__exit__", 11), std::vector<std::string>({"Catcher.__exit__"}));
  // `kind` is the constructor's argument: 'lax' cannot raise, a parameter may.
  EXPECT_EQ(EntriesTo(repo, "Catcher.__exit__", 13),
            std::vector<std::string>({"Catcher.__exit__", "either", "strict"}));
}

TEST(ReceiverStateTest, AWithWhoseBodyMayChangeTheReceiverDecidesNothing) {
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/api.py",
              "class Lock:\n"                                 // 1
              "    def __init__(self):\n"                     // 2
              "        self.held = False\n"                   // 3
              "    def __enter__(self):\n"                    // 4
              "        self.held = True\n"                    // 5
              "        return self\n"                         // 6
              "    def release(self):\n"                      // 7
              "        self.held = False\n"                   // 8
              "    def __exit__(self, *exc):\n"               // 9
              "        if not self.held:\n"                   // 10
              "            raise RuntimeError('not held')\n"  // 11
              "def early():\n"                                // 12
              "    with Lock() as lock:\n"                    // 13
              "        lock.release()\n"                      // 14
              "def plain():\n"                                // 15
              "    with Lock():\n"                            // 16
              "        pass\n"}});                            // 17
  // The body can call `release` through the `as` target (`__enter__` returns self); without a target it
  // cannot.
  EXPECT_EQ(EntriesTo(repo, "Lock.__exit__", 11), std::vector<std::string>({"Lock.__exit__", "early"}));
}

TEST(ReceiverStateTest, AMethodOfAFreshObjectSeesWhatInitAssigned) {
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/api.py",
              "class Conn:\n"                               // 1
              "    def __init__(self, url, pool=None):\n"   // 2
              "        self.url = url\n"                    // 3
              "        self._closed = False\n"              // 4
              "        self.pool = pool\n"                  // 5
              "    def close(self):\n"                      // 6
              "        self._closed = True\n"               // 7
              "    def query(self):\n"                      // 8
              "        if self._closed:\n"                  // 9
              "            raise RuntimeError('closed')\n"  // 10
              "        if self.pool is None:\n"             // 11
              "            raise ValueError('no pool')\n"   // 12
              "def chained(url):\n"                         // 13
              "    return Conn(url).query()\n"              // 14
              "def local(url):\n"                           // 15
              "    c = Conn(url, pool=[1])\n"               // 16
              "    r = c.query()\n"                         // 17
              "    return r\n"                              // 18
              "def closed_first(url):\n"                    // 19
              "    c = Conn(url)\n"                         // 20
              "    c.close()\n"                             // 21
              "    return c.query()\n"                      // 22
              "def reassigned(url, other):\n"               // 23
              "    c = Conn(url, pool=[1])\n"               // 24
              "    c = other\n"                             // 25
              "    return c.query()\n"}});                  // 26
  // `_closed` is False on a fresh Conn: only a call after `close`, or on an object from elsewhere.
  EXPECT_EQ(EntriesTo(repo, "Conn.query", 10), std::vector<std::string>({"Conn.query", "closed_first", "reassigned"}));
  // `pool` is the argument: a list is not None; the default None is.
  EXPECT_EQ(EntriesTo(repo, "Conn.query", 12),
            std::vector<std::string>({"Conn.query", "chained", "closed_first", "reassigned"}));
}

TEST(ReceiverStateTest, AnAttributeWrittenBeforeTheTestOrAnEscapedReceiverIsUnknown) {
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/api.py",
              "REGISTRY = []\n"                             // 1
              "class Job:\n"                                // 2
              "    def __init__(self):\n"                   // 3
              "        self.done = False\n"                 // 4
              "        self.state = 'new'\n"                // 5
              "    def _finish(self):\n"                    // 6
              "        self.done = True\n"                  // 7
              "    def run(self):\n"                        // 8
              "        self._finish()\n"                    // 9
              "        if self.done:\n"                     // 10
              "            raise RuntimeError('done')\n"    // 11
              "        if self.state is None:\n"            // 12
              "            raise ValueError('no state')\n"  // 13
              "class Task:\n"                               // 14
              "    def __init__(self):\n"                   // 15
              "        self.state = 'new'\n"                // 16
              "        REGISTRY.append(self)\n"             // 17
              "    def run(self):\n"                        // 18
              "        if self.state is None:\n"            // 19
              "            raise ValueError('no state')\n"  // 20
              "def start():\n"                              // 21
              "    return Job().run()\n"                    // 22
              "def launch():\n"                             // 23
              "    return Task().run()\n"                   // 24
              "def reset(job):\n"                           // 25
              "    job.state = None\n"}});                  // 26
  // `run` calls `_finish` (which sets `done`) before the test.
  EXPECT_EQ(EntriesTo(repo, "Job.run", 11), std::vector<std::string>({"Job.run", "start"}));
  // `state` is 'new' on a fresh Job: `reset` writes another object (no Job escapes to it).
  EXPECT_EQ(EntriesTo(repo, "Job.run", 13), std::vector<std::string>({"Job.run"}));
  // A Task hands itself to the registry: anyone may have changed it.
  EXPECT_EQ(EntriesTo(repo, "Task.run", 20), std::vector<std::string>({"Task.run", "launch"}));
}

TEST(ReceiverStateTest, AMiddleFrameOfAFreshObjectIsCheckedToo) {
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/api.py",
              "class Conn:\n"                           // 1
              "    def __init__(self):\n"               // 2
              "        self.pool = None\n"              // 3
              "    def _query(self):\n"                 // 4
              "        if self.pool is not None:\n"     // 5
              "            return self._check()\n"      // 6
              "        return 0\n"                      // 7
              "    def _check(self):\n"                 // 8
              "        raise ValueError('bad pool')\n"  // 9
              "def run():\n"                            // 10
              "    return Conn()._query()\n"            // 11
              "def other(conn):\n"                      // 12
              "    return conn._query()\n"}});          // 13
  // `run`'s Conn has no pool: its `_query` does not call `_check`; any other Conn may have one.
  EXPECT_EQ(EntriesTo(repo, "Conn._check", 9), std::vector<std::string>({"other"}));
}

TEST(ReceiverStateTest, AWithsOwnCallBindsNothingToExit) {
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/api.py",
              "class Cm:\n"                                               // 1
              "    def __enter__(self):\n"                                // 2
              "        return self\n"                                     // 3
              "    def __exit__(self, exc_type, value=None, tb=None):\n"  // 4
              "        if exc_type is not None:\n"                        // 5
              "            raise ValueError('failed inside')\n"           // 6
              "class Session:\n"                                          // 7
              "    def begin(self, options):\n"                           // 8
              "        return Cm()\n"                                     // 9
              "    def run(self):\n"                                      // 10
              "        with self.begin(None):\n"                          // 11
              "            pass\n"}});                                    // 12
  // `None` is `begin`'s argument, not `__exit__`'s `exc_type`: the body may raise.
  EXPECT_EQ(EntriesTo(repo, "Cm.__exit__", 6), std::vector<std::string>({"Cm.__exit__", "Session.run"}));
}

}  // namespace
}  // namespace errdex
