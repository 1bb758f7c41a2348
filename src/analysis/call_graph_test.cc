#include "analysis/call_graph.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/call_graph_test_util.h"

namespace errdex {
namespace {

using call_graph_test::Build;
using call_graph_test::Built;

TEST(CallGraphTest, ModuleNames) {
  EXPECT_EQ(ModuleNameOfPath("pkg/api.py"), "pkg.api");
  EXPECT_EQ(ModuleNameOfPath("pkg/__init__.py"), "pkg");
  EXPECT_EQ(ModuleNameOfPath("main.py"), "main");
}

TEST(CallGraphTest, ConstructorGivesInstanceTypeAndMethodCallsResolve) {
  Built b = Build({{"main.py",
                    "class Session:\n"
                    "    def __init__(self):\n        self.adapter = Adapter()\n"
                    "    def get(self):\n        return self.adapter.send()\n"
                    "class Adapter:\n    def send(self):\n        pass\n"
                    "s = Session()\ns.get()\n"}});
  EXPECT_TRUE(b.edges.count({"main", "main.Session.__init__"}));
  EXPECT_TRUE(b.edges.count({"main", "main.Session.get"}));
  EXPECT_TRUE(b.edges.count({"main.Session.get", "main.Adapter.send"}));
  EXPECT_TRUE(b.edges.count({"main.Session.__init__", "main.Adapter.__init__"}) == 0);  // Adapter has no __init__
}

TEST(CallGraphTest, ReExportedFunctionAndRelativeImports) {
  Built b = Build({{"pkg/__init__.py", "from .api import get\n__all__ = ['get']\n"},
                   {"pkg/api.py", "from . import sessions\ndef get(url):\n    return sessions.request(url)\n"},
                   {"pkg/sessions.py", "def request(url):\n    pass\n"},
                   {"use.py", "import pkg\npkg.get('x')\n"}});
  EXPECT_TRUE(b.edges.count({"use", "pkg.api.get"}));
  EXPECT_TRUE(b.edges.count({"pkg.api.get", "pkg.sessions.request"}));
}

TEST(CallGraphTest, SrcLayoutImportsByPackageName) {
  Built b = Build({{"src/lib/__init__.py", ""},
                   {"src/lib/core.py", "def run():\n    pass\n"},
                   {"tests/test_core.py", "from lib.core import run\ndef test_run():\n    run()\n"}});
  EXPECT_TRUE(b.edges.count({"tests.test_core.test_run", "src.lib.core.run"}));
}

TEST(CallGraphTest, WithStatementAnnotationsAndReturns) {
  Built b = Build({{"m.py",
                    "class Conn:\n"
                    "    def __enter__(self):\n        return self\n"
                    "    def __exit__(self, *a):\n        pass\n"
                    "    def query(self):\n        pass\n"
                    "def connect() -> 'Conn':\n    ...\n"
                    "def use(c: Conn):\n    c.query()\n"
                    "def main():\n    with Conn() as c:\n        c.query()\n    connect().query()\n"}});
  EXPECT_TRUE(b.edges.count({"m.main", "m.Conn.__enter__"}));
  EXPECT_TRUE(b.edges.count({"m.main", "m.Conn.__exit__"}));
  EXPECT_TRUE(b.edges.count({"m.main", "m.Conn.query"}));
  EXPECT_TRUE(b.edges.count({"m.use", "m.Conn.query"}));
  EXPECT_EQ(b.kinds["m.main->m.Conn.__enter__"], "implicit");
}

TEST(CallGraphTest, PropertiesSettersSuperAndMro) {
  Built b = Build({{"m.py",
                    "class Base:\n"
                    "    def setup(self):\n        pass\n"
                    "class Child(Base):\n"
                    "    def setup(self):\n        super().setup()\n"
                    "    @property\n    def size(self):\n        return compute()\n"
                    "    @size.setter\n    def size(self, value):\n        store(value)\n"
                    "def compute():\n    pass\n"
                    "def store(v):\n    pass\n"
                    "c = Child()\nc.setup()\nn = c.size\nc.size = 3\n"}});
  EXPECT_TRUE(b.edges.count({"m", "m.Child.setup"}));
  EXPECT_FALSE(b.edges.count({"m", "m.Base.setup"}));
  EXPECT_TRUE(b.edges.count({"m.Child.setup", "m.Base.setup"}));
  EXPECT_TRUE(b.edges.count({"m", "m.Child.size"}));
  EXPECT_TRUE(b.edges.count({"m.Child.size", "m.compute"}));
}

TEST(CallGraphTest, DecoratorsPartialLambdasAndContainers) {
  Built b = Build({{"m.py",
                    "import functools\n"
                    "def deco(f):\n    def wrapper(*a):\n        return f(*a)\n    return wrapper\n"
                    "@deco\ndef job():\n    pass\n"
                    "def handler():\n    pass\n"
                    "def other():\n    pass\n"
                    "handlers = {'a': handler, 'b': other}\n"
                    "p = functools.partial(handler, 1)\n"
                    "job()\nhandlers['a']()\np()\n(lambda: other())()\n"}});
  EXPECT_TRUE(b.edges.count({"m", "m.deco.wrapper"}));
  EXPECT_TRUE(b.edges.count({"m.deco.wrapper", "m.job"}));
  EXPECT_TRUE(b.edges.count({"m", "m.handler"}));
  EXPECT_TRUE(b.edges.count({"m", "m.<lambda1>"}));
  EXPECT_TRUE(b.edges.count({"m.<lambda1>", "m.other"}));
  EXPECT_TRUE(b.edges.count({"m", "functools.partial"}));
  // handlers['a'] is handler only: the constant key selects the slot.
  EXPECT_FALSE(b.edges.count({"m", "m.other"}));
}

TEST(CallGraphTest, LaterAssignmentReplacesEarlierInStraightLineCode) {
  Built b = Build({{"m.py",
                    "def first():\n    pass\n"
                    "def second():\n    pass\n"
                    "f = first\nf = second\nf()\n"}});
  EXPECT_TRUE(b.edges.count({"m", "m.second"}));
  EXPECT_FALSE(b.edges.count({"m", "m.first"}));
}

TEST(CallGraphTest, LaterSlotWriteReplacesTheLiteralsValueInStraightLineCode) {
  const std::string defs = "def first():\n    pass\ndef second():\n    pass\ndef later():\n    pass\n";
  Built b = Build({{"m.py", defs + "d = {'a': first}\nd['a'] = second\nd['a']()\ndef use():\n    d['a']()\n"},
                   {"n.py", defs + "d = {'a': first}\nif d:\n    d['a'] = later\nd['a']()\n"}});
  EXPECT_TRUE(b.edges.count({"m", "m.second"}));
  EXPECT_FALSE(b.edges.count({"m", "m.first"}));
  // Another scope reads every value the slot ever holds; so does any read once a write is in a branch.
  EXPECT_TRUE(b.edges.count({"m.use", "m.first"}));
  EXPECT_TRUE(b.edges.count({"m.use", "m.second"}));
  EXPECT_TRUE(b.edges.count({"n", "n.first"}));
  EXPECT_TRUE(b.edges.count({"n", "n.later"}));
}

TEST(CallGraphTest, GeneratorsIterationAndDunders) {
  Built b = Build({{"m.py",
                    "class Vec:\n"
                    "    def __add__(self, other):\n        return self\n"
                    "    def __iter__(self):\n        return self\n"
                    "    def __next__(self):\n        return done\n"
                    "def done():\n    pass\n"
                    "def gen():\n    yield done\n"
                    "v = Vec() + Vec()\nfor x in v:\n    x()\nfor g in gen():\n    g()\n"}});
  EXPECT_TRUE(b.edges.count({"m", "m.Vec.__add__"}));
  EXPECT_TRUE(b.edges.count({"m", "m.Vec.__iter__"}));
  EXPECT_TRUE(b.edges.count({"m", "m.Vec.__next__"}));
  EXPECT_TRUE(b.edges.count({"m", "m.done"}));
  EXPECT_TRUE(b.edges.count({"m", "m.gen"}));
}

TEST(CallGraphTest, ExternalsBuiltinsAndRaise) {
  Built b = Build({{"m.py",
                    "import requests\nfrom os import path as p\n"
                    "class Bad(Exception):\n    def __init__(self):\n        pass\n"
                    "def check(x):\n    if not len(x):\n        raise Bad\n"
                    "r = requests.Session()\nr.get('u')\np.join('a')\ncheck([])\n"}});
  EXPECT_TRUE(b.edges.count({"m", "requests.Session"}));
  EXPECT_TRUE(b.edges.count({"m", "requests.Session.get"}));
  EXPECT_TRUE(b.edges.count({"m", "os.path.join"}));
  EXPECT_TRUE(b.edges.count({"m.check", "<builtin>.len"}));
  EXPECT_TRUE(b.edges.count({"m.check", "m.Bad.__init__"}));
}

// A class with an external base: what the base defines is the base's (`self.visit(...)` is
// `ast.NodeVisitor.visit`), but an attribute the class's own methods set on the instance is not, whatever its
// values (`self.manager` from a parameter): no external name is made up for it.
TEST(CallGraphTest, AnAttributeSetOnTheInstanceIsNoAttributeOfAnExternalBase) {
  Built b = Build({{"m.py",
                    "import ast\n"
                    "class Walker(ast.NodeVisitor):\n"
                    "    def __init__(self, manager, log):\n"
                    "        self.manager = manager\n"
                    "        self.a, self.b = log, log\n"
                    "    def run(self, tree):\n"
                    "        self.visit(tree)\n"
                    "        self.manager.create(tree)\n"
                    "        self.b.write(tree)\n"
                    "        self.generic_visit(tree)\n"}});
  EXPECT_TRUE(b.edges.count({"m.Walker.run", "ast.NodeVisitor.visit"}));
  EXPECT_TRUE(b.edges.count({"m.Walker.run", "ast.NodeVisitor.generic_visit"}));
  for (const auto& [from, to] : b.edges) {
    EXPECT_EQ(to.find("ast.NodeVisitor.manager"), std::string::npos) << from << " -> " << to;
    EXPECT_EQ(to.find("ast.NodeVisitor.b."), std::string::npos) << from << " -> " << to;
  }
}

TEST(CallGraphTest, UnresolvedCallsArePossibleOnlyWhenFewMethodsCarryTheName) {
  Built b = Build({{"m.py",
                    "class A:\n    def frobnicate(self):\n        return 1\n"
                    "def use(x):\n    x.frobnicate()\n    x.unknown_thing()\n"}});
  EXPECT_TRUE(b.possible.count({"m.use", "m.A.frobnicate"}));
  EXPECT_FALSE(b.edges.count({"m.use", "m.A.frobnicate"}));
  bool unresolved = false;
  for (const UnresolvedCall& u : b.graph.unresolved) unresolved = unresolved || u.name == "unknown_thing";
  EXPECT_TRUE(unresolved);
}

// A call on a receiver the graph does not know reaches a method that implements the name: a definition that
// only declares it (a stub, a docstring, `raise NotImplementedError`) is a class saying it does not.
TEST(CallGraphTest, PossibleEdgesGoOnlyToMethodsThatImplementTheName) {
  Built b = Build({{"m.py",
                    "class Loader:\n"
                    "    def apply(self, parent):\n"
                    "        \"\"\"Implemented by subclasses.\"\"\"\n"
                    "        raise NotImplementedError()\n"
                    "class PathLoader(Loader):\n"
                    "    def apply(self, parent):\n"
                    "        return parent\n"
                    "class Operators:\n"
                    "    def in_(self, other):\n"
                    "        return (self, other)\n"
                    "class Relationship(Operators):\n"
                    "    def in_(self, other):\n"
                    "        raise NotImplementedError(\"in_() not supported for relationships\")\n"
                    "class Protocol:\n"
                    "    def flush(self):\n"
                    "        ...\n"
                    "def options(opt, column, stream):\n"
                    "    opt.apply(None)\n"
                    "    column.in_([1, 2])\n"
                    "    stream.flush()\n"}});
  EXPECT_TRUE(b.possible.count({"m.options", "m.PathLoader.apply"}));
  EXPECT_FALSE(b.possible.count({"m.options", "m.Loader.apply"}));
  EXPECT_TRUE(b.possible.count({"m.options", "m.Operators.in_"}));
  EXPECT_FALSE(b.possible.count({"m.options", "m.Relationship.in_"}));
  EXPECT_FALSE(b.possible.count({"m.options", "m.Protocol.flush"}));
  bool flush_unresolved = false;
  for (const UnresolvedCall& u : b.graph.unresolved) flush_unresolved = flush_unresolved || u.name == "flush";
  EXPECT_TRUE(flush_unresolved);
}

// A method name that builtin types carry (`str.startswith`, `dict.get`, `list.pop`) says nothing about a
// receiver the graph does not know: it is most often the builtin's.
TEST(CallGraphTest, NamesOfBuiltinMethodsGetNoPossibleEdges) {
  Built b = Build({{"m.py",
                    "class Recorder:\n"
                    "    def pop(self, cls):\n"
                    "        raise AssertionError(cls)\n"
                    "    def record(self, w):\n"
                    "        return w\n"
                    "def rewrite(line, **markup):\n"
                    "    erase = markup.pop(\"erase\", False)\n"
                    "def use(x):\n"
                    "    x.pop(1)\n"
                    "    x.record(2)\n"}});
  EXPECT_FALSE(b.possible.count({"m.rewrite", "m.Recorder.pop"}));
  EXPECT_FALSE(b.possible.count({"m.use", "m.Recorder.pop"}));
  EXPECT_TRUE(b.possible.count({"m.use", "m.Recorder.record"}));
}

// A method called on what a call on an unknown receiver returns (`a.for_modify(x).exec_once()`) is a method
// of what the project's methods of that name return (a new object, their own receiver through `return self`,
// their return annotation), never a method of another class found by the name alone; a name the returned
// classes lack gets no edge. Four methods carry `for_modify` here: the call itself gets no possible edge.
TEST(CallGraphTest, CallOnWhatAPossibleCallReturnsGoesToTheReturnedClasses) {
  Built b = Build({{"m.py",
                    "class Collection:\n"
                    "    def for_modify(self, obj):\n"
                    "        return self\n"
                    "    def exec_once(self, *args):\n"
                    "        return args\n"
                    "class Joined:\n"
                    "    def for_modify(self, obj):\n"
                    "        return self\n"
                    "    def exec_once(self, *args):\n"
                    "        return args\n"
                    "class Level:\n"
                    "    def for_modify(self, obj):\n"
                    "        return self\n"
                    "class Empty:\n"
                    "    def for_modify(self, obj) -> Collection:\n"
                    "        existing = getattr(obj, self.name)\n"
                    "        if existing is self:\n"
                    "            result = Collection()\n"
                    "            return result\n"
                    "        return existing\n"
                    "    def exec_once(self, *args):\n"
                    "        raise RuntimeError('needs modify')\n"
                    "    def listen(self):\n"
                    "        return 1\n"
                    "def connect(pool):\n"
                    "    pool.first.for_modify(pool).exec_once(1)\n"
                    "    pool.first.for_modify(pool).listen()\n"
                    "def plain(pool):\n"
                    "    pool.first.exec_once(1)\n"}});
  EXPECT_FALSE(b.possible.count({"m.connect", "m.Empty.for_modify"}));
  EXPECT_TRUE(b.possible.count({"m.connect", "m.Collection.exec_once"}));
  EXPECT_TRUE(b.possible.count({"m.connect", "m.Joined.exec_once"}));
  EXPECT_FALSE(b.possible.count({"m.connect", "m.Empty.exec_once"}));
  EXPECT_FALSE(b.edges.count({"m.connect", "m.Collection.exec_once"}));  // still a guess: "possible"
  EXPECT_FALSE(b.possible.count({"m.connect", "m.Empty.listen"}));
  bool listen_unresolved = false;
  for (const UnresolvedCall& u : b.graph.unresolved) listen_unresolved = listen_unresolved || u.name == "listen";
  EXPECT_TRUE(listen_unresolved);
  EXPECT_TRUE(b.possible.count({"m.plain", "m.Empty.exec_once"}));  // a receiver the graph knows nothing of
}

// When one of the possible callees returns a value the graph does not know, what the call gives is not
// known: the method called on it keeps its possible edges by name.
TEST(CallGraphTest, CallOnAPossibleCallWithAnUnknownReturnKeepsEdgesByName) {
  Built b = Build({{"m.py",
                    "import ext\n"
                    "class A:\n"
                    "    def make(self):\n"
                    "        return ext.thing()\n"
                    "    def run(self):\n"
                    "        return 1\n"
                    "class B:\n"
                    "    def make(self):\n"
                    "        return self.unknown_attr\n"
                    "class C:\n"
                    "    def run(self):\n"
                    "        return 2\n"
                    "def use(x):\n"
                    "    x.make().run()\n"}});
  EXPECT_TRUE(b.possible.count({"m.use", "m.A.run"}));
  EXPECT_TRUE(b.possible.count({"m.use", "m.C.run"}));
}

// A method found by name whose parameters the call's arguments cannot bind is not what the call runs: Python
// raises TypeError before its body. Splats and decorated methods are not judged.
TEST(CallGraphTest, PossibleEdgesOnlyToMethodsTheArgumentsFit) {
  Built b = Build({{"m.py",
                    "import functools\n"
                    "class Dispatch:\n"
                    "    def _join(self, other):\n"
                    "        return other\n"
                    "    def close(self, *, reason):\n"
                    "        return reason\n"
                    "class CompileState:\n"
                    "    def _join(self, args, entities_collection):\n"
                    "        raise ValueError(args)\n"
                    "    @functools.lru_cache\n"
                    "    def close(self):\n"
                    "        return 1\n"
                    "def one(x, y):\n"
                    "    x._join(y)\n"
                    "def two(x, y):\n"
                    "    x._join(y, entities_collection=[])\n"
                    "def keyword(x, y):\n"
                    "    x._join(other=y)\n"
                    "def splat(x, args):\n"
                    "    x._join(*args)\n"
                    "def closing(x):\n"
                    "    x.close(reason=1)\n"
                    "    x.close()\n"}});
  EXPECT_TRUE(b.possible.count({"m.one", "m.Dispatch._join"}));
  EXPECT_FALSE(b.possible.count({"m.one", "m.CompileState._join"}));
  EXPECT_TRUE(b.possible.count({"m.two", "m.CompileState._join"}));
  EXPECT_FALSE(b.possible.count({"m.two", "m.Dispatch._join"}));
  EXPECT_TRUE(b.possible.count({"m.keyword", "m.Dispatch._join"}));
  EXPECT_FALSE(b.possible.count({"m.keyword", "m.CompileState._join"}));
  EXPECT_TRUE(b.possible.count({"m.splat", "m.Dispatch._join"}));
  EXPECT_TRUE(b.possible.count({"m.splat", "m.CompileState._join"}));
  EXPECT_TRUE(b.possible.count({"m.closing", "m.Dispatch.close"}));      // `close(reason=1)`
  EXPECT_TRUE(b.possible.count({"m.closing", "m.CompileState.close"}));  // decorated: not judged
}

// `super().__init__(...)` in a mixin runs what follows the mixin in the instance's MRO; its subclasses come
// before it there, so their `__init__` is never what it calls.
TEST(CallGraphTest, SuperNeverResolvesToASubclass) {
  Built b = Build({{"m.py",
                    "class HasCode:\n"
                    "    def __init__(self, *arg, **kw):\n"
                    "        super().__init__(*arg, **kw)\n"
                    "class Base:\n"
                    "    def __init__(self, *arg):\n"
                    "        self.arg = arg\n"
                    "class MappingError(HasCode, Base):\n"
                    "    def __init__(self, obj):\n"
                    "        lookup(obj)\n"
                    "        super().__init__(obj)\n"
                    "def lookup(obj):\n"
                    "    return obj\n"
                    "def fail():\n"
                    "    raise MappingError(1)\n"}});
  EXPECT_TRUE(b.edges.count({"m.MappingError.__init__", "m.HasCode.__init__"}));
  EXPECT_FALSE(b.edges.count({"m.HasCode.__init__", "m.MappingError.__init__"}));
  EXPECT_FALSE(b.possible.count({"m.HasCode.__init__", "m.MappingError.__init__"}));
}

// The subclass search of a method the class lacks (`self.child()`) reruns when a class below gains the
// attribute after the search found nothing: the grandchild's attribute is set in the sweep after the
// search (its value comes from a later module), and nothing else the method reads changes then.
TEST(CallGraphTest, SubclassSearchSeesAnAttributeGainedLater) {
  Built b = Build({{"a.py",
                    "class Base:\n"
                    "    def run(self):\n"
                    "        self.child()\n"
                    "class Mid(Base):\n    pass\n"
                    "class Leaf(Mid):\n    pass\n"
                    "Base().run()\n"},
                   {"b.py", "from a import Leaf\nfrom c import helper_ref\nLeaf.child = helper_ref\n"},
                   {"c.py", "def helper():\n    pass\nhelper_ref = helper\n"}});
  EXPECT_TRUE(b.edges.count({"a.Base.run", "c.helper"}));
}

// ... and when the hierarchy below the class grows after the search: a subclass whose base is known only
// once a later module's function returns it (its `child` was bound before it had a base).
TEST(CallGraphTest, SubclassSearchSeesSubclassesFoundLater) {
  Built b = Build({{"a.py",
                    "class Base:\n"
                    "    def run(self):\n"
                    "        self.child()\n"
                    "    def again(self):\n"
                    "        self.child()\n"
                    "base = Base()\nbase.run()\nbase.again()\n"},
                   {"b.py", "from c import pick\nclass Leaf(pick()):\n    def child(self):\n        pass\n"},
                   {"c.py", "from a import Base\nclass Mid(Base):\n    pass\ndef pick():\n    return Mid\n"}});
  EXPECT_TRUE(b.edges.count({"a.Base.run", "b.Leaf.child"}));
  EXPECT_TRUE(b.edges.count({"a.Base.again", "b.Leaf.child"}));  // the same search, its subclasses kept
}

TEST(CallGraphTest, StarImportsAndCyclicBasesTerminate) {
  Built b = Build({{"a.py", "from b import *\nhelper()\nclass X(Y):\n    pass\nclass Y(X):\n    pass\nX().m()\n"},
                   {"b.py", "def helper():\n    pass\ndef _private():\n    pass\n"}});
  EXPECT_TRUE(b.edges.count({"a", "b.helper"}));
  EXPECT_FALSE(b.graph.stats.capped);
}

TEST(CallGraphTest, DeterministicAndBoundedOnSelfGrowingNames) {
  const std::string loop = "import ext\nnode = ext.root\nwhile node:\n    node = node.parent\n    node.visit()\n";
  Built first = Build({{"m.py", loop}});
  Built second = Build({{"m.py", loop}});
  EXPECT_EQ(first.edges, second.edges);
  EXPECT_FALSE(first.graph.stats.capped);
}

TEST(CallGraphTest, OverloadStubsBindNothingAndTypingCastIsItsValue) {
  Built b = Build({{"m.py",
                    "from typing import overload, cast, TypeVar\n"
                    "T = TypeVar('T')\n"
                    "@overload\ndef get(x: int) -> int: ...\n"
                    "@overload\ndef get(x: str) -> str: ...\n"
                    "def get(x):\n    return x\n"
                    "class A:\n    def run(self):\n        pass\n"
                    "def make() -> T:\n    pass\n"
                    "get(1)\ncast(A, A()).run()\nmake().anything()\n"}});
  // Three definitions named m.get: only the last one (at line 7) is called.
  int called_get_lines = 0;
  for (const CallGraphEdge& e : b.graph.edges) {
    if (b.graph.nodes[e.callee].name == "m.get") {
      ++called_get_lines;
      EXPECT_EQ(b.graph.nodes[e.callee].line, 7);
    }
  }
  EXPECT_EQ(called_get_lines, 1);
  EXPECT_TRUE(b.edges.count({"m", "m.A.run"}));
  for (const auto& [from, to] : b.edges) EXPECT_EQ(to.find("typing.TypeVar."), std::string::npos) << to;
}

TEST(CallGraphTest, AVariableOverTheCapHoldsNothingWhateverTheOrder) {
  // `pick` receives 4 functions; with a cap of 3 its parameter saturates, so the call through it resolves
  // to nothing, in whichever order the callers come.
  std::string defs;
  for (int i = 0; i < 4; ++i) defs += "def f" + std::to_string(i) + "():\n    pass\n";
  const std::string pick = "def pick(fn):\n    fn()\n";
  std::string forward = defs + pick, backward = defs + pick;
  for (int i = 0; i < 4; ++i) forward += "pick(f" + std::to_string(i) + ")\n";
  for (int i = 3; i >= 0; --i) backward += "pick(f" + std::to_string(i) + ")\n";
  std::vector<FileFacts> facts;
  for (const std::string& text : {forward, backward}) {
    facts.push_back(testing_util::TestExtractor().Extract(text, ExtractOptions()));
  }
  CallGraphOptions options;
  options.max_values = 3;
  for (const FileFacts& f : facts) {
    const CallGraph g = BuildCallGraph({{"m.py", &f}}, options);
    for (const CallGraphEdge& e : g.edges) {
      if (e.kind == "possible") continue;
      EXPECT_NE(g.nodes[e.caller].name, "m.pick") << g.nodes[e.callee].name;
    }
    EXPECT_EQ(g.stats.saturated, 1);
  }
}

TEST(CallGraphTest, ARunAgainOnlyWhenASaturatedVariableHadPassedValuesOn) {
  // `handlers` takes 4 functions (cap 3). Read by nothing before it saturates, it passed nothing on: one run
  // suffices, and the graph is the one a second run would give. Read into `fn` while it held 3 values, those
  // reached `fn`: a second run starts with `handlers` saturated, and `fn()` resolves to nothing.
  std::string stored, read;
  for (int i = 0; i < 4; ++i) stored += "def f" + std::to_string(i) + "():\n    pass\n";
  read = stored;
  for (int i = 0; i < 4; ++i) {
    stored += "handlers = f" + std::to_string(i) + "\n";
    if (i == 3) read += "fn = handlers\n";
    read += "handlers = f" + std::to_string(i) + "\n";
  }
  stored += "def call_all():\n    fn = handlers\n    fn()\n";
  read += "def call_all():\n    fn()\n";
  CallGraphOptions options;
  options.max_values = 3;
  const FileFacts quiet = testing_util::TestExtractor().Extract(stored, ExtractOptions());
  const CallGraph g1 = BuildCallGraph({{"m.py", &quiet}}, options);
  EXPECT_EQ(g1.stats.runs, 1);
  EXPECT_EQ(g1.stats.saturated, 1);
  const FileFacts passed = testing_util::TestExtractor().Extract(read, ExtractOptions());
  const CallGraph g2 = BuildCallGraph({{"m.py", &passed}}, options);
  EXPECT_EQ(g2.stats.runs, 2);
  for (const CallGraphEdge& e : g2.edges) {
    if (e.kind == "possible") continue;
    EXPECT_NE(g2.nodes[e.caller].name, "m.call_all") << g2.nodes[e.callee].name;
  }
}

TEST(CallGraphTest, TestFilesSeeTheCodesFixpoint) {
  Built b = Build({{"pkg/__init__.py", ""},
                   {"pkg/api.py",
                    "class Engine:\n    def run(self):\n        pass\n"
                    "def make():\n    return factory()\n"
                    "def factory():\n    return Engine()\n"},
                   {"tests/test_api.py", "from pkg.api import make\ndef test_run():\n    make().run()\n"}});
  EXPECT_TRUE(b.edges.count({"tests.test_api.test_run", "pkg.api.Engine.run"}));
}

TEST(CallGraphTest, ACallableStoredByALibraryIsRegisteredNotCalled) {
  // A callable handed to an API that stores it (python/data/callable_apis.tsv) runs later, from elsewhere:
  // a "registered" edge. One handed to an API that calls it stays a "callback".
  Built b = Build({{"app.py",
                    "import atexit, contextlib, asyncio, signal, functools\n"
                    "def flush():\n    pass\n"
                    "def on_signal(sig, frame):\n    pass\n"
                    "def done(fut):\n    pass\n"
                    "def add(a, b):\n    return a + b\n"
                    "class Config:\n"
                    "    def __init__(self):\n        self._stack = contextlib.ExitStack()\n"
                    "    def add_cleanup(self, func):\n        self._stack.callback(func)\n"
                    "def setup(config):\n"
                    "    atexit.register(flush)\n"
                    "    signal.signal(signal.SIGTERM, on_signal)\n"
                    "    asyncio.get_event_loop().call_soon(done)\n"
                    "    config.add_cleanup(flush)\n"
                    "    functools.reduce(add, [1, 2])\n"
                    "setup(Config())\n"}});
  EXPECT_EQ(b.kinds["app.setup->app.flush"], "registered");
  EXPECT_EQ(b.kinds["app.setup->app.on_signal"], "registered");
  EXPECT_EQ(b.kinds["app.setup->app.done"], "registered");
  EXPECT_EQ(b.kinds["app.Config.add_cleanup->app.flush"], "registered");
  EXPECT_EQ(b.kinds["app.setup->app.add"], "callback");
}

TEST(CallGraphTest, ACallableOnlyInspectedIsNotCalled) {
  // `inspect.signature(f)` and `functools.wraps(f)` look at f; only `wrapper`'s own call of f calls it.
  Built b = Build({{"deco.py",
                    "import functools, inspect\n"
                    "def arguments(func):\n    return inspect.signature(func).parameters\n"
                    "def logged(func):\n"
                    "    @functools.wraps(func)\n"
                    "    def wrapper(*args):\n        return func(*args)\n"
                    "    return wrapper\n"
                    "def handler():\n    pass\n"
                    "arguments(handler)\nlogged(handler)\n"}});
  EXPECT_EQ(b.kinds.count("deco.arguments->deco.handler"), 0u);
  EXPECT_EQ(b.kinds.count("deco.logged->deco.handler"), 0u);
  EXPECT_EQ(b.kinds["deco.logged.wrapper->deco.handler"], "call");
}

TEST(CallGraphTest, AProjectRegistryCallsWhatItStoresFromWhereItRunsIt) {
  // Registering inside the project is points-to flow: the stored function is called where the list is run.
  Built b = Build({{"hooks.py",
                    "class Hooks:\n"
                    "    def __init__(self):\n        self._funcs = []\n        self._named = {}\n"
                    "    def add(self, func):\n        self._funcs += [func]\n        self._named['x'] = func\n"
                    "    def run(self):\n"
                    "        for f in self._funcs:\n            f()\n"
                    "        self._named['x']()\n"
                    "def cleanup():\n    pass\n"
                    "h = Hooks()\nh.add(cleanup)\nh.run()\n"}});
  EXPECT_TRUE(b.edges.count({"hooks.Hooks.run", "hooks.cleanup"}));
  EXPECT_FALSE(b.edges.count({"hooks.Hooks.add", "hooks.cleanup"}));
  EXPECT_FALSE(b.edges.count({"hooks", "hooks.cleanup"}));
}

TEST(CallGraphTest, AMethodOfABuiltinValueIsNoProjectMethodByName) {
  // `self.__dict__.copy()`, `vars(self).copy()`, a list literal's `.copy()`: the builtin's own method. An
  // unknown receiver's `.copy()` gets no "possible" edge either (a builtin type's method name:
  // NamesOfBuiltinMethodsGetNoPossibleEdges), but stays an unresolved call, unlike a builtin receiver's.
  Built b =
      Build({{"m.py",
              "class Path:\n"
              "    def copy(self, target):\n        pass\n"
              "class Call:\n"
              "    def __repr__(self):\n        d = self.__dict__.copy()\n        return str(d)\n"
              "    def fields(self):\n        return vars(self).copy()\n"
              "    def names(self):\n        return [1, 2].copy()\n"
              "    def title(self):\n        return str(self).title()\n"
              "    def pending(self, n):\n        left = list(range(n))\n        left.copy()\n        return left\n"
              "def unknown(x):\n    return x.copy()\n"
              "def partly_known(x):\n    return x.copy()\n"
              "def opts(o):\n    o.copy()\n"
              "partly_known(str(1))\nopts(vars())\n"}});
  EXPECT_FALSE(b.possible.count({"m.Call.__repr__", "m.Path.copy"}));
  EXPECT_FALSE(b.possible.count({"m.Call.fields", "m.Path.copy"}));
  EXPECT_FALSE(b.possible.count({"m.Call.names", "m.Path.copy"}));
  EXPECT_FALSE(b.possible.count({"m.Call.pending", "m.Path.copy"}));
  EXPECT_FALSE(b.possible.count({"m.unknown", "m.Path.copy"}));
  EXPECT_FALSE(b.possible.count({"m.partly_known", "m.Path.copy"}));
  EXPECT_FALSE(b.possible.count({"m.opts", "m.Path.copy"}));
  // A str has no `copy`: the graph knows only some of x's values, so the call stays unresolved. A dict has one.
  std::set<std::string> unresolved;
  for (const UnresolvedCall& u : b.graph.unresolved) {
    if (u.name == "copy") unresolved.insert(b.graph.nodes[u.caller].name);
  }
  EXPECT_TRUE(unresolved.count("m.unknown"));
  EXPECT_TRUE(unresolved.count("m.partly_known"));
  EXPECT_FALSE(unresolved.count("m.opts"));
  EXPECT_FALSE(unresolved.count("m.Call.__repr__"));
}

TEST(CallGraphTest, AClassDefiningABuiltinAttributeKeepsItsOwn) {
  // `__name__` is a builtin value only where the class does not define it.
  Built b = Build({{"m.py",
                    "class Named:\n"
                    "    def join(self, other):\n        pass\n"
                    "class Holder:\n"
                    "    __name__ = Named()\n"
                    "    def go(self):\n        return self.__name__.join(1)\n"
                    "def plain(f):\n    return f.__name__.join([])\n"}});
  EXPECT_TRUE(b.edges.count({"m.Holder.go", "m.Named.join"}));
  EXPECT_FALSE(b.possible.count({"m.plain", "m.Named.join"}));
}

}  // namespace
}  // namespace errdex
