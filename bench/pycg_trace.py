#!/usr/bin/env python3
"""The call edges a PyCG micro-benchmark program really executes, named the way PyCG names them.

`trace_program(snippet_dir)` copies the program to a temporary directory and runs it there with this machine's
python3 (`-I -B`, cwd = the copy, stdin /dev/null, a timeout, sockets refused by an audit hook). The child
process runs this same file as a bootstrap: it installs a tracer (sys.settrace, per-opcode events in the
program's own frames) and runs main.py as `__main__` with runpy, the program's directory first on sys.path,
then writes the edges it saw to a JSON file. Python 3.11 (CPython) only: see `CallableAt`.

What is an edge, and how its ends are named (PyCG's conventions, read from the expected callgraph.json files
and from PyCG's cgprocessor.py):

- A Python function, method or lambda of the program entered (a 'call' event, generator resumptions too) is an
  edge from the nearest frame of the program below it: frames outside the program's directory (the stdlib,
  code that eval/exec compiled from a string) are transparent, as a C function is (map calling f is an edge
  from the frame that called map to f). Calls from the program into library code (Python functions and C
  functions of modules other than builtins) are dropped and listed by module name (PyCG would name them by
  import path; no micro-benchmark program calls the stdlib); the import machinery is not listed.
- Names: module = path relative to the program's directory (`pkg/mod.py` -> `pkg.mod`, `pkg/__init__.py` ->
  `pkg`); then co_qualname without `<locals>` (`main.dec1.inner`, `main.Cls.meth`). A module's top-level
  code is the module name; a class body is the class (`main.Cls`, PyCG's caller for calls in a class body).
  Comprehension and generator-expression frames belong to the enclosing function (PyCG has no scope for them).
  A lambda is `<lambdaN>`, N counting the lambdas of its PyCG scope (module, class, function, lambda) in
  source order, 1 first (`main.func.<lambda1>`).
- Running a module (import) or a class body, and entering a comprehension, are no edges (PyCG has none).
- C callables, seen at the call instruction (PRECALL, CALL_FUNCTION_EX): an object of the builtins module
  (functions and classes: `<builtin>.len`, `<builtin>.range`, `<builtin>.StopIteration`) and a method of a
  value of a builtin type (`" ".join` -> `<**PyStr**>.join`, `d.items` -> `<**PyDict**>.items`). Raising a
  class calls it (Python instantiates it: `raise StopIteration` -> `<builtin>.StopIteration`, `raise A` enters
  `A.__init__`). `__build_class__` (the class statement) is no edge. Other C callables (a slot wrapper such as
  `object.__init__` reached by super()) are listed, unnamed.

One run sees one execution: the executed edges are a lower bound of the edges the program can make (and only
the main thread is traced).

Usage (the bootstrap; trace_program runs it): pycg_trace.py PROGRAM_DIR OUT.json
"""
import ast
import builtins
import ctypes
import dis
import json
import os
import runpy
import shutil
import subprocess
import sys
import tempfile
import traceback
import types

COMPREHENSIONS = ("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>")
C_CALLABLES = (types.BuiltinFunctionType, types.MethodDescriptorType, types.WrapperDescriptorType,
               types.MethodWrapperType, types.ClassMethodDescriptorType)
CO_OPTIMIZED = 0x1
BLOCKED_AUDIT_EVENTS = ("socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg", "socket.getaddrinfo")


# ---------------------------------------------------------------------------------------------------------
# The parent side: run one program, read what the child wrote.

def trace_program(snippet_dir, python="python3", timeout=5.0):
    """Runs snippet_dir/main.py traced in a temporary copy. Returns a dict: status (`ran`: to its end, or to
    main.py's last top-level statement when that is a `raise`: the whole program ran; `raised`: stopped by an
    uncaught exception; `timeout`; `crashed`: no result), detail (the exception and where, or the
    end of stderr), edges (a set of (caller, callee)), dropped (calls into code outside the program) and
    unnamed_c (C callables without a PyCG name). Executed edges are a lower bound: one run, one path."""
    with tempfile.TemporaryDirectory(prefix="pycg-trace-") as tmp:
        copy = os.path.join(tmp, "program")
        shutil.copytree(snippet_dir, copy)
        out = os.path.join(tmp, "trace.json")
        cmd = [python, "-I", "-B", os.path.abspath(__file__), copy, out]
        try:
            proc = subprocess.run(cmd, cwd=copy, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"status": "timeout", "detail": f"over {timeout:g} s", "edges": set(), "dropped": [],
                    "unnamed_c": []}
        if not os.path.exists(out):
            tail = proc.stderr.strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
            return {"status": "crashed", "detail": tail[0], "edges": set(), "dropped": [], "unnamed_c": []}
        with open(out) as f:
            result = json.load(f)
    result["edges"] = {tuple(edge) for edge in result["edges"]}
    return result


# ---------------------------------------------------------------------------------------------------------
# The child side: names of code objects.

class Namer:
    """PyCG names of the program's code objects (None for code outside the program's directory)."""

    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.modules = {}  # co_filename -> module name or None
        self.lambdas = {}  # co_filename -> [(start, end, PyCG path without the module)]
        self.names = {}  # (code object, co_filename) -> name

    def module(self, filename):
        if filename not in self.modules:
            path = os.path.realpath(filename) if os.path.isabs(filename) else None
            name = None
            if path and path.endswith(".py") and path.startswith(self.root + os.sep):
                parts = os.path.relpath(path, self.root)[:-3].split(os.sep)
                if parts[-1] == "__init__" and len(parts) > 1:
                    parts.pop()
                name = ".".join(parts)
                self.lambdas[filename] = lambda_spans(path)
            self.modules[filename] = name
        return self.modules[filename]

    def name(self, code):
        """`module.qual.name`, or None when the code is not the program's."""
        key = (code, code.co_filename)  # equal code objects may come from different files
        if key not in self.names:
            self.names[key] = self._name(code)
        return self.names[key]

    def _name(self, code):
        module = self.module(code.co_filename)
        if module is None:
            return None
        if code.co_name == "<module>":
            return module
        parts = [p for p in code.co_qualname.split(".") if p != "<locals>" and p not in COMPREHENSIONS]
        if "<lambda>" in parts:  # only lambdas and comprehensions nest in a lambda: the path is the AST's
            path = innermost_lambda(self.lambdas[code.co_filename], code_positions(code))
            return f"{module}.{path}" if path else None
        return ".".join([module] + parts)


def kind(code):
    """'module', 'class' (a class body), 'comprehension' or 'function'."""
    if code.co_name == "<module>":
        return "module"
    if not code.co_flags & CO_OPTIMIZED:
        return "class"
    if code.co_name in COMPREHENSIONS:
        return "comprehension"
    return "function"


PROLOGUE = ("RESUME", "COPY_FREE_VARS", "MAKE_CELL", "RETURN_GENERATOR", "NOP", "CACHE")


def code_positions(code):
    """The (line, column) starts and ends of code's instructions, the prologue and empty positions left out:
    all lie in the source of the code's body."""
    points = []
    for instruction in dis.get_instructions(code):
        p = instruction.positions
        if instruction.opname in PROLOGUE or not p or None in (p.lineno, p.col_offset, p.end_lineno,
                                                                 p.end_col_offset):
            continue
        if (p.lineno, p.col_offset) != (p.end_lineno, p.end_col_offset):  # empty: the implicit `return`
            points += [(p.lineno, p.col_offset), (p.end_lineno, p.end_col_offset)]
    return points


def innermost_lambda(spans, points):
    """The PyCG path of the innermost lambda whose body holds every point (None if none does)."""
    best = None
    for start, end, path in spans:
        if points and all(start <= point <= end for point in points) and (best is None or start >= best[0]):
            best = (start, end, path)
    return best[2] if best else None


def lambda_spans(path):
    """[((line, col), (end_line, end_col) of the body, PyCG path)] of every lambda of a file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        tree = ast.parse(f.read())
    spans = []

    def visit(node, scope, counter):
        # Numbers the lambdas of one PyCG scope in source order; a def's decorators, defaults and bases and a
        # lambda's defaults belong to the enclosing scope, their bodies to a new one.
        if isinstance(node, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body if isinstance(node.body, list) else [node.body]
            for child in ast.iter_child_nodes(node):
                if not any(child is b for b in body):
                    visit(child, scope, counter)
            if isinstance(node, ast.Lambda):
                counter[0] += 1
                name = f"<lambda{counter[0]}>"
                spans.append(((node.body.lineno, node.body.col_offset),
                              (node.body.end_lineno, node.body.end_col_offset), ".".join(scope + [name])))
            else:
                name = node.name
            inner_counter = [0]
            for child in body:
                visit(child, scope + [name], inner_counter)
            return
        for child in sorted(ast.iter_child_nodes(node), key=lambda n: (getattr(n, "lineno", 0),
                                                                        getattr(n, "col_offset", 0))):
            visit(child, scope, counter)

    visit(tree, [], [0])
    return spans


def is_library(code, module):
    """Whether code is a library's (the stdlib's): neither the import machinery, nor code compiled from a
    string (eval, exec), nor this tracer's audit hook."""
    if code.co_filename == __file__ or module.startswith(("importlib", "_frozen_importlib")):
        return False
    return code.co_filename.startswith("<frozen ") or not code.co_filename.startswith("<")


def builtin_name(obj, builtin_ids):
    """PyCG's name of a C callable, or None."""
    if id(obj) in builtin_ids:
        return "<builtin>." + builtin_ids[id(obj)]
    owner = getattr(obj, "__self__", None)
    if owner is None or isinstance(owner, type(builtins)):
        owner_type = getattr(obj, "__objclass__", None)  # a method descriptor (LOAD_METHOD of a builtin method)
    else:
        owner_type = owner if isinstance(owner, type) else type(owner)
    if owner_type is not None and id(owner_type) in builtin_ids and isinstance(owner_type, type):
        return "<**Py" + owner_type.__name__.capitalize() + "**>." + obj.__name__
    return None


# ---------------------------------------------------------------------------------------------------------
# The child side: the callable on the value stack, CPython 3.11.

class CallableAt:
    """Reads the value stack of a frame paused at an 'opcode' trace event (CPython 3.11 layouts of
    PyFrameObject and _PyInterpreterFrame; `check` verifies them on every frame before a read)."""
    F_FRAME = 24  # PyFrameObject: ob_refcnt, ob_type, f_back, f_frame
    F_CODE, FRAME_OBJ, STACKTOP, LOCALSPLUS = 32, 40, 64, 72  # _PyInterpreterFrame

    @staticmethod
    def _ptr(address):
        return ctypes.c_void_p.from_address(address).value or 0

    def check(self, frame):
        interp = self._ptr(id(frame) + self.F_FRAME)
        return bool(interp) and self._ptr(interp + self.F_CODE) == id(frame.f_code) and \
            self._ptr(interp + self.FRAME_OBJ) == id(frame)

    def peek(self, frame, n):
        """The object n places from the top of the value stack (1 = the top), None for NULL."""
        interp = self._ptr(id(frame) + self.F_FRAME)
        top = ctypes.c_int.from_address(interp + self.STACKTOP).value
        if n > top:
            raise RuntimeError("stack read below the frame's locals")
        address = self._ptr(interp + self.LOCALSPLUS + 8 * (top - n))
        return ctypes.cast(address, ctypes.py_object).value if address else None


class Tracer:
    def __init__(self, root):
        self.namer = Namer(root)
        self.stack = CallableAt()
        self.builtin_ids = {id(v): k for k, v in vars(builtins).items()}
        self.instructions = {}
        self.edges = set()
        self.dropped = set()
        self.unnamed_c = set()

    def caller(self, frame):
        """PyCG name of the nearest frame of the program at or below frame (outside frames are transparent)."""
        while frame is not None and self.namer.name(frame.f_code) is None:
            frame = frame.f_back
        return self.namer.name(frame.f_code) if frame is not None else None

    def on_call(self, frame, event, arg):
        code = frame.f_code
        name = self.namer.name(code)
        caller = self.caller(frame.f_back)
        if name is None:
            module = frame.f_globals.get("__name__", "?")
            if frame.f_back and self.namer.name(frame.f_back.f_code) is not None and is_library(code, module):
                self.dropped.add(f"{caller} -> {module}.{code.co_qualname}")
            return None
        if kind(code) == "function" and caller is not None:
            self.edges.add((caller, name))
        if not self.stack.check(frame):
            raise RuntimeError("frame layout is not CPython 3.11's: C calls cannot be read")
        frame.f_trace_opcodes = True
        return self.on_opcode

    def on_opcode(self, frame, event, arg):
        if event != "opcode":
            return self.on_opcode
        code = frame.f_code
        if code not in self.instructions:
            self.instructions[code] = {i.offset: (i.opname, i.arg) for i in dis.get_instructions(code)}
        opname, oparg = self.instructions[code].get(frame.f_lasti, (None, None))
        if opname == "PRECALL":  # stack: [NULL or method, callable or self, args...]
            callee = self.stack.peek(frame, oparg + 2)
            if callee is None:
                callee = self.stack.peek(frame, oparg + 1)
        elif opname == "CALL_FUNCTION_EX":  # stack: [NULL, callable, args, kwargs if oparg & 1]
            callee = self.stack.peek(frame, 2 + (oparg & 1))
        elif opname == "RAISE_VARARGS" and oparg:  # raising a class calls it
            callee = self.stack.peek(frame, oparg)
            if not isinstance(callee, type):
                callee = None
        else:
            return self.on_opcode
        self.record_c_call(frame, callee)
        return self.on_opcode

    def record_c_call(self, frame, callee):
        if isinstance(callee, type):
            if id(callee) not in self.builtin_ids:
                return  # a class of the program or the stdlib: its __init__ or __new__, if Python code, is the edge
        elif not isinstance(callee, C_CALLABLES):
            return  # a Python function, method or callable object: its 'call' event is the edge
        if callee is builtins.__build_class__:
            return  # a class statement
        name = builtin_name(callee, self.builtin_ids)
        owner = getattr(callee, "__self__", None)
        if name is None and isinstance(owner, types.ModuleType):  # a C function of a library module
            self.dropped.add(f"{self.caller(frame)} -> {owner.__name__}.{callee.__name__}")
        elif name is None:
            self.unnamed_c.add(f"{type(callee).__name__} {getattr(callee, '__qualname__', '?')}")
        else:
            self.edges.add((self.caller(frame), name))


def ends_with_raise(main_path, line):
    """Whether line is in main.py's last top-level statement and that statement is a `raise`."""
    with open(main_path, encoding="utf-8", errors="replace") as f:
        body = ast.parse(f.read()).body
    return bool(body) and isinstance(body[-1], ast.Raise) and body[-1].lineno <= line <= body[-1].end_lineno


def bootstrap(root, out):
    def refuse_network(event, args):
        if event in BLOCKED_AUDIT_EVENTS:
            raise PermissionError("network access refused by the tracer: " + event)

    main_path = os.path.join(root, "main.py")
    sys.path.insert(0, root)
    sys.addaudithook(refuse_network)
    tracer = Tracer(root)
    status, detail = "ran", ""
    sys.settrace(tracer.on_call)
    try:
        runpy.run_path(main_path, run_name="__main__")
    except SystemExit as e:
        status, detail = ("ran", "") if e.code in (0, None) else ("raised", f"SystemExit({e.code!r})")
    except BaseException as e:  # the program's own exception: where did it stop?
        sys.settrace(None)
        innermost = traceback.extract_tb(e.__traceback__)[-1]
        where = f"{os.path.relpath(innermost.filename, root)} line {innermost.lineno}"
        in_main = innermost.name == "<module>" and os.path.realpath(innermost.filename) == os.path.realpath(main_path)
        status = "ran" if in_main and ends_with_raise(main_path, innermost.lineno) else "raised"
        detail = f"{type(e).__name__}: {e} ({where})"
    finally:
        sys.settrace(None)
    with open(out, "w") as f:
        json.dump({"status": status, "detail": detail, "edges": sorted(tracer.edges),
                   "dropped": sorted(tracer.dropped), "unnamed_c": sorted(tracer.unnamed_c)}, f)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    if sys.implementation.name != "cpython" or sys.version_info[:2] != (3, 11):
        sys.exit("pycg_trace.py reads CPython 3.11's frames; this is " + sys.version.split()[0])
    bootstrap(os.path.abspath(sys.argv[1]), sys.argv[2])
