// The container rules of the call graph (docs/callgraph.md, "Containers"): slices, the methods that store
// into a dict or a list, dict(...), `{**d}` and `a | b`. Programs written for these tests.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/call_graph.h"
#include "analysis/call_graph_test_util.h"

namespace errdex {
namespace {

using call_graph_test::Build;
using call_graph_test::Built;

const char* kSteps =
    "def load():\n    pass\n"
    "def save():\n    pass\n"
    "def keep():\n    pass\n"
    "def undo():\n    pass\n";

TEST(CallGraphContainersTest, DictUpdateWritesItsKeysIntoTheirSlots) {
  Built b = Build({
      // A literal's keys are always set: in straight-line code the slot holds the new value only.
      {"lit.py", std::string(kSteps) + "ops = {'run': load, 'other': keep}\nops.update({'run': save})\n"
                                       "ops['run']()\nops['other']()\n"},
      // Keywords are string keys.
      {"kw.py", std::string(kSteps) + "ops = {'run': load}\nops.update(run=save)\nops['run']()\n"},
      // Another dict's slots may be there or not: the old value stays possible.
      {"var.py", std::string(kSteps) + "more = {'run': save}\nops = {'run': load}\nops.update(more)\nops['run']()\n"},
      // An update in a branch may not happen.
      {"branch.py", std::string(kSteps) + "ops = {'run': load}\nif ops:\n    ops.update({'run': save})\n"
                                          "ops['run']()\n"},
      // Through a name that may be either dict, neither is surely updated.
      {"alias.py", std::string(kSteps) + "ops = {'run': load}\nother = {'run': keep}\n"
                                         "either = ops if load else other\neither.update({'run': save})\n"
                                         "ops['run']()\n"},
      // setdefault keeps a present key's value: old and default are both possible.
      {"default.py", std::string(kSteps) + "ops = {'run': load}\nops.setdefault('run', undo)()\n"
                                           "ops.setdefault('new', save)\nops['new']()\n"},
  });
  EXPECT_TRUE(b.edges.count({"lit", "lit.save"}));
  EXPECT_TRUE(b.edges.count({"lit", "lit.keep"}));
  EXPECT_FALSE(b.edges.count({"lit", "lit.load"}));
  // A store into a dict is no call edge, like `d[k] = v`; the call is resolved (no "possible" edges).
  EXPECT_FALSE(b.edges.count({"lit", "<**PyDict**>.update"}));
  EXPECT_TRUE(b.edges.count({"kw", "kw.save"}));
  EXPECT_FALSE(b.edges.count({"kw", "kw.load"}));
  EXPECT_TRUE(b.edges.count({"var", "var.save"}));
  EXPECT_TRUE(b.edges.count({"var", "var.load"}));
  EXPECT_TRUE(b.edges.count({"branch", "branch.save"}));
  EXPECT_TRUE(b.edges.count({"branch", "branch.load"}));
  EXPECT_TRUE(b.edges.count({"alias", "alias.load"}));
  EXPECT_TRUE(b.edges.count({"alias", "alias.save"}));
  EXPECT_TRUE(b.edges.count({"default", "default.load"}));
  EXPECT_TRUE(b.edges.count({"default", "default.undo"}));
  EXPECT_TRUE(b.edges.count({"default", "default.save"}));
}

TEST(CallGraphContainersTest, DictCallSplatAndUnionCopySlots) {
  Built b = Build({
      {"m.py", std::string(kSteps) + "base = {'a': load}\n"
                                     "made = dict(base, b=save)\n"
                                     "def use_made():\n    made['a']()\n    made['b']()\n"
                                     "spread = {**base, 'c': keep}\n"
                                     "def use_spread():\n    spread['a']()\n"
                                     "both = base | {'a': undo}\n"
                                     "both['a']()\n"
                                     "def use_pairs():\n    dict([('k', keep)])['k']()\n"},
  });
  EXPECT_TRUE(b.edges.count({"m.use_made", "m.load"}));
  EXPECT_TRUE(b.edges.count({"m.use_made", "m.save"}));
  EXPECT_TRUE(b.edges.count({"m.use_spread", "m.load"}));
  EXPECT_FALSE(b.edges.count({"m.use_spread", "m.keep"}));
  // The right operand's literal keys win.
  EXPECT_TRUE(b.edges.count({"m", "m.undo"}));
  EXPECT_FALSE(b.edges.count({"m", "m.load"}));
  // Pairs give values at unknown keys.
  EXPECT_TRUE(b.edges.count({"m.use_pairs", "m.keep"}));
}

TEST(CallGraphContainersTest, SlicesSelectTheSlotsTheirBoundsName) {
  Built b = Build({
      {"m.py",
       "def f0():\n    pass\ndef f1():\n    pass\ndef f2():\n    pass\ndef f3():\n    pass\n"
       "fs = [f0, f1, f2, f3]\n"
       "def middle():\n    fs[1:3][0]()\n"
       "def last():\n    fs[-1:][0]()\n"
       "def every_other():\n    fs[::2][1]()\n"
       "def backwards():\n    fs[::-1][0]()\n"
       "def head():\n    fs[:2][-1]()\n"
       "def of_tuple():\n    (f0, f1)[1:][0]()\n"
       "def unpacked():\n    a, b = fs[2:]\n    b()\n"
       "def unknown(i):\n    fs[i:][0]()\n"
       "def text():\n    'a b'[1:].split()\n"},
  });
  auto only = [&](const std::string& caller, const std::string& callee) {
    for (const char* f : {"m.f0", "m.f1", "m.f2", "m.f3"}) {
      EXPECT_EQ(b.edges.count({caller, f}), callee == f ? 1u : 0u) << caller << " -> " << f;
    }
  };
  only("m.middle", "m.f1");
  only("m.last", "m.f3");
  only("m.every_other", "m.f2");
  only("m.backwards", "m.f3");
  only("m.of_tuple", "m.f1");
  only("m.unpacked", "m.f3");
  // A negative index into a slice reads every slot (the slice's length is not kept).
  EXPECT_TRUE(b.edges.count({"m.head", "m.f1"}));
  EXPECT_FALSE(b.edges.count({"m.head", "m.f2"}));
  // A bound that is not a constant: every element at an unknown place.
  for (const char* f : {"m.f0", "m.f1", "m.f2", "m.f3"}) EXPECT_TRUE(b.edges.count({"m.unknown", f})) << f;
  // A slice of a string is a string.
  EXPECT_TRUE(b.edges.count({"m.text", "<**PyStr**>.split"}));
}

TEST(CallGraphContainersTest, GetPopAndValuesReadSlots) {
  Built b = Build({
      {"m.py", std::string(kSteps) + "table = {'load': load, 'save': save}\n"
                                     "def by_get():\n    table.get('load')()\n"
                                     "def by_get_default(name):\n    table.get(name, undo)()\n"
                                     "def by_pop():\n    table.pop('save')()\n"
                                     "def by_values():\n    for f in table.values():\n        f()\n"
                                     "stack = [keep]\n"
                                     "def by_list_pop():\n    stack.pop()()\n"},
  });
  EXPECT_TRUE(b.edges.count({"m.by_get", "m.load"}));
  EXPECT_FALSE(b.edges.count({"m.by_get", "m.save"}));
  // A method of a dict that does not store keeps its edge.
  EXPECT_TRUE(b.edges.count({"m.by_get", "<**PyDict**>.get"}));
  for (const char* f : {"m.load", "m.save", "m.undo"}) EXPECT_TRUE(b.edges.count({"m.by_get_default", f})) << f;
  EXPECT_TRUE(b.edges.count({"m.by_pop", "m.save"}));
  EXPECT_FALSE(b.edges.count({"m.by_pop", "m.load"}));
  EXPECT_TRUE(b.edges.count({"m.by_values", "m.load"}));
  EXPECT_TRUE(b.edges.count({"m.by_values", "m.save"}));
  EXPECT_TRUE(b.edges.count({"m.by_list_pop", "m.keep"}));
}

TEST(CallGraphContainersTest, ListStoresAddElementsAndResolveTheCall) {
  Built b = Build({
      {"m.py",
       "def hook():\n    pass\ndef more():\n    pass\ndef first():\n    pass\n"
       "class Buffer:\n    def append(self, x):\n        pass\n    def extend(self, xs):\n        pass\n"
       "hooks = [first]\nhooks.append(hook)\nhooks.extend([more])\n"
       "def run():\n    for h in hooks:\n        h()\n"
       "def part():\n    hooks[1:][0]()\n"},
  });
  EXPECT_TRUE(b.edges.count({"m.run", "m.hook"}));
  EXPECT_TRUE(b.edges.count({"m.run", "m.more"}));
  EXPECT_TRUE(b.edges.count({"m.run", "m.first"}));
  // The list's length is no longer known after an append: the slice holds every element.
  EXPECT_TRUE(b.edges.count({"m.part", "m.hook"}));
  EXPECT_TRUE(b.edges.count({"m.part", "m.more"}));
  // The calls are a list's methods, not the project's methods of that name.
  EXPECT_FALSE(b.possible.count({"m", "m.Buffer.append"}));
  EXPECT_FALSE(b.possible.count({"m", "m.Buffer.extend"}));
}

}  // namespace
}  // namespace errdex
