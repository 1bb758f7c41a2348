#!/usr/bin/env python3
"""End-to-end tests: the real errdex binary on fixture repositories (tests/fixtures) and on the local
Python standard library. Run by CTest: run_e2e.py --errdex BUILD/errdex --fixtures tests/fixtures."""

import argparse
import http.client
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import sysconfig
import tempfile
import time
import unittest

import e2e_util

ERRDEX = None
FIXTURES = None

LIST_FIELDS = {"id", "repo", "rev", "path", "line", "col", "end_line", "kind", "type", "type_qualified",
               "template", "function", "is_test", "permalink", "via"}


def run(*args, **kwargs):
    return e2e_util.run_errdex(ERRDEX, *args, **kwargs)


git = e2e_util.git


def list_sites(db, *extra):
    out = run("list", "--db", db, "--format", "jsonl", *extra).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


class Workspace(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="errdex-e2e-")
        self.db = os.path.join(self.tmp, "catalog.db")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, rel, text):
        path = os.path.join(self.tmp, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path


PKG_V1 = {
    "demo/__init__.py": "from .errors import DemoError\n",
    "demo/errors.py": 'class DemoError(ValueError):\n    """Raised when a demo goes wrong."""\n',
    "demo/core.py": (
        "from .errors import DemoError\n"
        "import warnings\n\n"
        "def check(device):\n"
        "    if device != 'cuda':\n"
        "        raise DemoError(f\"Device should be CUDA, got {device} instead.\")\n"
        "    msg = 'limit is %d' % 3\n"
        "    raise RuntimeError(msg)\n\n"
        "def old():\n"
        "    warnings.warn('old() is deprecated', DeprecationWarning)\n"
    ),
    "tests/test_core.py": (
        "import pytest\nfrom demo.core import check\n\n"
        "def test_check():\n"
        "    with pytest.raises(ValueError, match='got cpu'):\n"
        "        check('cpu')\n"
        "    assert check, 'check exists'\n"
    ),
}


class DirectoryIndexTest(Workspace):
    def make_pkg(self):
        root = os.path.join(self.tmp, "repo")
        for rel, text in PKG_V1.items():
            self.write(os.path.join("repo", rel), text)
        return root

    def test_index_list_show(self):
        root = self.make_pkg()
        proc = run("index", root, "--db", self.db, "--name", "acme/demo")
        self.assertIn("indexed acme/demo", proc.stdout)
        sites = list_sites(self.db)
        self.assertEqual({tuple(sorted(s.keys())) for s in sites}, {tuple(sorted(LIST_FIELDS))})
        by_line = {(s["path"], s["line"]): s for s in sites}
        s = by_line[("demo/core.py", 6)]
        self.assertEqual(s["kind"], "raise")
        self.assertEqual(s["type"], "DemoError")
        self.assertEqual(s["type_qualified"], "demo.errors.DemoError")
        self.assertEqual(s["template"], "Device should be CUDA, got {device} instead.")
        self.assertEqual(s["function"], "check")
        self.assertEqual((s["col"], s["end_line"]), (8, 6))
        self.assertIsNone(s["rev"])
        self.assertIsNone(s["permalink"])
        self.assertEqual(len(s["id"]), 16)
        self.assertEqual(by_line[("demo/core.py", 8)]["template"], "limit is {3}")
        self.assertEqual(by_line[("demo/core.py", 8)]["type_qualified"], "builtins.RuntimeError")
        w = by_line[("demo/core.py", 11)]
        self.assertEqual((w["kind"], w["type"], w["template"]), ("warn", "DeprecationWarning", "old() is deprecated"))
        a = by_line[("tests/test_core.py", 7)]
        self.assertEqual((a["kind"], a["type"], a["is_test"]), ("assert", "AssertionError", True))
        self.assertFalse(s["is_test"])

        report = json.loads(run("show", s["id"], "--db", self.db, "--format", "json").stdout)
        self.assertEqual(report["id"], s["id"])
        self.assertEqual(report["exception_class"]["qualified_name"], "demo.errors.DemoError")
        self.assertEqual(report["exception_class"]["bases"], ["builtins.ValueError"])
        self.assertEqual(report["exception_class"]["docstring"], "Raised when a demo goes wrong.")
        self.assertEqual(report["snippet"]["line"], 6)
        self.assertIn('raise DemoError(f"Device should be CUDA', report["snippet"]["text"])
        text = run("show", s["id"], "--db", self.db).stdout
        self.assertIn("acme/demo · error · DemoError", text)
        self.assertRegex(text, r">\s+6 \|\s+raise DemoError")

        table = run("list", "--db", self.db, "--format", "table").stdout
        self.assertIn("demo/core.py:6", table)

    def test_reindex_is_idempotent_and_edits_replace(self):
        root = self.make_pkg()
        run("index", root, "--db", self.db, "--name", "acme/demo")
        before = list_sites(self.db)
        proc = run("index", root, "--db", self.db, "--name", "acme/demo")
        self.assertIn("already indexed", proc.stdout)
        self.assertEqual(list_sites(self.db), before)
        # An edit replaces the directory's revision; the vanished error is gone from the catalog.
        self.write("repo/demo/core.py", PKG_V1["demo/core.py"].replace("limit is %d", "maximum is %d"))
        proc = run("index", root, "--db", self.db, "--name", "acme/demo")
        self.assertIn("1 parsed", proc.stdout)
        after = list_sites(self.db)
        templates = {s["template"] for s in after}
        self.assertIn("maximum is {3}", templates)
        self.assertNotIn("limit is {3}", templates)
        old_id = next(s["id"] for s in before if s["template"] == "limit is {3}")
        self.assertNotEqual(run("show", old_id, "--db", self.db, check=False).returncode, 0)

    def test_environment_catalog(self):
        root = self.make_pkg()
        env = dict(os.environ, ERRDEX_DB=self.db)
        run("index", root, "--name", "acme/demo", env=env)
        self.assertTrue(os.path.exists(self.db))
        self.assertGreater(len(list_sites(self.db)), 3)


class GitIndexTest(Workspace):
    def make_repo(self):
        root = os.path.join(self.tmp, "work")
        for rel, text in PKG_V1.items():
            self.write(os.path.join("work", rel), text)
        git(root, "init", "-q", "-b", "main")
        git(root, "remote", "add", "origin", "https://github.com/acme/demo.git")
        git(root, "add", "-A")
        git(root, "commit", "-qm", "v1")
        git(root, "tag", "v1")
        v1 = git(root, "rev-parse", "HEAD").strip()
        self.write("work/demo/core.py", PKG_V1["demo/core.py"] + "\ndef extra():\n    raise KeyError('new in v2')\n")
        git(root, "commit", "-qam", "v2")
        v2 = git(root, "rev-parse", "HEAD").strip()
        # The work tree differs from both commits: git reading must not look at it.
        self.write("work/demo/core.py", "raise SystemExit('work tree only')\n")
        return root, v1, v2

    def test_two_revisions_coexist(self):
        root, v1, v2 = self.make_repo()
        run("index", root, "--rev", "v1", "--db", self.db)
        proc = run("index", root, "--rev", v2[:10], "--db", self.db)
        self.assertIn("1 parsed", proc.stdout)  # only the changed blob is parsed again
        sites = list_sites(self.db, "--rev", "all")
        self.assertEqual({s["rev"] for s in sites}, {v1, v2})
        self.assertEqual({s["repo"] for s in sites}, {"acme/demo"})
        self.assertNotIn("work tree only", {s["template"] for s in sites})
        latest = list_sites(self.db)
        self.assertEqual({s["rev"] for s in latest}, {v2})
        self.assertEqual(len(list_sites(self.db, "--rev", v1[:8])), len(latest) - 1)
        cuda = next(s for s in latest if s["template"] and s["template"].startswith("Device should be"))
        self.assertEqual(cuda["permalink"], f"https://github.com/acme/demo/blob/{v2}/demo/core.py#L6")
        report = json.loads(run("show", cuda["id"], "--db", self.db, "--format", "json").stdout)
        self.assertEqual([r["rev"] for r in report["revisions"]], [v1, v2])
        self.assertEqual(report["revisions"][0]["committed_at"], "2026-01-02T03:04:05Z")
        new = next(s for s in latest if s["template"] == "new in v2")
        report = json.loads(run("show", new["id"], "--db", self.db, "--format", "json").stdout)
        self.assertEqual([r["rev"] for r in report["revisions"]], [v2])
        # Same revision again: nothing changes.
        before = sqlite3.connect(self.db).execute("select count(*) from sites").fetchone()
        self.assertIn("already indexed", run("index", root, "--rev", v2, "--db", self.db).stdout)
        self.assertEqual(sqlite3.connect(self.db).execute("select count(*) from sites").fetchone(), before)

    def test_bare_clone_at_head(self):
        root, _, v2 = self.make_repo()
        bare = os.path.join(self.tmp, "demo.git")
        subprocess.run(["git", "clone", "-q", "--bare", root, bare], check=True, capture_output=True)
        run("index", bare, "--db", self.db, "--name", "acme/demo", "--url", "https://example.org/acme/demo")
        sites = list_sites(self.db)
        self.assertEqual({s["rev"] for s in sites}, {v2})
        self.assertTrue(all(s["permalink"].startswith(f"https://example.org/acme/demo/blob/{v2}/") for s in sites))

    def test_bad_input_fails_with_one_line(self):
        root, _, _ = self.make_repo()
        cases = [
            ("index", root, "--rev", "no-such-branch", "--db", self.db),
            ("index", os.path.join(self.tmp, "missing"), "--db", self.db),
            ("index", root, "--rev", "HEAD", "--db", "/nonexistent-dir/x/catalog.db"),
            ("show", "0123456789abcdef", "--db", self.db),
            ("list", "--db", os.path.join(self.tmp, "absent.db")),
        ]
        for args in cases:
            proc = run(*args, check=False)
            self.assertNotEqual(proc.returncode, 0, args)
            self.assertEqual(len(proc.stderr.strip().splitlines()), 1, (args, proc.stderr))
            self.assertTrue(proc.stderr.startswith("errdex: "), proc.stderr)
        self.assertEqual(run("index", check=False).returncode, 2)  # usage error


class HostileTest(Workspace):
    def test_hostile_files_are_skipped_not_fatal(self):
        root = os.path.join(self.tmp, "h")
        self.write("h/ok.py", "raise ValueError('fine')\n")
        self.write("h/broken.py", "def f(:\n    pass\nraise KeyError('after the error')\n")
        self.write("h/deep.py", "x = " + "(" * 5000 + ")" * 5000 + "\n")
        self.write("h/name with space.py", "raise TypeError('spaces')\n")
        self.write("h/-dash.py", "raise TypeError('dash')\n")
        self.write("h/.venv/pyvenv.cfg", "home = /usr\n")
        self.write("h/.venv/lib/x.py", "raise ValueError('venv')\n")
        self.write("h/node_modules/y.py", "raise ValueError('node')\n")
        with open(os.path.join(root, "bin.py"), "wb") as f:
            f.write(b"\x00\x01\x02raise")
        with open(os.path.join(root, "latin1.py"), "wb") as f:
            f.write("raise ValueError('caf\xe9')\n".encode("latin-1"))
        with open(os.path.join(root, "big.py"), "w") as f:
            f.write("x = 1\n" * 200_000)
        proc = run("index", root, "--db", self.db, "--name", "h/h", "--max-file-size", "1000000")
        self.assertIn("binary 1", proc.stdout)
        self.assertIn("not_utf8 1", proc.stdout)
        self.assertIn("too_large 1", proc.stdout)
        templates = {s["template"] for s in list_sites(self.db)}
        self.assertTrue({"fine", "spaces", "dash", "after the error"} <= templates, templates)
        self.assertFalse({"venv", "node"} & templates)
        db = sqlite3.connect(self.db)
        reasons = dict(db.execute("select path, reason from files where status != 'ok'").fetchall())
        self.assertEqual(reasons.get("bin.py"), "binary")
        self.assertEqual(reasons.get("latin1.py"), "not_utf8")
        self.assertEqual(reasons.get("big.py"), "too_large")
        self.assertEqual(reasons.get("broken.py"), "syntax_error")


class FixtureTest(Workspace):
    """The fixture packages of tests/fixtures, whose expected sites are listed in its README."""

    def expected_shopkit(self):
        with open(os.path.join(FIXTURES, "README.md"), encoding="utf-8") as f:
            text = f.read()
        block = text.split("## shopkit/", 1)[1].split("```", 2)[1]
        return sorted(line for line in block.splitlines() if line.strip())

    def test_shopkit_sites_are_exactly_the_expected_ones(self):
        root = os.path.join(FIXTURES, "shopkit")
        run("index", root, "--db", self.db, "--name", "acme/shopkit")
        sites = list_sites(self.db)
        got = sorted(f"{s['path']}:{s['line']} {s['kind']} {s['type'] if s['type'] is not None else 'null'} "
                     f"{json.dumps(s['template'], ensure_ascii=False)} {s['function']}" for s in sites)
        self.assertEqual(got, self.expected_shopkit())
        by_place = {(s["path"], s["line"]): s for s in sites}
        # Types resolve through the package's imports and re-exports to where the class is defined.
        self.assertEqual(by_place[("shopkit/cart.py", 39)]["type_qualified"], "shopkit.errors.OutOfStockError")
        self.assertEqual(by_place[("shopkit/payment/gateway.py", 51)]["type_qualified"],
                         "shopkit.errors.CardDeclinedError")
        self.assertEqual(by_place[("shopkit/cart.py", 22)]["type_qualified"], "builtins.TypeError")
        self.assertIsNone(by_place[("shopkit/payment/gateway.py", 48)]["type_qualified"])  # self.error_cls
        self.assertTrue(by_place[("tests/test_cart.py", 25)]["is_test"])
        self.assertFalse(by_place[("shopkit/cart.py", 22)]["is_test"])
        declined = json.loads(run("show", by_place[("shopkit/payment/gateway.py", 51)]["id"], "--db", self.db,
                                  "--format", "json").stdout)
        cls = declined["exception_class"]
        self.assertEqual(cls["path"], "shopkit/errors.py")
        self.assertEqual(cls["bases"], ["shopkit.errors.PaymentError", "builtins.ValueError"])

    def test_hostile_tree(self):
        root = os.path.join(self.tmp, "hostile")
        shutil.copytree(os.path.join(FIXTURES, "hostile"), root, symlinks=True)
        # node_modules is made here rather than committed: the repository keeps no such directory.
        self.write("hostile/node_modules/pkg/index.py", "raise ValueError('inside node_modules')\n")
        os.symlink("/etc/passwd", os.path.join(root, "escape.py"))
        proc = run("index", root, "--db", self.db, "--name", "h/hostile")
        self.assertIn("binary 1", proc.stdout)
        self.assertIn("not_utf8 1", proc.stdout)
        sites = list_sites(self.db)
        paths = {s["path"] for s in sites}
        self.assertIn("name with spaces.py", paths)
        self.assertIn("-dash.py", paths)
        for p in paths:
            self.assertFalse(p.startswith((".venv/", "custom-env/", "node_modules/")), p)
        db = sqlite3.connect(self.db)
        reasons = dict(db.execute("select path, reason from files where status != 'ok'").fetchall())
        self.assertEqual(reasons.get("escape.py"), "symlink_outside_tree")
        self.assertEqual(reasons.get("syntax_error.py"), "syntax_error")


class StdlibTest(Workspace):
    STDLIB = sysconfig.get_paths()["stdlib"]

    def test_killed_run_leaves_catalog_intact(self):
        small = os.path.join(self.tmp, "small")
        self.write("small/a.py", "raise ValueError('kept')\n")
        run("index", small, "--db", self.db, "--name", "x/y")
        before = list_sites(self.db)
        # Index the standard library under the same name, and kill it mid-way.
        proc = subprocess.Popen([ERRDEX, "index", self.STDLIB, "--db", self.db, "--name", "x/y", "-q"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.7)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        self.assertEqual(list_sites(self.db), before)
        self.assertEqual(sqlite3.connect(self.db).execute("pragma integrity_check").fetchone()[0], "ok")

    def test_two_writers_at_once_both_land(self):
        procs = [subprocess.Popen([ERRDEX, "index", os.path.join(self.STDLIB, sub), "--db", self.db, "--name",
                                   f"python/{sub}", "-q"], stderr=subprocess.PIPE, text=True)
                 for sub in ("email", "json", "asyncio")]
        for p in procs:
            _, err = p.communicate(timeout=300)
            self.assertEqual(p.returncode, 0, err)
        repos = {s["repo"] for s in list_sites(self.db)}
        self.assertEqual(repos, {"python/email", "python/json", "python/asyncio"})
        self.assertEqual(sqlite3.connect(self.db).execute("pragma integrity_check").fetchone()[0], "ok")

    def test_stdlib_json_decoder(self):
        run("index", os.path.join(self.STDLIB, "json"), "--db", self.db, "--name", "python/json")
        sites = list_sites(self.db, "--type", "JSONDecodeError")
        templates = {s["template"] for s in sites}
        self.assertIn("Unterminated string starting at", templates)
        self.assertTrue(all(s["type_qualified"] == "decoder.JSONDecodeError" or
                            s["type_qualified"] == "json.decoder.JSONDecodeError" or s["type_qualified"] is None
                            for s in sites), sites)


def report_related(test, site):
    return json.loads(run("show", site["id"], "--db", test.db, "--format", "json").stdout)["related"]


class AnalysisTest(Workspace):
    """The analysis of docs/analysis.md through `show`: the path condition of an error's site and the tests
    of the repository that provoke it, on the fixtures (tests/fixtures/README.md lists the expected facts)."""

    def index(self, root, name):
        run("index", root, "--db", self.db, "--name", name)
        return {(s["path"], s["line"]): s for s in list_sites(self.db)}

    def explanation(self, site):
        report = json.loads(run("show", site["id"], "--db", self.db, "--format", "json").stdout)
        expl = report["explanation"]
        self.assertEqual(set(expl), {"meaning", "conditions", "state", "triggers", "solutions", "history"})
        self.assertEqual(set(expl["triggers"]), {"call_paths", "tests"})
        for r in report["related"]:
            self.assertEqual(set(r), {"id", "type", "template", "reason"})
        # Every fact that points into code has a path and an integer line.
        located = expl["conditions"] + expl["triggers"]["tests"] + expl["state"] + [
            f for p in expl["triggers"]["call_paths"] for f in p["frames"]] + [
            w for o in expl["state"] for w in o["writers"]] + [
            i for o in expl["state"] for w in o["writers"] for i in w["installed_by"]] + [
            s for s in expl["solutions"] if s["kind"] != "advice"]
        if expl["meaning"].get("function"):
            located.append(expl["meaning"]["function"])
        for fact in located:
            self.assertIsInstance(fact["line"], int)
            self.assertIsInstance(fact["path"], str)
        for c in expl["conditions"]:
            self.assertEqual(set(c), {"path", "line", "function", "code", "kind", "negated"})
            self.assertEqual((c["path"], c["function"]), (site["path"], site["function"]))
        for t in expl["triggers"]["tests"]:
            self.assertEqual(set(t) - {"reaches"}, {"path", "line", "function", "code", "kind", "type", "match"})
            if "reaches" in t:  # the raise the block reaches: one of the error's sites
                self.assertIn((t["reaches"]["path"], t["reaches"]["line"]),
                              {(s["path"], s["line"]) for s in report["sites"]})
        return expl

    @staticmethod
    def conditions(expl):
        return [f"{c['line']} {c['kind']} {'not ' if c['negated'] else ''}{c['code']}" for c in expl["conditions"]]

    @staticmethod
    def linked_tests(expl):
        return [f"{t['path']}:{t['line']} {t['function']} {t['kind']} {t['type']} [{t['match']}]"
                for t in expl["triggers"]["tests"]]

    def test_gizmo_conditions_and_tests(self):
        sites = self.index(os.path.join(FIXTURES, "gizmo"), "acme/gizmo")
        with open(os.path.join(FIXTURES, "README.md"), encoding="utf-8") as f:
            block = f.read().split("## gizmo/", 1)[1].split("```", 2)[1]
        expected = sorted(line for line in block.splitlines() if line.strip())
        got = sorted(f"{s['path']}:{s['line']} {s['kind']} {s['type'] if s['type'] is not None else 'null'} "
                     f"{json.dumps(s['template'], ensure_ascii=False)} {s['function']}" for s in sites.values())
        self.assertEqual(got, expected)

        early = "21 early_exit not if port is None:"
        want = {
            12: (["10 if if isinstance(obj, TunedGizmo):",
                  '11 if if (settings := getattr(obj, "_tune_settings", None)) is None:'],
                 ["tests/test_wrap.py:10 test_untuned pytest.raises RuntimeError [Failed to determine the settings]"]),
            27: ([early, "23 for for attempt in range(3):", "25 with with open_port(port) as handle:",
                  '26 if if device != "cuda":'],
                 ["tests/test_wrap.py:15 test_cpu pytest.raises GizmoError [got cpu instead]"]),
            33: ([early, "23 for for attempt in range(3):", "32 except except OSError as e:"],
                 [r"tests/test_wrap.py:20 test_port pytest.raises WiringError [port \d+ failed: .*]"]),
            35: ([early, "23 loop_else for attempt in range(3):"],
                 ["tests/test_wrap.py:35 test_timeout pytest.raises_call TimeoutError []"]),
            40: ([early, "36 match match device:", '37 case not case "cpu" | "cuda":', "39 case case _:"],
                 ["tests/test_wrap.py:30 test_lookahead pytest.raises ValueError [unknown device (?='tpu')]",
                  r"tests/test_wrap.py:40 WrapTest.test_escaped assertRaisesRegex ValueError [unknown\ device\ 'tpu']"]),
            44: ([], ["tests/test_wrap.py:44 WrapTest.test_not_implemented assertRaises_call NotImplementedError []"]),
        }
        for line, (conditions, tests) in want.items():
            with self.subTest(line=line):
                expl = self.explanation(sites[("gizmo/wrap.py", line)])
                self.assertEqual(self.conditions(expl), conditions)
                self.assertEqual(self.linked_tests(expl), tests)
        # The test code is the with statement, dedented; test_no_such_message provokes nothing.
        expl = self.explanation(sites[("gizmo/wrap.py", 27)])
        self.assertEqual(expl["triggers"]["tests"][0]["code"],
                         'with pytest.raises(GizmoError, match="got cpu instead"):\n    connect(1, "cpu")')
        db = sqlite3.connect(self.db)
        self.assertEqual(db.execute("select count(*) from error_tests where function = 'test_no_such_message'")
                         .fetchone()[0], 0)
        self.assertEqual(db.execute("select count(*) from error_tests").fetchone()[0], 7)

    def test_gizmo_full_analysis(self):
        """The example page's mechanism, with other names: an import-time patch makes tuned gizmos carry
        `_tune_settings`; `unwrap_tuned` raises when it is missing; public functions lead there."""
        root = os.path.join(self.tmp, "gizmo")
        shutil.copytree(os.path.join(FIXTURES, "gizmo"), root)
        wrap = os.path.join(root, "gizmo", "wrap.py")
        with open(wrap, encoding="utf-8") as f:
            real = f.read()
        # The first commit words the message differently: the second one introduces it.
        with open(wrap, "w", encoding="utf-8") as f:
            f.write(real.replace("Failed to determine the settings", "Unknown settings"))
        git(root, "init", "-q", "-b", "main")
        git(root, "add", "-A")
        git(root, "commit", "-qm", "v1")
        with open(wrap, "w", encoding="utf-8") as f:
            f.write(real)
        git(root, "commit", "-qam", "Say which settings are missing")
        v2 = git(root, "rev-parse", "HEAD").strip()
        run("index", root, "--rev", "HEAD", "--db", self.db, "--name", "acme/gizmo")
        sites = {(s["path"], s["line"]): s for s in list_sites(self.db)}
        expl = self.explanation(sites[("gizmo/wrap.py", 12)])
        self.assertEqual(expl["meaning"]["function"],
                         {"path": "gizmo/wrap.py", "line": 8, "function": "unwrap_tuned",
                          "docstring": "Removes the TunedGizmo around OBJ, with the settings it was tuned with."})
        self.assertIn("`_tune_settings` is written only in `_capture_tune_settings.<locals>._capture` "
                      "(gizmo/patch.py:17), installed at import time by "
                      "`tunelib.tune = _capture_tune_settings(tunelib.tune)` (gizmo/patch.py:23). If that code "
                      "never ran for the object, the attribute is missing.", expl["meaning"]["summary"])
        self.assertEqual(expl["state"], [{
            "read": {"kind": "getattr", "target": "obj", "name": "_tune_settings"},
            "path": "gizmo/wrap.py", "line": 11, "function": "unwrap_tuned",
            "code": 'if (settings := getattr(obj, "_tune_settings", None)) is None:',
            "writers": [{"path": "gizmo/patch.py", "line": 17, "function": "_capture_tune_settings.<locals>._capture",
                         "code": "tuned._tune_settings = deepcopy(kwargs)", "kind": "assign", "is_test": False,
                         "installed_by": [{"path": "gizmo/patch.py", "line": 23,
                                           "code": "tunelib.tune = _capture_tune_settings(tunelib.tune)"}]}],
            "more": 0}])
        paths = [[f"{f['function']}@{f['path']}:{f['line']}" for f in p["frames"]]
                 for p in expl["triggers"]["call_paths"]]
        self.assertEqual(paths, [["unwrap_tuned@gizmo/wrap.py:12"],
                                 ["describe@gizmo/workbench.py:24", "unwrap_tuned@gizmo/wrap.py:12"],
                                 ["Workbench.setup@gizmo/workbench.py:13", "Workbench._unwrap@gizmo/workbench.py:19",
                                  "unwrap_tuned@gizmo/wrap.py:12"]])
        self.assertTrue(all(p["certain"] for p in expl["triggers"]["call_paths"]))
        self.assertEqual(expl["triggers"]["call_paths"][2]["frames"][0]["code"],
                         "inner, settings = self._unwrap(gizmo)")
        self.assertEqual([(s["kind"], s["path"], s["line"]) for s in expl["solutions"]],
                         [("advice", "gizmo/wrap.py", 12), ("docs", "docs/troubleshooting.md", 5)])
        self.assertEqual(expl["solutions"][0]["text"], "Make sure to import gizmo before `tune` is used.")
        self.assertEqual(expl["solutions"][1]["mentions"], "message")
        self.assertEqual((expl["history"]["commit"], expl["history"]["summary"], expl["history"]["bounded"]),
                         (v2, "Say which settings are missing", False))
        # Related: an error of a public function that reaches this one.
        self.assertEqual([(r["template"], r["reason"]) for r in report_related(self, sites[("gizmo/wrap.py", 12)])],
                         [("the workbench needs a gizmo to set up",
                           "also reachable from gizmo.workbench.Workbench.setup")])
        # Related: the errors of the same function first.
        report = json.loads(run("show", sites[("gizmo/wrap.py", 27)]["id"], "--db", self.db, "--format",
                                "json").stdout)
        same = [(r["template"], r["reason"]) for r in report["related"] if "same function" in r["reason"]]
        self.assertEqual(sorted(same), sorted([
            ("port {port} failed: {e}", "raised in the same function, connect"),
            ("gave up on port {port} after 3 attempts", "raised in the same function, connect"),
            ("unknown device {device!r}", "raised in the same function, connect")]))
        # The terminal page reads like the web page, in the same order.
        text = run("show", sites[("gizmo/wrap.py", 12)]["id"], "--db", self.db).stdout
        order = [text.index(h) for h in ("What it means", "Source ", "Solutions", "When it happens",
                                         "Where the state comes from", "Reached from the public API",
                                         "Reproduced by tests", "Related errors")]
        self.assertEqual(order, sorted(order))
        self.assertIn("installed at import time by gizmo/patch.py:23: tunelib.tune = "
                      "_capture_tune_settings(tunelib.tune)", text)
        # Without the analysis the same catalog still answers, with empty sections.
        db2 = os.path.join(self.tmp, "plain.db")
        run("index", root, "--rev", "HEAD", "--db", db2, "--name", "acme/gizmo", "--no-analysis")
        plain = json.loads(run("show", sites[("gizmo/wrap.py", 12)]["id"], "--db", db2, "--format", "json").stdout)
        self.assertEqual(plain["explanation"]["state"], [])
        self.assertEqual(plain["explanation"]["triggers"], {"call_paths": [], "tests": []})
        self.assertIsNone(plain["explanation"]["history"])

    def test_shopkit_conditions_and_tests(self):
        sites = self.index(os.path.join(FIXTURES, "shopkit"), "acme/shopkit")
        not_sku = "28 early_exit not if sku not in self.stock:"
        # assertRaises(ValueError) without a pattern: of the five ValueError sites of the code, the block's call
        # `make_cart().add("apple", 0)` reaches only cart.py:31 in the call graph.
        bad_quantity = "tests/test_cart.py:30 CartTest.test_bad_quantity assertRaises ValueError []"
        want = {
            ("shopkit/cart.py", 22): (["21 if if not isinstance(stock, dict):"],
                                      ["tests/test_cart.py:34 CartTest.test_bad_stock assertRaisesRegex_call TypeError "
                                       "[stock must be a dict]"]),
            ("shopkit/cart.py", 29): (["28 if if sku not in self.stock:"],
                                      ["tests/test_cart.py:13 test_unknown_sku pytest.raises CartError "
                                       "[unknown SKU 'kiwi']"]),
            ("shopkit/cart.py", 31): ([not_sku, "30 if if quantity <= 0:"], [bad_quantity]),
            ("shopkit/cart.py", 57): (["56 if if percent > 100:"], []),
            ("shopkit/payment/gateway.py", 37): (['34 early_exit not if not url.startswith(("https://", '
                                                  '"http://localhost")):', "36 if if not 0 < timeout <= 60:"],
                                                 []),
            ("shopkit/payment/gateway.py", 51): (["45 early_exit not if currency not in CURRENCIES:",
                                                  "47 early_exit not if amount <= 0:",
                                                  '50 if if reply["status"] == "declined":'], []),
            ("shopkit/cart.py", 39): ([not_sku, "30 early_exit not if quantity <= 0:",
                                       "32 early_exit not if len(self.items) >= MAX_ITEMS:",
                                       "35 if if quantity > available:"],
                                      ["tests/test_cart.py:18 test_out_of_stock pytest.raises OutOfStockError "
                                       "[only 0 of pear left; restocking soon]"]),
            ("shopkit/cart.py", 80): (["77 except except Exception as e:", "79 if if isinstance(e, KeyError):"], []),
            ("shopkit/cart.py", 81): (["77 except except Exception as e:",
                                       "79 early_exit not if isinstance(e, KeyError):"], []),
            ("shopkit/payment/gateway.py", 23): ([], []),
            ("shopkit/payment/gateway.py", 70): (["68 except except OSError as e:"], []),
            ("shopkit/payment/gateway.py", 84): ([], []),
        }
        for place, (conditions, tests) in want.items():
            with self.subTest(place=place):
                expl = self.explanation(sites[place])
                self.assertEqual(self.conditions(expl), conditions)
                self.assertEqual(self.linked_tests(expl), tests)
        # cart.py:46 hands the literal "cart" to the helper `_unknown` (cart.py:29 keeps its `where`): two texts,
        # two errors.
        self.assertNotEqual(sites[("shopkit/cart.py", 29)]["id"], sites[("shopkit/cart.py", 46)]["id"])

        text = run("show", sites[("shopkit/cart.py", 39)]["id"], "--db", self.db).stdout
        when = text.split("\nWhen it happens\n", 1)[1].split("\nReproduced by tests\n")[0]
        self.assertIn("shopkit/cart.py:28  not (sku not in self.stock)", when)
        self.assertIn("shopkit/cart.py:35  if quantity > available:", when)
        tests = text.split("\nReproduced by tests\n", 1)[1]
        self.assertIn("tests/test_cart.py:18 in test_out_of_stock", tests)
        self.assertIn('    with pytest.raises(OutOfStockError, match=r"only 0 of pear left; restocking soon"):', tests)
        text = run("show", sites[("shopkit/cart.py", 33)]["id"], "--db", self.db).stdout
        self.assertIn("Reproduced by tests\n  none found", text)
        text = run("show", sites[("shopkit/payment/gateway.py", 23)]["id"], "--db", self.db).stdout
        self.assertIn("When it happens\n  unconditionally", text)

    def test_pattern_spanning_a_placeholder_of_a_subclass(self):
        # README's example: DemoError is a ValueError; `match='got cpu'` spans `{device}`.
        root = os.path.join(self.tmp, "repo")
        for rel, text in PKG_V1.items():
            self.write(os.path.join("repo", rel), text)
        sites = self.index(root, "acme/demo")
        expl = self.explanation(sites[("demo/core.py", 6)])
        self.assertEqual(self.conditions(expl), ["5 if if device != 'cuda':"])
        self.assertEqual(self.linked_tests(expl), ["tests/test_core.py:5 test_check pytest.raises ValueError [got cpu]"])
        expl = self.explanation(sites[("demo/core.py", 8)])
        self.assertEqual(self.conditions(expl), ["5 early_exit not if device != 'cuda':"])
        self.assertEqual(self.linked_tests(expl), [])

    def test_hostile_tests_and_nesting(self):
        root = os.path.join(self.tmp, "h")
        deep = "def f(x):\n" + "".join(" " * (i + 1) + f"if c{i}:\n" for i in range(150)) + " " * 151 + "raise ValueError('deep')\n"
        self.write("h/pkg/deep.py", deep)
        exits = "".join(f"if e{i}:\n    raise KeyError('k{i}')\n" for i in range(2000)) + "raise KeyError('last')\n"
        self.write("h/pkg/exits.py", exits)
        patterns = ["(" * 3000, "[", r"(?<=x)y", "a{99999}", "\\", "x" * 50000, "(?P<n>a)(?P=n)", "\x00\ud800"]
        tests = "import pytest\n" + "".join(
            f"def test_{i}():\n    with pytest.raises(ValueError, match={p!r}):\n        pass\n"
            for i, p in enumerate(patterns))
        tests += "def test_tuple():\n    with pytest.raises((KeyError, ValueError, *more), match='k1'):\n        pass\n"
        self.write("h/tests/test_hostile.py", tests)
        start = time.monotonic()
        run("index", root, "--db", self.db, "--name", "h/h")
        self.assertLess(time.monotonic() - start, 60)
        sites = {(s["path"], s["line"]): s for s in list_sites(self.db)}
        expl = self.explanation(sites[("pkg/deep.py", 152)])
        self.assertEqual(len(expl["conditions"]), 32)
        self.assertEqual(expl["conditions"][-1]["code"], "if c149:")
        expl = self.explanation(sites[("pkg/exits.py", 4001)])
        self.assertEqual(len(expl["conditions"]), 32)
        self.assertEqual(expl["conditions"][-1]["code"], "if e1999:")
        # `match='k1'` fits the templates k1, k10..k19, k100..: KeyError's sites of the code; but the block
        # (`pass`) calls nothing, so it reaches none of them.
        expl = self.explanation(sites[("pkg/exits.py", 4)])
        self.assertEqual(self.linked_tests(expl), [])


EXPLAIN_KEYS = {"input_kind", "type", "message", "matches"}
MATCH_KEYS = {"id", "type", "template", "score", "bindings", "site", "why"}
SITE_KEYS = {"repo", "rev", "path", "line", "function", "permalink"}


class ExplainScanTest(Workspace):
    """explain and scan on the shopkit fixture: every input shape, exit codes, the JSON contract."""

    def setUp(self):
        super().setUp()
        run("index", os.path.join(FIXTURES, "shopkit"), "--db", self.db, "--name", "acme/shopkit")

    def explain(self, text, *extra, code=0):
        proc = subprocess.run([ERRDEX, "explain", "--db", self.db, "--format", "json", *extra, "-"], input=text,
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, code, proc.stderr)
        out = json.loads(proc.stdout)
        self.assertTrue(EXPLAIN_KEYS <= set(out), out.keys())
        for m in out["matches"] + out.get("closest", []):
            self.assertEqual(set(m), MATCH_KEYS)
            self.assertEqual(set(m["site"]), SITE_KEYS)
        return out

    def top_site(self, out):
        m = out["matches"][0]
        return f"{m['site']['path']}:{m['site']['line']}"

    def test_every_input_shape_finds_its_site(self):
        cases = {
            "bare message": ("quantity must be positive, got -2", "shopkit/cart.py:31"),
            "qualified type": ("shopkit.errors.OutOfStockError: only 0 of X-1 left; restocking soon",
                               "shopkit/cart.py:39"),
            "traceback": (
                "Traceback (most recent call last):\n"
                "  File \"C:\\Users\\me\\venv\\Lib\\site-packages\\shopkit\\cart.py\", line 70, in apply_coupon\n"
                "    raise ValueError(f\"coupon code must be alphanumeric: {code}\")\n"
                "ValueError: coupon code must be alphanumeric: SAVE-10\n", "shopkit/cart.py:67"),
            "chained": (
                "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    main()\n"
                "KeyError: 'x'\n\nDuring handling of the above exception, another exception occurred:\n\n"
                "Traceback (most recent call last):\n  File \"app.py\", line 5, in <module>\n"
                "shopkit.errors.CartError: unknown SKU 'x' in 'cart'\n", "shopkit/cart.py:29"),
            "pytest": (
                "    def test_timeout():\n>       Gateway('https://x', timeout=99)\n\n"
                "E       ValueError: timeout out of range:\nE           expected 0 < timeout ≤ 60, got 99\n\n"
                "tests/test_gateway.py:12: ValueError\n", "shopkit/payment/gateway.py:37"),
            "notebook": (
                "\x1b[0;31m---------------------------------------------------------------------------\x1b[0m\n"
                "\x1b[0;31mTypeError\x1b[0m                                 Traceback (most recent call last)\n"
                "Cell \x1b[0;32mIn[3], line 1\x1b[0m\n\x1b[0;32m----> 1\x1b[0m cart \x1b[38;5;241m=\x1b[39m Cart([])\n"
                "\x1b[0;31mTypeError\x1b[0m: stock must be a dict, not list\n", "shopkit/cart.py:22"),
            "log line": ("2026-11-29 12:00:01,123 ERROR [pid 4242] app.payments: "
                         "shopkit.errors.PaymentError: unsupported currency 'GBP', use one of {EUR, USD}\n",
                         "shopkit/payment/gateway.py:46"),
        }
        for name, (text, want) in cases.items():
            with self.subTest(name):
                out = self.explain(text)
                self.assertEqual(self.top_site(out), want, json.dumps(out, indent=1)[:2000])
                self.assertGreater(out["matches"][0]["score"], 0)
                self.assertTrue(out["matches"][0]["why"])

    def test_bindings_and_text_output(self):
        out = self.explain("ValueError: discount 150% > 100% for 'BIG'")
        self.assertEqual(out["matches"][0]["bindings"], {"percent": "150", "code!r": "'BIG'"})
        proc = run("explain", "--db", self.db, "shopkit.errors.CartError: unknown SKU '\x07\x08X' in 'basket'")
        self.assertIn("shopkit/cart.py:29", proc.stdout)
        self.assertIn("sku!r = '\\x07\\x08X'", proc.stdout)
        self.assertNotIn("\x07", proc.stdout)  # the paste's control characters never reach the terminal
        self.assertIn(">    29 |", proc.stdout)

    def test_no_match_and_bad_usage(self):
        out = self.explain("RuntimeError: the flux capacitor overheated", code=1)
        self.assertEqual(out["matches"], [])
        self.assertIn("closest", out)
        proc = run("explain", "--db", self.db, "--top", "0", "x", check=False)
        self.assertEqual(proc.returncode, 2)
        proc = run("explain", "--db", os.path.join(self.tmp, "missing.db"), "x", check=False)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("errdex:", proc.stderr)

    def test_scan_jsonl_and_triage(self):
        log = self.write("app.log", (
            "2026-11-29 12:00:00 INFO app: started\n"
            "2026-11-29 12:00:01 ERROR app: ValueError: quantity must be positive, got 0\n"
            "2026-11-29 12:00:02 INFO app: quantity must be positive, got 0 was a test message\n"
            "Traceback (most recent call last):\n"
            "  File \"/srv/shopkit/cart.py\", line 39, in add\n"
            "shopkit.errors.OutOfStockError: only 0 of X-1 left; restocking soon\n"
            "2026-11-29 12:00:03 ERROR app: ValueError: quantity must be positive, got -1\n"))
        out = run("scan", "--db", self.db, log).stdout
        findings = [json.loads(line) for line in out.splitlines()]
        self.assertEqual([f["line"] for f in findings], [2, 6, 7])
        for f in findings:
            self.assertEqual(set(f), {"line", "id", "type", "template", "score", "site"})
        self.assertEqual(findings[0]["id"], findings[2]["id"])
        self.assertEqual(findings[1]["site"]["path"], "shopkit/cart.py")
        self.assertEqual(findings[1]["site"]["line"], 39)
        with open(log, encoding="utf-8") as f:
            text = run_input(["scan", "--db", self.db, "--format", "text", "-"], f.read())
        self.assertIn("3 error lines in 7 lines, 2 distinct errors", text)
        first = text.index("quantity must be positive")
        self.assertLess(first, text.index("only {available}"))  # most frequent first
        self.assertIn("lines 2–7", text)
        proc = run("scan", "--db", self.db, os.path.join(self.tmp, "missing.log"), log, check=False)
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(len(proc.stdout.splitlines()), 3)  # the readable log is still scanned


VERSIONED_CORE = (
    "from .errors import ConfigError\n\n\n"
    "def connect(host, port):\n"
    "    if port < 0:\n"
    "        raise ValueError(f\"port must be positive, got {port}\")\n"
    "    if not host:\n"
    "        raise ValueError(\"host is required\")\n"
    "    return host, port\n\n\n"
    "def load(path):\n"
    "    raise ConfigError(f\"no config at {path}\")\n\n\n"
    "def legacy():\n"
    "    raise RuntimeError(\"legacy mode is deprecated\")\n"
)


CONFCHAIN = (
    "class NotFound(LookupError):\n"
    "    pass\n\n\n"
    "class DictLoader:\n"
    "    def __init__(self, mapping):\n"
    "        self.mapping = mapping\n\n"
    "    def load(self, name):\n"
    "        if name not in self.mapping:\n"
    "            raise NotFound(f\"no such config: {name}\")\n"
    "        return self.mapping[name]\n\n\n"
    "class FileLoader:\n"
    "    def __init__(self, root):\n"
    "        self.root = root\n\n"
    "    def load(self, name):\n"
    "        if not name.endswith('.ini'):\n"
    "            raise NotFound(f\"no such config: {name}\")\n"
    "        return open(self.root + '/' + name).read()\n\n\n"
    "class ChainLoader:\n"
    "    def __init__(self):\n"
    "        self.loaders = [DictLoader({}), FileLoader('/nonexistent')]\n\n"
    "    def load(self, name):\n"
    "        for loader in self.loaders:\n"
    "            try:\n"
    "                return loader.load(name)\n"
    "            except NotFound:\n"
    "                continue\n"
    "        raise NotFound(f\"no such config: {name}\")\n\n\n"
    "class Settings:\n"
    "    def __init__(self):\n"
    "        self.loader = ChainLoader()\n\n"
    "    def get(self, name):\n"
    "        return self.loader.load(name)\n\n"
    "    def require(self, name):\n"
    "        return self.get(name)\n\n\n"
    "def read_config(name):\n"
    "    return Settings().require(name)\n"
)


class CaughtByCallerTest(Workspace):
    """Raises caught by a caller (docs/analysis.md): a chain of loaders in the manner of jinja2's ChoiceLoader,
    each raising NotFound, the chain catching them in turn and raising its own. The real traceback, produced by
    running the package with python3, names the chain's raise; the final line alone must get that twin (the
    loaders' raises do not escape through the chain's call), and the whole traceback its frame."""

    def test_the_twin_that_escapes_is_the_one_the_traceback_names(self):
        self.write("confchain/__init__.py", "from .loaders import read_config, Settings, ChainLoader\n")
        path = self.write("confchain/loaders.py", CONFCHAIN)
        proc = subprocess.run([sys.executable, "-c", "import confchain; confchain.read_config('db')"],
                              cwd=self.tmp, capture_output=True, text=True, timeout=60)
        self.assertNotEqual(proc.returncode, 0)
        frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', proc.stderr)
        self.assertEqual(os.path.realpath(frames[-1][0]), os.path.realpath(path), proc.stderr)
        line = int(frames[-1][1])
        final = proc.stderr.strip().splitlines()[-1]
        self.assertEqual(final, "confchain.loaders.NotFound: no such config: db")
        run("index", self.tmp, "--db", self.db, "--name", "acme/confchain")
        for paste in (final, proc.stderr):
            out = json.loads(run_input(["explain", "-", "--db", self.db, "--format", "json"], paste))
            self.assertTrue(out["matches"], paste)
            site = out["matches"][0]["site"]
            self.assertEqual((site["path"], site["line"], site["function"]),
                             ("confchain/loaders.py", line, "ChainLoader.load"), paste)
        # The loaders' raises are not reached through the chain: no call path of theirs runs through it.
        for s in list_sites(self.db, "--type", "NotFound"):
            if s["function"] == "ChainLoader.load":
                continue
            report = json.loads(run("show", s["id"], "--db", self.db, "--format", "json").stdout)
            for p in report["explanation"]["triggers"]["call_paths"]:
                if p["frames"][-1]["line"] != s["line"]:
                    continue
                self.assertNotIn("ChainLoader.load", [f["function"] for f in p["frames"][:-1]], p)



class VersionsTest(Workspace):
    """Releases that reword, move (a whole package), rename and remove errors (issue 12)."""

    def commit(self, root, message, date, *tags):
        env = dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_SYSTEM="/dev/null", GIT_AUTHOR_NAME="t",
                   GIT_AUTHOR_EMAIL="t@e", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@e",
                   GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
        for args in (["add", "-A"], ["commit", "-qm", message]) + tuple(["tag", t] for t in tags):
            subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, env=env)

    def make_releases(self):
        root = os.path.join(self.tmp, "fx")
        self.write("fx/oldpkg/__init__.py", "")
        self.write("fx/oldpkg/errors.py", "class ConfigError(Exception):\n    pass\n")
        self.write("fx/oldpkg/core.py", VERSIONED_CORE)
        git(root, "init", "-q", "-b", "main")
        self.commit(root, "1.0", "2024-01-01T00:00:00Z", "v1.0", "latest")
        core = VERSIONED_CORE.replace("port must be positive", "port must be a non-negative integer")
        self.write("fx/oldpkg/core.py", core)
        self.commit(root, "1.1", "2024-02-01T00:00:00Z", "v1.1")
        git(root, "mv", "oldpkg", "newpkg")
        os.makedirs(os.path.join(root, "src"))
        git(root, "mv", "newpkg", "src/newpkg")
        core = core.replace("def load(path)", "def load_config(path)")
        self.write("fx/src/newpkg/core.py", core)
        self.commit(root, "2.0", "2024-03-01T00:00:00Z", "2.0.0")
        core = core.split("\n\n\ndef legacy")[0] + "\n\n\ndef fresh():\n    raise KeyError(\"fresh in 2.1\")\n"
        self.write("fx/src/newpkg/core.py", core)
        self.commit(root, "2.1rc", "2024-03-15T00:00:00Z", "v2.1.0rc1")
        self.write("fx/src/newpkg/extra.py", "X = 1\n")
        self.commit(root, "2.1", "2024-04-01T00:00:00Z", "v2.1.0")
        self.write("fx/README.md", "fx\n")
        self.commit(root, "head", "2024-05-01T00:00:00Z")
        return root

    def lineage(self):
        rows = sqlite3.connect(self.db).execute(
            "select lf.label, ifnull(lt.label, 'HEAD'), e1.template, e2.template, l.changes from error_lineage l "
            "left join revision_labels lf on lf.revision_id = l.from_revision_id "
            "left join revision_labels lt on lt.revision_id = l.to_revision_id "
            "left join errors e1 on e1.id = l.from_error_id left join errors e2 on e2.id = l.to_error_id").fetchall()
        return sorted(rows, key=lambda r: tuple(str(x) for x in r))

    def explain(self, paste):
        return json.loads(run_input(["explain", "-", "--db", self.db, "--format", "json"], paste))["matches"][0]

    def test_releases_lineage_diff_and_explain(self):
        root = self.make_releases()
        out = run("index", root, "--releases", "10", "--db", self.db, "--name", "acme/fx").stdout
        labels = [line.split()[2] for line in out.splitlines() if line.startswith("[")]
        self.assertEqual(labels, ["v1.0", "v1.1", "2.0.0", "v2.1.0", "HEAD"])
        self.assertIn("[1/5] acme/fx v1.0", out)
        self.assertIn("3 files (3 parsed)", out.splitlines()[0])
        self.assertIn("3 files (1 parsed)", out.splitlines()[1])  # unchanged blobs come from the cache
        again = run("index", root, "--releases", "10", "--db", self.db, "--name", "acme/fx").stdout
        self.assertEqual(again.count("already indexed"), 5)
        port_old, port_new = "port must be positive, got {port}", "port must be a non-negative integer, got {port}"
        host, config, legacy = "host is required", "no config at {path}", "legacy mode is deprecated"
        self.assertEqual(self.lineage(), sorted([
            ("v1.0", "v1.1", port_old, port_new, "reworded"),
            ("v1.0", "v1.1", host, host, ""),
            ("v1.0", "v1.1", config, config, ""),
            ("v1.0", "v1.1", legacy, legacy, ""),
            ("v1.1", "2.0.0", port_new, port_new, "moved"),
            ("v1.1", "2.0.0", host, host, "moved"),
            ("v1.1", "2.0.0", config, config, "moved,renamed"),
            ("v1.1", "2.0.0", legacy, legacy, "moved"),
            ("2.0.0", "v2.1.0", port_new, port_new, ""),
            ("2.0.0", "v2.1.0", host, host, ""),
            ("2.0.0", "v2.1.0", config, config, ""),
            ("2.0.0", "v2.1.0", legacy, None, "removed"),
            ("2.0.0", "v2.1.0", None, "fresh in 2.1", "added"),
            ("v2.1.0", "HEAD", port_new, port_new, ""),
            ("v2.1.0", "HEAD", host, host, ""),
            ("v2.1.0", "HEAD", config, config, ""),
            ("v2.1.0", "HEAD", "fresh in 2.1", "fresh in 2.1", ""),
        ], key=lambda r: tuple(str(x) for x in r)))
        # The package move changed the qualified type of ConfigError, so its error id: linked all the same.
        ids = dict(sqlite3.connect(self.db).execute("select template, count(*) from errors group by template"))
        self.assertEqual(ids[config], 2)
        # The newest revision is the latest: `list` shows it.
        self.assertEqual({s["path"] for s in list_sites(self.db)}, {"src/newpkg/core.py"})

        diff = json.loads(run("diff", "v1.0", "v2.1.0", "--db", self.db, "--format", "json").stdout)
        short = {k: sorted([((e["before"] or {}).get("template"), (e["after"] or {}).get("template"),
                             ",".join(e["changes"])) for e in diff[k]], key=str)
                 for k in ("added", "removed", "reworded", "moved", "renamed", "retyped")}
        self.assertEqual(short, {
            "added": [(None, "fresh in 2.1", "")],
            "removed": [(legacy, None, "")],
            "reworded": [(port_old, port_new, "reworded,moved")],
            "moved": [(host, host, "moved"), (config, config, "moved,renamed")],
            "renamed": [], "retyped": []})
        self.assertEqual(diff["unchanged"], 0)
        self.assertEqual((diff["from"]["label"], diff["to"]["label"]), ("v1.0", "v2.1.0"))
        text = run("diff", "v1.1", "v2.1.0", "--db", self.db).stdout
        self.assertIn("removed (1)", text)
        self.assertIn("+ builtins.KeyError: fresh in 2.1", text)
        bad = run("diff", "v0.9", "v2.1.0", "--db", self.db, check=False)
        self.assertEqual(bad.returncode, 1)
        self.assertIn("no indexed revision 'v0.9'", bad.stderr)

        m = self.explain("ValueError: port must be positive, got -1\n")
        self.assertEqual((m["site"]["path"], m["site"]["line"], m["template"]), ("src/newpkg/core.py", 6, port_new))
        self.assertEqual((m["matched_revision"], m["matched_template"]), ("v1.0", port_old))
        self.assertEqual(m["lineage"], ["reworded in v1.1", "moved in 2.0.0"])
        self.assertTrue(any(w.startswith("worded like this up to v1.0; reworded in v1.1") for w in m["why"]), m["why"])
        m = self.explain("RuntimeError: legacy mode is deprecated\n")
        self.assertEqual((m["removed_in"], m["matched_revision"]), ("v2.1.0", "2.0.0"))
        self.assertEqual((m["site"]["path"], m["site"]["line"]), ("src/newpkg/core.py", 17))
        self.assertIn("removed in v2.1.0: last raised in 2.0.0 at src/newpkg/core.py:17", m["why"])
        m = self.explain("Traceback (most recent call last):\n"
                         '  File "/venv/lib/python3.12/site-packages/oldpkg/core.py", line 13, in load\n'
                         '    raise ConfigError(f"no config at {path}")\n'
                         "oldpkg.errors.ConfigError: no config at /etc/fx\n")
        self.assertEqual((m["site"]["path"], m["site"]["function"]), ("src/newpkg/core.py", "load_config"))
        self.assertEqual((m["probable_version"], m["matched_revision"]), ("1.x", "v1.1"))
        # An up-to-date paste is answered as before, with no version fields.
        m = self.explain("KeyError: 'fresh in 2.1'\n")
        self.assertNotIn("matched_revision", m)

    def test_pages_show_versions_and_the_web_diff(self):
        root = self.make_releases()
        run("index", root, "--releases", "10", "--db", self.db, "--name", "acme/fx")
        new_id = sqlite3.connect(self.db).execute(
            "select id from errors where template like 'port must be a non-negative%'").fetchone()[0]
        report = json.loads(run("show", new_id, "--db", self.db, "--format", "json").stdout)
        versions = report["versions"]
        self.assertEqual(versions["ranges"], [{"from": "v1.1", "to": versions["newest"]}])
        self.assertTrue(versions["in_newest"])
        self.assertEqual([(e["from"], e["to"], e["template"], e["path"], e["changes"]) for e in versions["line"]], [
            ("v1.0", "v1.0", "port must be positive, got {port}", "oldpkg/core.py", ""),
            ("v1.1", versions["newest"], "port must be a non-negative integer, got {port}", "src/newpkg/core.py",
             "reworded")])
        self.assertIn('v1.0: "port must be positive, got {port}" at oldpkg/core.py:6',
                      run("show", new_id, "--db", self.db).stdout)
        legacy = sqlite3.connect(self.db).execute("select id from errors where template like 'legacy%'").fetchone()[0]
        versions = json.loads(run("show", legacy, "--db", self.db, "--format", "json").stdout)["versions"]
        self.assertEqual((versions["ranges"], versions["removed_in"], versions["since"]),
                         ([{"from": "v1.0", "to": "2.0.0"}], "v2.1.0", None))
        log = open(os.path.join(self.tmp, "serve.log"), "w")
        proc = subprocess.Popen([ERRDEX, "serve", "--db", self.db, "--listen", "127.0.0.1:0"],
                                stdout=subprocess.DEVNULL, stderr=log)
        try:
            port = None
            for _ in range(400):
                m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", open(log.name).read())
                if m:
                    port = int(m.group(1))
                    break
                time.sleep(0.05)
            self.assertIsNotNone(port)

            def get(path):
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                conn.request("GET", path)
                resp = conn.getresponse()
                return resp.status, resp.read().decode()

            status, body = get("/api/repos/acme/fx/diff?from=v1.0&to=v2.1.0")
            self.assertEqual(status, 200)
            diff = json.loads(body)
            self.assertEqual([e["before"]["template"] for e in diff["removed"]], ["legacy mode is deprecated"])
            status, body = get("/repos/acme/fx/diff?from=v1.0&to=v2.1.0")
            self.assertEqual(status, 200)
            self.assertIn("<h2>removed (1)</h2>", body)
            self.assertIn("<q>fresh in 2.1</q>", body)
            status, body = get("/repos/acme/fx/diff")  # the two newest revisions by default
            self.assertEqual(status, 200)
            self.assertIn("Errors from <code>v2.1.0</code>", body)
            self.assertEqual(get("/repos/acme/fx/diff?from=nope")[0], 404)
            # The revisions named in the path, as the static export names the files.
            status, body = get("/api/repos/acme/fx/diff/v1.0..v2.1.0.json")
            self.assertEqual((status, json.loads(body)), (200, diff))
            status, body = get("/repos/acme/fx/diff/v1.0..v2.1.0.html")
            self.assertEqual(status, 200)
            self.assertIn("<h2>removed (1)</h2>", body)
            self.assertEqual(get("/repos/acme/fx/diff/v1.0..nope.html")[0], 404)
            self.assertEqual(get("/api/repos/acme/fx/diff/v1.0...json")[0], 404)
            status, body = get(f"/errors/{new_id}")
            self.assertIn('<section id="versions">', body)
            self.assertIn("<q>port must be positive, got {port}</q>", body)
        finally:
            proc.kill()
            proc.wait()
            log.close()

    def test_export_has_the_diff_of_each_pair_of_consecutive_revisions(self):
        root = self.make_releases()
        run("index", root, "--releases", "10", "--db", self.db, "--name", "acme/fx")
        head = git(root, "rev-parse", "HEAD").strip()[:12]
        out = os.path.join(self.tmp, "site")
        printed = run("export", "--out", out, "--db", self.db).stdout
        self.assertIn("(4 diffs of consecutive revisions)", printed)
        labels = ["v1.0", "v1.1", "2.0.0", "v2.1.0"]
        pairs = list(zip(labels, labels[1:])) + [("v2.1.0", None)]
        resolved = []
        for a, b in pairs:
            names = [n for n in os.listdir(os.path.join(out, "repos/acme/fx/diff")) if n.startswith(a + "..")]
            self.assertEqual(len(names), 1, (a, names))
            b = b or names[0][len(a) + 2:-5]
            resolved.append((a, b))
            page = open(os.path.join(out, "repos/acme/fx/diff", f"{a}..{b}.html"), encoding="utf-8").read()
            self.assertIn(f"Errors from <code>{a}</code>", page)
            diff = json.load(open(os.path.join(out, "api/repos/acme/fx/diff", f"{a}..{b}.json"), encoding="utf-8"))
            self.assertEqual((diff["from"]["label"], diff["to"]["label"]), (a, b))
            # The same as `errdex diff` says.
            cli = json.loads(run("diff", a, b, "--db", self.db, "--format", "json").stdout)
            self.assertEqual(diff, cli)
        self.assertTrue(head.startswith(b), (head, b))  # the newest revision has no tag: its short commit
        # The repository's page links them, newest first, relative to itself.
        repo_page = open(os.path.join(out, "repos/acme/fx.html"), encoding="utf-8").read()
        links = re.findall(r'<li><a href="(\.\./\.\./repos/acme/fx/diff/[^"]+)">', repo_page)
        self.assertEqual(links, [f"../../repos/acme/fx/diff/{a}..{b}.html" for a, b in reversed(resolved)])
        for link in links:
            self.assertTrue(os.path.exists(os.path.join(out, "repos/acme", link)), link)
        removed = json.load(open(os.path.join(out, "api/repos/acme/fx/diff/2.0.0..v2.1.0.json"), encoding="utf-8"))
        self.assertEqual([e["before"]["template"] for e in removed["removed"]], ["legacy mode is deprecated"])
        # Linked with paths relative to the page: from repos/acme/fx/diff/ the home page is four levels up.
        page = open(os.path.join(out, "repos/acme/fx/diff/2.0.0..v2.1.0.html"), encoding="utf-8").read()
        self.assertIn('href="../../../../index.html"', page)
        openapi = json.load(open(os.path.join(out, "api/openapi.json"), encoding="utf-8"))
        for path in ("/api/repos/{owner}/{name}/diff", "/api/repos/{owner}/{name}/diff/{from}..{to}",
                     "/repos/{owner}/{name}/diff", "/repos/{owner}/{name}/diff/{from}..{to}"):
            self.assertIn("get", openapi["paths"][path])
        self.assertIn("VersionDiff", openapi["components"]["schemas"])

    def test_history_uses_the_indexed_revisions_before_git(self):
        root = self.make_releases()
        run("index", root, "--releases", "10", "--db", self.db, "--name", "acme/fx")
        db = sqlite3.connect(self.db)

        def history(template_prefix):
            error_id = db.execute("select id from errors where template like ? order by id desc",
                                  (template_prefix + "%",)).fetchone()[0]
            report = json.loads(run("show", error_id, "--db", self.db, "--format", "json").stdout)
            return error_id, report["explanation"]["history"]

        # Reworded in v1.1: the indexed releases date the wording, and keep the earlier one with its place.
        new_id, h = history("port must be a non-negative")
        self.assertEqual((h["source"], h["wording_since"], h["reaches_oldest"]), ("releases", "v1.1", False))
        self.assertEqual([(e["template"], e["from"], e["to"], e["path"], e["line"]) for e in h["earlier"]],
                         [("port must be positive, got {port}", "v1.0", "v1.0", "oldpkg/core.py", 6)])
        # The git walk of the newest revision still adds its commit: the one tagged v1.1.
        self.assertEqual(h["commit"], git(root, "rev-list", "-n", "1", "v1.1").strip())
        # Added in v2.1.0: dated by the releases, no earlier wording.
        _, h = history("fresh in 2.1")
        self.assertEqual((h["source"], h["wording_since"], h["earlier"]), ("releases", "v2.1.0", []))
        # Unchanged since the oldest indexed release: only git can say more, and it does.
        _, h = history("host is required")
        self.assertEqual((h["source"], h["wording_since"], h["reaches_oldest"]), ("git", "v1.0", True))
        self.assertEqual(h["commit"], git(root, "rev-list", "-n", "1", "v1.0").strip())
        text = run("show", new_id, "--db", self.db).stdout
        self.assertIn("Worded like this since v1.1", text)
        self.assertIn('before: "port must be positive, got {port}" (v1.0, at oldpkg/core.py:6)', text)
        site = os.path.join(self.tmp, "site")
        run("export", "--out", site, "--db", self.db)
        page = open(os.path.join(site, "errors", new_id + ".html"), encoding="utf-8").read()
        history_html = page[page.index("<h3>History</h3>"):]
        self.assertIn("Worded like this since <code>v1.1</code>.", history_html)
        self.assertIn("<li><q>port must be positive, got {port}</q> in <code>v1.0</code>, raised at "
                      "<code>oldpkg/core.py:6</code></li>", history_html)
        # Releases first, then the commit.
        self.assertLess(history_html.index("Worded like this"), history_html.index("introduced by commit"))

    def test_pre_releases_only_when_asked(self):
        root = self.make_releases()
        out = run("index", root, "--rev", "v2.1.0", "--releases", "1", "--pre", "--db", self.db).stdout
        self.assertEqual([line.split()[2] for line in out.splitlines() if line.startswith("[")],
                         ["v2.1.0rc1", "v2.1.0"])
        proc = run("index", os.path.join(root, "src"), "--releases", "2", "--db", self.db, check=False)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("--releases needs a git repository", proc.stderr)


def run_input(args, text):
    proc = subprocess.run([ERRDEX, *args], input=text, capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        raise AssertionError(f"errdex {' '.join(args)} exited {proc.returncode}: {proc.stderr}")
    return proc.stdout


def main():
    global ERRDEX, FIXTURES
    parser = argparse.ArgumentParser()
    parser.add_argument("--errdex", required=True)
    parser.add_argument("--fixtures", required=True)
    args, rest = parser.parse_known_args()
    ERRDEX = os.path.abspath(args.errdex)
    FIXTURES = os.path.abspath(args.fixtures)
    unittest.main(argv=[sys.argv[0], "-v", *rest])


if __name__ == "__main__":
    main()
