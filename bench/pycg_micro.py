#!/usr/bin/env python3
"""Runs `errdex callgraph` on every program of PyCG's micro-benchmark and counts complete and sound graphs.

PyCG's micro-benchmark (github.com/vitsalis/PyCG, micro-benchmark/snippets/CATEGORY/NAME/ with main.py and
the expected callgraph.json) is read from a local clone or bare mirror at run time and never copied into this
repository. A graph is *complete* when it has every expected edge (no edge missing) and *sound* when it has
no edge the expected graph lacks (no extra edge), as in docs/benchmarks.md. Edges whose caller is absent from
the expected graph count as extra too; nodes without edges are ignored.

With --trace each program is also run with python3 under a tracer (bench/pycg_trace.py) and the edges Python
executes are compared with the expected graph and with errdex's: expected edges that never run, executed
edges the expectation lacks, and errdex complete and sound against what runs. One run sees one execution:
executed edges are a lower bound of what a program can do.

Usage: bench/pycg_micro.py --pycg /path/to/PyCG[.git] [--errdex build/errdex] [--verbose] [--trace]
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tarfile
import tempfile

import pycg_trace


def edges_of(graph):
    return {(caller, callee) for caller, callees in graph.items() for callee in callees}


def extract_snippets(pycg, tmp):
    """Extracts micro-benchmark/ of the PyCG repository (work tree or bare git dir) into tmp; returns
    [(CATEGORY/NAME, directory, expected edges)] of the programs with a main.py and a callgraph.json."""
    git_dir = pycg if os.path.exists(os.path.join(pycg, "HEAD")) else os.path.join(pycg, ".git")
    archive = subprocess.run(["git", "--git-dir", git_dir, "archive", "HEAD", "micro-benchmark"],
                             check=True, capture_output=True).stdout
    archive_path = os.path.join(tmp, "micro.tar")
    with open(archive_path, "wb") as f:
        f.write(archive)
    with tarfile.open(archive_path) as tar:
        tar.extractall(tmp, filter="data")
    root = os.path.join(tmp, "micro-benchmark", "snippets")
    programs = []
    for category in sorted(os.listdir(root)):
        for name in sorted(os.listdir(os.path.join(root, category))):
            snippet = os.path.join(root, category, name)
            expected_path = os.path.join(snippet, "callgraph.json")
            if os.path.exists(os.path.join(snippet, "main.py")) and os.path.exists(expected_path):
                with open(expected_path) as f:
                    programs.append((category + "/" + name, snippet, edges_of(json.load(f))))
    return programs


def errdex_edges(binary, snippet):
    run = subprocess.run([binary, "callgraph", snippet, "--format", "pycg"], capture_output=True, text=True)
    return edges_of(json.loads(run.stdout)) if run.returncode == 0 else set()


def print_table(results):
    per_category = collections.OrderedDict()
    for program, expected, actual in results:
        counts = per_category.setdefault(program.split("/")[0], [0, 0, 0])
        counts[0] += 1
        counts[1] += not expected - actual
        counts[2] += not actual - expected
    total = [sum(c[i] for c in per_category.values()) for i in range(3)]
    print(f"{'category':<14} {'programs':>8} {'complete':>8} {'sound':>8}")
    for category, (n, complete, sound) in per_category.items():
        print(f"{category:<14} {n:>8} {complete:>8} {sound:>8}")
    print(f"{'total':<14} {total[0]:>8} {total[1]:>8} {total[2]:>8}")
    print(f"complete {total[1]}/{total[0]} ({100.0 * total[1] / total[0]:.1f}%), "
          f"sound {total[2]}/{total[0]} ({100.0 * total[2] / total[0]:.1f}%); "
          "PyCG published: complete 111/112, sound 103/112")


def print_differences(results):
    for program, expected, actual in results:
        if expected != actual:
            print(f"\n{program}")
            for edge in sorted(expected - actual):
                print(f"  missing {edge[0]} -> {edge[1]}")
            for edge in sorted(actual - expected):
                print(f"  extra   {edge[0]} -> {edge[1]}")


def edge_kind(edge):
    callee = edge[1]
    return "builtin" if callee.startswith("<builtin>.") else "builtin-type method" if callee.startswith(
        "<**") else "program"


def print_edges(label, program, edges):
    for edge in sorted(edges):
        print(f"  {label} {program}: {edge[0]} -> {edge[1]}")


def print_trace_report(results, traces):
    """results: [(program, expected, errdex)]; traces: {program: pycg_trace.trace_program result}."""
    whole = [r for r in results if traces[r[0]]["status"] == "ran"]
    stopped = [r for r in results if traces[r[0]]["status"] == "raised"]
    failed = [r for r in results if traces[r[0]]["status"] not in ("ran", "raised")]
    print("\n== Against what Python runs (python3 under bench/pycg_trace.py; one run per program: the executed "
          "edges are a lower bound of what a program can do)")
    print(f"programs {len(results)}: ran entirely {len(whole)}, stopped by an uncaught exception "
          f"{len(stopped)}, did not run (timeout, crash) {len(failed)}")
    for program, _, _ in stopped + failed:
        print(f"  {traces[program]['status']:<8} {program}: {traces[program]['detail']}")

    print_expected_against_executed(whole, stopped, traces)
    print_errdex_against_executed(whole, stopped, traces)
    dropped = sorted(d for p, _, _ in results for d in traces[p]["dropped"])
    unnamed = sorted(u for p, _, _ in results for u in traces[p]["unnamed_c"])
    print(f"\ncalls into library code (dropped): {len(dropped)}; C callables without a PyCG name: {len(unnamed)}")
    for item in dropped + unnamed:
        print(f"  {item}")


def print_expected_against_executed(whole, stopped, traces):
    print(f"\nexpected graphs against executed edges ({len(whole)} programs that ran entirely):")
    not_run = [(p, e - traces[p]["edges"]) for p, e, _ in whole if e - traces[p]["edges"]]
    print(f"  expected graphs with edges that never run: {len(not_run)} "
          f"({sum(len(m) for _, m in not_run)} edges)")
    for program, edges in not_run:
        print_edges("expected, not run", program, edges)
    lacking = [(p, traces[p]["edges"] - e) for p, e, _ in whole if traces[p]["edges"] - e]
    kinds = collections.Counter(edge_kind(edge) for _, edges in lacking for edge in edges)
    print(f"  executed edges the expectation lacks: {sum(kinds.values())} in {len(lacking)} programs "
          f"({', '.join(f'{n} to a {k}' for k, n in sorted(kinds.items())) or 'none'})")
    for program, edges in lacking:
        print_edges("run, not expected", program, edges)
    lacking = [(p, traces[p]["edges"] - e) for p, e, _ in stopped if traces[p]["edges"] - e]
    print(f"  in the {len(stopped)} programs stopped by an exception, executed edges the expectation lacks: "
          f"{sum(len(m) for _, m in lacking)}")
    for program, edges in lacking:
        print_edges("run, not expected", program, edges)


def print_errdex_against_executed(whole, stopped, traces):
    for label, group in (("ran entirely", whole), ("stopped by an exception; edges until then", stopped)):
        misses = [(p, traces[p]["edges"] - a) for p, _, a in group if traces[p]["edges"] - a]
        executed = sum(len(traces[p]["edges"]) for p, _, _ in group)
        print(f"\nerrdex against executed edges ({len(group)} programs, {label}; {executed} executed edges):")
        print(f"  complete against what runs {len(group) - len(misses)}/{len(group)} "
              f"(executed edges errdex misses: {sum(len(m) for _, m in misses)})")
        for program, edges in misses:
            print_edges("errdex misses", program, edges)
        if group is whole:  # a stopped program did not run the rest: its edges beyond say nothing
            beyond = [(p, a - traces[p]["edges"]) for p, _, a in group if a - traces[p]["edges"]]
            print(f"  sound against what runs {len(group) - len(beyond)}/{len(group)} (errdex edges never run: "
                  f"{sum(len(b) for _, b in beyond)}; an edge that did not run in one execution is no proof "
                  "of an error)")
            for program, edges in beyond:
                print_edges("errdex, not run", program, edges)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pycg", required=True, help="PyCG repository (work tree or bare git dir)")
    parser.add_argument("--errdex", default="build/errdex")
    parser.add_argument("--verbose", action="store_true", help="print the missing and extra edges")
    parser.add_argument("--trace", action="store_true",
                        help="also run each program under a tracer and compare with the edges Python executes")
    parser.add_argument("--python", default="python3", help="the interpreter for --trace (CPython 3.11)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per traced program")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        programs = extract_snippets(args.pycg, tmp)
        results = [(program, expected, errdex_edges(args.errdex, snippet)) for program, snippet, expected in programs]
        traces = {program: pycg_trace.trace_program(snippet, args.python, args.timeout)
                  for program, snippet, _ in programs} if args.trace else {}
    print_table(results)
    if args.verbose:
        print_differences(results)
    if args.trace:
        print_trace_report(results, traces)
    return 0


if __name__ == "__main__":
    sys.exit(main())
