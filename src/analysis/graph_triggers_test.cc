// Tests of the triggers read from the call graph (src/analysis/graph_triggers.h) on a small package
// extracted for real: a re-exported public class, private helpers, and tests with expecting blocks.
#include "analysis/graph_triggers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "analysis/graph_triggers_test_util.h"

namespace errdex {
namespace {

using graph_triggers_test::Repo;
using graph_triggers_test::SiteAt;

Repo Package() {
  return Repo({{"pkg/__init__.py", "from pkg.api import Client\n__all__ = ['Client']\n"},
               {"pkg/api.py",
                "from pkg._impl import check\n"
                "class Client:\n"
                "    def get(self, n):\n"
                "        return _fetch(n)\n"
                "    def _internal(self):\n"
                "        check(0)\n"
                "def _fetch(n):\n"
                "    return check(n)\n"},
               {"pkg/_impl.py", "def check(n):\n    if n < 0:\n        raise ValueError('negative')\n    return n\n"},
               {"tests/test_api.py",
                "import pytest\n"
                "from pkg import Client\n"
                "from pkg._impl import check\n"
                "def test_get():\n"
                "    with pytest.raises(ValueError):\n"
                "        Client().get(-1)\n"
                "def test_call_form():\n"
                "    pytest.raises(ValueError, check, -1)\n"
                "def test_nothing():\n"
                "    with pytest.raises(ValueError):\n"
                "        pass\n"}});
}

TEST(GraphTriggersTest, PathsRunFromTheExportedApiWithTheCallLines) {
  Repo repo = Package();
  const GraphTriggers::NodeId check = repo.triggers->NodeOf("pkg/_impl.py", "check", 3);
  ASSERT_NE(check, GraphTriggers::kNoNode);
  const std::vector<CallPath>& paths = repo.triggers->PathsTo(check);
  ASSERT_EQ(paths.size(), 1u);  // Client._internal and _fetch are private; the test is no entry
  const std::vector<CallFrame>& f = paths[0].frames;
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].path + ":" + std::to_string(f[0].line) + " " + f[0].function + " | " + f[0].code,
            "pkg/api.py:4 Client.get | return _fetch(n)");
  EXPECT_EQ(f[1].path + ":" + std::to_string(f[1].line) + " " + f[1].function + " | " + f[1].code,
            "pkg/api.py:8 _fetch | return check(n)");
  EXPECT_EQ(f[2].path + ":" + std::to_string(f[2].line) + " " + f[2].function, "pkg/_impl.py:0 check");
  EXPECT_TRUE(paths[0].certain);
  // A public function is its own first path.
  const GraphTriggers::NodeId get = repo.triggers->NodeOf("pkg/api.py", "Client.get", 4);
  ASSERT_FALSE(repo.triggers->PathsTo(get).empty());
  EXPECT_EQ(repo.triggers->PathsTo(get)[0].frames.size(), 1u);
}

TEST(GraphTriggersTest, ABlockReachesWhatItsCallsReach) {
  Repo repo = Package();
  const std::vector<GraphTriggers::NodeId> check = {repo.triggers->NodeOf("pkg/_impl.py", "check", 3)};
  const std::vector<GraphTriggers::NodeId> internal = {repo.triggers->NodeOf("pkg/api.py", "Client._internal", 6)};
  auto block = [&](const std::string& test, int first, int last, bool call_form) {
    GraphTriggers::Block b;
    b.node = repo.triggers->NodeOf("tests/test_api.py", test, first);
    b.first = first;
    b.last = last;
    b.call_form = call_form;
    return b;
  };
  EXPECT_TRUE(repo.triggers->Reaches(block("test_get", 5, 6, false), check));
  // Client().get(-1) calls Client.get, which calls _fetch, which calls check: three calls from the block.
  EXPECT_EQ(repo.triggers->Distance(block("test_get", 5, 6, false), check), 3);
  EXPECT_FALSE(repo.triggers->Reaches(block("test_get", 5, 6, false), internal));
  // The one-target form reads the same reach; a node outside the graph is not reached.
  EXPECT_EQ(repo.triggers->Distance(block("test_get", 5, 6, false), check[0]), 3);
  EXPECT_EQ(repo.triggers->Distance(block("test_get", 5, 6, false), internal[0]), -1);
  EXPECT_EQ(repo.triggers->Distance(block("test_get", 5, 6, false), GraphTriggers::kNoNode), -1);
  // pytest.raises(ValueError, check, -1): pytest calls what it is handed.
  EXPECT_TRUE(repo.triggers->Reaches(block("test_call_form", 8, 8, true), check));
  EXPECT_FALSE(repo.triggers->Reaches(block("test_nothing", 10, 11, false), check));
}

std::vector<std::string> Entries(const std::vector<CallPath>& paths) {
  std::vector<std::string> out;
  for (const CallPath& p : paths) out.push_back(p.frames.front().function);
  return out;
}

TEST(GraphTriggersTest, ACallWhoseArgumentsMakeTheRaiseImpossibleIsNotCited) {
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/api.py",
              "class Session:\n"
              "    def close(self, upto):\n"
              "        return self._iterate(upto)\n"
              "    def clear(self):\n"
              "        return self._iterate()\n"
              "    def reset(self):\n"
              "        return self._iterate(upto=None)\n"
              "    def _iterate(self, upto=None):\n"
              "        current = self\n"
              "        while current:\n"
              "            if current.parent is upto:\n"
              "                break\n"
              "            elif current.parent is None:\n"
              "                raise ValueError('not on the list')\n"
              "            current = current.parent\n"
              "def load(path=None, strict=False):\n"
              "    if path is None:\n"
              "        raise ValueError('no path')\n"
              "    if strict and not path:\n"
              "        raise ValueError('empty path')\n"
              "    return path\n"
              "def _by_name(name: str):\n"
              "    return load(name)\n"
              "def via_name(n):\n"
              "    return _by_name(n)\n"
              "def by_str(name: str):\n"
              "    return load(name)\n"
              "def by_any(name):\n"
              "    return load(name)\n"
              "def default():\n"
              "    return load()\n"
              "def literal():\n"
              "    return load('x', strict=True)\n"
              "def empty():\n"
              "    return load('', True)\n"}});
  // Without `upto` the loop stops at the root before the raise: `parent is None` is `parent is upto`.
  const GraphTriggers::NodeId iterate = repo.triggers->NodeOf("pkg/api.py", "Session._iterate", 14);
  EXPECT_EQ(Entries(repo.triggers->PathsTo(iterate, SiteAt(repo, "pkg/api.py", 14))),
            std::vector<std::string>({"Session.close"}));
  // Without the site, every caller.
  EXPECT_EQ(repo.triggers->PathsTo(iterate).size(), 3u);
  // `path is None`: not for a parameter annotated `str` of a private caller, nor for a literal; an
  // unannotated name may be None, and so may a public caller's parameter (its own caller may pass None).
  const GraphTriggers::NodeId load = repo.triggers->NodeOf("pkg/api.py", "load", 18);
  std::vector<std::string> none = Entries(repo.triggers->PathsTo(load, SiteAt(repo, "pkg/api.py", 18)));
  EXPECT_EQ(none, std::vector<std::string>({"load", "by_str", "by_any", "default"}));
  // `strict and not path` after `if path is None: raise`: `strict` defaults to False, `load()` leaves early;
  // only the empty literal with strict.
  std::vector<std::string> empty = Entries(repo.triggers->PathsTo(load, SiteAt(repo, "pkg/api.py", 20)));
  EXPECT_EQ(empty, std::vector<std::string>({"load", "empty"}));
}

TEST(GraphTriggersTest, TheTestFrameworksOwnCallsInABlockAreNotFollowed) {
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/checks.py", "def warns(kind):\n    raise TypeError('bad kind')\n"},
             {"pkg/api.py", "def run(x):\n    raise TypeError('bad x')\n"},
             {"tests/test_api.py",
              "import pytest\n"
              "from pkg.api import run\n"
              "def test_nested():\n"
              "    with pytest.raises(TypeError):\n"
              "        with pytest.warns(UserWarning):\n"
              "            run(1)\n"}});
  const std::vector<GraphTriggers::NodeId> run = {repo.triggers->NodeOf("pkg/api.py", "run", 2)};
  GraphTriggers::Block b;
  b.node = repo.triggers->NodeOf("tests/test_api.py", "test_nested", 4);
  b.first = 4;
  b.last = 6;
  EXPECT_EQ(repo.triggers->Distance(b, run), 1);
  b.framework_calls = {{6, "run"}};  // were `run` the framework's: not followed
  EXPECT_EQ(repo.triggers->Distance(b, run), -1);
  b.framework_calls = {{5, ""}};  // a `with` line of the framework: its calls only
  EXPECT_EQ(repo.triggers->Distance(b, run), 1);
}

TEST(GraphTriggersTest, ACertainReachFollowsTheBlocksOwnCallsThenOnlyEdgesWhoseCalleeIsKnown) {
  // For a test without a pattern: beyond the block's own calls, a call through a parameter (`constructor()`
  // takes what every caller of `_execute` passes) and a callable handed to a library (`sorted(key=...)`) are
  // not followed. The block's own calls are, even by method name (`table.check_rows()` on a fixture).
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/conn.py",
              "def _init_ddl():\n"
              "    raise ValueError('no ddl')\n"
              "def _init_compiled():\n"
              "    raise ValueError('not compiled')\n"
              "def _execute(x, constructor=_init_compiled):\n"
              "    return constructor()\n"
              "def ddl():\n"
              "    return _execute(1, _init_ddl)\n"
              "def compiled():\n"
              "    return _init_compiled()\n"
              "def sort_rows(rows):\n"
              "    return sorted(rows, key=_row_key)\n"
              "def _row_key(row):\n"
              "    raise KeyError('no key')\n"
              "class Table:\n"
              "    def check_rows(self):\n"
              "        raise KeyError('bad row')\n"},
             {"tests/test_conn.py",
              "import pytest\n"
              "from pkg.conn import ddl, sort_rows, compiled\n"
              "def test_ddl():\n"
              "    with pytest.raises(ValueError):\n"
              "        ddl()\n"
              "def test_sort():\n"
              "    with pytest.raises(KeyError):\n"
              "        sort_rows([1])\n"
              "def test_own(table):\n"
              "    with pytest.raises(KeyError):\n"
              "        table.check_rows()\n"
              "def test_compiled():\n"
              "    with pytest.raises(ValueError):\n"
              "        compiled()\n"}});
  auto block = [&](const std::string& test, int first) {
    GraphTriggers::Block b;
    b.node = repo.triggers->NodeOf("tests/test_conn.py", test, first);
    b.first = first;
    b.last = first + 1;
    return b;
  };
  const std::vector<GraphTriggers::NodeId> ddl = {repo.triggers->NodeOf("pkg/conn.py", "_init_ddl", 2)};
  const std::vector<GraphTriggers::NodeId> init = {repo.triggers->NodeOf("pkg/conn.py", "_init_compiled", 4)};
  const std::vector<GraphTriggers::NodeId> key = {repo.triggers->NodeOf("pkg/conn.py", "_row_key", 14)};
  const std::vector<GraphTriggers::NodeId> rows = {repo.triggers->NodeOf("pkg/conn.py", "Table.check_rows", 17)};
  const int none = GraphTriggers::kNothingCaught;
  EXPECT_EQ(repo.triggers->Distance(block("test_ddl", 4), ddl, none, false), 3);
  EXPECT_EQ(repo.triggers->Distance(block("test_ddl", 4), ddl, none, true), -1);
  EXPECT_EQ(repo.triggers->Distance(block("test_ddl", 4), init, none, true), -1);
  EXPECT_EQ(repo.triggers->Distance(block("test_sort", 7), key, none, false), 2);
  EXPECT_EQ(repo.triggers->Distance(block("test_sort", 7), key, none, true), -1);
  EXPECT_EQ(repo.triggers->Distance(block("test_own", 10), rows, none, true), 1);
  EXPECT_EQ(repo.triggers->Distance(block("test_compiled", 13), init, none, true), 2);
}

TEST(GraphTriggersTest, NoPathGoesThroughACallableALibraryStores) {
  // `stack.callback(func)` stores func: it runs when the stack closes, from `close`, not from `add_cleanup`.
  Repo repo({{"pkg/__init__.py", "from pkg.api import Config\n__all__ = ['Config']\n"},
             {"pkg/api.py",
              "import contextlib\n"
              "class Config:\n"
              "    def __init__(self):\n"
              "        self._stack = contextlib.ExitStack()\n"
              "    def add_cleanup(self, func):\n"
              "        self._stack.callback(func)\n"
              "    def setup(self):\n"
              "        self.add_cleanup(_teardown)\n"
              "def _teardown():\n"
              "    raise RuntimeError('teardown failed')\n"}});
  const GraphTriggers::NodeId teardown = repo.triggers->NodeOf("pkg/api.py", "_teardown", 10);
  ASSERT_NE(teardown, GraphTriggers::kNoNode);
  EXPECT_TRUE(repo.triggers->PathsTo(teardown).empty());
  GraphTriggers::Block block;
  block.node = repo.triggers->NodeOf("pkg/api.py", "Config.setup", 8);
  block.first = 7;
  block.last = 8;
  EXPECT_FALSE(repo.triggers->Reaches(block, {teardown}));
}

TEST(GraphTriggersTest, ACallThatCannotReachAMiddleFramesNextCallIsNotCited) {
  // The raise is in `_cwd`; `_Store.__init__` calls it only under `if root is None:` (then assigns `root`
  // in the else branch, after the test). A caller passing a str, a literal or `self` cannot reach `_cwd`
  // through `__init__`; one passing None or an unknown value can. The early-exit form (`if not create:
  // return`) guards the rest of `open`.
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/store.py",
              "import os\n"
              "def _cwd():\n"
              "    raise OSError('no working directory')\n"
              "class _Store:\n"
              "    def __init__(self, root=None, create=False):\n"
              "        if root is None:\n"
              "            self.root = _cwd()\n"
              "        else:\n"
              "            root = os.fspath(root)\n"
              "            self.root = root\n"
              "def _at(root: str):\n"
              "    return _Store(root)\n"
              "def from_text(text):\n"
              "    return _at(text)\n"
              "def here():\n"
              "    return _Store()\n"
              "def named():\n"
              "    return _Store('data')\n"
              "def anything(x):\n"
              "    return _Store(x)\n"
              "def _open(path, create=True):\n"
              "    if not create:\n"
              "        return None\n"
              "    return _cwd()\n"
              "def lookup():\n"
              "    return _open('x', create=False)\n"
              "def make():\n"
              "    return _open('x')\n"}});
  const GraphTriggers::NodeId cwd = repo.triggers->NodeOf("pkg/store.py", "_cwd", 3);
  ASSERT_NE(cwd, GraphTriggers::kNoNode);
  std::vector<std::string> entries = Entries(repo.triggers->PathsTo(cwd, SiteAt(repo, "pkg/store.py", 3)));
  std::sort(entries.begin(), entries.end());
  // `from_text` (through `_at`'s `root: str`) and `named` pass a root that is not None, `lookup` makes
  // `_open` leave early; `here` (the default None), `anything` (unknown) and `make` reach the raise.
  EXPECT_EQ(entries, std::vector<std::string>({"anything", "here", "make"}));
  // The middle frames' tests do not depend on the raise: the same without the site.
  EXPECT_EQ(Entries(repo.triggers->PathsTo(cwd)).size(), 3u);
}

TEST(GraphTriggersTest, AnAssertThatHoldsForTheCallsArgumentsIsNotCited) {
  // `assert not strict, ...` fails only for strict=True: a caller leaving the default False cannot reach it.
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/cache.py",
              "def _load(key, *,\n"
              "          strict=False):\n"
              "    if key.startswith('/'):\n"
              "        assert not strict, (\n"
              "            'absolute keys are not supported')\n"
              "    return key\n"
              "def get(key):\n"
              "    return _load(key)\n"
              "def get_strict(key):\n"
              "    return _load(key, strict=True)\n"
              "def get_any(key, strict):\n"
              "    return _load(key, strict=strict)\n"}});
  const GraphTriggers::NodeId load = repo.triggers->NodeOf("pkg/cache.py", "_load", 4);
  ASSERT_NE(load, GraphTriggers::kNoNode);
  std::vector<std::string> entries = Entries(repo.triggers->PathsTo(load, SiteAt(repo, "pkg/cache.py", 4)));
  std::sort(entries.begin(), entries.end());
  EXPECT_EQ(entries, std::vector<std::string>({"get_any", "get_strict"}));
  EXPECT_EQ(Entries(repo.triggers->PathsTo(load)).size(), 3u);
}

// Sorted entries of the paths, "?" in front of an uncertain one.
std::vector<std::string> SortedEntries(const std::vector<CallPath>& paths) {
  std::vector<std::string> out;
  for (const CallPath& p : paths) out.push_back((p.certain ? "" : "?") + p.frames.front().function);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(GraphTriggersTest, APathThroughACalledParameterNeedsTheCallerToPassTheCallee) {
  // `_execute` calls whatever it gets as `constructor`; the graph merges `_init_ddl` and `_init_compiled`
  // there. Only the callers that pass `_init_compiled` (positionally, by keyword, or by leaving the default)
  // reach its raise; one that passes a value the graph does not know, or `*args`, may: uncertain when that
  // caller is the entry itself (`splat`: the value is the user's), not when it is a private one (`_forward`).
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/conn.py",
              "def _init_ddl():\n"
              "    return 1\n"
              "def _init_compiled():\n"
              "    raise ValueError('not compiled')\n"
              "def _execute(x, constructor=_init_compiled):\n"
              "    return constructor()\n"
              "def ddl():\n"
              "    return _execute(1, _init_ddl)\n"
              "def ddl_keyword():\n"
              "    return _execute(constructor=_init_ddl, x=1)\n"
              "def compiled():\n"
              "    return _execute(2, _init_compiled)\n"
              "def compiled_keyword():\n"
              "    return _execute(x=2, constructor=_init_compiled)\n"
              "def by_default():\n"
              "    return _execute(3)\n"
              "def _forward(f):\n"
              "    return _execute(4, f)\n"
              "def unknown(f):\n"
              "    return _forward(f)\n"
              "def splat(*args):\n"
              "    return _execute(*args)\n"}});
  const GraphTriggers::NodeId compiled = repo.triggers->NodeOf("pkg/conn.py", "_init_compiled", 4);
  ASSERT_NE(compiled, GraphTriggers::kNoNode);
  // The edge records the parameter (index 1 of `_execute`) it is resolved through.
  bool through = false;
  for (const CallGraphEdge& e : repo.graph.edges) {
    if (e.callee == compiled && repo.graph.nodes[e.caller].qualname == "_execute") through = e.parameter == 1;
  }
  EXPECT_TRUE(through);
  EXPECT_FALSE(repo.graph.unpassed.empty());
  EXPECT_EQ(SortedEntries(repo.triggers->PathsTo(compiled, 6, 20)),
            std::vector<std::string>({"?splat", "by_default", "compiled", "compiled_keyword", "unknown"}));
  const GraphTriggers::NodeId ddl = repo.triggers->NodeOf("pkg/conn.py", "_init_ddl", 2);
  EXPECT_EQ(SortedEntries(repo.triggers->PathsTo(ddl, 6, 20)),
            std::vector<std::string>({"?splat", "ddl", "ddl_keyword", "unknown"}));
}

TEST(GraphTriggersTest, AMethodOfACallsResultOnTheLineDoesNotHideTheParameterCall) {
  // `highlighter(text).splitlines()`: the line's other call is a method of the result, named otherwise than
  // the callees the parameter gives, so `highlighter(...)` alone gives them and the callers' arguments decide
  // (pytest's `_diff_text`). When some class binds an attribute of the method's name (`splitlines = ...`),
  // the other call may give a callee too, and nothing is decided.
  auto program = [](const std::string& extra) {
    return "class Writer:\n"
           "    def _highlight(self, text):\n"
           "        raise ValueError('no lexer')\n" +
           extra +
           "def plain(text):\n"
           "    return text\n"
           "def _diff(text, highlighter):\n"
           "    return highlighter(text).splitlines()\n"
           "def check(text):\n"
           "    return _diff(text, plain)\n"
           "def show(text):\n"
           "    return _diff(text, Writer()._highlight)\n";
  };
  Repo repo({{"pkg/__init__.py", ""}, {"pkg/text.py", program("")}});
  const GraphTriggers::NodeId highlight = repo.triggers->NodeOf("pkg/text.py", "Writer._highlight", 3);
  ASSERT_NE(highlight, GraphTriggers::kNoNode);
  EXPECT_EQ(SortedEntries(repo.triggers->PathsTo(highlight, 6, 20)), std::vector<std::string>({"show"}));
  Repo aliased(
      {{"pkg/__init__.py", ""}, {"pkg/text.py", program("class Lines:\n    splitlines = Writer._highlight\n")}});
  const GraphTriggers::NodeId highlight2 = aliased.triggers->NodeOf("pkg/text.py", "Writer._highlight", 3);
  ASSERT_NE(highlight2, GraphTriggers::kNoNode);
  EXPECT_EQ(SortedEntries(aliased.triggers->PathsTo(highlight2, 6, 20)), std::vector<std::string>({"check", "show"}));
}

TEST(GraphTriggersTest, APathThroughAParametersMethodNeedsTheCallerToPassItsReceiver) {
  // `attribute.is_equal(x)` and `state.loader.load()`: the method is looked up on the values of the
  // parameter (or of an attribute read from it) that the previous call of the path passes.
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/attrs.py",
              "class _Plain:\n"
              "    def is_equal(self, x):\n"
              "        return True\n"
              "class _Deferred:\n"
              "    def is_equal(self, x):\n"
              "        raise ValueError('deferred')\n"
              "def _compare(attribute, x):\n"
              "    return attribute.is_equal(x)\n"
              "def plain():\n"
              "    return _compare(_Plain(), 1)\n"
              "def deferred():\n"
              "    return _compare(_Deferred(), 1)\n"
              "class _Eager:\n"
              "    def load(self):\n"
              "        return 1\n"
              "class _Lazy:\n"
              "    def load(self):\n"
              "        raise ValueError('lazy')\n"
              "class _State:\n"
              "    def __init__(self, loader):\n"
              "        self.loader = loader\n"
              "def _run(state):\n"
              "    return state.loader.load()\n"
              "def eager():\n"
              "    return _run(_State(_Eager()))\n"
              "def lazy():\n"
              "    return _run(_State(_Lazy()))\n"}});
  const GraphTriggers::NodeId deferred = repo.triggers->NodeOf("pkg/attrs.py", "_Deferred.is_equal", 6);
  ASSERT_NE(deferred, GraphTriggers::kNoNode);
  EXPECT_EQ(SortedEntries(repo.triggers->PathsTo(deferred)), std::vector<std::string>({"deferred"}));
  // Both `_State` instances are one value: the attribute's values merge across instances, which this check
  // does not separate (docs/callgraph.md).
  const GraphTriggers::NodeId lazy = repo.triggers->NodeOf("pkg/attrs.py", "_Lazy.load", 18);
  EXPECT_EQ(SortedEntries(repo.triggers->PathsTo(lazy)), std::vector<std::string>({"eager", "lazy"}));
}

TEST(GraphTriggersTest, ACallThroughAParameterOfTheEntryIsUncertain) {
  // A public function calling its argument calls what the user passes: the path is cited, as uncertain.
  // `self` is no such parameter.
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/apply.py",
              "def _loud():\n"
              "    raise ValueError('loud')\n"
              "def apply(fn):\n"
              "    return fn()\n"
              "def loud():\n"
              "    return apply(_loud)\n"
              "class Runner:\n"
              "    def run(self):\n"
              "        return self._go()\n"
              "    def _go(self):\n"
              "        raise ValueError('go')\n"}});
  const GraphTriggers::NodeId loud = repo.triggers->NodeOf("pkg/apply.py", "_loud", 2);
  ASSERT_NE(loud, GraphTriggers::kNoNode);
  EXPECT_EQ(SortedEntries(repo.triggers->PathsTo(loud)), std::vector<std::string>({"?apply"}));
  const GraphTriggers::NodeId go = repo.triggers->NodeOf("pkg/apply.py", "Runner._go", 11);
  EXPECT_EQ(SortedEntries(repo.triggers->PathsTo(go)), std::vector<std::string>({"Runner.run"}));
}

TEST(GraphTriggersTest, ACallThroughAnAnnotatedParameterOfTheEntryIsCertain) {
  // `session: Session` declares what the user passes: Session's own method is no value merged from another
  // caller, so the path stays certain; an unannotated parameter's stays uncertain.
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/orm.py",
              "class Session:\n"
              "    def _autoflush(self):\n"
              "        raise ValueError('flush')\n"
              "def merge(session: Session):\n"
              "    return session._autoflush()\n"
              "def merge_any(session):\n"
              "    return session._autoflush()\n"
              "def _use():\n"
              "    merge_any(Session())\n"}});
  const GraphTriggers::NodeId flush = repo.triggers->NodeOf("pkg/orm.py", "Session._autoflush", 2);
  ASSERT_NE(flush, GraphTriggers::kNoNode);
  EXPECT_EQ(SortedEntries(repo.triggers->PathsTo(flush)), std::vector<std::string>({"?merge_any", "merge"}));
}

}  // namespace
}  // namespace errdex

namespace errdex {
namespace {

// A router in the manner of starlette's: each route raises NoMatchFound, the router tries them in turn,
// catching it, and raises its own when none matched.
Repo RouterPackage() {
  return Repo({{"web/__init__.py", "from web.routing import Route, Router, NoMatchFound\n"},
               {"web/routing.py",
                "class NoMatchFound(LookupError):\n"
                "    pass\n"
                "class Route:\n"
                "    def url_path_for(self, name):\n"
                "        if name != self.name:\n"
                "            raise NoMatchFound(name)\n"
                "        return '/' + name\n"
                "class Router:\n"
                "    def __init__(self):\n"
                "        self.routes = [Route()]\n"
                "    def url_path_for(self, name):\n"
                "        for route in self.routes:\n"
                "            try:\n"
                "                return route.url_path_for(name)\n"
                "            except NoMatchFound:\n"
                "                pass\n"
                "        raise NoMatchFound(name)\n"
                "    def lookup(self, name):\n"
                "        try:\n"
                "            return self.routes[0].url_path_for(name)\n"
                "        except LookupError:\n"
                "            return None\n"
                "    def check(self, name):\n"
                "        try:\n"
                "            return self.routes[0].url_path_for(name)\n"
                "        except TypeError:\n"
                "            return None\n"
                "    def validate(self, name):\n"
                "        try:\n"
                "            assert name, 'empty'\n"
                "            return self.url_path_for(name)\n"
                "        except Exception:\n"
                "            return None\n"},
               {"tests/test_routing.py",
                "import pytest\n"
                "from web import Router, NoMatchFound\n"
                "def test_missing():\n"
                "    with pytest.raises(NoMatchFound):\n"
                "        Router().url_path_for('x')\n"}});
}

TEST(GraphTriggersTest, ACallerThatCatchesTheRaiseIsNoWayOut) {
  Repo repo = RouterPackage();
  const GraphTriggers::NodeId route = repo.triggers->NodeOf("web/routing.py", "Route.url_path_for", 6);
  const Site& inner = SiteAt(repo, "web/routing.py", 6);
  // Router.url_path_for catches NoMatchFound, lookup its base LookupError; check catches another type.
  EXPECT_EQ(Entries(repo.triggers->PathsTo(route, inner)),
            std::vector<std::string>({"Route.url_path_for", "Router.check"}));
  // Without the site (no type known), every caller.
  EXPECT_EQ(repo.triggers->PathsTo(route).size(), 4u);
  EXPECT_EQ(repo.triggers->PublicReachers(route, &inner, 6, 64), 2);
  // The router's own raise escapes through its public callers but `validate`, which catches everything.
  const GraphTriggers::NodeId router = repo.triggers->NodeOf("web/routing.py", "Router.url_path_for", 17);
  const Site& outer = SiteAt(repo, "web/routing.py", 17);
  EXPECT_EQ(Entries(repo.triggers->PathsTo(router, outer)), std::vector<std::string>({"Router.url_path_for"}));
  EXPECT_EQ(repo.triggers->PublicReachers(router, &outer, 6, 64), 1);
}

TEST(GraphTriggersTest, ATestBlockDoesNotReachARaiseThroughACallThatCatchesIt) {
  Repo repo = RouterPackage();
  GraphTriggers::Block b;
  b.node = repo.triggers->NodeOf("tests/test_routing.py", "test_missing", 4);
  b.first = 4;
  b.last = 5;
  const std::vector<GraphTriggers::NodeId> route = {repo.triggers->NodeOf("web/routing.py", "Route.url_path_for", 6)};
  const std::vector<GraphTriggers::NodeId> router = {
      repo.triggers->NodeOf("web/routing.py", "Router.url_path_for", 17)};
  const int no_match = repo.triggers->RaisedType("web.routing.NoMatchFound", "raise");
  EXPECT_NE(no_match, GraphTriggers::kNothingCaught);
  EXPECT_EQ(repo.triggers->Distance(b, route, no_match), -1);
  EXPECT_EQ(repo.triggers->Distance(b, router, no_match), 1);
  // Another exception of the same function (asked of the same block next) is not caught there.
  EXPECT_EQ(repo.triggers->Distance(b, route, repo.triggers->RaisedType("builtins.TypeError", "raise")), 2);
  EXPECT_EQ(repo.triggers->Distance(b, route, no_match), -1);
  // A warning is never caught.
  EXPECT_EQ(repo.triggers->RaisedType("web.routing.NoMatchFound", "warn"), GraphTriggers::kNothingCaught);
}

TEST(GraphTriggersTest, ExceptExceptionLetsBaseExceptionOnlyClassesThrough) {
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/outcomes.py",
              "class Outcome(BaseException):\n    pass\n"
              "class Skipped(Outcome):\n    pass\n"
              "def skip(msg):\n    raise Skipped(msg)\n"
              "def fail(msg):\n    raise RuntimeError(msg)\n"
              "def unknown(msg):\n    raise Unknowable(msg)\n"
              "def missing(msg):\n    raise ImportError(msg)\n"
              "def again():\n"
              "    try:\n"
              "        skip('x')\n"
              "    except (KeyboardInterrupt, SystemExit):\n"
              "        raise\n"},
             {"pkg/api.py",
              "from pkg.outcomes import skip, fail, unknown, missing, again\n"
              "def run(kind):\n"
              "    try:\n"
              "        skip('no')\n"
              "        fail('no')\n"
              "        unknown('no')\n"
              "    except Exception:\n"
              "        pass\n"
              "def guarded():\n"
              "    try:\n"
              "        unknown('no')\n"
              "    except KeyError:\n"
              "        pass\n"
              "def ordered():\n"
              "    try:\n"
              "        missing('no')\n"
              "        fail('no')\n"
              "    except ImportError:\n"
              "        raise\n"
              "    except Exception:\n"
              "        pass\n"
              "def safe():\n"
              "    try:\n"
              "        again()\n"
              "    except (KeyboardInterrupt, SystemExit):\n"
              "        raise\n"
              "    except BaseException:\n"
              "        pass\n"}});
  auto entries = [&](const std::string& function, int line) {
    return Entries(repo.triggers->PathsTo(repo.triggers->NodeOf("pkg/outcomes.py", function, line),
                                          SiteAt(repo, "pkg/outcomes.py", line)));
  };
  EXPECT_EQ(entries("skip", 6), std::vector<std::string>({"skip", "run", "again"}));  // again re-raises
  EXPECT_EQ(entries("fail", 8), std::vector<std::string>({"fail"}));
  // A type that does not resolve is caught by a catch-all only.
  EXPECT_EQ(entries("unknown", 10), std::vector<std::string>({"unknown", "guarded"}));
  // The first clause that matches decides: `except ImportError: raise` passes ImportError on.
  EXPECT_EQ(entries("missing", 12), std::vector<std::string>({"missing", "ordered"}));
  // A bare `raise` has no type: the clause that passes KeyboardInterrupt on may take it before the catch-all.
  EXPECT_EQ(entries("again", 17), std::vector<std::string>({"again", "safe"}));
}

// Distance keeps one reach of a block per way the calls it met catch the raise (GraphTriggers::Reach): ten
// callees each catching another class, asked in turn, more ways than the reaches kept, and asked again.
TEST(GraphTriggersTest, ABlocksReachesForRaisesCaughtDifferentlyStayApart) {
  constexpr int kCallees = 10;
  std::string classes, api;
  std::string test = "import pytest\nimport pkg.api as api\ndef test_all():\n    with pytest.raises(Exception):\n";
  for (int i = 0; i < kCallees; ++i) {
    const std::string n = std::to_string(i);
    classes.append("class E").append(n).append("(Exception):\n    pass\n");
    api.append("def g").append(n).append("():\n    raise E").append(n).append("()\n");
    api.append("def f").append(n).append("():\n    try:\n        g").append(n).append("()\n");
    api.append("    except E").append(n).append(":\n        pass\n");
    test.append("        api.f").append(n).append("()\n");
  }
  api = classes + api;
  Repo repo({{"pkg/__init__.py", ""}, {"pkg/api.py", api}, {"tests/test_api.py", test}});
  GraphTriggers::Block b;
  b.node = repo.triggers->NodeOf("tests/test_api.py", "test_all", 3);
  b.first = 4;
  b.last = 4 + kCallees;
  std::vector<int> raised;
  std::vector<std::vector<GraphTriggers::NodeId>> g;
  for (int i = 0; i < kCallees; ++i) {
    const std::string n = std::to_string(i);
    raised.push_back(repo.triggers->RaisedType(std::string("pkg.api.E").append(n), "raise"));
    g.push_back({repo.triggers->NodeOf("pkg/api.py", std::string("g").append(n), 1)});
    ASSERT_NE(g.back().front(), GraphTriggers::kNoNode);
  }
  const int value_error = repo.triggers->RaisedType("builtins.ValueError", "raise");
  // g_i's own raise does not escape f_i; every other one does. In two rounds, the second in reverse.
  for (int round = 0; round < 2; ++round) {
    for (int k = 0; k < kCallees; ++k) {
      const int i = round == 0 ? k : kCallees - 1 - k;
      for (int j = 0; j < kCallees; ++j) {
        EXPECT_EQ(repo.triggers->Distance(b, g[static_cast<size_t>(j)], raised[static_cast<size_t>(i)]),
                  i == j ? -1 : 2)
            << "g" << j << " for E" << i;
      }
      EXPECT_EQ(repo.triggers->Distance(b, g[static_cast<size_t>(i)], value_error), 2);
      EXPECT_EQ(repo.triggers->Distance(b, g[static_cast<size_t>(i)]), 2);
    }
  }
}

TEST(GraphTriggersTest, StarParametersHoldWhatTheCallPassesAndASplatFillsNoKeywordOnlyParameter) {
  // `*args` holds the positionals beyond the named parameters and `**kwargs` the keywords no named parameter
  // takes; a positional splat `(*pk)` cannot fill the keyword-only `ordered`, which keeps its default.
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/api.py",
              "def values(*args, **kwargs):\n"
              "    if args:\n"
              "        if kwargs:\n"
              "            raise ValueError('positional and keywords')\n"
              "        elif len(args) > 1:\n"
              "            raise ValueError('one positional at most')\n"
              "def returning(*cols, ordered=False):\n"
              "    if ordered:\n"
              "        raise ValueError('ordered')\n"
              "def one(v):\n"
              "    return values(v)\n"
              "def two(v, w):\n"
              "    return values(v, w)\n"
              "def mixed(v):\n"
              "    return values(v, extra=1)\n"
              "def spread(vs):\n"
              "    return values(*vs)\n"
              "def keywords(kw):\n"
              "    return values(1, **kw)\n"
              "def by_pk(pk):\n"
              "    return returning(*pk)\n"
              "def by_pk_ordered(pk):\n"
              "    return returning(*pk, ordered=True)\n"}});
  const GraphTriggers::NodeId values = repo.triggers->NodeOf("pkg/api.py", "values", 4);
  EXPECT_EQ(Entries(repo.triggers->PathsTo(values, SiteAt(repo, "pkg/api.py", 4))),
            std::vector<std::string>({"values", "mixed", "keywords"}));
  EXPECT_EQ(Entries(repo.triggers->PathsTo(values, SiteAt(repo, "pkg/api.py", 6))),
            std::vector<std::string>({"values", "two", "spread"}));
  const GraphTriggers::NodeId returning = repo.triggers->NodeOf("pkg/api.py", "returning", 9);
  EXPECT_EQ(Entries(repo.triggers->PathsTo(returning, SiteAt(repo, "pkg/api.py", 9))),
            std::vector<std::string>({"returning", "by_pk_ordered"}));
}

TEST(GraphTriggersTest, AGeneratorsBodyRunsWhereItsCallerIteratesIt) {
  // Calling `names` only makes the generator: `direct` iterates it on the call's line, `later` where it loops
  // over the name it assigned. `handed` only hands it to `_consume` and `returned` gives it back: no path goes
  // through a line that only makes it (the graph has no edge from `_consume`'s `tuple(seq)` to `names`, so
  // `handed` has no path at all). `pair` unpacks it.
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/api.py",
              "def names(items):\n"
              "    for item in items:\n"
              "        if not item:\n"
              "            raise ValueError('empty name')\n"
              "        yield item\n"
              "def direct(items):\n"
              "    return list(names(items))\n"
              "def later(items):\n"
              "    found = names(items)\n"
              "    print('start')\n"
              "    return [n.upper() for n in found]\n"
              "def handed(items):\n"
              "    found = names(items)\n"
              "    return _consume(found)\n"
              "def _consume(seq):\n"
              "    return tuple(seq)\n"
              "def returned(items):\n"
              "    return names(items)\n"
              "def pair(items):\n"
              "    first, second = names(items)\n"
              "    return first\n"
              "import contextlib\n"
              "@contextlib.contextmanager\n"
              "def guarded(items):\n"
              "    if not items:\n"
              "        raise ValueError('nothing to guard')\n"
              "    yield items\n"
              "def use(items):\n"
              "    with guarded(items):\n"
              "        pass\n"}});
  const GraphTriggers::NodeId names = repo.triggers->NodeOf("pkg/api.py", "names", 4);
  std::vector<std::string> frames;
  for (const CallPath& p : repo.triggers->PathsTo(names, SiteAt(repo, "pkg/api.py", 4))) {
    std::string chain;
    for (const CallFrame& f : p.frames) chain += f.function + ":" + std::to_string(f.line) + " ";
    frames.push_back(chain);
  }
  std::sort(frames.begin(), frames.end());
  EXPECT_EQ(frames,
            std::vector<std::string>({"direct:7 names:0 ", "later:11 names:0 ", "names:0 ", "pair:20 names:0 "}));
  // A decorated generator function is run by its decorator: `@contextmanager` on `with`.
  const GraphTriggers::NodeId guarded = repo.triggers->NodeOf("pkg/api.py", "guarded", 26);
  EXPECT_EQ(Entries(repo.triggers->PathsTo(guarded, SiteAt(repo, "pkg/api.py", 26))),
            std::vector<std::string>({"guarded", "use"}));
}

}  // namespace
}  // namespace errdex
