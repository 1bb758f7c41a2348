#!/usr/bin/env python3
"""Call paths and test links that differ between two catalogs of one revision (docs/benchmarks.md, fifth
round): how many the newer binary removes and adds, and, with --show N, N removed paths (a fixed random
sample) with the `try` around each of their calls read from the revision, for a check by hand.

  bench/trigger_diff.py BEFORE.db AFTER.db [--mirror REPO.git --show 10 --seed 14]

Paths are compared as their frames (path, line, function) per error; test links as (error, test path, line)."""

import argparse
import json
import random
import sqlite3
import subprocess


def load(db):
    con = sqlite3.connect(db)
    paths = {}
    for eid, analysis in con.execute("SELECT error_id, analysis FROM error_analysis"):
        found = json.loads(analysis).get("call_paths") or []
        paths[eid] = {json.dumps([(f["path"], f["line"], f["function"]) for f in p["frames"]]) for p in found}
    tests = set(con.execute("SELECT error_id, path, line FROM error_tests"))
    return paths, tests, con


def enclosing_try(lines, index):
    """The `try:` (or `with ...suppress(...)`) line around LINES[INDEX] in its function, and its handlers."""
    indent = len(lines[index]) - len(lines[index].lstrip())
    j = index
    while j > 0:
        j -= 1
        text = lines[j].strip()
        level = len(lines[j]) - len(lines[j].lstrip())
        if not text or level >= indent:
            continue
        indent = level
        if text.startswith("try:") or (text.startswith("with ") and "suppress" in text):
            break
        if text.startswith(("def ", "async def ", "class ")):
            return []
    else:
        return []
    out = [(j, lines[j]), (index, lines[index] + "   <- call")]
    k = index + 1
    while k < len(lines) and k < index + 80:
        text = lines[k].strip()
        level = len(lines[k]) - len(lines[k].lstrip())
        if text and level == indent and text.startswith("except"):
            out += [(m, lines[m]) for m in range(k, min(k + 4, len(lines)))]
        elif text and level <= indent and not text.startswith(("except", "else", "finally")):
            break
        k += 1
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--mirror", help="git directory of the indexed revision (HEAD), for --show")
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    before, before_tests, con = load(args.before)
    after, after_tests, _ = load(args.after)
    removed = sorted((e, p) for e in before for p in before[e] if p not in after.get(e, set()))
    added = sorted((e, p) for e in after for p in after[e] if p not in before.get(e, set()))
    print(f"call paths: {sum(map(len, before.values()))} -> {sum(map(len, after.values()))}, "
          f"removed {len(removed)}, added {len(added)}; errors without a call path: "
          f"{sum(1 for e in before if not before[e])} -> {sum(1 for e in after if not after[e])}")
    print(f"test links: {len(before_tests)} -> {len(after_tests)}, removed {len(before_tests - after_tests)}, "
          f"added {len(after_tests - before_tests)}")
    for link in sorted(before_tests - after_tests):
        print("test link removed:", *link)
    for link in sorted(after_tests - before_tests):
        print("test link added:", *link)
    if not args.show or not args.mirror:
        return
    random.seed(args.seed)
    files = {}
    for eid, key in random.sample(removed, min(args.show, len(removed))):
        site = con.execute("SELECT path, line, type_qualified, template FROM sites WHERE error_id = ? AND is_test = 0",
                           (eid,)).fetchone()
        frames = json.loads(key)
        print("=" * 80)
        print(f"{eid} {site[2]} {(site[3] or '')[:80]!r} at {site[0]}:{site[1]}")
        print("  " + " -> ".join(f"{f[2]}:{f[1]}" for f in frames))
        for path, line, _ in frames[:-1]:
            if path not in files:
                files[path] = subprocess.run(["git", "--git-dir", args.mirror, "show", "HEAD:" + path],
                                             capture_output=True, text=True).stdout.splitlines()
            if 0 < line <= len(files[path]):
                for n, text in enclosing_try(files[path], line - 1):
                    print(f"    {path}:{n + 1}: {text.rstrip()}")


if __name__ == "__main__":
    main()
