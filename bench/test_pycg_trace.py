#!/usr/bin/env python3
"""Self-test of bench/pycg_trace.py: programs written for it, run under the tracer. Stdlib unittest:

    python3 bench/test_pycg_trace.py
"""
import os
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pycg_trace  # noqa: E402

NAMING = """\
import os.path
import pkg.mod
from pkg import helper


def deco(f):
    return f


class K:
    x = len("ab")
    f = lambda self: 1

    @deco
    def meth(self):
        return [g(i) for i in range(2)]


def g(i):
    return (lambda: (lambda: i)())()


def outer():
    def inner():
        return sum(h(j) for j in range(2))
    return inner()


def h(j):
    return j


def e():
    pass


K().meth()
K().f()
outer()
" ".join(["a"])
{}.items()
list(map(h, [1]))
eval("e()")
pkg.mod.run()
helper()
os.path.join("a", "b")
z = lambda: (lambda: 3)
z()()
w = [lambda: 4 for _ in range(1)][0]
w()
try:
    raise ValueError
except ValueError:
    pass
"""


def run(files, timeout=5.0):
    with tempfile.TemporaryDirectory() as tmp:
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(tmp, path)), exist_ok=True)
            with open(os.path.join(tmp, path), "w") as f:
                f.write(textwrap.dedent(text))
        return pycg_trace.trace_program(tmp, timeout=timeout)


class TraceTest(unittest.TestCase):
    def test_names_follow_pycg(self):
        result = run({"main.py": NAMING, "pkg/__init__.py": "def helper():\n    pass\n",
                      "pkg/mod.py": "def run():\n    pass\n"})
        self.assertEqual(result["status"], "ran", result["detail"])
        self.assertEqual(result["edges"], {
            ("main", "<**PyDict**>.items"), ("main", "<**PyStr**>.join"), ("main", "<builtin>.ValueError"),
            ("main", "<builtin>.eval"), ("main", "<builtin>.list"), ("main", "<builtin>.map"),
            ("main", "<builtin>.range"), ("main", "main.<lambda1>"), ("main", "main.<lambda1>.<lambda1>"),
            ("main", "main.<lambda2>"), ("main", "main.K.<lambda1>"), ("main", "main.K.meth"),
            ("main", "main.e"),  # eval's code is transparent: main runs e
            ("main", "main.h"),  # map calls h for main
            ("main", "main.outer"), ("main", "pkg.helper"), ("main", "pkg.mod.run"),
            ("main.K", "<builtin>.len"), ("main.K", "main.deco"),  # calls in a class body
            ("main.K.meth", "<builtin>.range"), ("main.K.meth", "main.g"),  # a list comprehension is meth's
            ("main.g", "main.g.<lambda1>"), ("main.g.<lambda1>", "main.g.<lambda1>.<lambda1>"),
            ("main.outer", "main.outer.inner"), ("main.outer.inner", "<builtin>.range"),
            ("main.outer.inner", "<builtin>.sum"), ("main.outer.inner", "main.h")})  # a generator expression
        self.assertEqual(result["dropped"], ["main -> posixpath.join"])
        self.assertEqual(result["unnamed_c"], [])

    def test_equal_functions_of_two_modules_keep_their_modules(self):
        result = run({"main.py": "import a\nimport b\na.f()\nb.f()\n", "a.py": "def f():\n    pass\n",
                      "b.py": "def f():\n    pass\n"})
        self.assertEqual(result["edges"], {("main", "a.f"), ("main", "b.f")})

    def test_builtin_methods_and_implicit_calls(self):
        result = run({"main.py": """\
            class A:
                def __init__(self):
                    super().__init__()

            class It:
                def __iter__(self):
                    return self

                def __next__(self):
                    raise StopIteration

            def gen():
                yield 1

            A()
            ls = []
            append = ls.append
            append(1)
            list.append(ls, 2)
            for _ in It():
                pass
            for _ in gen():
                pass
            """})
        self.assertEqual(result["status"], "ran", result["detail"])
        self.assertEqual(result["edges"], {
            ("main", "main.A.__init__"), ("main.A.__init__", "<builtin>.super"), ("main", "<**PyList**>.append"),
            ("main", "main.It.__iter__"), ("main", "main.It.__next__"),
            ("main.It.__next__", "<builtin>.StopIteration"),  # raising a class calls it
            ("main", "main.gen")})  # resumed by the for loop
        self.assertEqual(result["unnamed_c"], ["method-wrapper object.__init__"])

    def test_a_program_ending_with_raise_ran(self):
        result = run({"main.py": "class E(Exception):\n    def __init__(self):\n        pass\n\nraise E\n"})
        self.assertEqual(result["status"], "ran")
        self.assertEqual(result["edges"], {("main", "main.E.__init__")})

    def test_an_exception_before_the_end_stops_the_program(self):
        result = run({"main.py": "def f(a):\n    a()\n\nf(lambda x: x)\nf(print)\n"})
        self.assertEqual(result["status"], "raised")
        self.assertIn("TypeError", result["detail"])
        self.assertEqual(result["edges"], {("main", "main.f")})  # the lambda is never entered

    def test_a_missing_module_stops_the_program(self):
        result = run({"main.py": "from absent_module import f\nf()\n"})
        self.assertEqual(result["status"], "raised")
        self.assertIn("ModuleNotFoundError", result["detail"])

    def test_an_endless_program_times_out(self):
        result = run({"main.py": "while True:\n    pass\n"}, timeout=1.0)
        self.assertEqual(result["status"], "timeout")
        self.assertEqual(result["edges"], set())

    def test_sockets_are_refused(self):
        result = run({"main.py": "import socket\nsocket.create_connection(('127.0.0.1', 9))\n"})
        self.assertEqual(result["status"], "raised")
        self.assertIn("network access refused", result["detail"])


if __name__ == "__main__":
    if sys.implementation.name != "cpython" or sys.version_info[:2] != (3, 11):
        print("skipped: the tracer reads CPython 3.11's frames")
        sys.exit(77)
    unittest.main()
