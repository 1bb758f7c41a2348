#!/usr/bin/env python3
"""Index time and peak memory of a wheel against the same files as a directory (docs/benchmarks.md,
"Wheels"). For each installed package named (default: Debian's requests and pip, from
/usr/lib/python3/dist-packages), a wheel is written here from its installed *.py files and metadata
(zipfile, deflate; __pycache__ left out), and the same files are copied into a directory; then, RUNS
times each in alternation, `errdex index WHEEL` and `errdex index DIR` into a fresh catalog under
`/usr/bin/time -v` (wall time, peak RSS), and once more into the same catalog (the no-op second run).
Prints medians and the wheel/directory ratio. No network: nothing is downloaded.

    python3 bench/archive_index.py --errdex build/errdex [--runs 5] [--package requests --package pip]"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import zipfile

SITE = "/usr/lib/python3/dist-packages"


def package_files(package):
    """Relative paths of PACKAGE's files below SITE (without __pycache__)."""
    out = []
    for base, dirs, names in os.walk(os.path.join(SITE, package)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        out += [os.path.relpath(os.path.join(base, n), SITE) for n in sorted(names)]
    return out


def version_of(package):
    for name in os.listdir(SITE):
        m = re.match(re.escape(package) + r"-([^-]+)\.(?:dist|egg)-info$", name, re.I)
        if m:
            return m.group(1)
    return "0"


def build(package, out):
    version = version_of(package)
    files = package_files(package)
    wheel = os.path.join(out, f"{package}-{version}-py3-none-any.whl")
    directory = os.path.join(out, f"{package}-dir")
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for rel in files:
            z.write(os.path.join(SITE, rel), rel)
            dest = os.path.join(directory, rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(os.path.join(SITE, rel), dest)
        info = f"{package}-{version}.dist-info"
        z.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {package}\nVersion: {version}\n")
        z.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
    py = [f for f in files if f.endswith(".py")]
    size = sum(os.path.getsize(os.path.join(SITE, f)) for f in py)
    return wheel, directory, len(py), size


def timed(errdex, source, db):
    """(seconds, peak RSS in MB) of one `errdex index SOURCE --db DB`."""
    proc = subprocess.run(["/usr/bin/time", "-v", errdex, "index", source, "--db", db, "--quiet"],
                          capture_output=True, text=True, check=True)
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", proc.stderr)
    seconds = int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr).group(1)) / 1024
    return seconds, rss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--errdex", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--package", action="append")
    args = parser.parse_args()
    errdex = os.path.abspath(args.errdex)
    packages = args.package or ["requests", "pip"]
    tmp = tempfile.mkdtemp(prefix="errdex-archive-bench-")
    try:
        print("| package | .py files | MB of .py | wheel MB | wheel: time / peak RSS | directory: time / peak RSS |"
              " time ratio | second run: wheel / directory |")
        print("|---|---|---|---|---|---|---|---|")
        for package in packages:
            wheel, directory, count, size = build(package, tmp)
            results = {"wheel": [], "dir": []}
            for i in range(args.runs):
                for kind, source in (("wheel", wheel), ("dir", directory)):
                    db = os.path.join(tmp, f"{package}-{kind}-{i}.db")
                    results[kind].append(timed(errdex, source, db))
            again = {kind: timed(errdex, source, os.path.join(tmp, f"{package}-{kind}-0.db"))[0]
                     for kind, source in (("wheel", wheel), ("dir", directory))}
            med = {k: (statistics.median(t for t, _ in v), statistics.median(r for _, r in v))
                   for k, v in results.items()}
            print(f"| {package} | {count} | {size / 1e6:.2f} | {os.path.getsize(wheel) / 1e6:.2f} | "
                  f"{med['wheel'][0]:.3f} s / {med['wheel'][1]:.0f} MB | {med['dir'][0]:.3f} s / {med['dir'][1]:.0f} MB"
                  f" | {med['wheel'][0] / med['dir'][0]:.2f} | {again['wheel']:.3f} s / {again['dir']:.3f} s |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
