#!/usr/bin/env python3
"""Accuracy of `errdex explain` on a set of pasted errors with verified raise sites: by default the
development set of real pastes (/work/shared/data/real-errors-dev.jsonl: 67 cases, aiohttp, starlette,
click); with --data bench/data/own-cases.jsonl the team-written cases from the standard library,
SQLAlchemy, Lightning and NumPy (bench/data/README.md).

  bench/dev_set.py --errdex build/errdex [--data /work/shared/data/real-errors-dev.jsonl]
                   [--db bench/out/dev-set.db] [--mirrors /work/.mirror] [--top 5] [--jobs 2]
  bench/dev_set.py --errdex build/errdex --data bench/data/own-cases.jsonl   # catalog bench/out/own-cases.db
  bench/dev_set.py --errdex build/errdex --data /work/shared/data/real-errors-dev2.jsonl --releases 30 \\
                   --db bench/out/dev2-releases.db   # drifted pastes against a catalog holding releases

Indexes each repository of the set at its pinned commit from the fetched bare mirror
(MIRRORS/owner+name/repo) into one catalog, skipping a repository already there at that commit; cases of
repo `python/stdlib` (commit null) index the local standard library directory (sysconfig's stdlib path)
under that name. With a --data file other than the default, --db and --misses default to
bench/out/<data file stem>.db and bench/out/<stem>-misses.txt. Then runs
`errdex explain - --db DB --top 5 --format json` per case (the input on stdin).
A hit is a match whose site has the expected path and line. Looser figures: a match whose error id is the
expected site's error (the same error, whichever of its sites is shown), and a match in the expected file
and function. Prints top-1 / top-5 overall, by repo, by input kind and by drift, then a table of the cases
that are not a top-1 hit (also written to bench/out/dev-set-misses.txt).
"""

import argparse
import concurrent.futures
import json
import os
import shlex
import sys
import sysconfig
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import synthetic_explain as se  # noqa: E402

DEFAULT_DATA = "/work/shared/data/real-errors-dev.jsonl"
DEFAULT_MIRRORS = "/work/.mirror"
STDLIB_NAME = "python/stdlib"  # cases with this repo (and commit null) refer to the local standard library


def load_cases(path):
    """Cases of one data file; the dev2 schema names the pinned commit `snapshot_commit`, the dev schema
    `commit`, so both are read into `commit`. `category` (dev2 only) defaults to `drift`/`literal` from the
    drift flag so every set has a per-category table."""
    cases = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            c = json.loads(line)
            if "commit" not in c:
                c["commit"] = c.get("snapshot_commit")
            c.setdefault("drift", False)
            c.setdefault("category", "drift" if c["drift"] else "literal")
            cases.append(c)
    return cases


def mirror_of(mirrors, repo):
    return os.path.join(mirrors, repo.replace("/", "+"), "repo")


def index_commands(errdex, db, revs, mirrors, releases=0):
    cmds = []
    for repo, commit in revs:
        if repo == STDLIB_NAME:
            # The standard library of the running interpreter, as a directory (no revision).
            cmds.append([errdex, "index", sysconfig.get_paths()["stdlib"], "--name", repo, "--db", db, "--jobs", "2"])
        else:
            cmds.append([errdex, "index", mirror_of(mirrors, repo), "--rev", commit or "HEAD", "--name", repo,
                         "--db", db, "--jobs", "2"] + (["--releases", str(releases)] if releases else []))
    return cmds


def site_error_ids(errdex, db, repos):
    """{(repo, path, line): error id} for the sites of the given (repo, commit) revisions."""
    out = {}
    for repo, commit in repos:
        for s in se.list_sites(errdex, db, repo=repo, rev=commit or None):
            out[(s["repo"], s["path"], s["line"])] = s["id"]
    return out


def same_function(got, want):
    """The set writes nested scopes dotted (`version_option.callback`); errdex may keep `<locals>`."""
    return got is not None and got.replace(".<locals>", "") == want


def first_rank(matches, pred):
    for i, m in enumerate(matches):
        if pred(m):
            return i + 1
    return None


def figures_table(rows, top, title):
    groups = [("all", lambda r: True)]
    for repo in sorted({r["case"]["repo"] for r in rows}):
        groups.append((repo, lambda r, repo=repo: r["case"]["repo"] == repo))
    for kind in ("message", "traceback"):
        groups.append((f"input_kind {kind}", lambda r, kind=kind: r["case"]["input_kind"] == kind))
    groups.append(("drift false", lambda r: not r["case"]["drift"]))
    groups.append(("drift true", lambda r: bool(r["case"]["drift"])))
    for cat in sorted({r["case"]["category"] for r in rows}):
        groups.append((f"category {cat}", lambda r, cat=cat: r["case"]["category"] == cat))
    lines = [f"| {title} | n | top-1 site | top-{top} site | top-1 error id | top-{top} error id | "
             f"top-1 path+function | top-{top} path+function | nothing matched (site in closest) |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, pred in groups:
        sel = [r for r in rows if pred(r)]
        n = len(sel)

        def cnt(key, k):
            return sum(1 for r in sel if r[key] is not None and r[key] <= k)
        none = sum(1 for r in sel if r["rc"] == 1)
        in_closest = sum(1 for r in sel if r["rc"] == 1 and r["closest_rank"] is not None)
        lines.append(f"| {name} | {n} | {se.pct(cnt('rank', 1), n)} | {se.pct(cnt('rank', top), n)} | "
                     f"{se.pct(cnt('id_rank', 1), n)} | {se.pct(cnt('id_rank', top), n)} | "
                     f"{se.pct(cnt('fn_rank', 1), n)} | {se.pct(cnt('fn_rank', top), n)} | {none} ({in_closest}) |")
    return lines


def one_line(text, width=90):
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 3] + "..."


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--errdex", required=True)
    ap.add_argument("--data", action="append",
                    help="data file (repeatable: each set is measured and reported on its own; default the dev set)")
    ap.add_argument("--db", default=None, help="catalog (default bench/out/dev-set.db, or bench/out/<data stem>.db)")
    ap.add_argument("--mirrors", default=DEFAULT_MIRRORS)
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--case", action="append", help="only this case (repeatable)")
    ap.add_argument("--misses", default=None,
                    help="miss table (default bench/out/dev-set-misses.txt, or bench/out/<data stem>-misses.txt)")
    ap.add_argument("--index-only", action="store_true", help="build the catalog and stop")
    ap.add_argument("--releases", type=int, default=0,
                    help="also index the N newest releases older than each pinned commit (errdex index --releases)")
    args = ap.parse_args()
    print("$ " + shlex.join([os.path.relpath(sys.argv[0])] + sys.argv[1:]))
    summary = []
    for data in args.data or [DEFAULT_DATA]:
        summary.append(run_set(args, data))
    if len(summary) > 1:
        print("\n| set | n | top-1 site | top-5 site |\n|---|---|---|---|")
        for line in summary:
            print(line)


def run_set(args, data):
    """Measures one data file; returns its summary table row."""
    args = argparse.Namespace(**vars(args))
    args.data = data
    stem = "dev-set" if os.path.abspath(args.data) == DEFAULT_DATA else os.path.splitext(os.path.basename(args.data))[0]
    if args.db is None:
        args.db = os.path.join(se.OUT, f"{stem}.db")
    if args.misses is None:
        args.misses = os.path.join(se.OUT, f"{stem}-misses.txt")
    print(f"\n## {args.data}")
    cases = load_cases(args.data)
    if args.case:
        cases = [c for c in cases if c["case"] in set(args.case)]
    os.makedirs(os.path.dirname(os.path.abspath(args.db)), exist_ok=True)
    revs = sorted({(c["repo"], c["commit"] or "") for c in cases})
    se.index_all(index_commands(args.errdex, args.db, revs, args.mirrors, args.releases), args.db)
    ids = site_error_ids(args.errdex, args.db, revs)
    print(f"catalog {os.path.relpath(args.db)}: {len(ids)} sites of {len(revs)} revisions")
    missing = [c["case"] for c in cases if (c["repo"], c["expected"]["path"], c["expected"]["line"]) not in ids]
    if missing:
        print(f"warning: expected site not in the catalog for {len(missing)} cases: {', '.join(missing)}")
    m = se.require_matcher(args.db)
    print(f"matcher stored {m[0]}: {m[1]} errors, {m[2]} anchors")
    if args.index_only:
        return f"| {stem} | {len(cases)} | (index only) | |"

    explain_cmd = [args.errdex, "explain", "-", "--db", args.db, "--top", str(args.top), "--format", "json"]
    print("per case: " + shlex.join(explain_cmd) + " < INPUT")
    t0 = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        results = list(ex.map(lambda c: se.explain(args.errdex, args.db, c["input"], args.top), cases))
    elapsed = time.perf_counter() - t0

    rows = []
    for c, (rc, data, err) in zip(cases, results):
        exp = c["expected"]
        matches = se.parse_matches(data)
        want_id = ids.get((c["repo"], exp["path"], exp["line"]))
        rows.append({
            "case": c, "rc": rc, "data": data, "matches": matches, "stderr": err,
            "rank": first_rank(matches, lambda m: m["path"] == exp["path"] and m["line"] == exp["line"]),
            "id_rank": first_rank(matches, lambda m: (m["path"] == exp["path"] and m["line"] == exp["line"])
                                  or (want_id is not None and m["id"] == want_id)),
            "fn_rank": first_rank(matches, lambda m: m["path"] == exp["path"] and same_function(m["function"], exp["function"])),
            "closest_rank": first_rank(se.parse_matches(data, "closest"),
                                       lambda m: m["path"] == exp["path"] and m["line"] == exp["line"]),
        })

    out = []
    title = ("dev set (67 real pastes)" if stem == "dev-set" and len(rows) == 67 else f"{stem} ({len(rows)})")
    out += figures_table(rows, args.top, title)
    out.append("")
    out.append(f"{len(rows)} cases in {elapsed:.1f} s with {args.jobs} jobs; exit 2 (bad usage): "
               f"{sum(1 for r in rows if r['rc'] == 2)}")
    out.append("")
    misses = [r for r in rows if r["rank"] != 1]
    out.append(f"Not a top-1 hit: {len(misses)}")
    out.append("")
    out.append("| case | kind | drift | expected | rank (site/id/fn) | parsed type: message | got top-1 | notes |")
    out.append("|---|---|---|---|---|---|---|---|")
    for r in misses:
        c, exp = r["case"], r["case"]["expected"]
        top1 = r["matches"][0] if r["matches"] else None
        if top1 is None and isinstance(r["data"], dict) and r["data"].get("closest"):
            got = "closest: " + se.short_match(se.parse_matches(r["data"], "closest")[0])
        else:
            got = se.short_match(top1) if top1 else f"nothing (exit {r['rc']})"
        parsed = ""
        if isinstance(r["data"], dict):
            parsed = f"{r['data'].get('type') or ''}: {r['data'].get('message') or ''}"
        ranks = "/".join("-" if r[k] is None else str(r[k]) for k in ("rank", "id_rank", "fn_rank"))
        if r["closest_rank"]:
            ranks += f" (closest {r['closest_rank']})"
        cell = lambda s: one_line(s).replace("|", "\\|")  # noqa: E731
        out.append(f"| {c['case']} | {c['input_kind']} | {'yes' if c['drift'] else ''} | "
                   f"{exp['path']}:{exp['line']} {exp['function']} | {ranks} | {cell(parsed)} | {cell(got)} | "
                   f"{cell(c['notes'])} |")
        if r["rc"] == 2:
            out.append(f"|  | stderr: {cell(r['stderr'])} |")
    text = "\n".join(out)
    print()
    print(text)
    os.makedirs(os.path.dirname(os.path.abspath(args.misses)), exist_ok=True)
    with open(args.misses, "w", encoding="utf-8") as f:
        f.write("$ " + shlex.join([os.path.relpath(sys.argv[0])] + sys.argv[1:]) + "\n\n" + text + "\n")
        # Full detail for each miss: input and the top matches.
        f.write("\n\n## Detail\n")
        for r in misses:
            c = r["case"]
            f.write(f"\n### {c['case']} (expected {c['expected']['path']}:{c['expected']['line']} "
                    f"{c['expected']['function']} {c['expected']['type']})\n")
            f.write("input:\n" + "\n".join("    " + line for line in c["input"].splitlines()) + "\n")
            if isinstance(r["data"], dict):
                f.write(f"parsed: input_kind={r['data'].get('input_kind')} type={r['data'].get('type')!r} "
                        f"message={r['data'].get('message')!r}\n")
            for i, m in enumerate(r["matches"] or se.parse_matches(r["data"], "closest")):
                f.write(f"  {i + 1}. score {m['score']} {m['type']} {se.short_match(m)} bindings={m['bindings']}\n")
            f.write(f"notes: {c['notes']}\n")
    print(f"\nmisses written to {os.path.relpath(args.misses)}")
    n = len(rows)
    return (f"| {stem} | {n} | {se.pct(sum(1 for r in rows if r['rank'] == 1), n)} | "
            f"{se.pct(sum(1 for r in rows if r['rank'] is not None and r['rank'] <= args.top), n)} |")


if __name__ == "__main__":
    main()
