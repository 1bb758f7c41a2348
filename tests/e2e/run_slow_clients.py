#!/usr/bin/env python3
"""End-to-end tests of `errdex serve` under hostile clients (docs/web.md, "Connections"): hundreds of
half-open connections (a request head that never ends) and idle ones must not keep a normal request from
being answered within a second; slow heads get 408, connections beyond a limit shed the longest-waiting
one, and all of it is in the access log. The real binary on tests/fixtures/shopkit over loopback; standard
library only. Run by CTest: run_slow_clients.py --errdex BUILD/errdex --fixtures tests/fixtures."""

import argparse
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import e2e_util

ERRDEX = None
FIXTURES = None
STATE = {}


def setUpModule():
    # Room for the connections this test holds (the soft limit is often 1024).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < 4096:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard) if hard != resource.RLIM_INFINITY else 4096, hard))
    STATE["tmp"] = tempfile.mkdtemp(prefix="errdex-slow-")
    STATE["db"] = os.path.join(STATE["tmp"], "catalog.db")
    root = os.path.join(STATE["tmp"], "shopkit")
    shutil.copytree(os.path.join(FIXTURES, "shopkit"), root)
    e2e_util.git(root, "init", "-q")
    e2e_util.git(root, "add", "-A")
    e2e_util.git(root, "commit", "-q", "-m", "fixture")
    e2e_util.run_errdex(ERRDEX, "index", root, "--rev", "HEAD", "--name", "acme/shopkit", "--db", STATE["db"], "-q")
    out = e2e_util.run_errdex(ERRDEX, "list", "--db", STATE["db"], "--format", "jsonl").stdout
    STATE["id"] = sorted(json.loads(line)["id"] for line in out.splitlines() if line.strip())[0]


def tearDownModule():
    shutil.rmtree(STATE["tmp"], ignore_errors=True)


class Server:
    def __init__(self, *extra):
        self.log_path = os.path.join(STATE["tmp"], f"serve-{time.monotonic_ns()}.log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([ERRDEX, "serve", "--db", STATE["db"], "--listen", "127.0.0.1:0", *extra],
                                     stdout=subprocess.DEVNULL, stderr=self.log)
        self.port = e2e_util.wait_for_listen_port(self.proc, self.stderr)

    def stderr(self):
        with open(self.log_path, encoding="utf-8", errors="replace") as f:
            return f.read()

    def connect(self):
        return socket.create_connection(("127.0.0.1", self.port), timeout=10)

    def timed_get(self, path):
        """GET PATH on a new connection: (status, body, seconds from connect to the whole answer)."""
        start = time.monotonic()
        with self.connect() as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        elapsed = time.monotonic() - start
        m = re.match(rb"HTTP/1\.1 (\d{3}) ", data)
        head, _, body = data.partition(b"\r\n\r\n")
        length = re.search(rb"\r\nContent-Length: (\d+)", head, re.I)
        self_check = length is not None and int(length.group(1)) == len(body)
        return (int(m.group(1)) if m else None), body, elapsed, self_check

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.log.close()


def hold(server, count, data):
    """COUNT connections that sent DATA (a head without its end, or nothing) and wait."""
    held = []
    for _ in range(count):
        s = server.connect()
        if data:
            s.sendall(data)
        held.append(s)
    return held


def wait_for_log(server, pattern, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if re.search(pattern, server.stderr()):
            return True
        time.sleep(0.05)
    return False


class SlowClientTest(unittest.TestCase):
    def test_half_open_and_idle_connections_do_not_stall_a_normal_request(self):
        server = Server()
        held = []
        try:
            path = f"/errors/{STATE['id']}"
            # 300 requests that never finish their head, 200 connections that say nothing.
            held += hold(server, 300, f"GET {path} HTTP/1.1\r\nHost: x\r\nUser-Agent: slow".encode())
            held += hold(server, 200, b"")
            for attempt in range(3):
                status, body, elapsed, whole = server.timed_get(path)
                self.assertEqual(status, 200, f"attempt {attempt}")
                self.assertTrue(whole, "the answer is complete")
                self.assertIn(b"<html", body)
                self.assertLess(elapsed, 1.0, f"attempt {attempt}: {elapsed:.3f} s")
            # The attack went beyond 256 connections of one address: the longest-waiting were shed.
            self.assertTrue(wait_for_log(server, r'127\.0\.0\.1 - \[[^]]+\] "\(shed: connections per address\)"', 5))
        finally:
            for s in held:
                s.close()
            self.assertEqual(server.stop(), 0)

    def test_a_slow_head_gets_408_and_is_logged(self):
        server = Server("--head-timeout", "1")
        try:
            with server.connect() as s:
                s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
                start = time.monotonic()
                data = b""
                while True:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                elapsed = time.monotonic() - start
            self.assertTrue(data.startswith(b"HTTP/1.1 408 "), data[:100])
            self.assertIn(b"\r\nConnection: close\r\n", data)
            self.assertIn(b"\r\nX-Content-Type-Options: nosniff\r\n", data)
            self.assertGreater(elapsed, 0.5)
            self.assertLess(elapsed, 3.0)
            self.assertTrue(wait_for_log(server, r'"\(timeout: request head\)" 408', 5))
            self.assertEqual(server.timed_get("/")[0], 200)
        finally:
            self.assertEqual(server.stop(), 0)

    def test_the_connection_that_waited_longest_is_shed(self):
        server = Server("--max-connections-per-address", "10")
        held = []
        try:
            for _ in range(10):  # ten idle keep-alive connections, each after one answered request
                s = server.connect()
                s.sendall(b"GET /api/repos HTTP/1.1\r\nHost: x\r\n\r\n")
                self.assertTrue(s.recv(65536).startswith(b"HTTP/1.1 200 "))
                held.append(s)
                time.sleep(0.01)
            self.assertEqual(server.timed_get("/api/repos")[0], 200)  # the eleventh
            held[0].settimeout(5)
            self.assertEqual(held[0].recv(100), b"", "the oldest idle connection was closed")
            held[-1].sendall(b"GET /api/repos HTTP/1.1\r\nHost: x\r\n\r\n")  # a younger one still works
            self.assertTrue(held[-1].recv(65536).startswith(b"HTTP/1.1 200 "))
            self.assertTrue(wait_for_log(server, r'"\(shed: connections per address\)" 0', 5))
        finally:
            for s in held:
                s.close()
            self.assertEqual(server.stop(), 0)

    def test_pipelined_requests_are_answered_in_order(self):
        server = Server()
        try:
            with server.connect() as s:
                s.sendall(b"GET /api/repos HTTP/1.1\r\nHost: x\r\n\r\nGET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n"
                          b"GET /api/repos HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                data = b""
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    data += chunk
            self.assertEqual(re.findall(rb"HTTP/1\.1 (\d{3}) ", data), [b"200", b"404", b"200"])
        finally:
            self.assertEqual(server.stop(), 0)


def main():
    global ERRDEX, FIXTURES
    parser = argparse.ArgumentParser()
    parser.add_argument("--errdex", required=True)
    parser.add_argument("--fixtures", required=True)
    args, rest = parser.parse_known_args()
    ERRDEX = os.path.abspath(args.errdex)
    FIXTURES = os.path.abspath(args.fixtures)
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)


if __name__ == "__main__":
    main()
