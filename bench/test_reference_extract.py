#!/usr/bin/env python3
"""Self-test of bench/reference_extract.py (and of compare.py's normalization). Stdlib unittest:

    python3 bench/test_reference_extract.py
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "reference_extract.py")
COMPARE = os.path.join(HERE, "compare.py")
sys.path.insert(0, HERE)

import warnings  # noqa: E402

import compare  # noqa: E402
import reference_extract as rx  # noqa: E402

warnings.simplefilter("ignore")

CORE = r'''"""Core module."""
import sys
import warnings
from warnings import warn as _warn

LIMIT_MSG = "limit exceeded"
PREFIX = "config: "

if sys.version_info < (3, 8):
    raise ImportError("need Python 3.8, not %d.%d" % sys.version_info[:2])


def _bad(name, expected):
    """Build a message."""
    return f"bad value for {name}: expected {expected!r}"


def check(value, width, items):
    if value is None:
        raise ValueError(f"value {value!r:>{width}} is not allowed {{ok}}")
    if value < 0:
        raise ValueError("negative: %s (%d%%)" % (value, width))
    if value > 100:
        raise OverflowError("too big: {} > {max}".format(value, max=100))
    if value == 7:
        raise TypeError(PREFIX + "seven " + str(value))
    if value == 8:
        raise KeyError(", ".join(["a", repr(value), "c"]))
    msg = "bad items"
    msg += ": %s" % items
    if not items:
        raise RuntimeError(msg)
    if value == 9:
        raise errors.ConfigError(LIMIT_MSG, code=3)
    if value == 10:
        raise KeyError(_bad("value", expected=width))
    try:
        pass
    except OSError:
        raise
    assert width > 0, "width must be positive, got %r" % width
    assert width < 1000
    warnings.warn("deprecated call", DeprecationWarning, stacklevel=2)
    _warn(f"items={len(items)}")
    raise ValueError(r"raw \d+" "\t") from None


def multi():
    s = "é"; raise UnicodeError("naïve ü")
    raise ValueError(
        "first line "
        "second line"
    )


class Registry:
    class Entry:
        def validate(self):
            raise NotImplementedError

    def lookup(self, key):
        raise LookupError(key)

    async def fetch(self):
        raise ConnectionError()


def outer():
    def inner(x):
        raise ValueError(message="inner failed")
    handler = lambda: warnings.warn("in lambda", category=FutureWarning)
    class Local:
        def m(self):
            raise self.error_cls("local %s" % self).with_traceback(None)
    return inner, handler, Local
'''

# (line, col, end_line, kind, type, template, function) of every site of pkg/core.py
CORE_EXPECTED = [
    (10, 4, 10, 'raise', 'ImportError', 'need Python 3.8, not {sys.version_info[:2][0]}.{sys.version_info[:2][1]}', '<module>'),
    (20, 8, 20, 'raise', 'ValueError', 'value {value!r:>{width}} is not allowed {{ok}}', 'check'),
    (22, 8, 22, 'raise', 'ValueError', 'negative: {value} ({width}%)', 'check'),
    (24, 8, 24, 'raise', 'OverflowError', 'too big: {value} > {100}', 'check'),
    (26, 8, 26, 'raise', 'TypeError', 'config: seven {str(value)}', 'check'),
    (28, 8, 28, 'raise', 'KeyError', 'a, {repr(value)}, c', 'check'),
    (32, 8, 32, 'raise', 'RuntimeError', 'bad items: {items}', 'check'),
    (34, 8, 34, 'raise', 'errors.ConfigError', 'limit exceeded', 'check'),
    (36, 8, 36, 'raise', 'KeyError', 'bad value for {"value"}: expected {expected!r}', 'check'),
    (40, 8, 40, 'reraise', None, None, 'check'),
    (41, 4, 41, 'assert', 'AssertionError', 'width must be positive, got {width}', 'check'),
    (43, 4, 43, 'warn', 'DeprecationWarning', 'deprecated call', 'check'),
    (44, 4, 44, 'warn', 'UserWarning', 'items={len(items)}', 'check'),
    (45, 4, 45, 'raise', 'ValueError', 'raw \\d+\t', 'check'),
    (49, 14, 49, 'raise', 'UnicodeError', 'naïve ü', 'multi'),
    (50, 4, 53, 'raise', 'ValueError', 'first line second line', 'multi'),
    (59, 12, 59, 'raise', 'NotImplementedError', None, 'Registry.Entry.validate'),
    (62, 8, 62, 'raise', 'LookupError', '{key}', 'Registry.lookup'),
    (65, 8, 65, 'raise', 'ConnectionError', '', 'Registry.fetch'),
    (70, 8, 70, 'raise', 'ValueError', 'inner failed', 'outer.<locals>.inner'),
    (71, 22, 71, 'warn', 'FutureWarning', 'in lambda', 'outer.<locals>.<lambda>'),
    (74, 12, 74, 'raise', 'self.error_cls', 'local {self}', 'outer.<locals>.Local.m'),
]

TEST_FILE = 'def test_x():\n    x = 2\n    assert x == 1, f"x is {x}"\n'
PROBE = 'raise ProbeError("must not be found")\n'


def write(root, rel, data):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as fh:
        fh.write(data if isinstance(data, bytes) else data.encode("utf-8"))


def run_extractor(*args):
    res = subprocess.run([sys.executable, SCRIPT] + list(args), check=True, stdout=subprocess.PIPE)
    return [json.loads(line) for line in res.stdout.decode("utf-8").splitlines()]


def site_tuples(recs, path):
    return [(r["line"], r["col"], r["end_line"], r["kind"], r["type"], r["template"], r["function"])
            for r in recs if r.get("path") == path]


def templates_of(source):
    """Templates of all sites of a one-file source, in order."""
    return [r["template"] for _, r in rx.process_bytes("m.py", source.encode("utf-8"))]


class ReferenceExtractTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="errdex_ref_test_")
        root = cls.root = os.path.join(cls.tmp, "src")
        write(root, "pkg/__init__.py", "")
        write(root, "pkg/core.py", CORE)
        write(root, "pkg/tests/test_core.py", TEST_FILE)
        write(root, "pkg/bad.py", "def f(:\n    raise ValueError('x')\n")
        write(root, "pkg/latin.py", b"# -*- coding: latin-1 -*-\nraise ValueError('caf\xe9')\n")
        write(root, "pkg/blob.py", b"raise ValueError('x')\n\0\0")
        write(root, "pkg/huge.py", b"x = 1\n" * (rx.MAX_SIZE // 6 + 1))
        for d in ("__pycache__", "node_modules", ".git", "build", "dist", "foo.egg-info", "site-packages",
                  "myvenv", "env"):
            write(root, d + "/probe.py", PROBE)
        write(root, "myvenv/pyvenv.cfg", "home = /usr\n")
        write(root, "env/pyvenv.cfg", "home = /usr\n")
        write(root, "envy/ok.py", "assert 0, 'kept'\n")  # not a venv: kept
        os.symlink(os.path.join(root, "pkg"), os.path.join(root, "linkdir"))
        os.symlink(os.path.join(root, "pkg", "core.py"), os.path.join(root, "link.py"))
        cls.recs = run_extractor(root)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_core_sites_exact(self):
        got = site_tuples(self.recs, "pkg/core.py")
        self.assertEqual(len(got), len(CORE_EXPECTED))
        for g, e in zip(got, CORE_EXPECTED):
            self.assertEqual(g, e)

    def test_record_keys_and_is_test(self):
        sites = [r for r in self.recs if "skip" not in r]
        for r in sites:
            self.assertEqual(list(r), ["path", "line", "col", "end_line", "kind", "type", "template",
                                       "function", "is_test"])
        t = [r for r in sites if r["path"] == "pkg/tests/test_core.py"]
        self.assertEqual(t, [{"path": "pkg/tests/test_core.py", "line": 3, "col": 4, "end_line": 3,
                              "kind": "assert", "type": "AssertionError", "template": "x is {x}",
                              "function": "test_x", "is_test": True}])
        self.assertFalse(any(r["is_test"] for r in sites if r["path"] == "pkg/core.py"))

    def test_skips_and_directories(self):
        skips = {r["skip"]: r["reason"] for r in self.recs if "skip" in r}
        self.assertEqual(skips, {"pkg/bad.py": "syntax_error", "pkg/latin.py": "not_utf8",
                                 "pkg/blob.py": "binary", "pkg/huge.py": "too_large"})
        paths = {r.get("path") for r in self.recs}
        self.assertEqual(paths - {None}, {"pkg/core.py", "pkg/tests/test_core.py", "envy/ok.py"})

    def test_sorted(self):
        keys = [(r.get("path") or r["skip"], r.get("line", 0), r.get("col", -1)) for r in self.recs]
        self.assertEqual(keys, sorted(keys))

    def test_jobs_and_git_agree(self):
        self.assertEqual(run_extractor(self.root, "--jobs", "3"), self.recs)
        repo = os.path.join(self.tmp, "repo")
        os.makedirs(repo)
        write(repo, "pkg/core.py", CORE)
        write(repo, "pkg/tests/test_core.py", TEST_FILE)
        write(repo, "pkg/bad.py", "def f(:\n")
        write(repo, "build/probe.py", PROBE)  # no directory skipping in git mode
        env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
                   GIT_COMMITTER_EMAIL="t@t")
        for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "x"]):
            subprocess.run(["git", "-C", repo] + cmd, check=True, env=env)
        write(repo, "pkg/core.py", "raise WorkTreeOnly('not committed')\n")  # must not be read
        for jobs in ("1", "2"):
            out = os.path.join(self.tmp, "git%s.jsonl" % jobs)
            run_extractor("--git", repo, "--rev", "HEAD", "--jobs", jobs, "--out", out)
            with open(out, encoding="utf-8") as fh:
                recs = [json.loads(line) for line in fh]
            self.assertEqual(site_tuples(recs, "pkg/core.py"), CORE_EXPECTED)
            self.assertEqual(len(site_tuples(recs, "pkg/tests/test_core.py")), 1)
            self.assertEqual(len(site_tuples(recs, "build/probe.py")), 1)
            self.assertIn({"skip": "pkg/bad.py", "reason": "syntax_error"}, recs)


class TemplateRuleTest(unittest.TestCase):
    def test_literals(self):
        self.assertEqual(templates_of('raise E("a\\N{EM DASH}b\\x41\\q" r"\\n")\nraise E(rb"\\x" b"\\xe9")'),
                         ["a\\N{{EM DASH}}bA\\q\\n", "\\x\xe9"])
        self.assertEqual(templates_of('raise E(f"{x=}" f"{{}}{d[\'k\']:{w}.{p}f}")'),
                         ["{x=}{{}}{d['k']:{w}.{p}f}"])
        self.assertEqual(templates_of('raise E("""a\nb""" \'{c}\')'), ["a\nb{{c}}"])

    def test_percent_and_format(self):
        self.assertEqual(templates_of('raise E("%(name)s is %-10r" % d)'), ["{name} is {d[1]}"])
        self.assertEqual(templates_of('raise E("%s and %s" % args)'), ["{args[0]} and {args[1]}"])
        self.assertEqual(templates_of('raise E("{0.attr!r} {k[1]} {z}".format(obj, k=v))'),
                         ["{obj.attr!r} {v[1]} {z}"])
        self.assertEqual(templates_of('raise E(code % 3)'), ["{code % 3}"])

    def test_names(self):
        src = ('M = "module"\n'
               'def f():\n'
               '    raise E(M)\n'
               '    m = "a"\n'
               '    raise E(m)\n'
               '    m += "b"\n'
               '    m = m + "c"\n'
               '    raise E(m)\n'
               '    raise E(N)\n'
               'N = "late"\n'
               'raise E(N)\n')
        self.assertEqual(templates_of(src), ["module", "a", "abc", "late", "late"])
        self.assertEqual(templates_of("raise E(Q)\nQ = 'after'\n"), ["{Q}"])
        self.assertEqual(templates_of("def f():\n    a = b = 'x'\n    raise E(a)\n"), ["{a}"])

    def test_message_choice(self):
        self.assertEqual(templates_of('raise E(3, "text", "more")'), ["text"])
        self.assertEqual(templates_of('raise E(code, other)'), ["{code}"])
        self.assertEqual(templates_of('raise E(detail="d", msg="m")'), ["m"])
        self.assertEqual(templates_of('raise E(code=1)'), [None])
        self.assertEqual(templates_of('raise E.with_traceback(tb)'), ["{tb}"])
        self.assertEqual(templates_of('raise E("m").with_traceback(tb)'), ["m"])
        self.assertEqual(templates_of('raise e from None'), [None])

    def test_warn_binding(self):
        src = ('import warnings as w\n'
               'warnings.warn("not bound")\n'
               'w.warn(message="kw", category=C)\n'
               'def warn(x): pass\n'
               'warn("not the warnings one")\n')
        recs = [r for _, r in rx.process_bytes("m.py", src.encode())]
        self.assertEqual([(r["line"], r["type"], r["template"]) for r in recs], [(3, "C", "kw")])

    def test_normalize(self):
        self.assertEqual(compare.normalize("a {x!r:>{w}} {{lit}} {} }} {{"), "a {} {{lit}} {} }} {{")
        self.assertIsNone(compare.normalize(None))


class CompareTest(unittest.TestCase):
    def test_compare_runs(self):
        with tempfile.TemporaryDirectory() as tmp:
            ref = os.path.join(tmp, "ref.jsonl")
            dex = os.path.join(tmp, "dex.jsonl")
            rows = [{"path": "a.py", "line": 1, "col": 0, "end_line": 1, "kind": "raise", "type": "E",
                     "template": "x {a}", "function": "<module>", "is_test": False},
                    {"path": "a.py", "line": 2, "col": 0, "end_line": 2, "kind": "raise", "type": "E",
                     "template": "y", "function": "<module>", "is_test": False},
                    {"skip": "b.py", "reason": "syntax_error"}]
            with open(ref, "w") as fh:
                fh.writelines(json.dumps(r) + "\n" for r in rows)
            drows = [dict(rows[0], template="x {b!r}", id="1"), dict(rows[1], col=4, type="m.E"),
                     {"path": "b.py", "line": 1, "col": 0, "end_line": 1, "kind": "raise", "type": "E",
                      "template": None, "function": "<module>"}]
            with open(dex, "w") as fh:
                fh.writelines(json.dumps(r) + "\n" for r in drows)
            res = subprocess.run([sys.executable, COMPARE, ref, dex, "--json"], stdout=subprocess.PIPE)
            self.assertEqual(res.returncode, 0)
            m = json.loads(res.stdout)
            self.assertEqual((m["matched"], m["recall"], m["precision"]), (2, 1.0, 1.0))
            self.assertEqual((m["type_agreement"], m["template_agreement"]), (0.5, 1.0))
            self.assertEqual(m["errdex_sites_in_reference_skipped_files"], 1)


if __name__ == "__main__":
    unittest.main()
