#!/usr/bin/env python3
"""Cost of indexing a repository's releases (issue 12): a cold index of REV alone against a cold index of
REV plus its N newest releases (`errdex index --rev REV --releases N`), in the same run, each into a fresh
catalog, under /usr/bin/time -v: wall time, peak memory (max RSS), catalog size, and their ratios.

  bench/releases_cost.py --repo /work/.mirror/pytest-dev+pytest/repo --name pytest-dev/pytest \\
      [--rev HEAD] [--releases 30] [--errdex build/errdex] [--out bench/out/releases] [--runs 3]

With --runs N, the two indexes alternate N times and each figure is the median of its N runs (the machine is
shared: alternating spreads the noise over both).

Keeps both catalogs (OUT/head.db, OUT/releases.db) for the lineage and explain measurements.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys


def timed(cmd):
    proc = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stdout}\n{proc.stderr}")
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", proc.stderr)
    hours = int(wall.group(1) or 0)
    seconds = hours * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
    cpu = sum(float(re.search(rf"{kind} time \(seconds\): ([\d.]+)", proc.stderr).group(1)) for kind in ("User", "System"))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr).group(1))
    return seconds, cpu, rss, proc.stdout


def catalog_size(path):
    subprocess.run(["sqlite3", path, "PRAGMA wal_checkpoint(TRUNCATE);"], check=True, capture_output=True)
    return sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--releases", type=int, default=30)
    ap.add_argument("--errdex", default="build/errdex")
    ap.add_argument("--out", default="bench/out/releases")
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    runs = {"head": [], "releases": []}
    for _ in range(args.runs):
        for key, extra in (("head", []), ("releases", ["--releases", str(args.releases)])):
            db = os.path.join(args.out, f"{key}.db")
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(db + suffix):
                    os.remove(db + suffix)
            seconds, cpu, rss, stdout = timed([args.errdex, "index", args.repo, "--rev", args.rev, "--name", args.name,
                                               "--db", db] + extra)
            one = {"seconds": seconds, "cpu_seconds": cpu, "max_rss_mb": rss / 1024, "catalog_mb": catalog_size(db) / 1e6,
                   "revisions": max(1, sum(1 for line in stdout.splitlines() if line.startswith("[") and "/" in line[:8]))}
            runs[key].append(one)
            print(f"{key:9} {seconds:8.2f} s wall {cpu:8.2f} s cpu  {one['max_rss_mb']:8.0f} MB peak  "
                  f"{one['catalog_mb']:8.2f} MB catalog", flush=True)
    result = {key: {field: statistics.median(run[field] for run in runs[key]) for field in runs[key][0]} for key in runs}
    h, r = result["head"], result["releases"]
    result["ratios"] = {"time": r["seconds"] / h["seconds"], "cpu": r["cpu_seconds"] / h["cpu_seconds"], "catalog": r["catalog_mb"] / h["catalog_mb"],
                        "memory": r["max_rss_mb"] / h["max_rss_mb"]}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
