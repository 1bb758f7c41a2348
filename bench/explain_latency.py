#!/usr/bin/env python3
"""Latency of one cold `errdex explain` (process start included) on a multi-repository catalog, against
`git grep -F` of the message's longest literal fragment in the one repository it comes from.

  bench/explain_latency.py --build [--errdex build/errdex] [--db bench/out/multi.db]
  bench/explain_latency.py --errdex build/errdex --db bench/out/multi.db [--runs 21] [--messages 20] [--seed 1]
                           [--compare /work/base3/errdex]

--build indexes the local standard library (as python/stdlib) and the six fetched mirrors at HEAD
(/work/.mirror/OWNER+NAME/repo, as OWNER/NAME) into the catalog, skipping repositories already there.
The measurement needs a catalog of at least 5 repositories. Messages: half are dev-set inputs
(/work/shared/data/real-errors-dev.jsonl; baseline literal = the longest run of words outside traceback
frame lines), half are rendered from templates of the mirrors' errors (bench/synthetic_explain.py; baseline
literal = the longest literal piece of the template, the message split at its placeholder values).
Each run times, per message, `errdex explain - --db DB --format json --top 5` (message on stdin) and then
`git --git-dir MIRROR grep -F -e LITERAL HEAD` back to back, so both see the same machine state
(its speed drifts up to 40%); one untimed warm-up run of each first. Prints median and p90 per message,
the overall medians and their ratio. --compare BIN also times a second errdex (the baseline binary) right
after the first on each message of each run, and both binaries' CPU time (user + system, from the kernel's
accounting of the child), which a loaded machine disturbs less than the wall time.
"""

import argparse
import json
import os
import random
import re
import resource
import shlex
import statistics
import subprocess
import sys
import sysconfig
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import dev_set  # noqa: E402
import synthetic_explain as se  # noqa: E402

MIRROR_REPOS = ["Lightning-AI/pytorch-lightning", "sqlalchemy/sqlalchemy", "aio-libs/aiohttp", "numpy/numpy",
                "pallets/click", "encode/starlette"]
STDLIB_NAME = "python/stdlib"


def catalog_repos(errdex, db):
    return sorted({s["repo"] for s in se.list_sites(errdex, db)})


def build_commands(errdex, db, mirrors):
    """Index the standard library and the six mirrors at HEAD."""
    stdlib = sysconfig.get_paths()["stdlib"]
    cmds = [[errdex, "index", stdlib, "--name", STDLIB_NAME, "--db", db, "--jobs", "2"]]
    for repo in MIRROR_REPOS:
        cmds.append([errdex, "index", dev_set.mirror_of(mirrors, repo), "--rev", "HEAD", "--name", repo,
                     "--db", db, "--jobs", "2"])
    return cmds


def build(errdex, db, mirrors):
    os.makedirs(os.path.dirname(os.path.abspath(db)), exist_ok=True)
    se.index_all(build_commands(errdex, db, mirrors), db)


FRAME_RE = re.compile(r'^\s*(File "|line \d+, in |Traceback \(most recent call last\)|During handling of the above|'
                      r'The above exception was the direct cause|raise )')
WORD_RUN_RE = re.compile(r"[A-Za-z]+(?: [A-Za-z]+)*")
EXC_LINE_RE = re.compile(r"(?:^|[\s(\[`'\"])[A-Za-z_][\w.]*(?:Error|Exception|Warning|Exit|[A-Z][a-z]+[A-Z]\w*)"
                         r": (?P<msg>.*)")


def longest_word_run(text):
    """What a user would grep for: the longest run of space-separated words of the exception line(s)
    (text after `Type: `), else of any line that is not a frame, a frame's source line or a header."""
    lines, skip_next = [], False
    for line in text.splitlines():
        if skip_next and line[:1].isspace():  # the source line shown under a frame
            skip_next = False
            continue
        skip_next = False
        if FRAME_RE.match(line):
            skip_next = not line.lstrip().startswith(("Traceback", "During", "The above", "raise "))
            continue
        lines.append(line)
    exc = [m.group("msg") for m in map(EXC_LINE_RE.search, lines) if m]
    best = ""
    for line in exc or lines:
        for m in WORD_RUN_RE.finditer(line):
            if len(m.group()) > len(best):
                best = m.group()
    return best


def longest_literal(pieces):
    best = ""
    for is_ph, text in pieces:
        if is_ph:
            continue
        for piece in text.split("\n"):
            piece = piece.strip()
            if len(piece) > len(best):
                best = piece
    return best


def pick_messages(errdex, db, data, mirrors, n, seed):
    """[{label, text, git_dir, literal, expect: (repo, path, line) set}] about n messages."""
    rng = random.Random(seed)
    msgs = []
    cases = dev_set.load_cases(data)
    n_dev = n // 2
    for c in sorted(rng.sample(cases, min(n_dev, len(cases))), key=lambda c: c["case"]):
        msgs.append({"label": c["case"], "text": c["input"], "git_dir": dev_set.mirror_of(mirrors, c["repo"]),
                     "literal": longest_word_run(c["input"]),
                     "expect": {(c["repo"], c["expected"]["path"], c["expected"]["line"])}})
    errors = se.group_errors(se.list_sites(errdex, db))
    counts = se.template_counts(errors)
    pool = [e for e in se.eligible(errors)
            if e["repo"] in MIRROR_REPOS and not e["is_test"] and counts[e["normalized"]] == 1
            and len(se.literal_fragments(e["parts"], 8)) > 0]
    for e in rng.sample(pool, min(n - len(msgs), len(pool))):
        s = se.make_sample(e, seed, typed=True)
        msgs.append({"label": f"synthetic {e['repo'].split('/')[1]} {e['sites'][0]['path']}:{e['sites'][0]['line']}",
                     "text": s["input"], "git_dir": dev_set.mirror_of(mirrors, e["repo"]),
                     "literal": longest_literal(s["pieces"]), "error_id": e["id"],
                     "expect": {(x["repo"], x["path"], x["line"]) for x in e["sites"]}})
    return msgs


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd, input_text=None, cpu=None):
    """Wall time and the process; its CPU time appended to CPU when given."""
    c0 = child_cpu()
    t0 = time.perf_counter()
    p = subprocess.run(cmd, input=input_text, capture_output=True, text=True, errors="replace")
    wall = time.perf_counter() - t0
    if cpu is not None:
        cpu.append(child_cpu() - c0)
    return wall, p


def p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.9 * (len(xs) - 1)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--errdex", default="build/errdex")
    ap.add_argument("--db", default=os.path.join(se.OUT, "multi.db"))
    ap.add_argument("--build", action="store_true", help="index stdlib + the 6 mirrors into DB and stop")
    ap.add_argument("--mirrors", default=dev_set.DEFAULT_MIRRORS)
    ap.add_argument("--data", default=dev_set.DEFAULT_DATA)
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--messages", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--list-messages", action="store_true", help="print the messages and literals and stop")
    ap.add_argument("--compare", help="a second errdex binary timed in the same runs (before/after)")
    args = ap.parse_args()

    print("$ " + shlex.join([os.path.relpath(sys.argv[0])] + sys.argv[1:]))
    if args.build:
        build(args.errdex, args.db, args.mirrors)
        repos = catalog_repos(args.errdex, args.db)
        print(f"{os.path.relpath(args.db)}: {len(repos)} repositories: {', '.join(repos)}")
        return
    m = se.require_matcher(args.db)
    repos = catalog_repos(args.errdex, args.db)
    print(f"matcher stored {m[0]}: {m[1]} errors, {m[2]} anchors")
    if len(repos) < 5:
        sys.exit(f"{args.db} holds {len(repos)} repositories (needs >= 5): run with --build first")
    msgs = pick_messages(args.errdex, args.db, args.data, args.mirrors, args.messages, args.seed)
    print(f"catalog {os.path.relpath(args.db)}: {len(repos)} repositories; {len(msgs)} messages; "
          f"{args.runs} interleaved runs")
    if args.list_messages:
        for m in msgs:
            print(json.dumps({"label": m["label"], "literal": m["literal"], "text": m["text"]}, ensure_ascii=False))
        return

    def errdex_cmd(binary=None):
        return [binary or args.errdex, "explain", "-", "--db", args.db, "--format", "json", "--top", str(args.top)]

    def grep_cmd(m):
        return ["git", "--git-dir", m["git_dir"], "grep", "-F", "-e", m["literal"], "HEAD"]

    print("per message: " + shlex.join(errdex_cmd()) + " < MESSAGE")
    print("baseline:    git --git-dir MIRROR grep -F -e LITERAL HEAD")

    # Warm-up (untimed), and what each side finds.
    for m in msgs:
        p = se.run_errdex(errdex_cmd(), input_text=m["text"], check_rcs=(0, 1))
        matches = se.parse_matches(json.loads(p.stdout)) if p.stdout.strip() else []
        m["errdex_rank"] = next((i + 1 for i, x in enumerate(matches)
                                 if (x["repo"], x["path"], x["line"]) in m["expect"] or
                                 x["id"] == m.get("error_id")), None)
        _, g = timed(grep_cmd(m))
        m["grep_lines"] = len(g.stdout.splitlines())
        m["grep_hit"] = any(f"HEAD:{path}:" in line for _, path, _ in m["expect"] for line in g.stdout.splitlines())
        m["e_times"], m["g_times"], m["c_times"], m["e_cpu"], m["c_cpu"] = [], [], [], [], []

    for run in range(args.runs):
        for m in msgs:
            # The two binaries alternate which goes first, so neither always meets the other's cache state.
            if args.compare and run % 2:
                t, _ = timed(errdex_cmd(args.compare), m["text"], m["c_cpu"])
                m["c_times"].append(t)
            while True:
                t, p = timed(errdex_cmd(), m["text"], m["e_cpu"])
                if p.returncode in (0, 1):
                    break
                m["e_cpu"].pop()
                print(f"  (errdex exited {p.returncode}: {p.stderr.strip()[:200]}; retrying)", file=sys.stderr)
                time.sleep(10)
            m["e_times"].append(t)
            if args.compare and not run % 2:
                t, _ = timed(errdex_cmd(args.compare), m["text"], m["c_cpu"])
                m["c_times"].append(t)
            t, _ = timed(grep_cmd(m))
            m["g_times"].append(t)

    print()
    print("| message | literal grepped | errdex median | errdex p90 | git grep median | git grep p90 | ratio | "
          "errdex rank | grep lines (site found) |")
    print("|---|---|---|---|---|---|---|---|---|")
    ratios = []
    for m in msgs:
        em, gm = statistics.median(m["e_times"]), statistics.median(m["g_times"])
        ratios.append(em / gm)
        lit = m["literal"] if len(m["literal"]) <= 40 else m["literal"][:37] + "..."
        print(f"| {m['label']} | `{lit}` | {1000 * em:.1f} ms | {1000 * p90(m['e_times']):.1f} ms | "
              f"{1000 * gm:.1f} ms | {1000 * p90(m['g_times']):.1f} ms | {em / gm:.2f} | "
              f"{m['errdex_rank'] or '-'} | {m['grep_lines']} ({'yes' if m['grep_hit'] else 'no'}) |")
    all_e = [t for m in msgs for t in m["e_times"]]
    all_g = [t for m in msgs for t in m["g_times"]]
    print()
    print(f"| overall ({len(msgs)} messages x {args.runs} runs, {len(repos)} repositories) | errdex explain | "
          f"git grep -F (one repository) | ratio |")
    print("|---|---|---|---|")
    print(f"| median | {1000 * statistics.median(all_e):.1f} ms | {1000 * statistics.median(all_g):.1f} ms | "
          f"{statistics.median(all_e) / statistics.median(all_g):.2f} |")
    print(f"| p90 | {1000 * p90(all_e):.1f} ms | {1000 * p90(all_g):.1f} ms | {p90(all_e) / p90(all_g):.2f} |")
    print(f"| median of per-message ratios | | | {statistics.median(ratios):.2f} |")
    if args.compare:
        all_c = [t for m in msgs for t in m["c_times"]]
        e_cpu = [t for m in msgs for t in m["e_cpu"]]
        c_cpu = [t for m in msgs for t in m["c_cpu"]]
        print()
        print(f"| same runs | {args.errdex} | {args.compare} (--compare) |")
        print("|---|---|---|")
        print(f"| wall median | {1000 * statistics.median(all_e):.1f} ms | {1000 * statistics.median(all_c):.1f} ms |")
        print(f"| wall p90 | {1000 * p90(all_e):.1f} ms | {1000 * p90(all_c):.1f} ms |")
        print(f"| CPU median | {1000 * statistics.median(e_cpu):.1f} ms | {1000 * statistics.median(c_cpu):.1f} ms |")
        print(f"| CPU p90 | {1000 * p90(e_cpu):.1f} ms | {1000 * p90(c_cpu):.1f} ms |")
        print(f"| CPU total | {sum(e_cpu):.2f} s | {sum(c_cpu):.2f} s |")


if __name__ == "__main__":
    main()
