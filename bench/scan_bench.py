#!/usr/bin/env python3
"""Speed and accuracy of `errdex scan` on a large synthetic application log, against grep -F.

  bench/scan_bench.py --build [--errdex build/errdex] [--db bench/out/scan.db]
  bench/scan_bench.py --errdex build/errdex --db DB [--mb 200] [--error-rate 0.05] [--traceback-share 0.3]
                      [--seed 1] [--runs 5]

--build makes a catalog with more than 10,000 distinct templates: the local standard library, the six fetched
mirrors at HEAD (as bench/explain_latency.py --build) and the local site-packages directory (as
local/site-packages).

The log (bench/out/scan-KEY.log, reused when present; KEY hashes the options and the catalog's errors) is
about MB megabytes of realistic noise (uvicorn/gunicorn/django access lines, APScheduler and Celery job
lines, urllib3 and SQLAlchemy debug lines, application INFO/WARNING lines) in which a share ERROR_RATE of the
records are errors rendered from the catalog's templates (every template with a literal word, cycled in
random order): `2026-11-29 12:00:01,123 ERROR app.worker: Type: message` lines, full tracebacks whose
innermost frame is the raise site and whose last line is `Type: message` (TRACEBACK_SHARE of them), and
`WARNING py.warnings: PATH:LINE: Category: message` lines for warnings. Ground truth (bench/out/scan-KEY.truth.jsonl):
for each error record its lines and its error id.

Runs `errdex scan LOG --db DB --format jsonl` (output to a file) and the two baselines back to back, RUNS
times, after one untimed run of each: `grep -F -n -f FRAGS LOG` with FRAGS = every literal piece of >= 4
bytes of every template of the catalog (cut at placeholders and newlines), and the same with one longest
such piece per template. grep runs with LC_ALL=C. Reports median seconds and MB/s; for errdex, recall
(error records with a finding inside the record attributed to the right error id or to an error with the
identical normalized template) and precision (such findings / all findings); for grep, recall (records one
of whose message lines grep prints) and the number of lines printed.
"""

import argparse
import collections
import hashlib
import json
import os
import random
import re
import shlex
import statistics
import subprocess
import sys
import sysconfig
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import explain_latency  # noqa: E402
import synthetic_explain as se  # noqa: E402

SITE_PACKAGES = sysconfig.get_paths()["purelib"]


# --------------------------------------------------------------------------------------------------------
# Noise.

PATHS_HTTP = ["/api/v1/items/{n}", "/api/v1/orders?page={k}", "/health", "/metrics", "/static/js/app.{h}.js",
              "/api/v1/users/{n}/profile", "/login", "/api/v2/search?q={w}", "/favicon.ico", "/ws/feed"]
JOBS = ["cleanup_sessions", "refresh_tokens", "sync_inventory", "send_digest", "rotate_logs", "poll_queue"]
TASKS = ["tasks.send_email", "tasks.resize_image", "billing.charge_card", "reports.build_daily", "search.reindex"]
HOSTS = ["api.stripe.com", "hooks.slack.com", "s3.amazonaws.com", "api.example.com", "auth.internal"]
TABLES = ["users", "orders", "order_items", "products", "sessions", "invoices"]


def ts(t):
    """`2026-11-29 12:00:01,123` for t seconds after 2026-11-29 00:00."""
    ms = int(t * 1000)
    s, ms = divmod(ms, 1000)
    m, s = divmod(s, 60)
    h, m = divmod(m, 60)
    d, h = divmod(h, 24)
    return f"2026-{11 if 29 + d <= 30 else 12}-{(29 + d - 1) % 30 + 1:02d} {h:02d}:{m:02d}:{s:02d},{ms:03d}"


def noise(rng, t):
    """One noise record: a list of lines."""
    T = ts(t)
    k = rng.random()
    n = rng.randrange(1, 99999)
    path = rng.choice(PATHS_HTTP).format(n=n, k=rng.randrange(1, 50), h=f"{rng.getrandbits(32):08x}",
                                         w=rng.choice(se.WORDS))
    ip = f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
    if k < 0.30:
        method = rng.choice(["GET", "GET", "GET", "POST", "PUT", "DELETE"])
        status = rng.choice([200, 200, 200, 200, 201, 204, 301, 304, 400, 401, 404, 500])
        return [f'{T} INFO uvicorn.access: {ip}:{rng.randrange(1024, 65535)} - "{method} {path} HTTP/1.1" {status}']
    if k < 0.38:
        return [f'[{T[:19]} +0000] [{rng.randrange(2, 40000)}] [INFO] '
                + rng.choice(["Booting worker with pid: {p}", "Worker exiting (pid: {p})", "Handling signal: winch",
                              "Listening at: http://0.0.0.0:8000 ({p})", "Autorestarting worker after current request."])
                .format(p=rng.randrange(2, 40000))]
    if k < 0.46:
        job = rng.choice(JOBS)
        trig = f"interval[0:{rng.choice(['01', '05', '15'])}:00]"
        if rng.random() < 0.5:
            return [f'{T} INFO apscheduler.executors.default: Running job "{job} (trigger: {trig}, next run at: '
                    f'{T[:19]} UTC)" (scheduled at {T[:19]}.000000+00:00)']
        return [f'{T} INFO apscheduler.executors.default: Job "{job} (trigger: {trig}, next run at: {T[:19]} UTC)" '
                f'executed successfully']
    if k < 0.56:
        task = rng.choice(TASKS)
        tid = f"{rng.getrandbits(32):08x}-{rng.getrandbits(16):04x}-4{rng.getrandbits(12):03x}-a{rng.getrandbits(12):03x}-" \
              f"{rng.getrandbits(48):012x}"
        if rng.random() < 0.5:
            return [f"[{T}: INFO/MainProcess] Task {task}[{tid}] received"]
        return [f"[{T}: INFO/ForkPoolWorker-{rng.randrange(1, 9)}] Task {task}[{tid}] succeeded in "
                f"{rng.uniform(0.001, 3):.6f}s: None"]
    if k < 0.68:
        host = rng.choice(HOSTS)
        if rng.random() < 0.4:
            return [f"{T} DEBUG urllib3.connectionpool: Starting new HTTPS connection (1): {host}:443"]
        return [f'{T} DEBUG urllib3.connectionpool: https://{host}:443 "{rng.choice(["GET", "POST"])} {path} HTTP/1.1" '
                f'{rng.choice([200, 200, 201, 404, 429, 503])} {rng.randrange(0, 20000)}']
    if k < 0.78:
        tab = rng.choice(TABLES)
        return [f"{T} INFO sqlalchemy.engine.Engine: SELECT {tab}.id, {tab}.created_at, {tab}.status FROM {tab} "
                f"WHERE {tab}.id = %(id_1)s", f"{T} INFO sqlalchemy.engine.Engine: [cached since "
                f"{rng.uniform(0, 900):.4g}s ago] {{'id_1': {n}}}"]
    if k < 0.86:
        return [f"{T} INFO app.worker: processed batch {n} ({rng.randrange(1, 1000)} items) in "
                f"{rng.uniform(0.01, 9):.2f} s"]
    if k < 0.90:
        return [f"{T} WARNING app.api: retrying request to https://{rng.choice(HOSTS)}{path} (attempt "
                f"{rng.randrange(2, 5)}/5) after {rng.uniform(0.1, 5):.1f} s"]
    if k < 0.93:
        return [f"{T} INFO app.metrics: http_requests_total={n} http_errors_total={rng.randrange(0, 50)} "
                f"error_rate={rng.uniform(0, 0.05):.4f} p99_latency_ms={rng.randrange(5, 900)}"]
    if k < 0.96:
        return [f'{T} INFO django.server: "{rng.choice(["GET", "POST"])} {path} HTTP/1.1" '
                f'{rng.choice([200, 302, 304, 404])} {rng.randrange(0, 90000)}']
    if k < 0.98:
        return [f"{T} WARNING app.cache: cache miss ratio {rng.uniform(0.3, 0.9):.2f} above threshold 0.30 for "
                f"key prefix {rng.choice(se.IDENTS)}"]
    return [f"{T} DEBUG asyncio: Using selector: EpollSelector"]


# --------------------------------------------------------------------------------------------------------
# Error records.

def installed_path(repo, path):
    if repo == explain_latency.STDLIB_NAME:
        return f"/usr/local/lib/python3.11/{path}"
    for prefix in ("lib/", "src/"):
        if path.startswith(prefix):
            path = path[len(prefix):]
            break
    return f"/srv/app/.venv/lib/python3.11/site-packages/{path}"


def error_record(rng, t, err):
    """(lines, index of the first message line, index of the last message line, form)."""
    T = ts(t)
    message, _ = se.render(err["parts"], rng)
    msg_lines = message.split("\n")
    typ = se.printed_type(err)
    site = err["sites"][0]
    if err["kind"] == "warn" and typ:
        path = installed_path(site["repo"], site["path"])
        lines = [f"{T} WARNING py.warnings: {path}:{site['line']}: {typ}: {msg_lines[0]}"] + msg_lines[1:]
        lines.append("  warnings.warn(")
        return lines, 0, len(msg_lines) - 1, "warning"
    head = f"{typ}: " if typ else ""
    if typ and rng.random() < TRACEBACK_SHARE:
        func = (site.get("function") or "<module>").rsplit(".", 1)[-1]
        written = err.get("type") or typ
        code = f"assert {rng.choice(se.IDENTS)}, msg" if err["kind"] == "assert" else f"raise {written}(msg)"
        job = rng.choice(JOBS)
        lines = [f"{T} ERROR app.worker: Unhandled exception in job {job!r}",
                 "Traceback (most recent call last):",
                 '  File "/srv/app/worker/runner.py", line 212, in run_job',
                 "    result = await job.run(payload)",
                 f'  File "/srv/app/worker/jobs/{job}.py", line {rng.randrange(10, 400)}, in run',
                 f"    return self.{rng.choice(se.IDENTS)}()",
                 f'  File "{installed_path(site["repo"], site["path"])}", line {site["line"]}, in {func}',
                 f"    {code}"]
        first = len(lines)
        lines.append(head + msg_lines[0])
        lines += msg_lines[1:]
        return lines, first, len(lines) - 1, "traceback"
    lines = [f"{T} ERROR app.worker: {head}{msg_lines[0]}"] + msg_lines[1:]
    return lines, 0, len(msg_lines) - 1, "line"


TRACEBACK_SHARE = 0.3


def build_log(log_path, truth_path, pool, mb, error_rate, seed):
    rng = random.Random(seed)
    order = pool[:]
    rng.shuffle(order)
    target = int(mb * 1e6)
    size = 0
    lineno = 0
    t = 0.0
    k = 0
    forms = collections.Counter()
    used = set()
    with open(log_path, "w", encoding="utf-8", newline="\n") as log, \
            open(truth_path, "w", encoding="utf-8") as truth:
        buf = []
        while size < target:
            t += rng.expovariate(40.0)
            if rng.random() < error_rate:
                err = order[k % len(order)]
                k += 1
                lines, a, b, form = error_record(rng, t, err)
                forms[form] += 1
                used.add(err["normalized"])
                truth.write(json.dumps({"first": lineno + 1, "line": lineno + 1 + a, "last": lineno + 1 + b,
                                        "id": err["id"], "norm": err["normalized"], "form": form},
                                       ensure_ascii=False) + "\n")
            else:
                lines = noise(rng, t)
            for line in lines:
                buf.append(line)
                size += len(line.encode("utf-8")) + 1
            lineno += len(lines)
            if len(buf) > 20000:
                log.write("\n".join(buf) + "\n")
                buf = []
        if buf:
            log.write("\n".join(buf) + "\n")
    return {"lines": lineno, "bytes": size, "errors": k, "forms": dict(forms), "templates": len(used)}


# --------------------------------------------------------------------------------------------------------

def load_truth(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def parse_scan_jsonl(path):
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                d = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(d, dict) and "line" in d:
                out.append(d)
    return out


def score_scan(findings, truth):
    """Recall and precision of scan findings against the ground truth."""
    starts = [r["first"] for r in truth]
    import bisect
    found = set()
    exact = set()
    correct = wrong = outside = 0
    bad = []  # (finding, record or None)
    for f in findings:
        ln = f.get("line")
        i = bisect.bisect_right(starts, ln) - 1 if isinstance(ln, int) else -1
        rec = truth[i] if i >= 0 and truth[i]["first"] <= ln <= truth[i]["last"] else None
        if rec is None:
            outside += 1
            bad.append((f, None))
            continue
        ok = f.get("id") == rec["id"] or (f.get("template") is not None and se.normalize(f["template"]) == rec["norm"])
        if ok:
            correct += 1
            found.add(i)
            if ln == rec["line"]:
                exact.add(i)
        else:
            wrong += 1
            bad.append((f, rec))
    return {"findings": len(findings), "correct": correct, "wrong": wrong, "outside": outside,
            "recall_records": len(found), "at_message_line": len(exact), "found": found, "bad": bad}


LOG_SOURCE_RE = re.compile(r"^\[?[\d-]+ [\d:,]+(?: \+0000\])?:? ?(?:\[\d+\] )?(\S+) ([^\s\[\]]+)")


def log_source(text):
    """`WARNING app.api:`, `INFO/ForkPoolWorker] Task`, ... : what kind of log line a line is."""
    m = LOG_SOURCE_RE.match(text)
    if not m:
        return "(continuation line)"
    level = re.sub(r"-\d+\]?$", "", m.group(1))
    return f"{level} {m.group(2)}"


def explain_bad_findings(bad, log, top=8):
    """Group the wrong findings: outside records by (log line kind, template); inside records by (record
    form, line within the record)."""
    need = {f["line"] for f, _ in bad}
    text = {}
    with open(log, encoding="utf-8", errors="replace") as lf:
        for ln, line in enumerate(lf, 1):
            if ln in need:
                text[ln] = line.rstrip("\n")
    outside, inside = collections.Counter(), collections.Counter()
    example = {}
    for f, rec in bad:
        t = (f.get("template") or "null")[:40]
        line = text.get(f["line"], "")
        if rec is None:
            k = (log_source(line), t)
            outside[k] += 1
        else:
            where = "message line" if rec["line"] <= f["line"] <= rec["last"] else \
                ("source line of the raise frame" if rec["form"] == "traceback" and f["line"] == rec["line"] - 1
                 else "other line of the record")
            k = (f"{rec['form']}: {where}", t)
            inside[k] += 1
        example.setdefault(k, line[:150])
    out = []
    for title, c in (("outside error records", outside), ("inside error records, wrong error", inside)):
        out.append(f"errdex wrong findings {title} (top {top} by log line kind / record part, template):")
        for (a, b), n in c.most_common(top):
            out.append(f"  {n:7d}  {a} -> template {b!r}   e.g. {example[(a, b)]!r}")
    return out


def grep_printed_lines(path):
    nums = []
    with open(path, "rb") as f:
        for line in f:
            j = line.find(b":")
            if j > 0:
                try:
                    nums.append(int(line[:j]))
                except ValueError:
                    pass
    return nums


def score_grep(nums, truth):
    printed = set(nums)
    found = 0
    for r in truth:
        if any(n in printed for n in range(r["line"], r["last"] + 1)):
            found += 1
    in_records = 0
    starts = [r["first"] for r in truth]
    import bisect
    for n in nums:
        i = bisect.bisect_right(starts, n) - 1
        if i >= 0 and truth[i]["first"] <= n <= truth[i]["last"]:
            in_records += 1
    return {"recall_records": found, "printed": len(nums), "printed_in_records": in_records}


def fragments_files(errors, frags_all, frags_long):
    all_pieces, longest = set(), set()
    by_norm = {}
    for e in errors.values():
        if e["parts"] is None:
            continue
        # A NUL makes grep read its pattern file as binary and silently drop patterns: leave such out.
        pieces = [p for p in se.literal_fragments(e["parts"]) if len(p.encode()) >= 4 and "\x00" not in p]
        all_pieces.update(pieces)
        if pieces:
            best = max(pieces, key=lambda p: (len(p.encode()), p))
            old = by_norm.get(e["normalized"])
            if old is None or (len(best.encode()), best) > (len(old.encode()), old):
                by_norm[e["normalized"]] = best
    longest = set(by_norm.values())
    for path, pieces in ((frags_all, all_pieces), (frags_long, longest)):
        with open(path, "w", encoding="utf-8") as f:
            for p in sorted(pieces):
                f.write(p + "\n")
    return len(all_pieces), len(longest)


def timed_to_file(cmd, out_path, env=None):
    with open(out_path, "wb") as out:
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE, env=env)
        return time.perf_counter() - t0, p


def main():
    global TRACEBACK_SHARE
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--errdex", default="build/errdex")
    ap.add_argument("--db", default=os.path.join(se.OUT, "scan.db"))
    ap.add_argument("--build", action="store_true", help="build the catalog (stdlib, 6 mirrors, site-packages)")
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--mb", type=float, default=200)
    ap.add_argument("--error-rate", type=float, default=0.05)
    ap.add_argument("--traceback-share", type=float, default=0.3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--min-templates", type=int, default=10000)
    ap.add_argument("--generate-only", action="store_true", help="write the log and ground truth and stop")
    ap.add_argument("--no-grep", action="store_true", help="skip the grep baselines")
    args = ap.parse_args()
    TRACEBACK_SHARE = args.traceback_share

    print("$ " + shlex.join([os.path.relpath(sys.argv[0])] + sys.argv[1:]))
    if args.build:
        os.makedirs(os.path.dirname(os.path.abspath(args.db)), exist_ok=True)
        se.index_all(explain_latency.build_commands(args.errdex, args.db, args.mirrors) +
                     [[args.errdex, "index", SITE_PACKAGES, "--name", "local/site-packages", "--db", args.db,
                       "--jobs", "2"]], args.db)

    errors = se.group_errors(se.list_sites(args.errdex, args.db))
    pool = se.eligible(errors)
    n_templates = len({e["normalized"] for e in pool})
    repos = sorted({e["repo"] for e in errors.values()})
    print(f"catalog {os.path.relpath(args.db)}: {len(repos)} repositories, {len(errors)} errors, {len(pool)} with a "
          f"literal word, {n_templates} distinct normalized templates among them")
    if n_templates < args.min_templates:
        print(f"warning: fewer than {args.min_templates} distinct templates (use --build for a bigger catalog)")
    if args.build:
        return
    m = se.require_matcher(args.db)
    print(f"matcher stored {m[0]}: {m[1]} errors, {m[2]} anchors")

    os.makedirs(se.OUT, exist_ok=True)
    key = hashlib.sha1(json.dumps([args.mb, args.error_rate, args.traceback_share, args.seed,
                                   [e["id"] for e in pool], 2]).encode()).hexdigest()[:10]
    log = os.path.join(se.OUT, f"scan-{key}.log")
    truth_path = os.path.join(se.OUT, f"scan-{key}.truth.jsonl")
    if not (os.path.exists(log) and os.path.exists(truth_path)):
        t0 = time.perf_counter()
        info = build_log(log + ".part", truth_path, pool, args.mb, args.error_rate, args.seed)
        os.replace(log + ".part", log)
        print(f"wrote {os.path.relpath(log)} in {time.perf_counter() - t0:.1f} s: {info}")
    truth = load_truth(truth_path)
    size = os.path.getsize(log)
    forms = collections.Counter(r["form"] for r in truth)
    n_lines = sum(1 for _ in open(log, "rb"))
    print(f"log {os.path.relpath(log)}: {size / 1e6:.1f} MB, {n_lines} lines, {len(truth)} error records "
          f"({', '.join(f'{k} {v}' for k, v in sorted(forms.items()))}) from "
          f"{len({r['norm'] for r in truth})} distinct templates")
    frags_all = os.path.join(se.OUT, f"scan-{key}.frags-all.txt")
    frags_long = os.path.join(se.OUT, f"scan-{key}.frags-longest.txt")
    n_all, n_long = fragments_files(errors, frags_all, frags_long)
    print(f"grep patterns: {n_all} literal pieces >= 4 bytes ({os.path.relpath(frags_all)}), "
          f"{n_long} longest pieces ({os.path.relpath(frags_long)})")
    if args.generate_only:
        return

    scan_out = os.path.join(se.OUT, "scan-errdex.jsonl")
    cmds = [("errdex scan", [args.errdex, "scan", log, "--db", args.db, "--format", "jsonl"], scan_out, None)]
    genv = dict(os.environ, LC_ALL="C")
    if not args.no_grep:
        cmds.append(("grep -F, all pieces", ["grep", "-a", "-F", "-n", "-f", frags_all, log],
                     os.path.join(se.OUT, "scan-grep-all.txt"), genv))
        cmds.append(("grep -F, longest piece per template", ["grep", "-a", "-F", "-n", "-f", frags_long, log],
                     os.path.join(se.OUT, "scan-grep-longest.txt"), genv))
    for name, cmd, out, env in cmds:
        print(f"{name}: {'LC_ALL=C ' if env else ''}{shlex.join(cmd)} > {os.path.relpath(out)}")

    def run(cmd, out, env, errdex):
        while True:
            t, p = timed_to_file(cmd, out, env)
            if not errdex or p.returncode in (0, 1):
                return t, p
            print(f"  (errdex exited {p.returncode}: {p.stderr.decode(errors='replace').strip()[:300]}; retrying)",
                  file=sys.stderr)
            time.sleep(15)

    times = {name: [] for name, *_ in cmds}
    # The first, untimed run of each gives the accuracy figures; then RUNS interleaved timed runs.
    scores = {}
    for name, cmd, out, env in cmds:
        run(cmd, out, env, name.startswith("errdex"))
        if name.startswith("errdex"):
            scores[name] = score_scan(parse_scan_jsonl(out), truth)
        else:
            scores[name] = score_grep(grep_printed_lines(out), truth)
    for _ in range(args.runs):
        for name, cmd, out, env in cmds:
            t, _ = run(cmd, out, env, name.startswith("errdex"))
            times[name].append(t)

    n = len(truth)
    print()
    print(f"| {size / 1e6:.0f} MB log, {n} error records, {len(repos)}-repo catalog | median s | MB/s | recall | "
          f"precision | lines reported |")
    print("|---|---|---|---|---|---|")
    for name, *_ in cmds:
        med = statistics.median(times[name])
        s = scores[name]
        if name.startswith("errdex"):
            prec = se.pct(s["correct"], s["findings"])
            extra = f"{s['findings']} findings"
        else:
            prec = f"({se.pct(s['printed_in_records'], s['printed'])} of printed lines are error lines)"
            extra = f"{s['printed']} lines"
        print(f"| {name} | {med:.2f} | {size / 1e6 / med:.1f} | {se.pct(s['recall_records'], n)} | {prec} | {extra} |")
    s = scores["errdex scan"]
    print()
    print(f"errdex findings: {s['correct']} right, {s['wrong']} wrong attribution inside an error record, "
          f"{s['outside']} outside error records; {s['at_message_line']} records found at the exact message line")
    by_form = collections.Counter()
    tot_form = collections.Counter()
    for i, r in enumerate(truth):
        tot_form[r["form"]] += 1
        if i in s["found"]:
            by_form[r["form"]] += 1
    for line in explain_bad_findings(s["bad"], log):
        print(line)
    print("errdex recall by record form: " + ", ".join(f"{k} {se.pct(by_form[k], v)} of {v}"
                                                       for k, v in sorted(tot_form.items())))
    # Examples of misses, for reading.
    miss_path = os.path.join(se.OUT, "scan-misses.jsonl")
    with open(miss_path, "w", encoding="utf-8") as f:
        lines_needed = {}
        for i, r in enumerate(truth):
            if i not in s["found"] and len(lines_needed) < 300:
                lines_needed[i] = r
        want = {ln for r in lines_needed.values() for ln in range(r["first"], r["last"] + 1)}
        text = {}
        with open(log, encoding="utf-8", errors="replace") as lf:
            for ln, line in enumerate(lf, 1):
                if ln in want:
                    text[ln] = line.rstrip("\n")
        for i, r in lines_needed.items():
            e = errors[r["id"]]
            f.write(json.dumps({"line": r["line"], "form": r["form"], "id": r["id"], "template": e["template"],
                                "text": "\n".join(text.get(ln, "") for ln in range(r["first"], r["last"] + 1))},
                               ensure_ascii=False) + "\n")
    print(f"first {len(lines_needed)} missed records written to {os.path.relpath(miss_path)}")


if __name__ == "__main__":
    main()
