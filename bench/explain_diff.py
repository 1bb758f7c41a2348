#!/usr/bin/env python3
"""Same answers from two errdex binaries: runs `errdex explain - --db DB --top 5 --format json` of each
binary on every paste of the given inputs, against one catalog, and prints the pastes whose JSON answers
differ (the parse of the paste, the matches and their evidence). For a change that must not change
behaviour (a refactoring of the paste reader), next to bench/dev_set.py's figures.

  bench/explain_diff.py --before OLD/errdex --after build/errdex --db CATALOG \\
      [--data /work/shared/data/real-errors-dev.jsonl ...] [--pastes tests/corpus/pastes] [--jobs 2]

--data: JSON-lines files whose records hold the paste in "input" (the dev sets, bench/data/*.jsonl);
--pastes: a folder of NAME.txt pastes. Exit status 1 when any answer differs.
"""

import argparse
import concurrent.futures
import glob
import json
import os
import subprocess
import sys


def explain(binary, db, text):
    run = subprocess.run([binary, "explain", "-", "--db", db, "--top", "5", "--format", "json"],
                         input=text.encode("utf-8", "surrogateescape"), capture_output=True, timeout=120)
    return run.returncode, run.stdout.decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--data", action="append", default=[])
    ap.add_argument("--pastes", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()

    cases = []
    for path in args.data:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if line.strip():
                    record = json.loads(line)
                    cases.append((f"{os.path.basename(path)}:{record.get('case', n)}", record["input"]))
    for folder in args.pastes:
        for path in sorted(glob.glob(os.path.join(folder, "*.txt"))):
            with open(path, "rb") as f:
                cases.append((path, f.read().decode("utf-8", "surrogateescape")))

    def compare(case):
        name, text = case
        return name, explain(args.before, args.db, text), explain(args.after, args.db, text)

    differing = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for name, before, after in pool.map(compare, cases):
            if before != after:
                differing += 1
                print(f"differs: {name}\n  before: {before[1][:300]!r}\n  after:  {after[1][:300]!r}")
    print(f"{len(cases)} pastes, {differing} with different answers")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
