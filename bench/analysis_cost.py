#!/usr/bin/env python3
"""What the analysis costs at index time (docs/analysis.md, "Cost"), not run by CI.

Indexes each SOURCE from scratch (a fresh catalog per run) with several configurations of the same binary,
alternating them run by run so that drift of the machine hits all alike, and prints the median wall time
of each and its ratio to the first:

  no-analysis   errdex index --no-analysis   (extraction, types, matcher; path conditions are extraction)
  no-history    errdex index --no-history    (the analysis without the git history walk)
  full          errdex index                 (everything)
  baseline      --baseline BIN: another binary, e.g. one built from the commit before the analysis

  bench/analysis_cost.py [--errdex build/errdex] [--runs 5] [--jobs 2] [--baseline BIN] SOURCE[@REV] ...

A SOURCE is a directory or a git repository (bare mirrors from `fetch` work: REV defaults to HEAD).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def index_once(binary, source, rev, extra, jobs):
    with tempfile.TemporaryDirectory(prefix="errdex-analysis-cost-") as tmp:
        db = os.path.join(tmp, "c.db")
        cmd = [binary, "index", source, "--db", db, "--jobs", str(jobs), "-q"] + extra
        if rev:
            cmd += ["--rev", rev]
        started = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--errdex", default="build/errdex")
    parser.add_argument("--baseline", help="another errdex binary, indexed with its defaults")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("sources", nargs="+")
    args = parser.parse_args()
    binary = os.path.abspath(args.errdex)
    configs = [("no-analysis", binary, ["--no-analysis"]), ("no-history", binary, ["--no-history"]),
               ("full", binary, [])]
    if args.baseline:
        configs.insert(0, ("baseline", os.path.abspath(args.baseline), []))
    print(f"# {args.runs} runs each, --jobs {args.jobs}, medians in seconds; ratio to {configs[0][0]}")
    for spec in args.sources:
        source, _, rev = spec.partition("@")
        if not rev and (source.endswith(".git") or os.path.isdir(os.path.join(source, "objects"))):
            rev = "HEAD"
        times = {name: [] for name, _, _ in configs}
        for _ in range(args.runs):
            for name, b, extra in configs:
                times[name].append(index_once(b, source, rev, extra, args.jobs))
        base = statistics.median(times[configs[0][0]])
        cells = []
        for name, _, _ in configs:
            m = statistics.median(times[name])
            cells.append(f"{name} {m:.2f} s ({m / base:.2f}x)")
        print(f"{spec}: " + " | ".join(cells))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
