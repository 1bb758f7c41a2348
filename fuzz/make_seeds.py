#!/usr/bin/env python3
"""Writes the seed corpora kept in the repository (fuzz/corpus/<fuzzer>/, fuzz/README.md "Seed corpora")
from the fixture repositories and the pastes below; run it again when the extractor or the fixtures change.

    python3 fuzz/make_seeds.py build/errdex

extract_fuzzer: hand-written Python files that exercise what the fixtures do not (scripts/safety-nets.sh adds
the fixture files themselves at run time). template_fuzzer: one selector byte and a template that
`errdex extract` prints for a fixture file, plus string bodies with every escape under each of the 16
selectors. match_fuzzer: TEMPLATE NUL PASTE, a fixture's template with realistic pastes (tracebacks,
pytest output, log lines, chained exceptions, ANSI colours)."""
import glob
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")

EXTRACT_SEEDS = {
    "syntax_mix.py": '''import os, sys as system
from .errors import CartError, OutOfStockError as OOS
from typing import *

MAX = 10
MESSAGE = "too many items: %d" % MAX


@decorator(arg=1)
class Box(Base, metaclass=Meta):
    """A box."""
    limit: int = 3

    def __init__(self, items=None, *, strict=False):
        if items is None and strict:
            raise ValueError("items must be given when strict is set")
        self._items = list(items or [])

    @property
    def size(self):
        return len(self._items)

    async def fetch(self, key):
        async with self.lock:
            try:
                return await self.store[key]
            except KeyError as e:
                raise LookupError(f"no item {key!r} in {self.name}") from e

    def check(self, value):
        match value:
            case {"kind": kind, **rest} if kind not in KINDS:
                raise TypeError("unknown kind {}".format(kind))
            case [first, *_]:
                assert first, "first item is empty"
            case _:
                raise NotImplementedError
        if not (0 < value <= self.limit):
            raise OOS(MESSAGE, sku=value)
        raise
''',
    "broken.py": '''def f(x:
    raise ValueError("unterminated {x}"
class  :
    pass
raise RuntimeError(f"{x!r:>{width}} and {{literal}} " 'implicit' "concat")
lambda: (yield)
''',
    "strings.py": r'''raise ValueError(b"bytes \x00\xff")
raise ValueError(r"raw \d+ {not a field}")
raise ValueError(rf"raw f {x} \n")
raise ValueError("""triple
quoted {0} message""".format(a))
raise ValueError("%s failed: %r (%d%%)" % (name, err, pct))
raise ValueError("caf\u00e9 \N{BULLET} \U0001F600 " + str(x))
raise KeyError({"a": 1}, "{", "}")
''',
}

PASTES = [
    'Traceback (most recent call last):\n  File "app.py", line 3, in <module>\n    main()\n'
    '  File "/srv/shop/shopkit/cart.py", line 31, in add\n    raise ValueError(f"quantity must be positive, got {quantity!r}")\n'
    'ValueError: quantity must be positive, got -3\n',
    'Traceback (most recent call last):\n  File "x.py", line 1, in f\n    g()\nKeyError: \'sku-1\'\n\n'
    'During handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n'
    '  File "x.py", line 9, in h\nshopkit.errors.CartError: unknown item sku-1 in cart\n',
    'FAILED tests/test_cart.py::test_add - shopkit.errors.OutOfStockError: only 2 left of sku-9\n'
    'E       shopkit.errors.OutOfStockError: only 2 left of sku-9\n',
    '2026-11-30 12:00:01,234 ERROR [worker-3] payment failed: GatewayError: card declined (code 51)\n',
    '\x1b[0;31mTypeError\x1b[0m                                 Traceback (most recent call last)\n'
    'Cell \x1b[0;32mIn[2], line 1\x1b[0m\n\x1b[0;31mTypeError\x1b[0m: stock must be a dict, not list\n',
    'ValueError: quantity must be positive, got 0',
    'raise CartError(LIMIT_MESSAGE)\nshopkit.errors.CartError: the cart holds at most 50 items\n',
    '  + Exception Group Traceback (most recent call last):\n  | ExceptionGroup: 2 errors (2 sub-exceptions)\n'
    '  +-+---------------- 1 ----------------\n    | ValueError: bad value {x}\n',
]

STRING_BODY = rb"\x41\u00e9\U0001F600\N{BULLET}\777\0\r\n\\ {{x}}"


def write(fuzzer, name, data):
    path = os.path.join(CORPUS, fuzzer, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def fixture_templates(errdex):
    files = sorted(p for p in glob.glob(os.path.join(ROOT, "tests", "fixtures", "**", "*.py"), recursive=True)
                   if "hostile" not in os.path.relpath(p, ROOT).split(os.sep)[2])
    out = subprocess.run([errdex, "extract", *files], capture_output=True, text=True, check=True).stdout
    templates = set()
    for line in out.splitlines():
        if line.strip():
            for site in json.loads(line).get("sites", []):
                if site.get("template"):
                    templates.add(site["template"])
    return sorted(templates)


def main():
    errdex = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "errdex")
    for fuzzer in ("extract_fuzzer", "template_fuzzer", "match_fuzzer"):
        for old in glob.glob(os.path.join(CORPUS, fuzzer, "*")):
            os.remove(old)
    for name, text in EXTRACT_SEEDS.items():
        write("extract_fuzzer", name, text.encode())
    write("extract_fuzzer", "latin1_bytes.py", b"# -*- coding: latin-1 -*-\nraise ValueError('caf\xe9')\n")
    templates = fixture_templates(errdex)
    for i, t in enumerate(templates):
        write("template_fuzzer", f"t{i:03d}", bytes([i % 256]) + t.encode())
    for sel in range(16):
        write("template_fuzzer", f"b{sel:02d}", bytes([sel]) + STRING_BODY)
    for i, paste in enumerate(PASTES):
        t = templates[(i * 7) % len(templates)]
        write("match_fuzzer", f"p{i:02d}", t.encode() + b"\0" + paste.encode())
    # Each template against a paste that renders it, so that alignment starts from real matches.
    for t in templates:
        rendered = t.replace("{}", "x1")
        digest = hashlib.sha1(t.encode()).hexdigest()[:10]
        write("match_fuzzer", f"r{digest}", t.encode() + b"\0ValueError: " + rendered.encode() + b"\n")
    print(f"make_seeds: {len(templates)} templates, {len(PASTES)} pastes", file=sys.stderr)


if __name__ == "__main__":
    main()
