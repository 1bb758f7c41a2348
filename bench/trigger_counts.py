#!/usr/bin/env python3
"""Catalog-wide counts of the triggers (docs/analysis-quality.md, issue 14), not run by CI.

Indexes SOURCE (a directory or git repository; bare mirrors work, REV defaults to HEAD) into a fresh catalog
with each binary, under `nice`, one after another, and prints for each: the errors analysed (a site outside
tests), those without any call path, those without any linked test, the error-test links, the edges of
related errors by shared entry point, and the index time with and without the analysis (median wall and CPU
of RUNS runs each, the same binary alternating both).

  bench/trigger_counts.py SOURCE[@REV] --build NAME=BINARY [--build NAME=BINARY ...] [--runs 3] [--jobs 2]
"""
import argparse
import json
import os
import resource
import sqlite3
import statistics
import subprocess
import tempfile
import time


def index(binary, source, rev, db, jobs, extra):
    cmd = ["nice", binary, "index", source, "--db", db, "--jobs", str(jobs), "-q", "--no-history"] + extra
    if rev:
        cmd += ["--rev", rev]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def counts(db):
    con = sqlite3.connect(db)
    rows = con.execute("SELECT error_id, analysis FROM error_analysis").fetchall()
    tested = {r[0] for r in con.execute("SELECT DISTINCT error_id FROM error_tests")}
    links = con.execute("SELECT count(*) FROM error_tests").fetchone()[0]
    entries = con.execute("SELECT count(*) FROM error_entry_points").fetchone()[0]
    no_path = sum(1 for _, a in rows if not json.loads(a).get("call_paths"))
    analysed = {r[0] for r in rows}
    return {
        "errors analysed": len(rows),
        "without call path": no_path,
        "without linked test": len(analysed - tested),
        "error-test links": links,
        "entry-point rows": entries,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source")
    parser.add_argument("--build", action="append", required=True, help="NAME=BINARY")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    source, _, rev = args.source.partition("@")
    if not rev and not os.path.isdir(os.path.join(source, ".git")) and os.path.isdir(os.path.join(source, "objects")):
        rev = "HEAD"
    for spec in args.build:
        name, _, binary = spec.partition("=")
        times = {"full": [], "no-analysis": []}
        with tempfile.TemporaryDirectory(prefix="errdex-trigger-counts-") as tmp:
            result = None
            for run in range(args.runs):
                for mode, extra in (("no-analysis", ["--no-analysis"]), ("full", [])):
                    db = os.path.join(tmp, f"{mode}-{run}.db")
                    times[mode].append(index(binary, source, rev, db, args.jobs, extra))
                    if mode == "full" and result is None:
                        result = counts(db)
                    os.remove(db)
        med = {m: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t)) for m, t in times.items()}
        print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in result.items()))
        print(f"{name}: index without analysis {med['no-analysis'][0]:.2f} s wall / {med['no-analysis'][1]:.2f} s CPU, "
              f"with {med['full'][0]:.2f} s / {med['full'][1]:.2f} s: "
              f"{med['full'][0] / med['no-analysis'][0]:.2f}x wall, {med['full'][1] / med['no-analysis'][1]:.2f}x CPU "
              f"(median of {args.runs})")


if __name__ == "__main__":
    main()
