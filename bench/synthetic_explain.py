#!/usr/bin/env python3
"""Synthetic accuracy of `errdex explain`: render messages from the catalog's own templates and check that
explain maps each one back to the error it was rendered from.

  bench/synthetic_explain.py --errdex build/errdex --db DB [--samples 400] [--seed 1] [--jobs 2] [--top 5]

Reads every site with `errdex list --format jsonl`, groups the sites by error id, and samples errors whose
template has at least one literal word. Each placeholder is filled with a plausible value guessed from its
expression (path/file -> a path, n/count/size/len(...) -> an int, name/key -> an identifier, url -> a URL,
`!r` -> a repr, type(x).__name__ -> a class name, otherwise a random word); half of the samples are given
as `Type: message` (the type Python would print for the site), the others as the bare message.
Runs `errdex explain - --format json --top 5` per sample (the sample on stdin). A hit is a match whose id
is the error's id or whose site is one of the error's sites (same repo, path and line). Figures are given
for all sampled errors and for those with a unique template (no other error of the catalog has the same
normalized template, placeholders replaced by {}), where the right answer is unambiguous.
Misses (not a top-1 hit) go to bench/out/synthetic-misses.jsonl. Deterministic for a given --seed and
catalog.

The other bench scripts import the helpers of this file (template parsing, value rendering, running errdex).
"""

import argparse
import ast
import collections
import concurrent.futures
import json
import os
import random
import re
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "out")


# --------------------------------------------------------------------------------------------------------
# Running errdex (the binary is rebuilt from time to time: wait for it instead of failing).

def run_errdex(cmd, input_text=None, wait=600, check_rcs=(0, 1)):
    """Run an errdex command; returns CompletedProcess. Retries while the binary is missing or being
    replaced (exec errors, killed by a signal, rc 126/127) for up to `wait` seconds."""
    deadline = time.monotonic() + wait
    delay = 2.0
    while True:
        try:
            p = subprocess.run(cmd, input=input_text, capture_output=True, text=True, errors="replace")
            if p.returncode in check_rcs:
                return p
            transient = p.returncode < 0 or p.returncode in (126, 127)
            if not transient:
                raise RuntimeError(f"{shlex.join(cmd)} exited {p.returncode}: {p.stderr.strip()[:500]}")
        except (FileNotFoundError, PermissionError, OSError) as e:  # mid-rebuild: no binary, text file busy
            if time.monotonic() > deadline:
                raise
            print(f"  (errdex not runnable: {e}; retrying)", file=sys.stderr)
        else:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{shlex.join(cmd)} exited {p.returncode}: {p.stderr.strip()[:500]}")
            print(f"  (errdex exited {p.returncode}; retrying)", file=sys.stderr)
        time.sleep(delay)
        delay = min(delay * 2, 30.0)


def stored_matcher(db):
    """(built_at, errors, anchors) of the matcher stored in the catalog, or None when it has none (explain
    and scan then build one in memory on every run, which is not what a latency figure should measure)."""
    import sqlite3
    if not os.path.exists(db):
        return None
    try:
        con = sqlite3.connect(f"file:{os.path.abspath(db)}?mode=ro", uri=True)
        try:
            return con.execute("SELECT built_at, errors, anchors FROM matcher WHERE id = 1").fetchone()
        finally:
            con.close()
    except sqlite3.Error:
        return None


def drop_catalog_without_matcher(db):
    """A catalog written before the matcher existed gets one only when a revision is written: remove it so
    that it is rebuilt. Returns True when removed."""
    if os.path.exists(db) and stored_matcher(db) is None:
        print(f"  {db} has no stored matcher (older errdex): removing it to rebuild")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)
        return True
    return False


def index_all(cmds, db):
    """Run errdex index commands into DB (errdex skips a revision it already holds with the same extractor
    version). When the catalog cannot be written (made by an older errdex whose schema no longer fits) and it
    lives in bench/out, remove it and index everything again."""
    drop_catalog_without_matcher(db)
    for attempt in (1, 2):
        try:
            for cmd in cmds:
                t0 = time.perf_counter()
                p = run_errdex(cmd, check_rcs=(0,))
                lines = p.stdout.strip().splitlines()
                summary = " / ".join(x.strip() for x in lines[:3])
                print(f"$ {shlex.join(cmd)}\n  {time.perf_counter() - t0:.1f} s: {summary}")
            return
        except RuntimeError as e:
            if attempt == 2 or not os.path.abspath(db).startswith(OUT + os.sep):
                raise
            print(f"  index failed ({str(e)[-200:]}); removing {db} and indexing again")
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(db + suffix):
                    os.remove(db + suffix)


def require_matcher(db):
    m = stored_matcher(db)
    if m is None:
        sys.exit(f"{db} has no stored matcher: rebuild it (the script's --build, or errdex index into a fresh file)")
    return m


def list_sites(errdex, db, repo=None, rev=None):
    cmd = [errdex, "list", "--db", db, "--format", "jsonl"]
    if repo:
        cmd += ["--repo", repo]
    if rev:
        cmd += ["--rev", rev]
    p = run_errdex(cmd, check_rcs=(0,))
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]


def explain(errdex, db, text, top=5):
    """Run `errdex explain - --format json`; returns (rc, parsed JSON or None, stderr)."""
    cmd = [errdex, "explain", "-", "--db", db, "--top", str(top), "--format", "json"]
    p = run_errdex(cmd, input_text=text, check_rcs=(0, 1, 2))
    data = None
    if p.stdout.strip():
        try:
            data = json.loads(p.stdout)
        except json.JSONDecodeError:
            data = None
    return p.returncode, data, p.stderr


def parse_matches(data, key="matches"):
    """Matches of an explain JSON as flat dicts: id, type, template, score, repo, path, line, function."""
    out = []
    if not isinstance(data, dict):
        return out
    for m in data.get(key) or []:
        site = m.get("site") or {}
        out.append({"id": m.get("id"), "type": m.get("type"), "template": m.get("template"),
                    "score": m.get("score"), "repo": site.get("repo"), "path": site.get("path"),
                    "line": site.get("line"), "function": site.get("function"),
                    "bindings": m.get("bindings") or {}})
    return out


def short_match(m):
    if m is None:
        return "-"
    t = m.get("template")
    t = "null" if t is None else (t if len(t) <= 60 else t[:57] + "...")
    return f"{m.get('path')}:{m.get('line')} {m.get('function')} [{t}]"


# --------------------------------------------------------------------------------------------------------
# Templates (docs/extraction.md): literal braces doubled, each placeholder a balanced {...}.

def parse_template(t):
    """List of (is_placeholder, text): literal text with braces undoubled, placeholders' inner text."""
    parts = []
    lit = []
    i, n = 0, len(t)
    while i < n:
        c = t[i]
        if c == "{":
            if t.startswith("{", i + 1):
                lit.append("{")
                i += 2
                continue
            depth, j = 0, i
            while j < n:
                if t[j] == "{":
                    depth += 1
                elif t[j] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j >= n:  # unbalanced: the rest is literal
                lit.append(t[i:])
                break
            if lit:
                parts.append((False, "".join(lit)))
                lit = []
            parts.append((True, t[i + 1:j]))
            i = j + 1
        elif c == "}":
            lit.append("}")
            i += 2 if t.startswith("}", i + 1) else 1
        else:
            lit.append(c)
            i += 1
    if lit:
        parts.append((False, "".join(lit)))
    return parts


def normalize(t):
    """Normalized template: every placeholder becomes {} (literal braces stay doubled)."""
    if t is None:
        return None
    out = []
    for is_ph, text in parse_template(t):
        out.append("{}" if is_ph else text.replace("{", "{{").replace("}", "}}"))
    return "".join(out)


WORD_RE = re.compile(r"[A-Za-z]{2,}")


def has_literal_word(parts):
    return any(not is_ph and WORD_RE.search(text) for is_ph, text in parts)


def literal_fragments(parts, min_len=1):
    """Literal pieces of a template, cut at placeholders and newlines, stripped, at least min_len bytes."""
    out = []
    for is_ph, text in parts:
        if is_ph:
            continue
        for piece in text.split("\n"):
            piece = piece.strip()
            if len(piece.encode()) >= min_len:
                out.append(piece)
    return out


# --------------------------------------------------------------------------------------------------------
# Plausible values for placeholders.

WORDS = """alpha apple archive backend batch beacon border bucket buffer cache canvas cargo channel cluster
column config context cursor dataset delta device domain driver engine entry event falcon feature filter
folder gateway gradient handler header index input kernel label ledger logger marker matrix member
metric module monitor network node option output packet parser pattern payload pipeline plugin portal
profile project queue record region report request resource result router sample schema scope segment
sender session shard signal source stage status stream target task tensor thread token trace tracker
upload user vector vendor widget worker""".split()
IDENTS = """user_id max_retries batch_size model_name learning_rate api_key session_id created_at
num_workers config_path timeout_ms request_id order_total item_count display_name parent_id""".split()
CLASSES = """DataFrame Tensor NoneType int str dict list tuple float bytes Session Request Response Engine
Connection Widget MyModel Config LightningModule ndarray Path Decimal datetime""".split()
QUALIFIED = """myapp.models.Order myapp.services.Billing builtins.object collections.OrderedDict
pandas.core.frame.DataFrame torch.Tensor numpy.ndarray sqlalchemy.orm.session.Session""".split()
DTYPES = "float32 float64 int64 int32 uint8 bool complex128 object <U10 datetime64[ns]".split()
HOSTS = "localhost db.internal api.example.com 10.0.3.17 redis-master cache.svc.cluster.local".split()
PATHS = ["/home/alice/project/data/train.csv", "/srv/app/config/settings.yaml", "/tmp/tmpa8f3k2/output.json",
         "C:\\Users\\bob\\Documents\\report.xlsx", "/var/lib/app/uploads/img_0042.png",
         "./checkpoints/epoch=3-step=1200.ckpt", "/etc/app/app.ini", "src/pkg/module.py",
         "/data/shards/part-00017.parquet", "static/css/site.css"]
URLS = ["https://api.example.com/v1/items?page=2", "http://localhost:8000/health", "wss://stream.example.org/feed",
        "https://files.example.net/dl/archive.tar.gz", "http://10.0.0.5:9200/_bulk", "https://example.com/"]
ERRMSGS = ["[Errno 111] Connection refused", "division by zero", "list index out of range",
           "[Errno 2] No such file or directory: 'config.yaml'", "timed out", "invalid literal for int() with base 10: 'abc'",
           "'NoneType' object has no attribute 'get'", "Expecting value: line 1 column 1 (char 0)"]
SENTENCES = ["the operation could not be completed", "value out of range", "expected a mapping",
             "unsupported operand", "missing required field", "connection was reset"]

INT_NAMES = set("""n i j k m num number count size length len idx index dim ndim axis port lineno line status
code status_code depth level width height nr ix pos position offset limit maxsize retries attempt attempts
nbytes bytes total rank world_size num_nodes nodes devices epoch epochs step steps batch_size version_num
start stop end begin shape_len ncols nrows rows cols columns_count capacity max min maximum minimum
expected got actual remaining received sent chunk_size bufsize timeout_ms year month day hour minute
second""".split())
INT_PREFIXES = ("n_", "num_", "max_", "min_", "len_", "total_", "nb_")
INT_SUFFIXES = ("_count", "_size", "_len", "_length", "_num", "_index", "_idx", "_dim", "_port", "_no",
                "_number", "_id", "_ms", "_bytes", "_rank", "_step", "_epoch", "_limit", "_lineno")
FLOAT_NAMES = set("timeout seconds elapsed delay ratio rate tol rtol atol lr eps alpha beta val_loss loss "
                  "threshold fraction percent progress duration interval".split())
PATH_NAMES = set("path file filename fname dir dirname directory folder root filepath infile outfile src dst "
                 "source dest destination location basedir cwd home prefix ckpt checkpoint logfile pathname "
                 "fullname".split())
URL_NAMES = set("url uri href endpoint link location_url base_url proxy".split())
HOST_NAMES = set("host hostname netloc server addr address ip domain".split())
IDENT_NAMES = set("""name key attr attr_name attribute field param parameter option opt column col table module
method func function fn kind mode op var arg argname label tag ident command cmd event backend strategy
accelerator precision scheme protocol encoding codec format fmt dialect driver engine schema typename
keyword kw setting section hook callback signal state stage policy algorithm algo plugin loader""".split())
CLASS_NAMES = set("type cls klass typ exc_type class_ clazz tp type_ obj_type target_type expected_type".split())
EXC_NAMES = set("e exc err error exception ex ex_value cause".split())
MSG_NAMES = set("msg message reason detail details text description desc explanation hint why".split())
BOOL_PREFIXES = ("is_", "has_", "use_", "enable_", "allow_", "should_")
DTYPE_NAMES = set("dtype dt dtypes ndtype sctype ctype".split())


class Raw(str):
    """A value already as Python would print it (its repr is itself)."""


def split_expr(expr):
    """(base expression, conversion or '', format spec or '') of a placeholder's inner text."""
    depth = 0
    quote = None
    conv, spec = "", ""
    base_end = len(expr)
    i = 0
    while i < len(expr):
        c = expr[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and c == "!" and i + 1 < len(expr) and expr[i + 1] in "rsa" and \
                (i + 2 == len(expr) or expr[i + 2] == ":"):
            conv = expr[i + 1]
            base_end = min(base_end, i)
            if i + 2 < len(expr):
                spec = expr[i + 3:]
            break
        elif depth == 0 and c == ":" and not expr[:i].lstrip().startswith("lambda") and \
                not (i + 1 < len(expr) and expr[i + 1] == "="):
            base_end = i
            spec = expr[i + 1:]
            break
        i += 1
    return expr[:base_end].strip(), conv, spec


def _leaf(base):
    """The name an expression is about: `self.path` -> path, `sizes[ix]` -> sizes, `f(x)` -> f."""
    b = base.strip()
    for _ in range(8):
        m = re.search(r"(\[[^\[\]]*\]|\([^()]*\))$", b)
        if not m:
            break
        b = b[:m.start()].rstrip()
    ids = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", b)
    return ids[-1].lower().lstrip("_") if ids else ""


def _singular(w):
    if w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith("s") and not w.endswith("ss") and len(w) > 3:
        return w[:-1]
    return w


def guess_value(expr, rng):
    """A plausible value for a placeholder expression (without its conversion and spec): int, float, str
    or Raw."""
    b = expr.strip()
    if not b:
        return rng.choice(WORDS)
    # A literal: its value.
    if re.match(r"^[rbuRBU]{0,2}['\"]", b) or re.match(r"^-?\d+(\.\d+)?$", b):
        try:
            v = ast.literal_eval(b)
            if isinstance(v, (str, int, float)):
                return v
            if isinstance(v, bytes):
                return Raw(repr(v))
        except (ValueError, SyntaxError):
            pass
    low = b.lower()
    if re.search(r"(__name__|__qualname__)$", b):
        return rng.choice(CLASSES)
    if low.startswith("type(") or low.endswith(".__class__") or low.endswith("__class__)"):
        return Raw(f"<class '{rng.choice(QUALIFIED)}'>")
    if low.startswith("len(") or low.endswith(".ndim") or low.endswith(".size") or low.startswith("sum(") \
            or low.startswith("int(") or low.startswith("max(") or low.startswith("min(") or \
            re.search(r"[-+*/%]\s*\d+$", b) or low.endswith(".__len__()") or low.endswith(".count"):
        return rng.choice([0, 1, 2, 3, 4, 8, 16, 32, 64, 100, 128, 256, 1024])
    if low.endswith(".shape") or low == "shape":
        return Raw(rng.choice(["(3, 4)", "(128,)", "(2, 3, 224, 224)", "(10, 1)"]))
    if low.startswith("repr("):
        inner = b[5:-1] if b.endswith(")") else b[5:]
        return Raw(repr(guess_value(inner, rng)))
    if low.startswith("str(") and b.endswith(")"):
        return str(guess_value(b[4:-1], rng))
    if low.startswith("float("):
        return round(rng.uniform(0, 100), 3)
    if low.startswith("hex("):
        return hex(rng.randrange(1 << 16))
    if low.startswith("os.fspath(") or low.startswith("os.path.") or "path" in low:
        return rng.choice(PATHS)
    if low.startswith("sorted(") or low.startswith("list(") or low.endswith(".keys()"):
        return Raw(repr(rng.sample(WORDS, 3)))
    if low.startswith("', '.join(") or low.startswith('", ".join(') or ".join(" in low:
        return ", ".join(rng.sample(WORDS, 3))
    leaf = _leaf(b)
    sing = _singular(leaf)
    if leaf in DTYPE_NAMES or sing in DTYPE_NAMES:
        return rng.choice(DTYPES)
    if leaf in CLASS_NAMES:
        return rng.choice(CLASSES)
    if leaf.startswith(BOOL_PREFIXES):
        return rng.choice([True, False])
    if leaf in INT_NAMES or sing in INT_NAMES or leaf.startswith(INT_PREFIXES) or leaf.endswith(INT_SUFFIXES):
        if leaf in ("status", "status_code", "code"):
            return rng.choice([400, 401, 403, 404, 500, 502, 503])
        if leaf.endswith("port") or leaf == "port":
            return rng.choice([80, 443, 5432, 6379, 8000, 8080])
        return rng.choice([0, 1, 2, 3, 5, 7, 10, 16, 42, 64, 100, 512])
    if leaf in FLOAT_NAMES or sing in FLOAT_NAMES:
        return rng.choice([0.5, 1.0, 2.5, 30.0, 0.001, 1e-05, 0.25])
    if leaf in PATH_NAMES or sing in PATH_NAMES or leaf.endswith(("_path", "_file", "_dir", "_filename")):
        return rng.choice(PATHS)
    if leaf in URL_NAMES or leaf.endswith("_url"):
        return rng.choice(URLS)
    if leaf in HOST_NAMES or leaf.endswith("_host"):
        return rng.choice(HOSTS)
    if leaf in ("version", "ver") or leaf.endswith("_version"):
        return rng.choice(["1.2.3", "2.0.1", "0.47.3", "3.11.7", "1.26.4"])
    if leaf in EXC_NAMES:
        return rng.choice(ERRMSGS)
    if leaf in MSG_NAMES or leaf.endswith(("_msg", "_message")):
        return rng.choice(SENTENCES)
    if leaf in IDENT_NAMES or sing in IDENT_NAMES or leaf.endswith(("_name", "_key", "_attr", "_field")):
        return rng.choice(IDENTS + WORDS[:20])
    if leaf in ("self", "obj", "value", "val", "v", "x", "y", "item", "data", "arg", "args", "o", "other",
                "result", "res", "ret", "a", "b", "s"):
        return rng.choice([rng.choice(WORDS), rng.choice([3, 7, 42, -1]), rng.choice(IDENTS)])
    return rng.choice(WORDS)


def format_value(expr, rng):
    """The text a placeholder renders to: value guessed from the expression, then conversion and spec."""
    base, conv, spec = split_expr(expr)
    v = guess_value(base, rng)
    if conv == "r" or conv == "a":
        text = v if isinstance(v, Raw) else repr(v)
        if spec:
            try:
                text = format(text, spec)
            except (ValueError, TypeError):
                pass
        return text
    if spec:
        if any(c in spec for c in "fFeEgG%") and isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
        try:
            return format(v, spec)
        except (ValueError, TypeError):
            pass
    return str(v)


def render(parts, rng):
    """(message, [(is_placeholder, text as rendered)]) for parsed template parts."""
    pieces = [(is_ph, format_value(text, rng) if is_ph else text) for is_ph, text in parts]
    return "".join(t for _, t in pieces), pieces


def printed_type(err):
    """The type as Python prints it on the exception line: module.Class, builtins without module."""
    t = err.get("type_qualified") or err.get("type")
    if not t:
        return None
    if t.startswith("builtins."):
        t = t[len("builtins."):]
    last = t.rsplit(".", 1)[-1]
    # `raise self.readonly(...)`, `raise make_error(...)`: not a class name Python would print.
    if t.startswith("self.") or not re.fullmatch(r"[A-Za-z_][\w.]*", t) or \
            not (last[:1].isupper() or last in ("error", "timeout", "gaierror", "herror")):
        return None
    return t


# --------------------------------------------------------------------------------------------------------
# The catalog's errors.

def group_errors(sites):
    """{error id: {id, repo, type, type_qualified, template, normalized, parts, kind, is_test, sites}}."""
    errors = {}
    for s in sites:
        e = errors.get(s["id"])
        if e is None:
            e = errors[s["id"]] = {"id": s["id"], "repo": s["repo"], "type": s.get("type"),
                                   "type_qualified": s.get("type_qualified"), "template": s.get("template"),
                                   "kind": s.get("kind"), "is_test": bool(s.get("is_test")), "sites": []}
            e["normalized"] = normalize(e["template"])
            e["parts"] = parse_template(e["template"]) if e["template"] is not None else None
        e["sites"].append({"repo": s["repo"], "rev": s.get("rev"), "path": s["path"], "line": s["line"],
                           "function": s.get("function"), "is_test": bool(s.get("is_test"))})
        e["is_test"] = e["is_test"] and bool(s.get("is_test"))
    for e in errors.values():
        e["sites"].sort(key=lambda x: (x["is_test"], x["path"], x["line"]))
    return errors


def template_counts(errors):
    return collections.Counter(e["normalized"] for e in errors.values() if e["normalized"] is not None)


def eligible(errors):
    """Errors with a template holding at least one literal word, sorted by id (for determinism)."""
    return [e for _, e in sorted(errors.items()) if e["parts"] is not None and has_literal_word(e["parts"])]


def make_sample(err, seed, typed=None):
    """Render one sample of an error: {id, input, message, typed, pieces}. Deterministic per (seed, id)."""
    rng = random.Random(f"{seed}:{err['id']}")
    message, pieces = render(err["parts"], rng)
    if typed is None:
        typed = rng.random() < 0.5
    t = printed_type(err)
    text = f"{t}: {message}" if typed and t else message
    return {"id": err["id"], "input": text, "message": message, "typed": bool(typed and t), "pieces": pieces}


def rank_of_hit(matches, err):
    """1-based rank of the first match that is this error (same id, or one of its sites), else None."""
    sites = {(s["repo"], s["path"], s["line"]) for s in err["sites"]}
    for i, m in enumerate(matches):
        if m["id"] == err["id"] or (m["repo"], m["path"], m["line"]) in sites:
            return i + 1
    return None


def indistinguishable(row):
    """The top-1 match is another error that this input cannot tell apart from the right one."""
    if not row["matches"]:
        return False
    m = row["matches"][0]
    e = row["err"]
    if m["template"] is None or normalize(m["template"]) != e["normalized"]:
        return False
    if row["sample"]["typed"]:
        last = lambda t: (t or "").rsplit(".", 1)[-1]  # noqa: E731
        return last(m["type"]) == last(printed_type(e))
    return True


def pct(a, b):
    return f"{100.0 * a / b:.1f}%" if b else "-"


# --------------------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--errdex", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--samples", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--repo", help="sample only errors of this repository")
    ap.add_argument("--no-tests", action="store_true", help="sample only errors with a non-test site")
    ap.add_argument("--dry-run", action="store_true", help="print samples, do not run explain")
    ap.add_argument("--misses", default=os.path.join(OUT, "synthetic-misses.jsonl"))
    args = ap.parse_args()

    print("$ " + shlex.join([os.path.relpath(sys.argv[0])] + sys.argv[1:]))
    if not args.dry_run:
        m = require_matcher(args.db)
        print(f"matcher stored {m[0]}: {m[1]} errors, {m[2]} anchors")
    sites = list_sites(args.errdex, args.db)
    errors = group_errors(sites)
    counts = template_counts(errors)
    pool = eligible(errors)
    if args.repo:
        pool = [e for e in pool if e["repo"] == args.repo]
    if args.no_tests:
        pool = [e for e in pool if not e["is_test"]]
    rng = random.Random(args.seed)
    chosen = rng.sample(pool, min(args.samples, len(pool)))
    print(f"catalog: {len(sites)} sites, {len(errors)} errors, {len(pool)} eligible (template with a literal "
          f"word), {len(chosen)} sampled (seed {args.seed})")
    samples = [make_sample(e, args.seed) for e in chosen]
    explain_cmd = [args.errdex, "explain", "-", "--db", args.db, "--top", str(args.top), "--format", "json"]
    print("per sample: " + shlex.join(explain_cmd) + " < SAMPLE")
    if args.dry_run:
        for e, s in zip(chosen, samples):
            print(json.dumps({"id": e["id"], "template": e["template"], "input": s["input"]}, ensure_ascii=False))
        return

    def work(sample):
        rc, data, err = explain(args.errdex, args.db, sample["input"], args.top)
        return rc, data, err

    t0 = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        results = list(ex.map(work, samples))
    elapsed = time.perf_counter() - t0

    rows = []
    for e, s, (rc, data, err) in zip(chosen, samples, results):
        matches = parse_matches(data)
        closest = parse_matches(data, "closest")
        rank = rank_of_hit(matches, e)
        rows.append({"err": e, "sample": s, "rc": rc, "matches": matches, "rank": rank,
                     "closest_rank": rank_of_hit(closest, e), "closest": closest,
                     "unique": counts[e["normalized"]] == 1, "stderr": err.strip()[:300] if rc == 2 else ""})

    bad = [r for r in rows if r["rc"] == 2 or (r["rc"] == 0 and not r["matches"])]
    groups = [
        ("unique template", lambda r: r["unique"]),
        ("shared template", lambda r: not r["unique"]),
        ("all", lambda r: True),
        ("all, `Type: message`", lambda r: r["sample"]["typed"]),
        ("all, bare message", lambda r: not r["sample"]["typed"]),
        ("all, errors raised outside tests", lambda r: not r["err"]["is_test"]),
        ("all, constant template", lambda r: not any(p for p, _ in r["err"]["parts"])),
        ("all, with placeholders", lambda r: any(p for p, _ in r["err"]["parts"])),
    ]
    print()
    print(f"| errors (synthetic, seed {args.seed}) | n | top-1 | top-{args.top} | top-1 or indistinguishable | "
          f"nothing matched (exit 1) |")
    print("|---|---|---|---|---|---|")
    for name, pred in groups:
        sel = [r for r in rows if pred(r)]
        n = len(sel)
        t1 = sum(1 for r in sel if r["rank"] == 1)
        tk = sum(1 for r in sel if r["rank"] is not None)
        eq = sum(1 for r in sel if r["rank"] == 1 or indistinguishable(r))
        none = sum(1 for r in sel if r["rc"] == 1)
        print(f"| {name} | {n} | {pct(t1, n)} ({t1}) | {pct(tk, n)} ({tk}) | {pct(eq, n)} ({eq}) | "
              f"{pct(none, n)} ({none}) |")
    print()
    print("(indistinguishable: the top-1 match has the same normalized template and, for `Type: message` inputs, "
          "the same type's last name; the input cannot tell the two apart)")
    print()
    print(f"{len(rows)} explain runs in {elapsed:.1f} s with {args.jobs} jobs "
          f"({1000 * elapsed * max(1, args.jobs) / max(1, len(rows)):.0f} ms each); exit 2 (bad usage): "
          f"{sum(1 for r in rows if r['rc'] == 2)}")
    if bad:
        print(f"warning: {len(bad)} runs with exit 2 or exit 0 without matches; first: {bad[0]['stderr']!r}")

    os.makedirs(os.path.dirname(os.path.abspath(args.misses)), exist_ok=True)
    misses = [r for r in rows if r["rank"] != 1]
    with open(args.misses, "w", encoding="utf-8") as f:
        for r in misses:
            e = r["err"]
            f.write(json.dumps({
                "id": e["id"], "repo": e["repo"], "type": printed_type(e), "template": e["template"],
                "unique": r["unique"], "sites": [f"{s['path']}:{s['line']}" for s in e["sites"][:5]],
                "input": r["sample"]["input"], "rc": r["rc"], "rank": r["rank"], "closest_rank": r["closest_rank"],
                "got": [{"id": m["id"], "score": m["score"], "type": m["type"], "template": m["template"],
                         "site": f"{m['repo']} {m['path']}:{m['line']}"} for m in (r["matches"] or r["closest"])],
                "stderr": r["stderr"],
            }, ensure_ascii=False) + "\n")
    print(f"{len(misses)} misses (not top-1) written to {os.path.relpath(args.misses)}")


if __name__ == "__main__":
    main()
