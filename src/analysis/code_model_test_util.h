// Hand-made FileFacts for the code model's tests (code_model, call_paths, state_origin): a repository of
// files whose functions, classes, imports, calls and state writes are declared one by one, exactly as
// extraction documents them in src/extract/file_facts.h. Owns the facts, the index and the model.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "analysis/code_model.h"
#include "extract/file_facts.h"
#include "python/python_module_index.h"

namespace errdex::testing_util {

class FakeRepo {
 public:
  FileFacts& File(const std::string& path, bool is_test = false) {
    if (is_test) tests_[path] = true;
    return files_[path];
  }
  FakeRepo& Def(const std::string& path, const std::string& qualname, int line, int end_line, bool is_method = false,
                std::vector<std::string> decorators = {}) {
    FunctionDef f;
    f.qualname = qualname;
    f.line = line;
    f.end_line = end_line;
    f.is_method = is_method;
    f.decorators = std::move(decorators);
    File(path).functions.push_back(std::move(f));
    return *this;
  }
  FakeRepo& Class(const std::string& path, const std::string& qualname, int line, std::vector<std::string> bases = {}) {
    ClassDef c;
    c.qualname = qualname;
    c.line = line;
    c.bases = std::move(bases);
    File(path).classes.push_back(std::move(c));
    return *this;
  }
  FakeRepo& Import(const std::string& path, const std::string& name, const std::string& target) {
    File(path).imports.push_back(ImportBinding{name, target});
    return *this;
  }
  FakeRepo& Call(const std::string& path, const std::string& function, const std::string& callee, int line,
                 const std::string& code) {
    CallFact c;
    c.function = function;
    c.callee = callee;
    c.line = line;
    c.code = code;
    File(path).calls.push_back(std::move(c));
    return *this;
  }
  FakeRepo& Write(const std::string& path, const std::string& function, const std::string& target,
                  const std::string& name, int line, const std::string& code, const std::string& kind = "assign") {
    StateWrite w;
    w.function = function;
    w.target = target;
    w.name = name;
    w.kind = kind;
    w.line = line;
    w.code = code;
    File(path).state_writes.push_back(std::move(w));
    return *this;
  }

  // Builds the index and the model (call once, after declaring everything).
  const CodeModel& Build() {
    std::vector<PythonModuleIndex::FileRef> refs;
    std::vector<CodeModel::File> files;
    for (auto& [path, facts] : files_) {
      refs.push_back({path, &facts});
      files.push_back({path, &facts, tests_.count(path) > 0});
    }
    index_ = std::make_unique<PythonModuleIndex>(refs);
    model_ = std::make_unique<CodeModel>(*index_, files);
    return *model_;
  }
  const CodeModel& model() const { return *model_; }
  const PythonModuleIndex& index() const { return *index_; }

 private:
  std::map<std::string, FileFacts> files_;  // node-based: addresses stay valid
  std::map<std::string, bool> tests_;
  std::unique_ptr<PythonModuleIndex> index_;
  std::unique_ptr<CodeModel> model_;
};

// The mechanism behind Lightning's "Failed to determine the arguments that were used to compile the
// module" (src/lightning/fabric/wrappers.py), reduced to the facts the code model reads:
//   lightning/fabric/wrappers.py   _unwrap_compiled raises (line 356) when getattr(obj, "_compile_kwargs",
//                                  None) is None (condition line 355); _capture_compile_kwargs.<locals>.
//                                  _capture writes compiled_model._compile_kwargs (416); at module level,
//                                  line 423: torch.compile = _capture_compile_kwargs(torch.compile).
//                                  A global _in_fabric_backward (written at 30 and, declared global, at 40).
//   lightning/fabric/fabric.py     Fabric.setup (240) and Fabric.setup_module (290) call
//                                  self._move_model_to_device, which calls _unwrap_compiled (905);
//                                  Fabric.backward writes wrappers._in_fabric_backward (480); Fabric.launch
//                                  writes self._launched (510).
//   lightning/fabric/_precision.py _Precision.convert_module calls _unwrap_compiled (12).
//   lightning/fabric/strategies/strategy.py  Strategy.teardown calls self.precision.convert_module (50):
//                                  only a possible call; writes strategy._compile_kwargs (60).
//   lightning/pytorch/core/module.py  another package's self._compile_kwargs write (77).
//   tests/tests_fabric/test_wrappers.py  a test writes model._compile_kwargs (10) and calls _unwrap_compiled.
inline void AddLightningLike(FakeRepo& repo) {
  const std::string w = "lightning/fabric/wrappers.py";
  const std::string f = "lightning/fabric/fabric.py";
  repo.Import("lightning/__init__.py", "Fabric", "lightning.fabric.fabric.Fabric");
  repo.Import("lightning/fabric/__init__.py", "Fabric", "lightning.fabric.fabric.Fabric");
  repo.Import(w, "torch", "torch")
      .Import(w, "OptimizedModule", "torch._dynamo.OptimizedModule")
      .Write(w, "<module>", "", "_in_fabric_backward", 30, "_in_fabric_backward: bool = False", "annassign")
      .Def(w, "_set_backward", 38, 41)
      .Write(w, "_set_backward", "", "_in_fabric_backward", 40, "_in_fabric_backward = flag")
      .Def(w, "_unwrap_compiled", 347, 359)
      .Def(w, "_backward_hook", 366, 371)
      .Def(w, "_capture_compile_kwargs", 400, 420)
      .Def(w, "_capture_compile_kwargs.<locals>._capture", 405, 418)
      .Call(w, "_capture_compile_kwargs.<locals>._capture", "compile_fn", 415,
            "compiled_model = compile_fn(*args, **kwargs)")
      .Write(w, "_capture_compile_kwargs.<locals>._capture", "compiled_model", "_compile_kwargs", 416,
             "compiled_model._compile_kwargs = kwargs")
      .Call(w, "<module>", "_capture_compile_kwargs", 423, "torch.compile = _capture_compile_kwargs(torch.compile)")
      .Write(w, "<module>", "torch", "compile", 423, "torch.compile = _capture_compile_kwargs(torch.compile)");
  repo.Import(f, "_unwrap_compiled", "lightning.fabric.wrappers._unwrap_compiled")
      .Import(f, "wrappers", "lightning.fabric.wrappers")
      .Class(f, "Fabric", 100)
      .Def(f, "Fabric.setup", 200, 260, true)
      .Call(f, "Fabric.setup", "self._move_model_to_device", 240,
            "module = self._move_model_to_device(model=module, optimizers=list(optimizers))")
      .Def(f, "Fabric.setup_module", 270, 300, true)
      .Call(f, "Fabric.setup_module", "self._move_model_to_device", 290,
            "module = self._move_model_to_device(model=module, optimizers=[])")
      .Def(f, "Fabric.backward", 470, 490, true)
      .Write(f, "Fabric.backward", "wrappers", "_in_fabric_backward", 480, "wrappers._in_fabric_backward = True")
      .Def(f, "Fabric.launch", 500, 520, true)
      .Write(f, "Fabric.launch", "self", "_launched", 510, "self._launched = True")
      .Def(f, "Fabric._move_model_to_device", 900, 920, true)
      .Call(f, "Fabric._move_model_to_device", "_unwrap_compiled", 905, "original, _ = _unwrap_compiled(model)");
  repo.Import("lightning/fabric/_precision.py", "_unwrap_compiled", "lightning.fabric.wrappers._unwrap_compiled")
      .Class("lightning/fabric/_precision.py", "_Precision", 5)
      .Def("lightning/fabric/_precision.py", "_Precision.convert_module", 10, 14, true)
      .Call("lightning/fabric/_precision.py", "_Precision.convert_module", "_unwrap_compiled", 12,
            "model, kw = _unwrap_compiled(module)");
  repo.Class("lightning/fabric/strategies/strategy.py", "Strategy", 20)
      .Def("lightning/fabric/strategies/strategy.py", "Strategy.teardown", 45, 62, true)
      .Call("lightning/fabric/strategies/strategy.py", "Strategy.teardown", "self.precision.convert_module", 50,
            "self.precision.convert_module(self.model)")
      .Write("lightning/fabric/strategies/strategy.py", "Strategy.teardown", "strategy", "_compile_kwargs", 60,
             "strategy._compile_kwargs = None")
      .Write("lightning/fabric/strategies/strategy.py", "Strategy.teardown", "self", "_launched", 61,
             "self._launched = False");
  repo.Class("lightning/pytorch/core/module.py", "LightningModule", 70)
      .Def("lightning/pytorch/core/module.py", "LightningModule.compile_stuff", 75, 78, true)
      .Write("lightning/pytorch/core/module.py", "LightningModule.compile_stuff", "self", "_compile_kwargs", 77,
             "self._compile_kwargs = None");
  const std::string t = "tests/tests_fabric/test_wrappers.py";
  repo.File(t, true);
  repo.Import(t, "_unwrap_compiled", "lightning.fabric.wrappers._unwrap_compiled")
      .Def(t, "test_unwrap", 5, 12)
      .Write(t, "test_unwrap", "model", "_compile_kwargs", 10, "model._compile_kwargs = {}")
      .Call(t, "test_unwrap", "_unwrap_compiled", 11, "_unwrap_compiled(model)");
  for (const char* init : {"lightning/fabric/strategies/__init__.py", "lightning/pytorch/__init__.py",
                           "lightning/pytorch/core/__init__.py"}) {
    repo.File(init);
  }
}

}  // namespace errdex::testing_util
