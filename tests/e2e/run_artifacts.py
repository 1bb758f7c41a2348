#!/usr/bin/env python3
"""End-to-end test of `errdex index FILE.whl|FILE.tar.gz` (docs/environments.md, "Wheels and source
archives"): a real wheel and a real sdist of a fixture package (tests/fixtures/envdists/lownet, given a
src/ layout and a setup.py here) are built by setuptools when the interpreter has it (Debian's
python3-setuptools and python3-wheel, scripts/install-deps.sh), else written by hand exactly per the
binary and source distribution format specifications; both are indexed; the wheel is installed into a
virtual environment created here and its code is run into real errors, which `explain` must answer with
the site of the innermost library frame, from the wheel's catalog and from the sdist's. Then hostile
archives (tests/e2e/hostile_archives.py) are refused with a one-line error, in bounded time and memory,
leaving the catalog untouched.

Run by CTest: run_artifacts.py --errdex BUILD/errdex --fixtures tests/fixtures."""

import argparse
import json
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import unittest

import e2e_util
import hostile_archives
from run_env import build_wheel, innermost_library_frame, traceback_of

ERRDEX = None
FIXTURES = None
SETUP_PY = """from setuptools import setup, find_packages
setup(name="lownet", version="{version}", package_dir={{"": "src"}}, packages=find_packages("src"))
"""


def run(*args, **kwargs):
    return e2e_util.run_errdex(ERRDEX, *args, **kwargs)


def python_with_setuptools():
    """An interpreter that can build a wheel offline (setuptools and wheel importable), or None."""
    if os.environ.get("ERRDEX_ARTIFACTS_BY_HAND"):  # to test the other way of building them
        return None
    for python in ("/usr/bin/python3", sys.executable):
        if os.path.exists(python) and subprocess.run([python, "-c", "import setuptools, wheel"],
                                                     capture_output=True).returncode == 0:
            return python
    return None


def write_sdist(out_dir, project, name, version):
    """An sdist per the source distribution format: NAME-VERSION/ with PKG-INFO and the project's files."""
    path = os.path.join(out_dir, f"{name}-{version}.tar.gz")
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as t:
        t.add(project, arcname=f"{name}-{version}")
        pkg_info = os.path.join(out_dir, "PKG-INFO")
        with open(pkg_info, "w", encoding="utf-8") as f:
            f.write(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
        t.add(pkg_info, arcname=f"{name}-{version}/PKG-INFO")
    return path


def closed_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def explain_top(db, text):
    proc = subprocess.run([ERRDEX, "explain", "--db", db, "--format", "json", "-"], input=text, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    matches = json.loads(proc.stdout)["matches"]
    assert matches, f"no answer for {text!r}"
    return matches[0]


class ArtifactTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="errdex-artifacts-")
        lownet = os.path.join(FIXTURES, "envdists", "lownet")
        with open(os.path.join(lownet, "VERSION"), encoding="utf-8") as f:
            cls.version = f.read().strip()
        project = os.path.join(cls.tmp, "project")
        shutil.copytree(os.path.join(lownet, "lownet"), os.path.join(project, "src", "lownet"))
        with open(os.path.join(project, "setup.py"), "w", encoding="utf-8") as f:
            f.write(SETUP_PY.format(version=cls.version))
        cls.dist = os.path.join(cls.tmp, "dist")
        os.makedirs(cls.dist)
        python = python_with_setuptools()
        cls.built_by = "setuptools" if python else "hand (zipfile/tarfile)"
        if python:
            subprocess.run([python, "-m", "pip", "wheel", "--no-deps", "--no-index", "--no-build-isolation", "-q",
                            "-w", cls.dist, project], check=True, capture_output=True, timeout=300)
            subprocess.run([python, "setup.py", "-q", "sdist", "-d", cls.dist], cwd=project, check=True,
                           capture_output=True, timeout=300)
            cls.wheel = os.path.join(cls.dist, f"lownet-{cls.version}-py3-none-any.whl")
            cls.sdist = os.path.join(cls.dist, f"lownet-{cls.version}.tar.gz")
        else:
            cls.wheel = build_wheel(cls.dist, "lownet", cls.version, os.path.join(project, "src"))
            cls.sdist = write_sdist(cls.dist, project, "lownet", cls.version)
        print(f"artifacts built by {cls.built_by}: {os.listdir(cls.dist)}", file=sys.stderr)

        # The wheel installed into a venv: the code whose errors are explained.
        venv = os.path.join(cls.tmp, "venv")
        base = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
        subprocess.run([base, "-m", "venv", venv], check=True, capture_output=True, timeout=300)
        cls.python = os.path.join(venv, "bin", "python")
        subprocess.run([cls.python, "-m", "pip", "install", "--no-index", "--no-deps", "-q", cls.wheel], check=True,
                       capture_output=True, timeout=300)
        port = closed_port()
        cls.tracebacks = {
            "closed port": traceback_of(cls.python, "from lownet import ConnectionPool\n\n"
                                        f"ConnectionPool('127.0.0.1', {port}).urlopen('/x')\n", cls.tmp),
            "bad input": traceback_of(cls.python, "import lownet\n\nlownet.parse_location('no-port-here')\n", cls.tmp),
        }

    @classmethod
    def tearDownClass(cls):
        if not os.environ.get("ERRDEX_ENV_KEEP"):
            shutil.rmtree(cls.tmp, ignore_errors=True)

    def check_explained(self, db, path_prefix):
        for label, tb in self.tracebacks.items():
            path, line = innermost_library_frame(tb)
            top = explain_top(db, tb)
            self.assertEqual((top["site"]["repo"], top["site"]["rev"]), ("pypi/lownet", self.version), label)
            self.assertEqual((top["site"]["path"], top["site"]["line"]), (path_prefix + path, line),
                             f"{label}: {json.dumps(top, indent=1)[:1500]}")

    def test_wheel(self):
        db = os.path.join(self.tmp, "wheel.db")
        out = run("index", self.wheel, "--db", db).stdout
        self.assertIn(f"indexed pypi/lownet at {self.version} into {db}", out)
        self.assertRegex(out, r"files +3 \(3 parsed")
        sites = [json.loads(l) for l in run("list", "--db", db, "--format", "jsonl").stdout.splitlines()]
        self.assertEqual({s["path"] for s in sites}, {"lownet/pool.py"})
        self.assertEqual({(s["repo"], s["rev"]) for s in sites}, {("pypi/lownet", self.version)})
        self.assertIn("lownet.exceptions.MaxRetryError", {s["type_qualified"] for s in sites})
        self.check_explained(db, "")
        # The same artifact again: nothing to do, like a revision already indexed.
        again = run("index", self.wheel, "--db", db).stdout
        self.assertIn(f"pypi/lownet at {self.version}: already indexed in {db}", again)
        self.assertIn("nothing to do", again)
        # The total limit is the user's to raise or lower.
        small = run("index", self.wheel, "--db", os.path.join(self.tmp, "small.db"), "--max-archive-bytes", "1000",
                    check=False)
        self.assertEqual(small.returncode, 1)
        self.assertIn("inflates to more than 1000 bytes", small.stderr)

    def test_sdist(self):
        db = os.path.join(self.tmp, "sdist.db")
        out = run("index", self.sdist, "--db", db).stdout
        self.assertIn(f"indexed pypi/lownet at {self.version} into {db}", out)
        sites = [json.loads(l) for l in run("list", "--db", db, "--format", "jsonl").stdout.splitlines()]
        # The name-version/ folder is gone; the src/ layout stays in the path and leaves the module name.
        self.assertEqual({s["path"] for s in sites}, {"src/lownet/pool.py"})
        self.assertIn("lownet.exceptions.MaxRetryError", {s["type_qualified"] for s in sites})
        # Frames of the installed wheel (site-packages/lownet/pool.py) are the sdist's src/lownet/pool.py.
        self.check_explained(db, "src/")
        self.assertIn("nothing to do", run("index", self.sdist, "--db", db).stdout)

    def test_hostile_archives_are_refused(self):
        hostile = os.path.join(self.tmp, "hostile")
        os.makedirs(hostile)
        db = os.path.join(self.tmp, "hostile.db")
        run("index", self.wheel, "--db", db)
        before = run("list", "--db", db, "--format", "jsonl").stdout
        cases = hostile_archives.write_all(hostile)
        self.assertGreaterEqual(len(cases), 14)
        worst_seconds, worst_mb = 0.0, 0
        for name, words in cases:
            started = time.monotonic()
            proc = subprocess.Popen([ERRDEX, "index", os.path.join(hostile, name), "--db", db],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                stdout, stderr = proc.communicate(timeout=60)
            finally:
                proc.kill()
            # RUSAGE_CHILDREN's peak is the largest of every child so far (venv and pip included): a bound.
            seconds = time.monotonic() - started
            peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
            worst_seconds, worst_mb = max(worst_seconds, seconds), max(worst_mb, peak_mb)
            self.assertNotEqual(proc.returncode, 0, f"{name}: {stdout}")
            self.assertRegex(stderr, r"^errdex: refusing " + re.escape(name) + r": [^\n]*\n$", name)
            self.assertIn(words, stderr, name)
            self.assertLess(seconds, 10, name)
        print(f"figure: hostile archives: {len(cases)} refused, slowest {worst_seconds:.2f} s, "
              f"peak RSS of any child process so far {worst_mb} MB", file=sys.stderr)
        self.assertEqual(run("list", "--db", db, "--format", "jsonl").stdout, before)


def main():
    global ERRDEX, FIXTURES
    parser = argparse.ArgumentParser()
    parser.add_argument("--errdex", required=True)
    parser.add_argument("--fixtures", required=True)
    args, rest = parser.parse_known_args()
    ERRDEX = os.path.abspath(args.errdex)
    FIXTURES = os.path.abspath(args.fixtures)
    program = unittest.main(argv=[sys.argv[0], "-v", *rest], exit=False)
    sys.exit(0 if program.result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
