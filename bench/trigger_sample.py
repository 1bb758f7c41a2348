#!/usr/bin/env python3
"""Prints a random sample of call paths and test links of a catalog, with the cited source lines, for grading
by hand (docs/analysis-quality.md, issue 14). Not run by CI.

  bench/trigger_sample.py --db CATALOG --repo GIT_DIR [--rev HEAD] [--seed 20261201] [--n 10]

Call paths: among the analysed errors with at least one call path, N errors drawn with random.Random(SEED),
and for each one of its paths drawn with the same generator; each frame is printed with the source line it
cites (`git show REV:PATH`). Test links: N rows of error_tests drawn the same way, with the test's statement
and the raise the link names (the site its block reaches, schema 15; else the error's first site outside tests),
with its line and the lines around it.
"""
import argparse
import json
import random
import sqlite3
import subprocess

_files = {}


def line_of(repo, rev, path, line, around=0):
    key = (path,)
    if key not in _files:
        out = subprocess.run(["git", "--git-dir", repo, "show", f"{rev}:{path}"], capture_output=True, text=True,
                             errors="replace")
        _files[key] = out.stdout.splitlines()
    lines = _files[key]
    lo, hi = max(1, line - around), min(len(lines), line + around)
    return "\n".join(f"      {n:5d}| {lines[n - 1]}" for n in range(lo, hi + 1)) if lines else "      (unreadable)"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", required=True)
    parser.add_argument("--repo", required=True)
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--n", type=int, default=10)
    args = parser.parse_args()
    con = sqlite3.connect(args.db)
    rng = random.Random(args.seed)
    rows = sorted(con.execute("SELECT error_id, analysis FROM error_analysis").fetchall())
    with_paths = [(i, json.loads(a)["call_paths"]) for i, a in rows if json.loads(a).get("call_paths")]
    print(f"== call paths: {len(with_paths)} errors with a path; sample of {args.n}")
    for k, (error_id, paths) in enumerate(rng.sample(with_paths, min(args.n, len(with_paths))), 1):
        p = rng.choice(paths)
        print(f"P{k} {error_id} certain={p['certain']} ({len(paths)} paths)")
        for f in p["frames"]:
            print(f"   {f['path']}:{f['line']} {f['function']}")
            if f["line"]:
                print(line_of(args.repo, args.rev, f["path"], f["line"]))
    links = sorted(con.execute("SELECT error_id, path, line, function, kind, type, match, code FROM error_tests"))
    print(f"== test links: {len(links)} rows; sample of {args.n}")
    has_site_columns = any(c[1] == "site_path" for c in con.execute("PRAGMA table_info(error_tests)"))
    for k, (error_id, path, line, function, kind, type_, match, code) in enumerate(
            rng.sample(links, min(args.n, len(links))), 1):
        # The raise the link names (schema 15: the site the block reaches nearest), else the error's first site.
        reached = None
        if has_site_columns:
            reached = con.execute("SELECT site_path, site_line FROM error_tests WHERE error_id = ? AND path = ? AND "
                                  "line = ? AND site_path IS NOT NULL LIMIT 1", (error_id, path, line)).fetchone()
        site = con.execute("SELECT path, line, function, type, template FROM sites WHERE error_id = ? AND is_test = 0 "
                           "ORDER BY (path = ? AND line = ?) DESC, path, line LIMIT 1",
                           (error_id, *(reached or ("", 0)))).fetchone()
        print(f"T{k} {error_id} {path}:{line} {function} {kind} {type_} match={match!r}")
        print("      " + code.replace("\n", "\n      ")[:600])
        if site:
            print(f"   raise {site[0]}:{site[1]} {site[2]} {site[3]} {site[4]!r}")
            print(line_of(args.repo, args.rev, site[0], site[1], 1))


if __name__ == "__main__":
    main()
