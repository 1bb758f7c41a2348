#!/usr/bin/env python3
"""End-to-end tests of `errdex serve` and `errdex export` (docs/web.md): the real binary on two fixture
repositories (tests/fixtures/shopkit, and tests/fixtures/webhostile indexed as `evil/<b>x</b>`), over real
HTTP on a loopback port. Standard library only. Run by CTest:
run_web.py --errdex BUILD/errdex --fixtures tests/fixtures."""

import argparse
import html.parser
import http.client
import json
import os
import posixpath
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse

import e2e_util

ERRDEX = None
FIXTURES = None
STATE = {}  # tmp, db, ids by repository

HOSTILE_REPO = "evil/<b>x</b>"
HOSTILE_URL = "javascript:alert(7)//"
HOSTILE_FILE = '"><svg onload=alert(5)>.py'
SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}
OWN_SCRIPT_TAG = '<script src="./static/errdex.js" defer></script>'


def run(*args, **kwargs):
    return e2e_util.run_errdex(ERRDEX, *args, **kwargs)


git = e2e_util.git


def make_repo(fixture, extra_files=None):
    """A git repository holding a copy of FIXTURE (plus EXTRA_FILES), committed at a fixed date."""
    root = os.path.join(STATE["tmp"], "src-" + fixture)
    shutil.copytree(os.path.join(FIXTURES, fixture), root)
    for name, text in (extra_files or {}).items():
        with open(os.path.join(root, name), "w", encoding="utf-8") as f:
            f.write(text)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "fixture")
    return root


def setUpModule():
    STATE["tmp"] = tempfile.mkdtemp(prefix="errdex-web-")
    STATE["db"] = os.path.join(STATE["tmp"], "catalog.db")
    shop = make_repo("shopkit")
    run("index", shop, "--rev", "HEAD", "--name", "acme/shopkit", "--url", "https://github.com/acme/shopkit",
        "--db", STATE["db"], "-q")
    evil = make_repo("webhostile", {HOSTILE_FILE: 'raise ValueError("file name")\n'})
    run("index", evil, "--rev", "HEAD", "--name", HOSTILE_REPO, "--url", HOSTILE_URL, "--db", STATE["db"], "-q")
    gizmo = make_repo("gizmo")
    run("index", gizmo, "--rev", "HEAD", "--name", "acme/gizmo", "--url", "https://github.com/acme/gizmo",
        "--db", STATE["db"], "-q")
    STATE["ids"] = {}
    for repo in ("acme/shopkit", HOSTILE_REPO, "acme/gizmo"):
        out = run("list", "--db", STATE["db"], "--repo", repo, "--format", "jsonl").stdout
        STATE["ids"][repo] = sorted({json.loads(line)["id"] for line in out.splitlines() if line.strip()})
    assert len(STATE["ids"]["acme/shopkit"]) > 20 and len(STATE["ids"][HOSTILE_REPO]) >= 6, STATE["ids"]


def tearDownModule():
    shutil.rmtree(STATE["tmp"], ignore_errors=True)


class Server:
    """`errdex serve` on a free loopback port; its stderr (the access log) goes to a file."""

    def __init__(self, *extra, db=None):
        self.log_path = os.path.join(STATE["tmp"], f"serve-{time.monotonic_ns()}.log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([ERRDEX, "serve", "--db", db or STATE["db"], "--listen", "127.0.0.1:0", *extra],
                                     stdout=subprocess.DEVNULL, stderr=self.log)
        self.port = e2e_util.wait_for_listen_port(self.proc, self.stderr)

    def stderr(self):
        with open(self.log_path, encoding="utf-8", errors="replace") as f:
            return f.read()

    def request(self, method, path, body=None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            data = resp.read()
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
        finally:
            conn.close()

    def get(self, path):
        return self.request("GET", path)

    def raw(self, data, read_timeout=10):
        """Sends DATA on a new connection and returns the status of the answer (None if none came)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=read_timeout) as s:
            try:
                s.sendall(data)
            except (BrokenPipeError, ConnectionResetError):
                pass
            received = b""
            try:
                while b"\r\n" not in received:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    received += chunk
            except (ConnectionResetError, socket.timeout):
                pass
        m = re.match(rb"HTTP/1\.1 (\d{3}) ", received)
        return int(m.group(1)) if m else None

    def stop(self, sig=signal.SIGTERM, timeout=5):
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.log.close()


class TagCollector(html.parser.HTMLParser):
    """Every start tag with its attributes, as a browser's tokenizer sees them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = []
        self.text = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, attrs))

    def handle_data(self, data):
        self.text.append(data)


ALLOWED_TAGS = {"html", "head", "meta", "title", "link", "script", "body", "header", "main", "footer", "a", "span",
                "section", "h1", "h2", "h3", "p", "form", "label", "textarea", "button", "table", "thead", "tbody",
                "tr", "th", "td", "code", "pre", "article", "ul", "ol", "li", "div", "blockquote", "em", "select",
                "option", "input", "nav", "caption"}


def assert_inert(test, body, where):
    """BODY (an HTML page) has only errdex's own markup: allowed tags, no event handlers, no script but
    errdex's own file, links only relative or to http(s)."""
    text = body.decode("utf-8")
    test.assertNotIn("<script>", text, where)
    test.assertNotIn("<img", text, where)
    test.assertNotIn("<svg", text, where)
    test.assertEqual(text.count("</textarea>"), text.count("<textarea "), where)
    test.assertNotIn("<b>", text, where)
    for m in re.finditer(r"<script[^>]*>", text):
        test.assertEqual(text[m.start():m.start() + len(OWN_SCRIPT_TAG)], OWN_SCRIPT_TAG, where)
    parser = TagCollector()
    parser.feed(text)
    parser.close()
    for tag, attrs in parser.tags:
        test.assertIn(tag, ALLOWED_TAGS, f"{where}: <{tag}>")
        for name, value in attrs:
            test.assertFalse(name.startswith("on"), f"{where}: <{tag} {name}>")
            test.assertNotIn(name, {"style", "srcdoc", "formaction", "autofocus"}, f"{where}: <{tag} {name}>")
            if name in ("href", "src", "action"):
                test.assertNotIn("javascript:", (value or "").lower(), where)
                test.assertTrue(re.match(r"^(\./|\.\./|https?://)", value or ""), f"{where}: {name}={value!r}")


class WebServerTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop(signal.SIGKILL)

    def check_headers(self, headers, content_type, where):
        self.assertEqual(headers.get("content-type"), content_type, where)
        for name, value in SECURITY_HEADERS.items():
            self.assertEqual(headers.get(name), value, f"{where}: {name}")
        csp = headers.get("content-security-policy", "")
        for directive in ("default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'",
                          "base-uri 'none'", "form-action 'self'"):
            self.assertIn(directive, csp, where)
        self.assertNotIn("unsafe-inline", csp)

    def get_ok(self, path, content_type="text/html; charset=utf-8"):
        status, headers, body = self.server.get(path)
        self.assertEqual(status, 200, f"{path}: {body[:300]!r}")
        self.check_headers(headers, content_type, path)
        return body

    def test_home_search_box_and_repositories(self):
        body = self.get_ok("/").decode()
        self.assertIn("Paste an error, a traceback or a log", body)
        self.assertIn('<form id="search-form" class="search" method="post" action="./search">', body)
        self.assertIn('<textarea id="q" name="q"', body)
        self.assertIn('<a href="./repos/acme/shopkit.html">acme/shopkit</a>', body)
        self.assertIn('<a href="./repos/evil/%253Cb%253Ex%253C/b%253E.html">evil/&lt;b&gt;x&lt;/b&gt;</a>', body)
        self.assertEqual(self.get_ok("/index.html").decode(), body)
        assert_inert(self, body.encode(), "/")

    def test_static_files(self):
        self.assertIn(b"prefers-color-scheme: dark", self.get_ok("/static/errdex.css", "text/css; charset=utf-8"))
        self.assertIn(b"textContent", self.get_ok("/static/errdex.js", "text/javascript; charset=utf-8"))

    def test_error_pages_have_the_example_sections(self):
        shop_ids = STATE["ids"]["acme/shopkit"]
        for error_id in shop_ids:
            body = self.get_ok(f"/errors/{error_id}").decode()
            self.assertEqual(self.get_ok(f"/errors/{error_id}.html").decode(), body)
            report = json.loads(run("show", error_id, "--db", STATE["db"], "--format", "json").stdout)
            title = f'acme/shopkit</a> · {"warning" if report["kind"] == "warn" else "error"} · <span class="type">'
            self.assertIn(title, body, error_id)
            order = [body.index('<section id="message">'), body.index('<section id="source">'),
                     body.index('<footer class="error-footer">')]
            self.assertEqual(order, sorted(order), error_id)
            self.assertIn(f'Data as JSON: <a href="../api/errors/{error_id}.json">/api/errors/{error_id}</a>', body)
            self.assertIn("View on GitHub (pinned to ", body)
            for site in report["sites"]:
                link = f'<a class="loc" href="{site["permalink"]}">{site["path"]}:{site["line"]}</a>'
                self.assertIn(link, body, error_id)
            explanation = report.get("explanation") or {}
            if explanation.get("conditions"):
                self.assertIn("<h3>When the raise runs</h3>", body)
            tests = (explanation.get("triggers") or {}).get("tests") or []
            self.assertEqual('<section id="example">' in body, any(t.get("code") for t in tests), error_id)
            self.assertEqual('<section id="related">' in body, bool(report.get("related")), error_id)
            assert_inert(self, body.encode(), error_id)

    def test_error_page_shows_the_analysis(self):
        out = run("list", "--db", STATE["db"], "--repo", "acme/gizmo", "--format", "jsonl").stdout
        error_id = next(json.loads(line)["id"] for line in out.splitlines() if "Failed to determine" in line)
        body = self.get_ok(f"/errors/{error_id}").decode()
        sections = ['<section id="message">', '<section id="meaning">', '<section id="source">',
                    '<section id="solutions">', '<section id="example">', '<section id="when">',
                    '<section id="related">', '<footer class="error-footer">']
        order = [body.index(s) for s in sections]
        self.assertEqual(order, sorted(order))
        pinned = "https://github.com/acme/gizmo/blob/"
        self.assertIn("<h3>Where the state comes from</h3>", body)
        self.assertIn("<code>obj._tune_settings</code>, read by the condition at", body)
        self.assertRegex(body, r'installed at import time by <a class="loc" href="' + pinned +
                         r'[0-9a-f]{40}/gizmo/patch.py#L23">gizmo/patch.py:23</a>')
        self.assertIn("<code>Workbench.setup</code> → <code>Workbench._unwrap</code> → <code>unwrap_tuned</code>",
                      body)
        self.assertIn("The message itself says: Make sure to import gizmo before <code>tune</code> is used.", body)
        self.assertRegex(body, r'docs/troubleshooting.md:5</a> mentions the message:')
        self.assertRegex(body, r'The message was introduced by commit <a href="https://github.com/acme/gizmo/commit/'
                               r'[0-9a-f]{40}"><code>[0-9a-f]{10}</code></a>')
        assert_inert(self, body.encode(), error_id)

    def test_api_errors_equal_show_json(self):
        for repo, ids in STATE["ids"].items():
            for error_id in ids:
                shown = run("show", error_id, "--db", STATE["db"], "--format", "json").stdout
                for path in (f"/api/errors/{error_id}", f"/api/errors/{error_id}.json"):
                    body = self.get_ok(path, "application/json; charset=utf-8")
                    self.assertEqual(json.loads(body), json.loads(shown), path)
                    self.assertEqual(body.decode(), shown, path)

    def test_search_and_match(self):
        paste = "ValueError: quantity must be positive, got -3"
        status, headers, body = self.server.request(
            "POST", "/api/match", body=paste.encode(), headers={"Content-Type": "text/plain"})
        self.assertEqual(status, 200)
        self.check_headers(headers, "application/json; charset=utf-8", "/api/match")
        explained = run("explain", paste, "--db", STATE["db"], "--format", "json").stdout
        self.assertEqual(json.loads(body), json.loads(explained))
        match = json.loads(body)["matches"][0]
        self.assertEqual(match["bindings"], {"quantity!r": "-3"})

        form = urllib.parse.urlencode({"q": paste}).encode()
        status, headers, page = self.server.request(
            "POST", "/search", body=form, headers={"Content-Type": "application/x-www-form-urlencoded"})
        self.assertEqual(status, 200)
        self.check_headers(headers, "text/html; charset=utf-8", "POST /search")
        page = page.decode()
        self.assertIn(f'href="./errors/{match["id"]}.html"', page)
        self.assertIn('<table class="bindings">', page)
        self.assertIn("shopkit/cart.py:31</a>", page)
        self.assertEqual(self.get_ok("/search?" + urllib.parse.urlencode({"q": paste})).decode(), page)
        self.assertEqual(json.loads(self.server.request("POST", "/api/match?top=1", body=paste.encode())[2])["matches"],
                         [match])

        # A long traceback-like paste (well over httplib's 8 KiB form limit) in the form.
        long_paste = "INFO noise line\n" * 4000 + paste
        status, _, page = self.server.request(
            "POST", "/search", body=urllib.parse.urlencode({"q": long_paste}).encode(),
            headers={"Content-Type": "application/x-www-form-urlencoded"})
        self.assertEqual(status, 200)
        self.assertIn(f'href="./errors/{match["id"]}.html"', page.decode())

        # The client-side search script's probe: an empty paste is a JSON 400.
        status, headers, body = self.server.request("POST", "/api/match", body=b"")
        self.assertEqual(status, 400)
        self.assertEqual(headers["content-type"], "application/json; charset=utf-8")
        self.assertEqual(json.loads(body)["status"], 400)

    def test_hostile_repository_is_escaped_everywhere(self):
        ids = STATE["ids"][HOSTILE_REPO]
        slug = "/repos/evil/%253Cb%253Ex%253C/b%253E"
        pages = {slug: self.get_ok(slug + ".html"), "/": self.get_ok("/")}
        self.assertEqual(self.get_ok(slug), pages[slug])
        for error_id in ids:
            pages[error_id] = self.get_ok(f"/errors/{error_id}")
        paste = ('Traceback (most recent call last):\n  File "evilpkg/core.py", line 11, in render\n'
                 "evilpkg.errors.QuoteError: bad \"</textarea><script>alert(11)</script>\" in "
                 "'<img src=x onerror=alert(4)>' </textarea><b>bold</b>")
        status, _, pages["search"] = self.server.request(
            "POST", "/search", body=urllib.parse.urlencode({"q": paste}).encode(),
            headers={"Content-Type": "application/x-www-form-urlencoded"})
        self.assertEqual(status, 200)
        self.assertIn("/errors/", pages["search"].decode())
        for where, body in pages.items():
            assert_inert(self, body, where)
        text = b"".join(pages.values()).decode()
        # The content is there, as text.
        self.assertIn("&lt;script&gt;alert(&#39;message&#39;)&lt;/script&gt;", text)
        self.assertIn("&lt;script&gt;alert(&#39;class docstring&#39;)&lt;/script&gt;", text)
        self.assertIn("onmouseover=&quot;alert(1)&quot;", text)
        self.assertIn("&lt;/textarea&gt;&lt;script&gt;alert(11)&lt;/script&gt;", text)
        self.assertIn("&quot;&gt;&lt;svg onload=alert(5)&gt;.py:1", text)
        self.assertIn("evil/&lt;b&gt;x&lt;/b&gt;", text)
        # A javascript: repository URL never becomes a link (the JSON keeps the data as it is).
        self.assertNotIn("View on", text)

    def test_repository_pages_and_api(self):
        body = self.get_ok("/repos/acme/shopkit").decode()
        self.assertEqual(self.get_ok("/repos/acme/shopkit.html").decode(), body)
        self.assertIn('<h2 class="module">shopkit.cart</h2>', body)
        self.assertIn('<h3 class="type">ValueError</h3>', body)
        self.assertIn('<form class="filter" method="get" action="../../repos/acme/shopkit.html">', body)
        filtered = self.get_ok("/repos/acme/shopkit?type=ValueError&q=quantity").decode()
        self.assertIn("1 error match the filter", filtered)
        data = json.loads(self.get_ok("/api/repos/acme/shopkit/errors?type=ValueError&q=quantity&page=1",
                                      "application/json; charset=utf-8"))
        self.assertEqual(data["total"], 1)
        self.assertEqual(data["errors"][0]["path"], "shopkit/cart.py")
        self.assertEqual(data["errors"][0]["line"], 31)
        every = json.loads(self.get_ok("/api/repos/acme/shopkit/errors", "application/json; charset=utf-8"))
        self.assertEqual(every["total"], len(STATE["ids"]["acme/shopkit"]))
        repos = json.loads(self.get_ok("/api/repos", "application/json; charset=utf-8"))
        self.assertEqual([r["name"] for r in repos["repositories"]], ["acme/gizmo", "acme/shopkit", HOSTILE_REPO])
        self.assertEqual(self.get_ok("/api/repos.json", "application/json; charset=utf-8"),
                         self.get_ok("/api/repos", "application/json; charset=utf-8"))
        hostile = json.loads(self.get_ok("/api/repos/evil/%253Cb%253Ex%253C/b%253E/errors",
                                         "application/json; charset=utf-8"))
        self.assertEqual(hostile["repo"], HOSTILE_REPO)
        for path in ("/api/repos/acme/shopkit/errors?page=0", "/api/repos/acme/shopkit/errors?page=x",
                     "/repos/acme/shopkit?page=-1"):
            self.assertEqual(self.server.get(path)[0], 400, path)

    def test_openapi(self):
        doc = json.loads(self.get_ok("/api/openapi.json", "application/json; charset=utf-8"))
        self.assertTrue(doc["openapi"].startswith("3."))
        for path in ("/api/errors/{id}", "/api/match", "/api/repos", "/api/repos/{owner}/{name}/errors",
                     "/api/openapi.json", "/", "/search", "/repos/{owner}/{name}", "/errors/{id}"):
            self.assertIn(path, doc["paths"])
        index = json.loads(self.get_ok("/api/search-index.json", "application/json; charset=utf-8"))
        self.assertEqual(len(index["errors"]), sum(len(v) for v in STATE["ids"].values()))

    def test_unknown_addresses_are_404(self):
        for path in ("/errors/0000000000000000", "/errors/0000000000000000.html", "/errors/zz", "/errors/",
                     "/nope", "/repos/acme/none", "/repos/acme/shopkit/page-5.html", "/static/nope.css",
                     "/errors/../../../../etc/passwd", "/static/..%2f..%2fcatalog.db", "/%2e%2e/%2e%2e/etc/passwd",
                     "/" + os.path.basename(STATE["db"])):
            status, headers, _ = self.server.get(path)
            self.assertEqual(status, 404, path)
            self.check_headers(headers, "text/html; charset=utf-8", path)
        for path in ("/api/errors/0000000000000000", "/api/errors/nope.json", "/api/repos/acme/none/errors", "/api/x"):
            status, headers, body = self.server.get(path)
            self.assertEqual(status, 404, path)
            self.check_headers(headers, "application/json; charset=utf-8", path)
            self.assertEqual(json.loads(body)["status"], 404)

    def test_malformed_and_oversized_requests_get_4xx(self):
        cases = {
            "garbage": (b"HELLO\r\n\r\n", 400),
            "bad version": (b"GET / HTTP/9.9\r\nHost: x\r\n\r\n", 400),
            "unknown method": (b"BREW / HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            "no path": (b"GET * HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            "absolute form": (b"GET http://x/ HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            "delete": (b"DELETE /api/repos HTTP/1.1\r\nHost: x\r\n\r\n", 405),
            "put": (b"PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi", 405),
            "post elsewhere": (b"POST /errors/x HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi", 404),
            "get with body": (b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", 400),
            "bad length": (b"POST /api/match HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400),
            "no length": (b"POST /search HTTP/1.1\r\nHost: x\r\n\r\n", 411),
            "multipart": (b"POST /search HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                          b"Content-Length: 4\r\n\r\n--b-", 415),
            "many ranges": (b"GET / HTTP/1.1\r\nHost: x\r\nRange: bytes=0-1,0-1,0-1\r\n\r\n", 416),
            "long request line": (b"GET /" + b"a" * 10000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
            "huge request line": (b"GET /" + b"a" * 100000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
            "long header": (b"GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + b"b" * 20000 + b"\r\n\r\n", 400),
            "many headers": (b"GET / HTTP/1.1\r\n" + b"".join(b"X-H%d: %s\r\n" % (i, b"c" * 1000) for i in range(64))
                             + b"\r\n", 431),
            "declared body too large": (b"POST /api/match HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n", 413),
            "chunked body too large": (b"POST /api/match HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                                       + (b"10000\r\n" + b"d" * 0x10000 + b"\r\n") * 20 + b"0\r\n\r\n", 413),
            "form too large": (b"POST /search HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                               b"Content-Length: 1048577\r\n\r\n", 413),
        }
        for name, (data, expected) in cases.items():
            with self.subTest(name):
                self.assertEqual(self.server.raw(data), expected, name)
        # Still alive and serving.
        self.assertEqual(self.server.get("/")[0], 200)
        self.assertIsNone(self.server.proc.poll())

    def test_head_and_keep_alive(self):
        status, headers, body = self.server.request("HEAD", "/")
        self.assertEqual(status, 200)
        self.assertEqual(body, b"")
        self.check_headers(headers, "text/html; charset=utf-8", "HEAD /")
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
        for _ in range(20):
            conn.request("GET", "/api/repos")
            resp = conn.getresponse()
            self.assertEqual(resp.status, 200)
            resp.read()
        conn.close()

    def test_access_log(self):
        self.server.get("/api/repos?from=access-log-test")
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and "/api/repos?from=access-log-test" not in self.server.stderr():
            time.sleep(0.05)
        self.assertRegex(self.server.stderr(), r'127\.0\.0\.1 - \[[0-9TZ:-]+\] "GET /api/repos\?from=access-log-test '
                                                r'HTTP/1\.1" 200 \d+ [0-9.]+ms')

    def test_export_equals_served_bytes(self):
        out = os.path.join(STATE["tmp"], "site")
        proc = run("export", "--out", out, "--db", STATE["db"])
        self.assertIn("exported", proc.stdout)
        files = []
        for folder, _, names in os.walk(out):
            for name in names:
                files.append(os.path.relpath(os.path.join(folder, name), out).replace(os.sep, "/"))
        expected = {"index.html", "static/errdex.css", "static/errdex.js", "api/openapi.json", "api/repos.json",
                    "api/search-index.json", "repos/acme/shopkit.html", "repos/evil/%3Cb%3Ex%3C/b%3E.html"}
        for ids in STATE["ids"].values():
            for error_id in ids:
                expected |= {f"errors/{error_id}.html", f"api/errors/{error_id}.json"}
        self.assertTrue(expected <= set(files), expected - set(files))
        for rel in files:
            path = "/" + urllib.parse.quote(rel)
            status, _, served = self.server.get(path)
            self.assertEqual(status, 200, path)
            with open(os.path.join(out, rel), "rb") as f:
                self.assertEqual(f.read(), served, rel)
        with open(os.path.join(out, "index.html"), "rb") as f:
            self.assertEqual(f.read(), self.server.get("/")[2])
        # Every relative link of every exported page leads to an exported file.
        for rel in files:
            if not rel.endswith(".html"):
                continue
            with open(os.path.join(out, rel), encoding="utf-8") as f:
                parser = TagCollector()
                parser.feed(f.read())
            for tag, attrs in parser.tags:
                for name, value in attrs:
                    if name not in ("href", "src") or not value or re.match(r"https?://", value):
                        continue
                    target = posixpath.normpath(posixpath.join(posixpath.dirname(rel),
                                                               urllib.parse.unquote(value.split("?")[0])))
                    self.assertTrue(os.path.isfile(os.path.join(out, target)), f"{rel}: {value} -> {target}")


class CatalogChangeTest(unittest.TestCase):
    def test_an_index_run_while_serving_is_seen(self):
        db = os.path.join(STATE["tmp"], "changing.db")
        run("index", os.path.join(FIXTURES, "shopkit"), "--name", "acme/first", "--db", db, "-q")
        server = Server(db=db)
        try:
            self.assertEqual([r["name"] for r in json.loads(server.get("/api/repos")[2])["repositories"]],
                             ["acme/first"])
            before = server.get("/")[2]
            paste = b"RuntimeError: the second repository says hello"
            self.assertEqual(json.loads(server.request("POST", "/api/match", body=paste)[2])["matches"], [])
            second = os.path.join(STATE["tmp"], "second")
            os.makedirs(second)
            with open(os.path.join(second, "mod.py"), "w") as f:
                f.write('raise RuntimeError("the second repository says hello")\n')
            run("index", second, "--name", "acme/second", "--db", db, "-q")
            deadline = time.monotonic() + 5
            names = []
            while time.monotonic() < deadline and names != ["acme/first", "acme/second"]:
                time.sleep(0.1)
                names = [r["name"] for r in json.loads(server.get("/api/repos")[2])["repositories"]]
            self.assertEqual(names, ["acme/first", "acme/second"])
            self.assertNotEqual(server.get("/")[2], before)  # the cached home page was dropped
            matches = json.loads(server.request("POST", "/api/match", body=paste)[2])["matches"]
            self.assertEqual([m["site"]["repo"] for m in matches], ["acme/second"])  # the matcher was reloaded
            self.assertIn("the catalog changed", server.stderr())
        finally:
            self.assertEqual(server.stop(), 0)


class ShutdownTest(unittest.TestCase):
    def test_sigterm_stops_gracefully_within_5_seconds(self):
        server = Server()
        self.assertEqual(server.get("/")[0], 200)
        idle = socket.create_connection(("127.0.0.1", server.port))  # an idle keep-alive client
        idle.sendall(b"GET /api/repos HTTP/1.1\r\nHost: x\r\n\r\n")
        idle.recv(65536)
        start = time.monotonic()
        code = server.stop(signal.SIGTERM, timeout=5)
        self.assertEqual(code, 0)
        self.assertLess(time.monotonic() - start, 5)
        idle.close()
        log = server.stderr()
        self.assertIn("SIGTERM, stopping", log)
        self.assertIn("errdex serve: stopped", log)

    def test_sigint_too(self):
        server = Server("--no-access-log")
        self.assertEqual(server.get("/api/repos")[0], 200)
        self.assertEqual(server.stop(signal.SIGINT, timeout=5), 0)
        self.assertNotIn('"GET /api/repos', server.stderr())

    def test_bad_usage(self):
        proc = run("serve", "--db", STATE["db"], "--listen", "nowhere", check=False)
        self.assertEqual(proc.returncode, 2)
        proc = run("serve", "--db", os.path.join(STATE["tmp"], "missing.db"), "--listen", "127.0.0.1:0", check=False,
                   timeout=20)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("errdex:", proc.stderr)


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
