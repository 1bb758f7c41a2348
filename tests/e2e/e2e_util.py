"""What the end-to-end test scripts share: running the errdex binary and git with a fixed identity."""

import os
import re
import subprocess
import time


def run_errdex(errdex, *args, check=True, env=None, timeout=300):
    """Runs ERRDEX ARGS, capturing text output; raises when CHECK and it exits non-zero."""
    proc = subprocess.run([errdex, *args], capture_output=True, text=True, env=env, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"errdex {' '.join(args)} exited {proc.returncode}: {proc.stderr}")
    return proc


def git(cwd, *args):
    """Runs git in CWD isolated from the user's configuration, with a fixed author and date; its stdout."""
    env = dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_SYSTEM="/dev/null",
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@e", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@e",
               GIT_AUTHOR_DATE="2026-01-02T03:04:05Z", GIT_COMMITTER_DATE="2026-01-02T03:04:05Z")
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True, env=env).stdout


def wait_for_listen_port(proc, read_log, timeout=20):
    """The port `errdex serve` (PROC) says it listens on, read from its log by READ_LOG(); raises when the
    server exits or stays silent for TIMEOUT seconds (then it is killed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", read_log())
        if m:
            return int(m.group(1))
        if proc.poll() is not None:
            raise AssertionError(f"errdex serve exited {proc.returncode}: {read_log()}")
        time.sleep(0.05)
    proc.kill()
    raise AssertionError("errdex serve did not say where it listens: " + read_log())
