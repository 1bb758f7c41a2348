#!/usr/bin/env python3
"""Call graph speed: `errdex callgraph` of one source, for one or more builds, medians of N runs.

Usage: bench/callgraph_speed.py SOURCE [--rev REV] --build NAME=PATH [--build NAME=PATH ...] [--runs 3]

A build may carry options of the command after its path: --build "one-run=build/errdex --max-runs 1".

For each build (a baseline and a candidate, run alternately in the same session) it reports the median of
the process's user+system CPU time (robust on a shared machine, where wall time mostly measures the load),
the median wall time, the resolver's own wall time (`--timing`), and the statement evaluations and edges,
which must not depend on the run.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time


def run_once(binary, extra, source, rev):
    cmd = [binary, "callgraph", source, "--format", "jsonl", "--timing"] + extra
    if rev:
        cmd += ["--rev", rev]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    fields = dict(re.findall(r"(\w+) ([0-9.]+)", proc.stderr.strip().splitlines()[-1]))
    return cpu, wall, fields


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("--rev", default="")
    parser.add_argument("--build", action="append", required=True, help="NAME=PATH of an errdex binary")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    builds = [b.split("=", 1) for b in args.build]
    builds = [(name, spec.split()) for name, spec in builds]
    results = {name: [] for name, _ in builds}
    for _ in range(args.runs):
        for name, path in builds:  # alternately, so that the load falls on each build alike
            results[name].append(run_once(os.path.abspath(path[0]), path[1:], args.source, args.rev))
    print("| build | CPU s (median) | wall s (median) | resolve wall s (median) | resolve CPU s (median) | evaluations "
          "| edges |")
    print("|---|---|---|---|---|---|---|")
    medians = {}
    for name, _ in builds:
        runs = results[name]
        cpu = statistics.median(r[0] for r in runs)
        wall = statistics.median(r[1] for r in runs)
        resolve = statistics.median(float(r[2].get("resolve_ms", 0)) for r in runs) / 1000
        resolve_cpu = statistics.median(float(r[2].get("resolve_cpu_ms", "nan")) for r in runs) / 1000
        medians[name] = cpu
        last = runs[-1][2]
        print(f"| {name} | {cpu:.2f} | {wall:.2f} | {resolve:.2f} | {resolve_cpu:.2f} | {last.get('evaluations')} "
              f"| {last.get('edges')} |")
    if len(builds) > 1:
        base = builds[0][0]
        for name, _ in builds[1:]:
            print(f"CPU ratio {base}/{name}: {medians[base] / medians[name]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
