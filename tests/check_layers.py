#!/usr/bin/env python3
"""The include graph of src/ against the stage order (CMakeLists.txt, ERRDEX_STAGES; docs/architecture.md).

  tests/check_layers.py --src SRC --stages util source extract ... cli

A file of stage S may include headers of S and of stages before S in the order; `testing/` (test helpers)
may be included by tests only. Exits 1 and lists every include that reaches up or sideways out of the
order, every directory of src/ that is not a stage, and every cycle between directories.
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"', re.M)


def includes_by_file(src):
    for stage in sorted(os.listdir(src)):
        folder = os.path.join(src, stage)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith((".cc", ".h")):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    yield stage, name, INCLUDE.findall(f.read())


def find_cycle(edges):
    """A cycle in the directory graph {dir: set(dirs)} as a list, or None."""
    state = {}

    def visit(node, path):
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt]
            if nxt not in state:
                found = visit(nxt, path + [nxt])
                if found:
                    return found
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--stages", nargs="+", required=True)
    args = ap.parse_args()
    rank = {s: i for i, s in enumerate(args.stages)}
    problems = []
    edges = {}
    for stage, name, targets in includes_by_file(args.src):
        is_test = name.endswith("_test.cc") or name.endswith("_test_util.h")
        if stage not in rank and stage != "testing":
            problems.append(f"src/{stage}/ is not a stage of ERRDEX_STAGES")
            continue
        for target in targets:
            if target != stage and "testing" not in (stage, target):  # test helpers are no stage
                edges.setdefault(stage, set()).add(target)
            if target == "testing":
                if not is_test and stage != "testing":
                    problems.append(f"src/{stage}/{name}: includes test helpers (testing/) outside a test")
                continue
            if target not in rank:
                problems.append(f"src/{stage}/{name}: includes {target}/, which is not a stage")
            elif stage != "testing" and rank[target] > rank[stage]:
                problems.append(f"src/{stage}/{name}: includes {target}/, a higher stage than {stage}/")
    cycle = find_cycle(edges)
    if cycle:
        problems.append("include cycle between directories: " + " -> ".join(cycle))
    for p in sorted(set(problems)):
        print(p)
    if problems:
        return 1
    print(f"layers: {len(args.stages)} stages in order, no include reaches up, no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
