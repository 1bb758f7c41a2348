#!/usr/bin/env python3
"""Indexing speed: errdex against the reference ast extractor (bench/reference_extract.py), same machine,
same run, both with the same number of workers, reading the same git revision. Also the cost of indexing
a second revision into a catalog that holds a first one.

  bench/bench_index.py --errdex build/errdex --git DIR.git --rev REV [--base-rev REV2] [--jobs 2] [--runs 5]
  bench/bench_index.py --errdex build/errdex --dir DIR [--jobs 2] [--runs 5]
  --baseline-errdex OLD/errdex adds a second binary to the interleaved runs (before/after a change).
  --errdex-flags '--no-analysis --no-history' compares extraction like for like (the reference has no analysis).

Prints medians of RUNS runs (wall-clock seconds) and the ratios, as a Markdown table row set, and the
medians of the CPU time (user + system of the command and the processes it waited for: the reference's
workers and git cat-file), which a machine shared with other work disturbs less than the wall clock."""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


CPU_SECONDS = {}  # command name -> CPU seconds (user + system, with its waited-for children) of each run


def timed(cmd, setup=None):
    if setup:
        setup()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    CPU_SECONDS.setdefault(" ".join(cmd[:2]), []).append(cpu)
    return wall


def cpu_median(cmd):
    return statistics.median(CPU_SECONDS[" ".join(cmd[:2])][1:])  # the first, untimed warm-up run left out


def median_of(runs, cmd, setup=None):
    return statistics.median(timed(cmd, setup) for _ in range(runs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--errdex", required=True)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--git")
    src.add_argument("--dir")
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--base-rev", help="a first revision for the incremental measurement")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--baseline-errdex", help="a second errdex binary (e.g. before a change), run interleaved too")
    ap.add_argument("--errdex-flags", default="",
                    help="extra flags for `errdex index`, e.g. '--no-analysis --no-history' (extraction like for like)")
    args = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="errdex-bench-")
    db = os.path.join(tmp, "bench.db")

    def fresh():
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)

    if args.git:
        errdex_cmd = [args.errdex, "index", args.git, "--rev", args.rev, "--db", db, "-q", "--jobs", str(args.jobs)]
        errdex_cmd += args.errdex_flags.split()
        ref_cmd = [sys.executable, os.path.join(HERE, "reference_extract.py"), "--git", args.git, "--rev", args.rev,
                   "--jobs", str(args.jobs), "--out", os.devnull]
        name = f"{os.path.basename(os.path.dirname(args.git.rstrip('/')))} @ {args.rev}"
    else:
        errdex_cmd = [args.errdex, "index", args.dir, "--db", db, "-q", "--jobs", str(args.jobs), "--name", "bench/dir"]
        errdex_cmd += args.errdex_flags.split()
        ref_cmd = [sys.executable, os.path.join(HERE, "reference_extract.py"), args.dir, "--jobs", str(args.jobs),
                   "--out", os.devnull]
        name = args.dir

    baseline_cmd = [args.baseline_errdex] + errdex_cmd[1:] if args.baseline_errdex else None
    # Warm the page cache and the object store once, untimed.
    timed(errdex_cmd, fresh)
    timed(ref_cmd)
    # Interleave them so that all see the same machine state.
    errdex_times, ref_times, baseline_times = [], [], []
    for _ in range(args.runs):
        errdex_times.append(timed(errdex_cmd, fresh))
        ref_times.append(timed(ref_cmd))
        if baseline_cmd:
            baseline_times.append(timed(baseline_cmd, fresh))
    e, r = statistics.median(errdex_times), statistics.median(ref_times)
    rc, ec = cpu_median(ref_cmd), cpu_median(errdex_cmd)
    print(f"| {name} | jobs {args.jobs} | reference {r:.3f} s | errdex {e:.3f} s | speed-up {r / e:.2f}x "
          f"| CPU: reference {rc:.2f} s, errdex {ec:.2f} s, {rc / ec:.2f}x |")
    if baseline_cmd:
        b, bc = statistics.median(baseline_times), statistics.median(CPU_SECONDS[" ".join(baseline_cmd[:2])])
        print(f"| {name} | jobs {args.jobs} | reference {r:.3f} s | baseline errdex {b:.3f} s | speed-up {r / b:.2f}x "
              f"| CPU: reference {rc:.2f} s, baseline {bc:.2f} s, {rc / bc:.2f}x |")

    if args.git and args.base_rev:
        changed = subprocess.run(["git", "-C", args.git, "diff", "--name-only", args.base_rev, args.rev, "--", "*.py"],
                                 check=True, capture_output=True, text=True).stdout.split()
        total = subprocess.run(["git", "-C", args.git, "ls-tree", "-r", "--name-only", args.rev],
                               check=True, capture_output=True, text=True).stdout.split()
        total_py = sum(1 for p in total if p.endswith(".py"))
        base_cmd = errdex_cmd[:]
        base_cmd[base_cmd.index("--rev") + 1] = args.base_rev
        # Each run pairs a cold index of REV with an index of REV into a catalog holding BASE, back to
        # back, so that both see the same machine state; the share is the median of the pairs' ratios.
        first, second, shares = [], [], []
        for _ in range(args.runs):
            cold = timed(errdex_cmd, fresh)
            fresh()
            subprocess.run(base_cmd, check=True, stdout=subprocess.DEVNULL)
            warm = timed(errdex_cmd)
            first.append(cold)
            second.append(warm)
            shares.append(warm / cold)
        f, s2 = statistics.median(first), statistics.median(second)
        print(f"| {name} after {args.base_rev} ({len(changed)} of {total_py} .py files changed, "
              f"{100.0 * len(changed) / max(1, total_py):.1f}%) | jobs {args.jobs} | first index {f:.3f} s | "
              f"second revision {s2:.3f} s | {100.0 * statistics.median(shares):.1f}% of the first "
              f"(median of {args.runs} paired runs) |")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
