#!/usr/bin/env python3
"""Call graph speed against PyCG itself: both tools on the same sources, same machine, same session.

Usage: bench/pycg_speed.py --pycg PYCG_REPO --errdex build/errdex [--runs 3] SOURCE [SOURCE ...]

PYCG_REPO is PyCG's repository (a work tree, or a bare git directory that is extracted to a temporary
directory). Each SOURCE is a directory of Python code (a package's parent directory); PyCG is given every
`.py` file under it as an entry point and the directory as its package, which is how its own evaluation
runs whole projects. errdex runs `errdex callgraph SOURCE --format pycg`.

PyCG 0.0.7 (its last release; the repository is archived) crashes on any function whose positional-only
parameters have defaults (PEP 570: `def f(a, /, b=1)`), which today's libraries all use. So that it can
be timed at all, this script runs it with one correction applied at run time: its default-argument reader
also counts `posonlyargs`. Nothing else of PyCG is changed, and nothing of it is copied here.

For each source: the median CPU time (user + system of the child) and wall time of N runs of each tool,
run alternately; the edges each printed (caller-callee pairs of the PyCG JSON), how many both printed;
the CPU ratio PyCG / errdex. A PyCG run that uses more than --cpu-limit seconds of CPU is stopped
and reported as such, with that time as a lower bound.
"""
import argparse
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

PYCG_RUNNER = r"""
import ast, sys
from pycg.processing import preprocessor

def _get_fun_defaults(self, node):
    # PyCG's own reader, with positional-only parameters counted (PEP 570).
    defaults = {}
    positional = node.args.posonlyargs + node.args.args
    start = len(positional) - len(node.args.defaults)
    for cnt, d in enumerate(node.args.defaults, start=start):
        if not d:
            continue
        self.visit(d)
        defaults[positional[cnt].arg] = self.decode_node(d)
    start = len(node.args.kwonlyargs) - len(node.args.kw_defaults)
    for cnt, d in enumerate(node.args.kw_defaults, start=start):
        if not d:
            continue
        self.visit(d)
        defaults[node.args.kwonlyargs[cnt].arg] = self.decode_node(d)
    return defaults

preprocessor.PreProcessor._get_fun_defaults = _get_fun_defaults
from pycg.__main__ import main
sys.argv = ["pycg"] + sys.argv[1:]
main()
"""


def pycg_tree(repo, scratch):
    if os.path.isdir(os.path.join(repo, "pycg")):
        return repo
    out = os.path.join(scratch, "pycg")
    os.makedirs(out)
    archive = subprocess.run(["git", "--git-dir", repo, "archive", "HEAD"], capture_output=True, check=True)
    archive_path = os.path.join(scratch, "pycg.tar")
    with open(archive_path, "wb") as f:
        f.write(archive.stdout)
    with tarfile.open(archive_path) as tar:
        tar.extractall(out, filter="data")
    return out


def timed(cmd, cwd, env=None, cpu_limit=None):
    def limit():  # CPU seconds, not wall: a loaded machine must not cut a run short
        if cpu_limit:
            resource.setrlimit(resource.RLIMIT_CPU, (int(cpu_limit), int(cpu_limit) + 5))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, preexec_fn=limit)
    if cpu_limit and proc.returncode == -signal.SIGXCPU:
        proc.stderr = f"did not finish in {cpu_limit:g} s of CPU"
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return proc, cpu, wall


def edges_of(graph):
    return {(caller, callee) for caller, callees in graph.items() for callee in callees}


def run_pycg(tree, source, out_json, cpu_limit):
    files = sorted(os.path.relpath(os.path.join(d, f), source)
                   for d, _, names in os.walk(source) for f in names if f.endswith(".py"))
    env = dict(os.environ, PYTHONPATH=tree)
    cmd = [sys.executable, "-c", PYCG_RUNNER, "--package", ".", *files, "-o", out_json]
    proc, cpu, wall = timed(cmd, source, env, cpu_limit)
    if proc.returncode != 0:
        return None, cpu, wall, proc.stderr.strip().splitlines()[-1:]
    with open(out_json) as f:
        return edges_of(json.load(f)), cpu, wall, []


def run_errdex(binary, source):
    proc, cpu, wall = timed([binary, "callgraph", source, "--format", "pycg"], None)
    if proc.returncode != 0:
        return None, cpu, wall, proc.stderr.strip().splitlines()[-1:]
    return edges_of(json.loads(proc.stdout)), cpu, wall, []


def print_row(name, files, pycg_runs, errdex_runs):
    errdex_failure = errdex_runs[-1][3]
    if errdex_failure:
        print(f"| {name} | {files} | errdex failed: {' '.join(errdex_failure)[:120]} | | | | | | | |")
        return
    e_cpu = statistics.median(r[1] for r in errdex_runs)
    e_wall = statistics.median(r[2] for r in errdex_runs)
    e_edges = errdex_runs[-1][0]
    pycg_failure = pycg_runs[-1][3]
    if pycg_failure:  # the CPU spent until it failed or was stopped is still a lower bound of its time
        p_cpu, p_wall = pycg_runs[-1][1], pycg_runs[-1][2]
        print(f"| {name} | {files} | > {p_cpu:.2f} ({' '.join(pycg_failure)[:80]}) | {e_cpu:.2f} "
              f"| > {p_cpu / max(e_cpu, 1e-3):.1f}x | > {p_wall:.2f} | {e_wall:.2f} | | {len(e_edges)} | |")
        return
    p_cpu = statistics.median(r[1] for r in pycg_runs)
    p_wall = statistics.median(r[2] for r in pycg_runs)
    p_edges = pycg_runs[-1][0]
    print(f"| {name} | {files} | {p_cpu:.2f} | {e_cpu:.2f} | {p_cpu / max(e_cpu, 1e-3):.1f}x | {p_wall:.2f} "
          f"| {e_wall:.2f} | {len(p_edges)} | {len(e_edges)} | {len(p_edges & e_edges)} |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pycg", required=True, help="PyCG repository (work tree or bare git dir)")
    parser.add_argument("--errdex", default="build/errdex")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cpu-limit", type=float, default=1800, help="CPU seconds per PyCG run")
    parser.add_argument("sources", nargs="+")
    args = parser.parse_args()
    binary = os.path.abspath(args.errdex)
    print("| source | .py files | PyCG CPU s | errdex CPU s | CPU ratio PyCG/errdex | PyCG wall s | errdex wall s "
          "| PyCG edges | errdex edges | in both |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        tree = pycg_tree(os.path.abspath(args.pycg), scratch)
        for source in args.sources:
            source = os.path.abspath(source)
            files = sum(f.endswith(".py") for _, _, names in os.walk(source) for f in names)
            pycg_runs, errdex_runs = [], []
            for _ in range(args.runs):  # alternately, so that the load falls on both alike
                pycg_runs.append(run_pycg(tree, source, os.path.join(scratch, "out.json"), args.cpu_limit))
                errdex_runs.append(run_errdex(binary, source))
                if pycg_runs[-1][3] or errdex_runs[-1][3]:
                    break  # a failed or stopped run is not repeated
            print_row(os.path.basename(source.rstrip("/")), files, pycg_runs, errdex_runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
