#!/usr/bin/env python3
"""End-to-end test of `errdex index --python-env` (docs/environments.md): a virtual environment created
here, the fixture distributions of tests/fixtures/envdists built into wheels here and installed into it
with pip (no index, no dependencies), real failures produced by running their code (a closed local port,
bad input), then explained; and Debian's python3-requests and python3-urllib3 indexed from
/usr/lib/python3/dist-packages with /usr/bin/python3 and explained the same way.

The truth of each real traceback is its innermost library frame (the file below site-packages or
dist-packages, and its line): the whole traceback must be answered with that very site first, and the
final line alone with the same error first. Figures are printed at the end.

Run by CTest: run_env.py --errdex BUILD/errdex --fixtures tests/fixtures."""

import argparse
import base64
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import zipfile

import e2e_util

ERRDEX = None
FIXTURES = None
FIGURES = []
DEBIAN_PYTHON = "/usr/bin/python3"
DEBIAN_DIST_PACKAGES = "/usr/lib/python3/dist-packages"


def run(*args, **kwargs):
    return e2e_util.run_errdex(ERRDEX, *args, **kwargs)


def build_wheel(out_dir, name, version, root, extra_files=None):
    """A pure wheel of the package folders under ROOT (or only EXTRA_FILES: {path: bytes})."""
    files = {}
    if root:
        for base, dirs, names in os.walk(root):
            dirs.sort()
            for n in sorted(names):
                full = os.path.join(base, n)
                rel = os.path.relpath(full, root).replace(os.sep, "/")
                if rel == "VERSION":
                    continue
                with open(full, "rb") as f:
                    files[rel] = f.read()
    files.update(extra_files or {})
    info = f"{name}-{version}.dist-info"
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: errdex-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    tops = sorted({p.split("/")[0].split(".")[0] for p in files if not p.startswith(info)})
    files[f"{info}/top_level.txt"] = ("\n".join(tops) + "\n").encode()
    record = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = os.path.join(out_dir, f"{name}-{version}-py3-none-any.whl")
    with zipfile.ZipFile(wheel, "w") as z:
        for path, data in files.items():
            z.writestr(path, data)
    return wheel


def closed_port():
    """A local TCP port nobody listens on: bound, then released."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def traceback_of(python, code, cwd):
    """Runs CODE with PYTHON in CWD (as app.py) and returns the traceback it prints."""
    app = os.path.join(cwd, "app.py")
    with open(app, "w", encoding="utf-8") as f:
        f.write(code)
    proc = subprocess.run([python, app], capture_output=True, text=True, cwd=cwd, timeout=60)
    assert proc.returncode != 0, f"{code!r} did not fail"
    assert "Traceback" in proc.stderr, proc.stderr
    return proc.stderr


FRAME = re.compile(r'^  File "([^"]+)", line (\d+), in (.+)$', re.M)


def innermost_library_frame(traceback):
    """(path below site-packages/dist-packages, line) of the innermost frame in installed code."""
    last = None
    for path, line, _ in FRAME.findall(traceback):
        m = re.search(r"[/\\](?:site|dist)-packages[/\\](.+)$", path)
        if m:
            last = (m.group(1).replace("\\", "/"), int(line))
    assert last, traceback
    return last


def explain_full(db, text):
    proc = subprocess.run([ERRDEX, "explain", "--db", db, "--format", "json", "--top", "5", "-"], input=text,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def explain(db, text):
    proc = subprocess.run([ERRDEX, "explain", "--db", db, "--format", "json", "--top", "5", "-"], input=text,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)["matches"]


class EnvironmentTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="errdex-env-")
        self.db = os.path.join(self.tmp, "catalog.db")

    def tearDown(self):
        if not os.environ.get("ERRDEX_ENV_KEEP"):
            shutil.rmtree(self.tmp, ignore_errors=True)

    def check_truth(self, label, traceback, final_line_asserted=True):
        """The innermost library frame is the truth: for the traceback (that site) and its last line (that error).

        Returns the answers to the final line alone. FINAL_LINE_ASSERTED False: the figure is printed, not
        asserted."""
        truth = innermost_library_frame(traceback)
        whole = explain(self.db, traceback)
        self.assertTrue(whole, f"{label}: no answer")
        top = whole[0]["site"]
        self.assertEqual((top["path"], top["line"]), truth, f"{label}: {json.dumps(whole[0], indent=1)[:2000]}")
        last_line = traceback.strip().splitlines()[-1]
        alone = explain(self.db, last_line)
        sites = [json.loads(l) for l in run("list", "--db", self.db, "--format", "jsonl", "--path", truth[0]).stdout
                 .splitlines() if l.strip()]
        truth_errors = {s["id"] for s in sites if s["line"] == truth[1]}
        self.assertTrue(truth_errors, f"{label}: no site at {truth}")
        alone_ok = bool(alone) and alone[0]["id"] in truth_errors
        if not alone_ok:
            print(f"{label}: final line alone answered {alone[0]['site'] if alone else None}, truth {truth}",
                  file=sys.stderr)
        FIGURES.append((label, "traceback", "site", True))
        FIGURES.append((label, "final line", "error", alone_ok))
        if final_line_asserted:
            self.assertTrue(alone_ok, f"{label}: the final line alone is not answered with the error at {truth}")
        return alone

    def check_wrapped_chain(self, label, alone, outer_path, inner_repo, inner_type, inner_binding):
        """The final line of a wrapped error: the wrapping site first (its caught name bound to the whole
        message), the inner library's raise of the wrapped class as the next link, with its bindings."""
        first = explain_full(self.db, alone)
        top = first["matches"][0]
        self.assertEqual(top["site"]["path"], outer_path, f"{label}: {json.dumps(top, indent=1)[:1500]}")
        self.assertEqual(list(top["bindings"].values()), [first["message"]], label)
        self.assertTrue(first.get("chain"), f"{label}: no chain")
        inner = first["chain"][0]
        self.assertEqual((inner["site"]["repo"], inner["type"]), (inner_repo, inner_type), label)
        self.assertIn(inner_binding, inner["bindings"].items(), f"{label}: {inner['bindings']}")
        FIGURES.append((label, "final line chain", "wrapping site, then " + inner_type, True))

    def test_fixture_distributions_in_a_venv(self):
        venv = os.path.join(self.tmp, "venv")
        base = DEBIAN_PYTHON if os.path.exists(DEBIAN_PYTHON) else sys.executable
        subprocess.run([base, "-m", "venv", venv], check=True, capture_output=True, timeout=300)
        python = os.path.join(venv, "bin", "python")
        envdists = os.path.join(FIXTURES, "envdists")

        def version(dist):
            with open(os.path.join(envdists, dist, "VERSION"), encoding="utf-8") as f:
                return f.read().strip()

        wheels = os.path.join(self.tmp, "wheels")
        os.makedirs(wheels)
        low = build_wheel(wheels, "lownet", version("lownet"), os.path.join(envdists, "lownet"))
        high = build_wheel(wheels, "highnet", version("highnet"), os.path.join(envdists, "highnet"))
        compiled = build_wheel(wheels, "fast_core", "0.3", None,
                               {"fast_core.cpython-311-x86_64-linux-gnu.so": b"\x7fELF not really"})
        subprocess.run([python, "-m", "pip", "install", "--no-index", "--no-deps", "-q", low, high, compiled],
                       check=True, capture_output=True, timeout=300)

        started = time.monotonic()
        out = run("index", "--python-env", "--python", python, "--db", self.db).stdout
        first = time.monotonic() - started
        self.assertRegex(out, r"pypi/lownet +1\.0 +3 files +[1-9]\d* sites +indexed")
        self.assertRegex(out, r"pypi/highnet +2\.0 +6 files +[1-9]\d* sites +indexed")
        self.assertRegex(out, r"pypi/fast-core +0\.3 +0 files +0 sites +skipped: compiled only")
        self.assertRegex(out, r"vendors lownet at highnet/_vendor/lownet")
        self.assertRegex(out, r"python/stdlib +3\.\d+")
        sites = [json.loads(l) for l in run("list", "--db", self.db, "--format", "jsonl", "--rev", "all").stdout
                 .splitlines() if l.strip()]
        mrr = [s for s in sites if s["repo"] == "pypi/lownet" and s["type"] == "MaxRetryError"]
        self.assertEqual(len(mrr), 1, mrr)
        self.assertEqual(mrr[0]["rev"], "1.0")
        self.assertEqual(mrr[0]["path"], "lownet/pool.py")
        self.assertEqual(mrr[0]["type_qualified"], "lownet.exceptions.MaxRetryError")
        wrap = [s for s in sites if s["repo"] == "pypi/highnet" and s["type"] == "ConnectionError"]
        self.assertEqual([(s["path"], s["type_qualified"]) for s in wrap],
                         [("highnet/api.py", "highnet.exceptions.ConnectionError")])

        # Nothing changed: every distribution unchanged, in seconds.
        started = time.monotonic()
        out = run("index", "--python-env", "--python", python, "--db", self.db).stdout
        second = time.monotonic() - started
        self.assertRegex(out, r"\(0 indexed, \d+ unchanged, 1 skipped\)")
        self.assertLess(second, 30)
        # An upgrade re-indexes only that distribution.
        upgraded = os.path.join(self.tmp, "lownet-1.1")
        shutil.copytree(os.path.join(envdists, "lownet"), upgraded)
        with open(os.path.join(upgraded, "lownet", "pool.py"), "a", encoding="utf-8") as f:
            f.write("\n\ndef require_port(port):\n    if port <= 0:\n        raise ValueError(f\"bad port {port}\")\n")
        subprocess.run([python, "-m", "pip", "install", "--no-index", "--no-deps", "-q",
                        build_wheel(wheels, "lownet", "1.1", upgraded)], check=True, capture_output=True, timeout=300)
        out = run("index", "--python-env", "--python", python, "--db", self.db).stdout
        self.assertRegex(out, r"pypi/lownet +1\.1 .*indexed in")
        self.assertRegex(out, r"\(1 indexed, \d+ unchanged, 1 skipped\)")
        FIGURES.append(("venv index", f"first {first:.1f} s", f"second {second:.1f} s", True))

        # Real failures, explained.
        port = closed_port()
        tb = traceback_of(python, f"import highnet\n\nhighnet.get('127.0.0.1:{port}', '/x')\n", self.tmp)
        self.assertIn("highnet.exceptions.ConnectionError: Max retries exceeded with url: /x", tb)
        self.assertEqual(innermost_library_frame(tb)[0], "highnet/api.py")
        self.check_truth("highnet closed port", tb)
        self.check_wrapped_chain("highnet closed port", tb.strip().splitlines()[-1], "highnet/api.py", "pypi/lownet",
                                 "lownet.exceptions.MaxRetryError", ("url", "/x"))
        line = innermost_library_frame(tb)[1]
        answer = explain(self.db, tb)[0]
        self.assertIn(f"your code: app.py:3 → highnet.api.get (highnet/api.py:{line})", answer["why"])
        # The wrapping site links the wrapped exception's raise site in the other distribution.
        wraps = json.loads(run("show", answer["id"], "--db", self.db, "--format", "json").stdout)["wraps"]
        self.assertEqual([(w["type"], w["passes"]) for w in wraps], [("lownet.MaxRetryError", True)])
        self.assertEqual([(r["repo"], r["rev"], r["path"]) for r in wraps[0]["raised_at"]],
                         [("pypi/lownet", "1.1", "lownet/pool.py")])
        tb = traceback_of(python, "import lownet\n\nlownet.parse_location('no-port-here')\n", self.tmp)
        self.check_truth("lownet bad input", tb)
        # The innermost frame at the very line of the installed file decides, although that raise's own
        # literal argument ("utf-8", the codec, which the class does not render for this error) is a few bytes
        # that the message holds only inside the header's name, as PyYAML's `'unicode'` inside its stream's
        # name "<unicode string>"; the raise below it, whose arguments are all variables, matches by the text
        # the class renders.
        tb = traceback_of(python, "import lownet\n\nlownet.decode_header('<utf-8 header>', b'ab\\x07c')\n",
                          self.tmp)
        self.assertIn("unprintable byte in header '<utf-8 header>' at 2: not printable", tb)
        self.check_truth("lownet class-rendered message, short literal argument", tb, final_line_asserted=False)
        # Twins: the final line of a real zipfile failure names an error raised at two places of one function,
        # and nothing in it picks one: both are among the answers, the second saying it is a twin.
        tb = traceback_of(python, "import io, zipfile\n\nzipfile.ZipFile(io.BytesIO(b'not a zip'))\n", self.tmp)
        stdlib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
                                capture_output=True, text=True, check=True, timeout=60).stdout.strip()
        frames = FRAME.findall(tb)
        truth = (os.path.relpath(frames[-1][0], stdlib).replace(os.sep, "/"), int(frames[-1][1]))
        alone = explain(self.db, tb.strip().splitlines()[-1])
        places = [(m["site"]["path"], m["site"]["line"]) for m in alone]
        self.assertIn(truth, places, f"zipfile twins: {places}")
        twins = [m for m in alone if m["id"] == alone[0]["id"]]
        self.assertGreaterEqual(len(twins), 2, places)
        self.assertTrue(any(w.startswith("a twin of zipfile.py:") for w in twins[1]["why"]), twins[1]["why"])
        FIGURES.append(("zipfile twins", "final line", "site in top 5", True))
        tb = traceback_of(python, "import json\n\njson.loads('')\n", self.tmp)
        self.assertIn("JSONDecodeError", tb)
        whole = explain(self.db, tb)
        self.assertEqual(whole[0]["site"]["path"], "json/decoder.py")
        self.assertEqual(whole[0]["repo"] if "repo" in whole[0] else whole[0]["site"]["repo"], "python/stdlib")

    @unittest.skipUnless(os.path.isdir(os.path.join(DEBIAN_DIST_PACKAGES, "requests")) and
                         os.path.isdir(os.path.join(DEBIAN_DIST_PACKAGES, "urllib3")),
                         "Debian's python3-requests and python3-urllib3 are not installed")
    def test_debian_requests_and_urllib3(self):
        out = run("index", "--python-env", "--python", DEBIAN_PYTHON, "--no-stdlib", "--db", self.db).stdout
        self.assertRegex(out, r"pypi/requests +\S+ +\d+ files +[1-9]\d* sites")
        self.assertRegex(out, r"pypi/urllib3 +\S+ +\d+ files +[1-9]\d* sites")
        port = closed_port()
        tb = traceback_of(DEBIAN_PYTHON, f"import requests\n\nrequests.get('http://127.0.0.1:{port}/x')\n", self.tmp)
        self.assertIn("requests.exceptions.ConnectionError", tb)
        self.assertEqual(innermost_library_frame(tb)[0], "requests/adapters.py")
        self.check_truth("requests closed port", tb)
        self.check_wrapped_chain("requests closed port", tb.strip().splitlines()[-1], "requests/adapters.py",
                                 "pypi/urllib3", "urllib3.exceptions.MaxRetryError", ("url", "/x"))
        answer = explain(self.db, tb)[0]
        wraps = json.loads(run("show", answer["id"], "--db", self.db, "--format", "json").stdout)["wraps"]
        wrapped = {w["type"]: w for w in wraps}
        self.assertIn("urllib3.exceptions.MaxRetryError", wrapped, wraps)
        self.assertTrue(wrapped["urllib3.exceptions.MaxRetryError"]["passes"])
        self.assertIn(("pypi/urllib3", "urllib3/util/retry.py"),
                      [(r["repo"], r["path"]) for r in wrapped["urllib3.exceptions.MaxRetryError"]["raised_at"]])
        tb = traceback_of(DEBIAN_PYTHON, "import requests\n\nrequests.get('127.0.0.1/no-scheme')\n", self.tmp)
        self.assertIn("MissingSchema", tb)
        self.check_truth("requests bad input", tb)
        tb = traceback_of(DEBIAN_PYTHON, "import urllib3\n\nurllib3.util.Timeout(connect=-1)\n", self.tmp)
        self.check_truth("urllib3 bad input", tb)
        tb = traceback_of(DEBIAN_PYTHON, "import urllib3\n\nurllib3.PoolManager().request("
                          f"'GET', 'http://127.0.0.1:{port}/x', retries=0)\n", self.tmp)
        self.check_truth("urllib3 closed port", tb)


def main():
    global ERRDEX, FIXTURES
    parser = argparse.ArgumentParser()
    parser.add_argument("--errdex", required=True)
    parser.add_argument("--fixtures", required=True)
    args, rest = parser.parse_known_args()
    ERRDEX = os.path.abspath(args.errdex)
    FIXTURES = os.path.abspath(args.fixtures)
    program = unittest.main(argv=[sys.argv[0], "-v", *rest], exit=False)
    for label, what, unit, ok in FIGURES:
        print(f"figure: {label}: {what} → {'right' if ok else 'wrong'} {unit}" if unit in ("site", "error")
              else f"figure: {label}: {what}, {unit}")
    sys.exit(0 if program.result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
