#!/usr/bin/env python3
"""Writes the seed corpus of archive_fuzzer (fuzz/corpus/archive_fuzzer/, fuzz/README.md "Seed corpora"):
one selector byte (0: zip, 1: .tar.gz) and a tiny archive each: a valid wheel and sdist, and every
hostile archive of tests/e2e/hostile_archives.py that fits in a few hundred bytes (the bombs are left out:
the fuzzer's limits are smaller and its inputs at most 8 KiB).

    python3 fuzz/make_archive_seeds.py"""
import os
import shutil
import sys
import tempfile
import zipfile
import tarfile
import io

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
import hostile_archives  # noqa: E402

OUT = os.path.join(ROOT, "fuzz", "corpus", "archive_fuzzer")


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    with tempfile.TemporaryDirectory() as tmp:
        wheel = os.path.join(tmp, "good-1.0-py3-none-any.whl")
        with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("good/__init__.py", "def f(x):\n    raise ValueError(f'bad {x}')\n")
            z.writestr("good-1.0.data/purelib/extra.py", "assert True\n")
            z.writestr("good-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: good\nVersion: 1.0\n")
            z.writestr("good-1.0.dist-info/RECORD", "good/__init__.py,,\n")
        sdist = os.path.join(tmp, "good-1.0.tar.gz")
        with tarfile.open(sdist, "w:gz", format=tarfile.PAX_FORMAT) as t:
            for name, body in [("good-1.0/PKG-INFO", b"Metadata-Version: 2.1\nName: good\nVersion: 1.0\n"),
                               ("good-1.0/src/good/__init__.py", b"raise KeyError('k')\n"),
                               ("good-1.0/README.md", b"# good\n")]:
                info = tarfile.TarInfo(name)
                info.size = len(body)
                t.addfile(info, io.BytesIO(body))
        cases = [(os.path.basename(wheel), ""), (os.path.basename(sdist), "")]
        cases += hostile_archives.write_all(tmp, big=False)
        for name, _ in cases:
            with open(os.path.join(tmp, name), "rb") as f:
                data = f.read()
            selector = b"\x01" if name.endswith(".tar.gz") else b"\x00"
            with open(os.path.join(OUT, name.replace(".", "_")), "wb") as f:
                f.write(selector + data)
    print(f"wrote {len(cases)} seeds to {OUT}")


if __name__ == "__main__":
    main()
