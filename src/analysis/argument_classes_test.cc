// Tests of the classes of arguments in the feasibility check of call paths (src/analysis/argument_classes.h):
// small packages extracted for real, whose paths are dropped when an argument's class decides a guard.
#include "analysis/argument_classes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/graph_triggers_test_util.h"

namespace errdex {
namespace {

using graph_triggers_test::Repo;
using graph_triggers_test::SiteAt;

std::vector<std::string> Entries(const Repo& repo, const std::string& path, const std::string& function, int line) {
  const GraphTriggers::NodeId node = repo.triggers->NodeOf(path, function, line);
  EXPECT_NE(node, GraphTriggers::kNoNode);
  std::vector<std::string> out;
  if (node == GraphTriggers::kNoNode) return out;
  for (const CallPath& p : repo.triggers->PathsTo(node, SiteAt(repo, path, line))) {
    out.push_back(p.frames.front().function);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

TEST(ArgumentClassesTest, ASubclassConstructedRunsTheInheritedInitWithItsArguments) {
  // `Unicode()` runs `String.__init__` (Unicode defines none) with no arguments: `collation_schema` is None
  // and the raise cannot run; `Text(collation_schema="s")` can reach it, and so can `Named.__init__`, which
  // passes a schema on (`as_named` reaches the raise through that public entry).
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/types.py",
              "class String:\n"
              "    def __init__(self, length=None, collation=None, collation_schema=None):\n"
              "        if collation_schema is not None and collation is None:\n"
              "            raise ValueError('collation_schema requires collation')\n"
              "class Unicode(String):\n"
              "    pass\n"
              "class Text(String):\n"
              "    pass\n"
              "class Named(String):\n"
              "    def __init__(self):\n"
              "        super().__init__(collation_schema='s')\n"},
             {"pkg/api.py",
              "from pkg.types import Unicode, Text, Named\n"
              "def wrap(kind, name):\n"
              "    return (kind, name)\n"
              "def as_string():\n"
              "    return wrap(Unicode(), 'as_string')\n"
              "def as_text():\n"
              "    return wrap(Text(collation_schema='s'), 'as_text')\n"
              "def as_named():\n"
              "    return wrap(Named(), 'as_named')\n"}});
  EXPECT_EQ(Entries(repo, "pkg/types.py", "String.__init__", 4),
            std::vector<std::string>({"Named.__init__", "String.__init__", "as_text"}));
}

TEST(ArgumentClassesTest, AFreshInstanceIsNeverAModuleSentinel) {
  // `holder is not NOTSET` holds for an instance of a class (built here, returned by a straight-line function,
  // or `self`): the `elif` raise cannot run; `node_or_obj is NOTSET` is false for a string literal. An unknown
  // holder, or the sentinel's own default, can reach it.
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/compat.py",
              "import enum\n"
              "class NotSetType(enum.Enum):\n"
              "    token = 0\n"
              "NOTSET = NotSetType.token\n"
              "MISSING = object()\n"},
             {"pkg/fixtures.py",
              "from pkg.compat import NOTSET, MISSING\n"
              "class Manager:\n"
              "    def parse(self, node_or_obj=NOTSET, *, holder=NOTSET, node=NOTSET):\n"
              "        if holder is not NOTSET:\n"
              "            return holder\n"
              "        elif node_or_obj is NOTSET:\n"
              "            raise TypeError('parse() requires holder or node_or_obj')\n"
              "        return node_or_obj\n"
              "    def lookup(self, key=MISSING):\n"
              "        if key is MISSING:\n"
              "            raise KeyError('no key')\n"
              "        return key\n"},
             {"pkg/nodes.py",
              "from pkg.fixtures import Manager\n"
              "class Holder:\n"
              "    pass\n"
              "def new_holder():\n"
              "    return Holder()\n"
              "class Node:\n"
              "    def collect(self):\n"
              "        Manager().parse(holder=Holder(), node=self)\n"
              "    def returned(self):\n"
              "        Manager().parse(holder=new_holder(), node=self)\n"
              "    def itself(self):\n"
              "        Manager().parse(holder=self)\n"
              "    def unknown(self, h):\n"
              "        Manager().parse(holder=h)\n"
              "    def nothing(self):\n"
              "        Manager().parse()\n"
              "    def named(self):\n"
              "        Manager().parse('name')\n"
              "    def keyed(self):\n"
              "        return Manager().lookup(self)\n"
              "    def keyed_none(self):\n"
              "        return Manager().lookup()\n"}});
  EXPECT_EQ(Entries(repo, "pkg/fixtures.py", "Manager.parse", 7),
            std::vector<std::string>({"Manager.parse", "Node.nothing", "Node.unknown"}));
  EXPECT_EQ(Entries(repo, "pkg/fixtures.py", "Manager.lookup", 11),
            std::vector<std::string>({"Manager.lookup", "Node.keyed_none"}));
}

TEST(ArgumentClassesTest, IsinstanceOfABaseHoldsForAnInstanceOfASubclass) {
  // `_configure` (decorated) turns a column into a property unless it is one (a middle frame: the raise is in
  // `_from_column`). A `ColumnProperty` built in the caller (through a module import, assigned once, the class
  // decorated by a decorator that returns it) is a `Property`; `self` of a `Property` subclass too; a `Column`
  // is not one, and a class defining `__new__` may build anything.
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/log.py", "def class_logger(cls):\n    cls.logger = None\n    return cls\n"},
             {"pkg/interfaces.py",
              "class Property:\n"
              "    pass\n"
              "class Column:\n"
              "    pass\n"
              "class Odd(Property):\n"
              "    def __new__(cls, *args):\n"
              "        return Column()\n"},
             {"pkg/properties.py",
              "from pkg import log\n"
              "from pkg.interfaces import Property\n"
              "@log.class_logger\n"
              "class ColumnProperty(Property):\n"
              "    def attach(self, mapper):\n"
              "        mapper._configure('key', self)\n"},
             {"pkg/util/__init__.py",
              "from .preloaded import preload_module as preload_module\nfrom .preloaded import traced\n"},
             {"pkg/util/preloaded.py",
              "class _ModuleRegistry:\n"
              "    def __init__(self):\n"
              "        self.deps = set()\n"
              "    def preload_module(self, *deps):\n"
              "        \"\"\"Adds the modules; no change to the decorated object.\"\"\"\n"
              "        self.deps.update(deps)\n"
              "        return lambda fn: fn\n"
              "_reg = _ModuleRegistry()\n"
              "preload_module = _reg.preload_module\n"
              "def traced(*names):\n"
              "    return lambda fn: print(fn)\n"},
             {"pkg/mapper.py",
              "from . import util\n"
              "from .interfaces import Property\n"
              "class Mapper:\n"
              "    @util.preload_module('pkg.api')\n"
              "    def _configure(self, key, prop_arg):\n"
              "        if not isinstance(prop_arg, Property):\n"
              "            prop = self._from_column(key, prop_arg)\n"
              "        else:\n"
              "            prop = prop_arg\n"
              "        return prop\n"
              "    def _from_column(self, key, column):\n"
              "        raise ValueError('not a column: %r' % column)\n"
              "    @util.traced('configure')\n"
              "    def _traced(self, key, prop_arg):\n"
              "        if not isinstance(prop_arg, Property):\n"
              "            self._from_column(key, prop_arg)\n"},
             {"pkg/api.py",
              "from pkg import properties\n"
              "from pkg.interfaces import Column, Odd\n"
              "from pkg.mapper import Mapper\n"
              "def synonym(m: Mapper):\n"
              "    p = properties.ColumnProperty()\n"
              "    m._configure('name', p)\n"
              "def direct(m: Mapper):\n"
              "    m._configure('name', properties.ColumnProperty())\n"
              "def column(m: Mapper):\n"
              "    m._configure('name', Column())\n"
              "def odd(m: Mapper):\n"
              "    m._configure('name', Odd())\n"
              "def reassigned(m: Mapper, flag):\n"
              "    p = properties.ColumnProperty()\n"
              "    if flag:\n"
              "        p = Column()\n"
              "    m._configure('name', p)\n"
              "def traced(m: Mapper):\n"
              "    m._traced('name', properties.ColumnProperty())\n"}});
  // `@util.preload_module(...)` hands the method back unchanged (a bound method of a module-level
  // instance whose body returns `lambda fn: fn`); `@util.traced(...)` replaces it: its callers stay.
  EXPECT_EQ(Entries(repo, "pkg/mapper.py", "Mapper._from_column", 12),
            std::vector<std::string>({"column", "odd", "reassigned", "traced"}));
}

TEST(ArgumentClassesTest, NothingIsDecidedForAnInstanceThroughAnOpenTest) {
  // The truth of an instance of a class with `__len__` is unknown; one without is true. `isinstance` of a
  // class the instance is not of is false only for an exact class (not for `self`, a subclass may be it).
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/core.py",
              "class Bag:\n"
              "    def __len__(self):\n"
              "        return 0\n"
              "class Box:\n"
              "    def put(self, other):\n"
              "        return check(self)\n"
              "class Flag:\n"
              "    pass\n"
              "def check(x):\n"
              "    if not x:\n"
              "        raise ValueError('empty')\n"
              "    if isinstance(x, Flag):\n"
              "        raise TypeError('a flag')\n"
              "    return x\n"
              "def bag():\n"
              "    return check(Bag())\n"
              "def box():\n"
              "    return check(Box())\n"
              "def flag():\n"
              "    return check(Flag())\n"}});
  EXPECT_EQ(Entries(repo, "pkg/core.py", "check", 11), std::vector<std::string>({"Box.put", "bag", "check"}));
  EXPECT_EQ(Entries(repo, "pkg/core.py", "check", 13), std::vector<std::string>({"Box.put", "check", "flag"}));
}

TEST(ArgumentClassesTest, ADecoratorTypedToKeepTheFunctionsTypeKeepsTheCallsArguments) {
  // `_generative` (`(fn: _Fn) -> _Fn`) and `_exclusive(...)` (`-> Callable[[_Fn], _Fn]`) are typed as handing
  // back the function's own type: `values(v)` passes one positional argument, so `len(args) > 1` cannot hold.
  // `_loose` returns a bare `Callable`, `_other` a TypeVar other than its argument's: nothing is decided.
  Repo repo({{"pkg/__init__.py", ""},
             {"pkg/base.py",
              "from typing import Any, Callable, TypeVar\n"
              "_Fn = TypeVar('_Fn', bound=Callable[..., Any])\n"
              "_G = TypeVar('_G')\n"
              "def _generative(fn: _Fn) -> _Fn:\n"
              "    return make_wrapper(fn)\n"
              "def _exclusive(*names: str) -> Callable[[_Fn], _Fn]:\n"
              "    return make_checker(names)\n"
              "def _loose(fn: Callable) -> Callable:\n"
              "    return make_wrapper(fn)\n"
              "def _other(fn: _Fn) -> _G:\n"
              "    return make_wrapper(fn)\n"},
             {"pkg/dml.py",
              "from pkg.base import _generative, _exclusive, _loose, _other\n"
              "class Values:\n"
              "    @_generative\n"
              "    @_exclusive('_select')\n"
              "    def values(self, *args, **kwargs):\n"
              "        if len(args) > 1:\n"
              "            raise ValueError('one positional at most')\n"
              "    @_loose\n"
              "    def loose(self, *args):\n"
              "        if len(args) > 1:\n"
              "            raise ValueError('loose: one positional at most')\n"
              "    @_other\n"
              "    def other(self, *args):\n"
              "        if len(args) > 1:\n"
              "            raise ValueError('other: one positional at most')\n"},
             {"pkg/api.py",
              "from pkg.dml import Values\n"
              "def update(v):\n"
              "    return Values().values(v)\n"
              "def update_many(v, w):\n"
              "    return Values().values(v, w)\n"
              "def update_loose(v):\n"
              "    return Values().loose(v)\n"
              "def update_other(v):\n"
              "    return Values().other(v)\n"}});
  EXPECT_EQ(Entries(repo, "pkg/dml.py", "Values.values", 7),
            std::vector<std::string>({"Values.values", "update_many"}));
  EXPECT_EQ(Entries(repo, "pkg/dml.py", "Values.loose", 11),
            std::vector<std::string>({"Values.loose", "update_loose"}));
  EXPECT_EQ(Entries(repo, "pkg/dml.py", "Values.other", 15),
            std::vector<std::string>({"Values.other", "update_other"}));
}

}  // namespace
}  // namespace errdex
