// Tests of the program facts (docs/extraction.md, "Program facts"): functions, calls, state
// writes, __all__ and what conditions read, through the extractor and the JSON round trip. Expectations
// were written from the contract and Python's semantics (__qualname__, what an assignment writes).
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "extract/file_facts_json.h"
#include "python/python_extractor.h"
#include "testing/test_extractor.h"

namespace errdex {
namespace {

using testing_util::TestExtractor;
using Strings = std::vector<std::string>;

FileFacts Extract(std::string_view source) {
  if (!source.empty() && source[0] == '\n') source.remove_prefix(1);
  FileFacts facts = TestExtractor().Extract(source, ExtractOptions());
  EXPECT_EQ(facts.status, "ok") << facts.reason;
  return facts;
}

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ",") + p;
  return out;
}

// "QUALNAME LINE-END_LINE (PARAMS) [DECORATORS] method?"
Strings Functions(const FileFacts& facts) {
  Strings out;
  for (const FunctionDef& f : facts.functions) {
    out.push_back(f.qualname + " " + std::to_string(f.line) + "-" + std::to_string(f.end_line) + " (" + Join(f.params) +
                  ") [" + Join(f.decorators) + "]" + (f.is_method ? " method" : ""));
  }
  return out;
}

// "FUNCTION LINE:COL CALLEE"
Strings Calls(const FileFacts& facts) {
  Strings out;
  for (const CallFact& c : facts.calls) {
    out.push_back(c.function + " " + std::to_string(c.line) + ":" + std::to_string(c.col) + " " + c.callee);
  }
  return out;
}

// "FUNCTION LINE KIND TARGET|NAME"
Strings Writes(const FileFacts& facts) {
  Strings out;
  for (const StateWrite& w : facts.state_writes) {
    out.push_back(w.function + " " + std::to_string(w.line) + " " + w.kind + " " + w.target + "|" + w.name);
  }
  return out;
}

// "KIND TARGET|NAME" for each read of a condition of the site at LINE: the nearest one, or FROM_END
// conditions before it (earlier early exits come first).
Strings ReadsAt(const FileFacts& facts, int line, size_t from_end = 0) {
  for (const Site& s : facts.sites) {
    if (s.line != line) continue;
    if (from_end >= s.conditions.size()) {
      ADD_FAILURE() << "site at line " << line << " has " << s.conditions.size() << " conditions";
      return {};
    }
    Strings out;
    for (const StateRead& r : s.conditions[s.conditions.size() - 1 - from_end].reads)
      out.push_back(r.kind + " " + r.target + "|" + r.name);
    return out;
  }
  ADD_FAILURE() << "no site at line " << line;
  return {};
}

constexpr std::string_view kLightning = R"py(
from copy import deepcopy
from functools import wraps

import torch


def _capture_compile_kwargs(compile_fn):
    @wraps(compile_fn)
    def _capture(*args, **kwargs):
        compiled_model = compile_fn(model, **kwargs)
        compiled_model._compile_kwargs = deepcopy(kwargs)
        return compiled_model
    return _capture
torch.compile = _capture_compile_kwargs(torch.compile)


def _verify(obj):
    if (k := getattr(obj, "_compile_kwargs", None)) is None:
        raise RuntimeError("not compiled")
    return k
)py";

TEST(CodeModelTest, LightningCompileKwargsMechanism) {
  FileFacts facts = Extract(kLightning);
  EXPECT_EQ(Functions(facts),
            (Strings{"_capture_compile_kwargs 7-13 (compile_fn) []",
                     "_capture_compile_kwargs.<locals>._capture 8-12 (args,kwargs) [wraps(compile_fn)]",
                     "_verify 17-20 (obj) []"}));
  EXPECT_EQ(Writes(facts),
            (Strings{"_capture_compile_kwargs.<locals>._capture 11 assign compiled_model|_compile_kwargs",
                     "<module> 14 assign torch|compile"}));
  EXPECT_EQ(facts.state_writes[0].code, "compiled_model._compile_kwargs = deepcopy(kwargs)");
  EXPECT_EQ(facts.state_writes[1].code, "torch.compile = _capture_compile_kwargs(torch.compile)");
  EXPECT_EQ(Calls(facts),
            (Strings{"_capture_compile_kwargs 8:5 wraps", "_capture_compile_kwargs.<locals>._capture 10:25 compile_fn",
                     "_capture_compile_kwargs.<locals>._capture 11:41 deepcopy",
                     "<module> 14:16 _capture_compile_kwargs", "_verify 18:13 getattr", "_verify 19:14 RuntimeError"}));
  EXPECT_EQ(facts.calls[3].code, "torch.compile = _capture_compile_kwargs(torch.compile)");
  // k is a walrus local and obj a parameter: only the getattr is a read.
  EXPECT_EQ(ReadsAt(facts, 19), (Strings{"getattr obj|_compile_kwargs"}));
}

TEST(CodeModelTest, FunctionsQualnamesDocstringsAndParameters) {
  FileFacts facts = Extract(R"py(
class Fabric:
    """The fabric."""

    @staticmethod
    @other.decorator(1,
                     2)
    def setup(a, /, b=1, *rest, c: int = 2, d, **options):
        """Set up.

            Indented detail.
        """
        def inner():
            pass

        class Local:
            def m(self):
                pass
        return inner

    async def run(self, *, fast: bool):
        """\u00e9t\u00e9"""
        return (lambda x: x)(1)


def wrap(f):
    # comment
    pass

def trailing():
    if x:
        return 1
        # a trailing comment is not part of the body

# nor is a module comment
)py");
  EXPECT_EQ(
      Functions(facts),
      (Strings{
          "Fabric.setup 4-18 (a,b,rest,c,d,options) [staticmethod,other.decorator(1,\n                     2)] method",
          "Fabric.setup.<locals>.inner 12-13 () []",
          "Fabric.setup.<locals>.Local.m 16-17 (self) [] method",
          "Fabric.run 20-22 (self,fast) [] method",
          "wrap 25-27 (f) []",
          "trailing 29-31 () []",
      }));
  EXPECT_EQ(facts.functions[0].docstring, "Set up.\n\nIndented detail.");
  EXPECT_EQ(facts.functions[3].docstring, "\xC3\xA9t\xC3\xA9");
  EXPECT_EQ(facts.functions[4].docstring, "");
}

TEST(CodeModelTest, DocstringIsCutAtFourKilobytesOnACharacterBoundary) {
  std::string source = "def f():\n    \"\"\"";
  for (int i = 0; i < 3000; ++i) source += "\xC3\xA9";  // 6000 bytes of two-byte characters
  source += "\"\"\"\n";
  FileFacts facts = Extract(source);
  ASSERT_EQ(facts.functions.size(), 1u);
  const std::string& doc = facts.functions[0].docstring;
  EXPECT_LE(doc.size(), 4096u);
  EXPECT_GT(doc.size(), 4000u);
  EXPECT_EQ(doc.substr(doc.size() - 3), "\xE2\x80\xA6");
  EXPECT_EQ(doc.substr(doc.size() - 5, 2), "\xC3\xA9");
}

TEST(CodeModelTest, CallsOfDottedNamesOnly) {
  FileFacts facts = Extract(R"py(
import os

class Base:
    def run(self):
        super().run()
        super(Base, self).setup(x=1)
        self.trainer.fit_loop.run( )
        self . helper()
        f()()
        x[0]()
        (a).b()
        items.append(lambda: go(1))
        return [cls.create(i) for i in range(3)]

os.path.join("a", "b")
)py");
  EXPECT_EQ(Calls(facts),
            (Strings{"Base.run 5:8 super().run", "Base.run 5:8 super", "Base.run 6:8 super(Base,self).setup",
                     "Base.run 6:8 super", "Base.run 7:8 self.trainer.fit_loop.run", "Base.run 8:8 self.helper",
                     "Base.run 9:8 f", "Base.run 12:8 items.append", "Base.run 12:29 go", "Base.run 13:16 cls.create",
                     "Base.run 13:39 range", "<module> 15:0 os.path.join"}));
  EXPECT_EQ(facts.calls[0].code, "super().run()");
  EXPECT_EQ(facts.calls.back().code, "os.path.join(\"a\", \"b\")");
}

TEST(CodeModelTest, CallCodeIsTheTrimmedLineCutOnACharacterBoundary) {
  std::string source = "f(\"";
  for (int i = 0; i < 200; ++i) source += "\xC3\xA9";
  source += "\")\r\n";
  FileFacts facts = Extract(source);
  ASSERT_EQ(facts.calls.size(), 1u);
  EXPECT_LE(facts.calls[0].code.size(), 256u);
  EXPECT_EQ(facts.calls[0].code.substr(0, 3), "f(\"");
  EXPECT_EQ(facts.calls[0].code.substr(facts.calls[0].code.size() - 3), "\xE2\x80\xA6");
}

TEST(CodeModelTest, CallsPerFileAreBounded) {
  std::string source;
  for (int i = 0; i < 20100; ++i) source += "f()\n";
  FileFacts facts = Extract(source);
  EXPECT_EQ(facts.calls.size(), kMaxCallsPerFile);
  EXPECT_EQ(kMaxCallsPerFile, 20000u);
}

TEST(CodeModelTest, StateWritesOfEveryForm) {
  FileFacts facts = Extract(R"py(
import torch
LIMIT = 10
COUNT: int = 0
COUNT += 1
ONLY_ANNOTATED: int
a = b.c = torch.x = 1
first, (self_.x, *rest.y) = 1, (2, 3)
[p.q, r] = 4, 5
d["k"] = 1

class C:
    level = 1
    def __init__(self, trainer):
        self.trainer = trainer
        self.trainer.state.stage = "fit"
        self.count += 1
        self.value: int = 0
        self.other: int
        local = 3
        setattr(self, "dyn", 1)
        setattr(self, name, 1)
        delattr(self, "dyn")
        del self.trainer, self.x.y
        del local

def configure():
    global LIMIT
    LIMIT = 20
    COUNT = 5
    torch.backends.enabled = False
    del LIMIT
)py");
  EXPECT_EQ(Writes(facts), (Strings{
                               "<module> 2 assign |LIMIT",
                               "<module> 3 annassign |COUNT",
                               "<module> 4 augassign |COUNT",
                               "<module> 6 assign |a",
                               "<module> 6 assign b|c",
                               "<module> 6 assign torch|x",
                               "<module> 7 assign |first",
                               "<module> 7 assign self_|x",
                               "<module> 7 assign rest|y",
                               "<module> 8 assign p|q",
                               "<module> 8 assign |r",
                               "C 12 class_attr C|level",
                               "C.__init__ 14 assign self|trainer",
                               "C.__init__ 15 assign self.trainer.state|stage",
                               "C.__init__ 16 augassign self|count",
                               "C.__init__ 17 annassign self|value",
                               "C.__init__ 20 setattr self|dyn",
                               "C.__init__ 22 delete self|dyn",
                               "C.__init__ 23 delete self|trainer",
                               "C.__init__ 23 delete self.x|y",
                               "configure 28 assign |LIMIT",
                               "configure 30 assign torch.backends|enabled",
                               "configure 31 delete |LIMIT",
                           }));
  EXPECT_EQ(facts.state_writes[3].code, "a = b.c = torch.x = 1");
  EXPECT_EQ(facts.state_writes[16].code, "setattr(self, \"dyn\", 1)");
}

TEST(CodeModelTest, ClassAttributesAreWritesOfTheClass) {
  FileFacts facts = Extract(R"py(
class Dialect:
    supports_alter = True
    name: str = "default"
    only_annotated: int
    a = b = 0
    x, (y, *z) = 1, (2, 3)
    counter += 1
    del a
    if FLAG:
        flagged = True
    obj.attr = 1
    class Inner:
        depth = 2
    def method(self):
        local = 1
        self.inst = 2
        class InMethod:
            hidden = 3

def factory():
    class Local:
        hidden = 4
    return Local
)py");
  EXPECT_EQ(Writes(facts), (Strings{
                               "Dialect 2 class_attr Dialect|supports_alter",
                               "Dialect 3 class_attr Dialect|name",
                               "Dialect 5 class_attr Dialect|a",
                               "Dialect 5 class_attr Dialect|b",
                               "Dialect 6 class_attr Dialect|x",
                               "Dialect 6 class_attr Dialect|y",
                               "Dialect 6 class_attr Dialect|z",
                               "Dialect 10 class_attr Dialect|flagged",
                               "Dialect 11 assign obj|attr",
                               "Dialect.Inner 13 class_attr Dialect.Inner|depth",
                               "Dialect.method 16 assign self|inst",
                           }));
  ASSERT_FALSE(facts.state_writes.empty());
  EXPECT_EQ(facts.state_writes[0].code, "supports_alter = True");
  // The JSON round trip keeps the kind and target.
  FileFacts back;
  ASSERT_TRUE(FileFactsFromJson(FileFactsToJson(facts), &back));
  EXPECT_EQ(Writes(back), Writes(facts));
}

TEST(CodeModelTest, StateWriteCodeIsCutAt512Bytes) {
  std::string source = "x.a = \"";
  for (int i = 0; i < 400; ++i) source += "\xC3\xA9";
  source += "\"\n";
  FileFacts facts = Extract(source);
  ASSERT_EQ(facts.state_writes.size(), 1u);
  EXPECT_LE(facts.state_writes[0].code.size(), 512u);
  EXPECT_EQ(facts.state_writes[0].code.substr(facts.state_writes[0].code.size() - 3), "\xE2\x80\xA6");
}

TEST(CodeModelTest, DunderAll) {
  FileFacts none = Extract("x = 1\n");
  EXPECT_FALSE(none.has_all);
  FileFacts facts = Extract(R"py(
__all__ = ["old"]
__all__ = ["a", 'b', name]
__all__ += ("c",)
def f():
    __all__ = ["local"]
)py");
  EXPECT_TRUE(facts.has_all);
  EXPECT_EQ(facts.all_names, (Strings{"a", "b", "c"}));
  FileFacts tuple = Extract("__all__ = (\n    \"x\",\n    \"y\",\n)\n");
  EXPECT_TRUE(tuple.has_all);
  EXPECT_EQ(tuple.all_names, (Strings{"x", "y"}));
}

TEST(CodeModelTest, ConditionReadsAttributesGetattrHasattrAndGlobals) {
  FileFacts facts = Extract(R"py(
import os
DEBUG = False

class Trainer:
    def fit(self, model, items):
        limit = 3
        if self.trainer.state.stage == "fit" and not hasattr(model, "configure") and DEBUG:
            raise ValueError("a")
        if isinstance(model, Module) and len(items) > limit and os.environ.get("X"):
            raise ValueError("b")
        for item in items:
            if item.ready and getattr(self, name) and getattr(self, "flag", DEFAULT):
                raise ValueError("c")
        with open(self.path) as fh, lock:
            raise ValueError("d")
        if any(x.ok for x in items) or (lambda y: y.z)(model):
            raise ValueError("e")
        try:
            pass
        except (errors.Bad, OSError) as e:
            raise ValueError("f")

for entry in REGISTRY.entries:
    if entry.enabled and fn(entry, key=VALUE):
        raise ValueError("g")
)py");
  EXPECT_EQ(ReadsAt(facts, 8), (Strings{"attribute self.trainer.state|stage", "attribute self.trainer|state",
                                        "attribute self|trainer", "hasattr model|configure", "name |DEBUG"}));
  EXPECT_EQ(ReadsAt(facts, 10), (Strings{"name |Module", "attribute os|environ", "name |os"}));
  EXPECT_EQ(ReadsAt(facts, 10, 1), ReadsAt(facts, 8));  // the early exit of line 7 reads the same
  EXPECT_EQ(ReadsAt(facts, 13, 1), (Strings{}));        // `for item in items:` reads only locals
  EXPECT_EQ(ReadsAt(facts, 13), (Strings{"attribute item|ready", "name |name", "getattr self|flag", "name |DEFAULT"}));
  EXPECT_EQ(ReadsAt(facts, 15), (Strings{"attribute self|path", "name |lock"}));
  EXPECT_EQ(ReadsAt(facts, 17), (Strings{"attribute x|ok", "attribute y|z"}));
  EXPECT_EQ(ReadsAt(facts, 21), (Strings{"attribute errors|Bad", "name |errors"}));
  // At module level every name is a global (the loop variable too), except those the header binds.
  EXPECT_EQ(ReadsAt(facts, 25, 1), (Strings{"attribute REGISTRY|entries", "name |REGISTRY"}));
  EXPECT_EQ(ReadsAt(facts, 25), (Strings{"attribute entry|enabled", "name |entry", "name |VALUE"}));
}

TEST(CodeModelTest, ConditionReadsOfWhileMatchAndCase) {
  FileFacts facts = Extract(R"py(
def run(queue, command):
    while queue.pending and not STOPPED:
        match command.kind:
            case Kind.STOP | "halt" as word if word in ALLOWED and queue.size:
                raise ValueError("x")
    else:
        raise ValueError("y")
)py");
  EXPECT_EQ(ReadsAt(facts, 5, 2), (Strings{"attribute queue|pending", "name |STOPPED"}));
  EXPECT_EQ(ReadsAt(facts, 5, 1), (Strings{"attribute command|kind"}));
  EXPECT_EQ(ReadsAt(facts, 5), (Strings{"name |ALLOWED", "attribute queue|size"}));
  EXPECT_EQ(ReadsAt(facts, 7), (Strings{"attribute queue|pending", "name |STOPPED"}));
}

TEST(CodeModelTest, ConditionReadsSeeGlobalDeclarationsAndClosures) {
  FileFacts facts = Extract(R"py(
def outer(option):
    cache = {}
    def inner():
        global STATE
        STATE = 1
        if STATE and cache and option:
            raise ValueError("x")
    return inner

def locals_of_every_kind(items):
    def helper(): pass
    class Local: pass
    print([(found := i) for i in items])
    import os.path as osp, json
    from typing import Final
    with open(items) as (fh, other):
        for (a, b) in items:
            try:
                del items
            except Exception as e:
                if helper and Local and found and osp and json and Final and fh and other and a and b and e and GLOBAL:
                    raise ValueError("y")
)py");
  EXPECT_EQ(ReadsAt(facts, 7), (Strings{"name |STATE"}));
  EXPECT_EQ(ReadsAt(facts, 22), (Strings{"name |GLOBAL"}));
}

TEST(CodeModelTest, JsonRoundTripKeepsEveryField) {
  FileFacts facts = Extract(kLightning);
  facts.functions[0].docstring = "Doc.";
  ASSERT_FALSE(facts.sites.empty());
  ASSERT_FALSE(facts.sites[0].conditions.empty());
  nlohmann::json json = FileFactsToJson(facts);
  EXPECT_FALSE(json.contains("all_names"));
  FileFacts back;
  ASSERT_TRUE(FileFactsFromJson(json, &back));
  EXPECT_EQ(Functions(back), Functions(facts));
  EXPECT_EQ(back.functions[0].docstring, "Doc.");
  EXPECT_EQ(Calls(back), Calls(facts));
  EXPECT_EQ(back.calls[3].code, facts.calls[3].code);
  EXPECT_EQ(Writes(back), Writes(facts));
  EXPECT_EQ(back.state_writes[1].code, facts.state_writes[1].code);
  EXPECT_FALSE(back.has_all);
  ASSERT_EQ(back.sites[0].conditions.size(), facts.sites[0].conditions.size());
  EXPECT_EQ(ReadsAt(back, 19), (Strings{"getattr obj|_compile_kwargs"}));
  EXPECT_EQ(FileFactsToJson(back), json);

  // Calls are stored compactly (a repeated function or line is left out): decoding restores them.
  FileFacts nested = Extract("def f():\n    a(b(c()))\n    d()\ne(f())\n");
  ASSERT_EQ(nested.calls.size(), 6u);
  ASSERT_TRUE(FileFactsFromJson(FileFactsToJson(nested), &back));
  ASSERT_EQ(back.calls.size(), 6u);
  for (size_t i = 0; i < back.calls.size(); ++i) {
    EXPECT_EQ(back.calls[i].function, nested.calls[i].function) << i;
    EXPECT_EQ(back.calls[i].code, nested.calls[i].code) << i;
  }
  EXPECT_EQ(back.calls[2].code, "a(b(c()))");
  EXPECT_EQ(back.calls[5].function, "<module>");

  FileFacts all = Extract("__all__ = []\n");
  nlohmann::json all_json = FileFactsToJson(all);
  EXPECT_TRUE(all_json.contains("all_names"));
  EXPECT_FALSE(all_json.contains("calls"));
  ASSERT_TRUE(FileFactsFromJson(all_json, &back));
  EXPECT_TRUE(back.has_all);
  EXPECT_TRUE(back.all_names.empty());
}

TEST(CodeModelTest, WalrusDeepInAnEarlierStatementIsALocal) {
  std::string source = "def f(p):\n    x = ";
  for (int i = 0; i < 150; ++i) source += "(";
  source += "y := [1, 2]";
  for (int i = 0; i < 150; ++i) source += ")";
  source += "\n    if y and Z:\n        raise E(\"x\")\n";
  FileFacts facts = Extract(source);
  EXPECT_EQ(ReadsAt(facts, 4), (Strings{"name |Z"}));
}

TEST(CodeModelTest, HostileNestingStaysBounded) {
  std::string source;
  for (int i = 0; i < 150; ++i) source += "a.b(";
  for (int i = 0; i < 150; ++i) source += ")";
  source += "\n";
  std::string deep = "x = ";
  for (int i = 0; i < 500; ++i) deep += "f(";
  for (int i = 0; i < 500; ++i) deep += ")";
  deep += "\n";
  FileFacts facts = TestExtractor().Extract(source, ExtractOptions());
  EXPECT_EQ(facts.calls.size(), 150u);
  FileFacts skipped = TestExtractor().Extract(deep, ExtractOptions());
  (void)skipped;  // deep nesting may be skipped as too_deep; it must not crash
}

}  // namespace
}  // namespace errdex
