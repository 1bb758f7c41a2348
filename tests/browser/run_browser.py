#!/usr/bin/env python3
"""Browser test of `errdex serve` (docs/web.md, "Browser test"): builds a git repository from
tests/fixtures/gizmo, indexes it with the real binary, starts `errdex serve` on a free loopback port, and runs
tests/browser/browser_test.mjs (headless Chromium driven by playwright-core) against it. Run by CTest:

    run_browser.py --errdex BUILD/errdex --fixtures tests/fixtures --out BUILD/browser-test

Exits 0 when the browser test passed, 77 (CTest's SKIP_RETURN_CODE) when Chromium is not installed, and 1
on any failure (including a missing node or playwright-core: scripts/install-deps.sh installs both).
Standard library only."""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import e2e_util  # noqa: E402

SKIP = 77
NODE_TIMEOUT = 150  # seconds; below the CTest TIMEOUT (180), so the harness says what hung
REPO = "acme/gizmo"
TEMPLATE_START = "Failed to determine the settings"
SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# What a user pastes: a traceback from an installed copy of gizmo, ending in the RuntimeError.
TRACEBACK = """Traceback (most recent call last):
  File "/home/user/app/train.py", line 41, in <module>
    model, settings = load_tuned(checkpoint)
  File "/home/user/app/train.py", line 17, in load_tuned
    return unwrap_tuned(obj)
  File "/usr/lib/python3/dist-packages/gizmo/wrap.py", line 12, in unwrap_tuned
    raise RuntimeError(
RuntimeError: Failed to determine the settings that were used to tune the gizmo. Make sure to import gizmo \
before `tune` is used."""


def fail(message):
    print(f"run_browser.py: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def find_chromium():
    """Chromium's path: $ERRDEX_CHROMIUM, else Debian's /usr/bin/chromium, else `chromium` on PATH."""
    wanted = os.environ.get("ERRDEX_CHROMIUM")
    if wanted:
        if not os.access(wanted, os.X_OK):
            fail(f"ERRDEX_CHROMIUM={wanted} is not an executable")
        return wanted
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium")


def start_server(errdex, db, log_path):
    log = open(log_path, "w")
    proc = subprocess.Popen([errdex, "serve", "--db", db, "--listen", "127.0.0.1:0"],
                            stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with open(log_path, encoding="utf-8", errors="replace") as f:
            m = re.search(r"listening on (http://127\.0\.0\.1:\d+)/", f.read())
        if m:
            return proc, log, m.group(1)
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    with open(log_path, encoding="utf-8", errors="replace") as f:
        fail(f"errdex serve did not say where it listens (exit {proc.poll()}): {f.read()}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--errdex", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--out", required=True, help="directory for the screenshots")
    args = parser.parse_args()
    errdex = os.path.abspath(args.errdex)
    started = time.monotonic()

    chromium = find_chromium()
    if not chromium:
        print("run_browser.py: SKIP: Chromium is not installed (Debian package `chromium`, which "
              "scripts/install-deps.sh installs; or set ERRDEX_CHROMIUM)", file=sys.stderr)
        return SKIP
    node = shutil.which("node")
    if not node:
        fail("node is not installed (scripts/install-deps.sh installs Debian's nodejs)")
    if not os.path.isfile(os.path.join(SOURCE_DIR, "node_modules", "playwright-core", "package.json")):
        fail(f"{SOURCE_DIR}/node_modules/playwright-core is missing: run scripts/install-deps.sh "
             "(npm ci --ignore-scripts, pinned by package-lock.json)")

    tmp = tempfile.mkdtemp(prefix="errdex-browser-")
    server = None
    try:
        src = os.path.join(tmp, "gizmo")
        shutil.copytree(os.path.join(os.path.abspath(args.fixtures), "gizmo"), src)
        e2e_util.git(src, "init", "-q")
        e2e_util.git(src, "add", "-A")
        e2e_util.git(src, "commit", "-q", "-m", "fixture")
        db = os.path.join(tmp, "catalog.db")
        # No --url: a local repository, so the error page has no "View on GitHub" link.
        e2e_util.run_errdex(errdex, "index", src, "--rev", "HEAD", "--name", REPO, "--db", db, "-q")
        listed = e2e_util.run_errdex(errdex, "list", "--db", db, "--repo", REPO, "--format", "jsonl").stdout
        errors = [e for e in map(json.loads, filter(str.strip, listed.splitlines()))
                  if e["type"] == "RuntimeError" and (e["template"] or "").startswith(TEMPLATE_START)]
        if len(errors) != 1:
            fail(f"expected one RuntimeError \"{TEMPLATE_START}...\" in {REPO}, found {len(errors)}")
        error = {k: errors[0][k] for k in ("id", "repo", "type", "template", "path", "line", "function")}
        print(f"run_browser.py: {REPO} indexed, error {error['id']} at {error['path']}:{error['line']}")

        server, log, base = start_server(errdex, db, os.path.join(tmp, "serve.log"))
        print(f"run_browser.py: errdex serve on {base}/")
        config = {"base": base, "chromium": chromium, "out": os.path.abspath(args.out), "error": error,
                  "traceback": TRACEBACK}
        env = dict(os.environ, HOME=tmp, XDG_CONFIG_HOME=os.path.join(tmp, "config"),
                   XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        # Its own process group, so that on a timeout Chromium goes with it.
        proc = subprocess.Popen([node, os.path.join(SOURCE_DIR, "tests", "browser", "browser_test.mjs"),
                                 json.dumps(config)], env=env, start_new_session=True)
        try:
            proc.wait(timeout=NODE_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            fail(f"browser_test.mjs did not finish within {NODE_TIMEOUT} s")
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # anything node left behind (a crash before closing Chromium)
        except ProcessLookupError:
            pass
        if proc.returncode != 0:
            with open(os.path.join(tmp, "serve.log"), encoding="utf-8", errors="replace") as f:
                access = f.read().splitlines()
            print("run_browser.py: the server's access log:\n  " + "\n  ".join(access[-40:]), file=sys.stderr)
            fail(f"browser_test.mjs exited {proc.returncode}")
        print(f"run_browser.py: ok in {time.monotonic() - started:.1f} s")
        return 0
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            log.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
