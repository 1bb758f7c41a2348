// Tests of what the `try` blocks around a call catch (CallGraphEdge::catches, docs/callgraph.md "Caught
// exceptions"), on small programs extracted for real.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "analysis/call_graph.h"
#include "analysis/call_graph_test_util.h"

namespace errdex {
namespace {

using call_graph_test::Build;
using call_graph_test::Built;

// What the handlers around the call from CALLER to CALLEE (PyCG names) at LINE take: the `try` blocks innermost
// first (" | "), their clauses in order ("; "), each "!" when it re-raises, "*" when it takes everything, then
// the names, then the project classes as "path:qualname"; "-" when there is no such edge.
std::string CaughtAt(const Built& b, const std::string& caller, const std::string& callee, int line) {
  for (const CallGraphEdge& e : b.graph.edges) {
    if (b.graph.nodes[e.caller].name != caller || b.graph.nodes[e.callee].name != callee || e.line != line) continue;
    std::string out;
    for (const std::vector<CatchClause>& clauses : b.graph.catch_sets[e.catches].tries) {
      if (!out.empty()) out += " | ";
      for (size_t i = 0; i < clauses.size(); ++i) {
        const CatchClause& c = clauses[i];
        std::string clause = std::string(c.reraises ? "!" : "") + (c.all ? "*" : "");
        for (const std::string& n : c.names) clause += (clause.empty() || clause == "!" ? "" : " ") + n;
        for (const auto& [path, qualname] : c.classes) {
          clause += (clause.empty() || clause == "!" ? "" : " ") + path + ":" + qualname;
        }
        out += (i > 0 ? "; " : "") + clause;
      }
    }
    return out;
  }
  return "-";
}

TEST(CallGraphCatchesTest, AHandlerCatchesTheCallsOfItsTryBodyOnly) {
  Built b = Build({{"pkg/errors.py", "class NotFound(LookupError):\n    pass\n"},
                   {"pkg/api.py",
                    "from pkg import errors\n"
                    "from pkg.errors import NotFound\n"
                    "def find(n):\n"
                    "    raise NotFound(n)\n"
                    "def first(names):\n"
                    "    for n in names:\n"
                    "        try:\n"
                    "            return find(n)\n"
                    "        except errors.NotFound:\n"
                    "            pass\n"
                    "    find(None)\n"
                    "def both(n):\n"
                    "    try:\n"
                    "        find(n)\n"
                    "    except (KeyError, NotFound):\n"
                    "        return None\n"
                    "    except ValueError as e:\n"
                    "        log(e)\n"
                    "def log(e):\n"
                    "    pass\n"}});
  EXPECT_EQ(CaughtAt(b, "pkg.api.first", "pkg.api.find", 8), "pkg/errors.py:NotFound");
  EXPECT_EQ(CaughtAt(b, "pkg.api.first", "pkg.api.find", 11), "");  // after the loop: not in the `try`
  EXPECT_EQ(CaughtAt(b, "pkg.api.both", "pkg.api.find", 14),
            "builtins.KeyError pkg/errors.py:NotFound; builtins.ValueError");
  EXPECT_EQ(CaughtAt(b, "pkg.api.both", "pkg.api.log", 18), "");  // a handler's own calls are not in the body
}

TEST(CallGraphCatchesTest, AHandlerThatReraisesCatchesNothing) {
  Built b = Build({{"m.py",
                    "class Error(Exception):\n    pass\n"
                    "def work():\n    raise KeyError('k')\n"
                    "def bare():\n"
                    "    try:\n        work()\n    except KeyError:\n        cleanup()\n        raise\n"
                    "def chained():\n"
                    "    try:\n        work()\n    except KeyError as e:\n        raise Error('no key') from e\n"
                    "def same():\n"
                    "    try:\n        work()\n    except KeyError as e:\n        raise e\n"
                    "def hidden():\n"
                    "    try:\n        work()\n    except KeyError:\n        raise Error('no key') from None\n"
                    "def replaced():\n"
                    "    try:\n        work()\n    except KeyError:\n        raise Error('no key')\n"
                    "def kept():\n"
                    "    for i in range(3):\n"
                    "        try:\n            work()\n        except KeyError as exc:\n            last = exc\n"
                    "    raise last\n"
                    "def nested():\n"
                    "    try:\n        work()\n    except KeyError:\n        def later():\n            raise\n"
                    "        return later\n"
                    "def cleanup():\n    pass\n"}});
  EXPECT_EQ(CaughtAt(b, "m.bare", "m.work", 7), "");
  EXPECT_EQ(CaughtAt(b, "m.chained", "m.work", 13), "");
  EXPECT_EQ(CaughtAt(b, "m.same", "m.work", 18), "");
  // `from None` hides the caught error; a new raise leaves it only as context: the caught one ends there.
  EXPECT_EQ(CaughtAt(b, "m.hidden", "m.work", 23), "builtins.KeyError");
  EXPECT_EQ(CaughtAt(b, "m.replaced", "m.work", 28), "builtins.KeyError");
  EXPECT_EQ(CaughtAt(b, "m.kept", "m.work", 34), "");                     // kept, raised after the loop
  EXPECT_EQ(CaughtAt(b, "m.nested", "m.work", 40), "builtins.KeyError");  // the raise runs in `later`
}

TEST(CallGraphCatchesTest, AHandlerThatHandsTheErrorOnOrReraisesOnExitCatchesNothing) {
  Built b = Build({{"m.py",
                    "import logging\n"
                    "from util import safe_reraise\n"
                    "log = logging.getLogger(__name__)\n"
                    "def work():\n    raise KeyError('k')\n"
                    "class Conn:\n"
                    "    def run(self):\n"
                    "        try:\n            work()\n        except BaseException as e:\n"
                    "            self._handle_error(e, 'run')\n"
                    "    def flush(self):\n"
                    "        try:\n            work()\n        except:\n"
                    "            with safe_reraise():\n                self.rollback()\n"
                    "    def quiet(self):\n"
                    "        try:\n            work()\n        except KeyError as e:\n"
                    "            log.warning('no key: %s', e)\n"
                    "    def _handle_error(self, e, where):\n        raise e\n"
                    "    def rollback(self):\n        pass\n"}});
  EXPECT_EQ(CaughtAt(b, "m.Conn.run", "m.work", 9), "");
  EXPECT_EQ(CaughtAt(b, "m.Conn.flush", "m.work", 14), "");
  EXPECT_EQ(CaughtAt(b, "m.Conn.quiet", "m.work", 20), "builtins.KeyError");  // a logger only shows it
}

TEST(CallGraphCatchesTest, CatchAllsNestedTriesAndNestedFunctions) {
  Built b = Build({{"m.py",
                    "def work():\n    raise KeyError('k')\n"
                    "def outer():\n"
                    "    try:\n"
                    "        try:\n"
                    "            work()\n"
                    "        except ValueError:\n"
                    "            work()\n"
                    "    except:\n"
                    "        pass\n"
                    "def base():\n"
                    "    try:\n        work()\n    except BaseException:\n        pass\n"
                    "def broad():\n"
                    "    try:\n        work()\n    except Exception:\n        pass\n"
                    "def inner():\n"
                    "    try:\n"
                    "        def later():\n"
                    "            work()\n"
                    "        return later\n"
                    "    except KeyError:\n"
                    "        pass\n"}});
  EXPECT_EQ(CaughtAt(b, "m.outer", "m.work", 6), "builtins.ValueError | *");
  EXPECT_EQ(CaughtAt(b, "m.outer", "m.work", 8), "*");  // a handler inside the outer `try` body
  EXPECT_EQ(CaughtAt(b, "m.base", "m.work", 13), "*");
  EXPECT_EQ(CaughtAt(b, "m.broad", "m.work", 18), "builtins.Exception");
  EXPECT_EQ(CaughtAt(b, "m.inner.later", "m.work", 24), "");  // runs when called, outside the `try`
}

TEST(CallGraphCatchesTest, AReraisingClauseIsKeptBeforeTheClausesAfterIt) {
  Built b = Build({{"m.py",
                    "def work():\n    raise KeyError('k')\n"
                    "def f():\n"
                    "    try:\n"
                    "        work()\n"
                    "    except ImportError:\n"
                    "        raise\n"
                    "    except Exception:\n"
                    "        pass\n"
                    "def g(kinds):\n"
                    "    try:\n"
                    "        work()\n"
                    "    except kinds.pick():\n"
                    "        raise\n"
                    "    except Exception:\n"
                    "        pass\n"}});
  EXPECT_EQ(CaughtAt(b, "m.f", "m.work", 5), "!builtins.ImportError; builtins.Exception");
  // A re-raising clause of unknown types may take anything: the clauses after it are not trusted.
  EXPECT_EQ(CaughtAt(b, "m.g", "m.work", 12), "!*; builtins.Exception");
}

TEST(CallGraphCatchesTest, ContextlibSuppressCatchesItsArguments) {
  Built b = Build({{"m.py",
                    "import contextlib\n"
                    "from contextlib import suppress\n"
                    "from m2 import suppress as own\n"
                    "ERRORS = (KeyError, IndexError)\n"
                    "def work():\n    raise KeyError('k')\n"
                    "def a():\n"
                    "    with contextlib.suppress(KeyError):\n"
                    "        work()\n"
                    "    work()\n"
                    "def b():\n"
                    "    with suppress(*ERRORS):\n"
                    "        work()\n"
                    "def c():\n"
                    "    with own(KeyError):\n"
                    "        work()\n"
                    "def d():\n"
                    "    try:\n        work()\n    except ERRORS:\n        pass\n"},
                   {"m2.py", "import contextlib\n@contextlib.contextmanager\ndef suppress(*types):\n    yield\n"}});
  EXPECT_EQ(CaughtAt(b, "m.a", "m.work", 9), "builtins.KeyError");
  EXPECT_EQ(CaughtAt(b, "m.a", "m.work", 10), "");
  EXPECT_EQ(CaughtAt(b, "m.b", "m.work", 13), "");  // a starred argument: the types are not known
  EXPECT_EQ(CaughtAt(b, "m.c", "m.work", 16), "");  // the project's own `suppress`
  EXPECT_EQ(CaughtAt(b, "m.d", "m.work", 19), "builtins.IndexError builtins.KeyError");  // a tuple constant
}

TEST(CallGraphCatchesTest, HandlerTypesThatDoNotResolveCatchNothingKnown) {
  Built b = Build({{"m.py",
                    "import requests\n"
                    "def work():\n    raise KeyError('k')\n"
                    "def f(kinds):\n"
                    "    try:\n        work()\n    except kinds.pick():\n        pass\n"
                    "    try:\n        work()\n    except requests.HTTPError:\n        pass\n"}});
  EXPECT_EQ(CaughtAt(b, "m.f", "m.work", 6), "");  // a call's result: unknown
  EXPECT_EQ(CaughtAt(b, "m.f", "m.work", 10), "requests.HTTPError");
}

}  // namespace
}  // namespace errdex
