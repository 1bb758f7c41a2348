#!/usr/bin/env python3
"""Runs `errdex callgraph` on every program of PyCG's micro-benchmark and counts complete and sound graphs.

PyCG's micro-benchmark (github.com/vitsalis/PyCG, micro-benchmark/snippets/CATEGORY/NAME/ with main.py and
the expected callgraph.json) is read from a local clone or bare mirror at run time and never copied into this
repository. A graph is *complete* when it has every expected edge (no edge missing) and *sound* when it has
no edge the expected graph lacks (no extra edge), as in docs/benchmarks.md. Edges whose caller is absent from
the expected graph count as extra too; nodes without edges are ignored.

Usage: bench/pycg_micro.py --pycg /path/to/PyCG[.git] [--errdex build/errdex] [--verbose]
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tarfile
import tempfile


def edges_of(graph):
    return {(caller, callee) for caller, callees in graph.items() for callee in callees}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pycg", required=True, help="PyCG repository (work tree or bare git dir)")
    parser.add_argument("--errdex", default="build/errdex")
    parser.add_argument("--verbose", action="store_true", help="print the missing and extra edges")
    args = parser.parse_args()

    git_dir = args.pycg if os.path.exists(os.path.join(args.pycg, "HEAD")) else os.path.join(args.pycg, ".git")
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "--git-dir", git_dir, "archive", "HEAD", "micro-benchmark"],
                                 check=True, capture_output=True).stdout
        archive_path = os.path.join(tmp, "micro.tar")
        with open(archive_path, "wb") as f:
            f.write(archive)
        with tarfile.open(archive_path) as tar:
            tar.extractall(tmp, filter="data")
        root = os.path.join(tmp, "micro-benchmark", "snippets")
        per_category = collections.OrderedDict()
        failures = []
        for category in sorted(os.listdir(root)):
            for name in sorted(os.listdir(os.path.join(root, category))):
                snippet = os.path.join(root, category, name)
                expected_path = os.path.join(snippet, "callgraph.json")
                if not os.path.exists(os.path.join(snippet, "main.py")) or not os.path.exists(expected_path):
                    continue
                with open(expected_path) as f:
                    expected = edges_of(json.load(f))
                run = subprocess.run([args.errdex, "callgraph", snippet, "--format", "pycg"],
                                     capture_output=True, text=True)
                actual = edges_of(json.loads(run.stdout)) if run.returncode == 0 else set()
                missing = expected - actual
                extra = actual - expected
                counts = per_category.setdefault(category, [0, 0, 0])
                counts[0] += 1
                counts[1] += not missing
                counts[2] += not extra
                if missing or extra:
                    failures.append((category + "/" + name, sorted(missing), sorted(extra)))
    total = [sum(c[i] for c in per_category.values()) for i in range(3)]
    print(f"{'category':<14} {'programs':>8} {'complete':>8} {'sound':>8}")
    for category, (n, complete, sound) in per_category.items():
        print(f"{category:<14} {n:>8} {complete:>8} {sound:>8}")
    print(f"{'total':<14} {total[0]:>8} {total[1]:>8} {total[2]:>8}")
    print(f"complete {total[1]}/{total[0]} ({100.0 * total[1] / total[0]:.1f}%), "
          f"sound {total[2]}/{total[0]} ({100.0 * total[2] / total[0]:.1f}%); "
          "PyCG published: complete 111/112, sound 103/112")
    if args.verbose:
        for name, missing, extra in failures:
            print(f"\n{name}")
            for edge in missing:
                print(f"  missing {edge[0]} -> {edge[1]}")
            for edge in extra:
                print(f"  extra   {edge[0]} -> {edge[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
