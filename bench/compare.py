#!/usr/bin/env python3
"""Compare the reference extractor's output with errdex's.

    compare.py REF.jsonl ERRDEX.jsonl [--show N] [--json]

REF.jsonl: output of bench/reference_extract.py (sites + {"skip": PATH, "reason": ...} rows).
ERRDEX.jsonl: output of `errdex list --format jsonl` (extra keys ignored; skip rows optional).

Sites are matched by (path, line, col, kind); the leftovers by (path, line, kind) in column order.
Only files the reference parsed are compared; errdex sites in reference-skipped files are counted
apart. Templates are compared after normalization (docs/extraction.md): every placeholder, a balanced
`{...}` that is not a doubled brace, becomes `{}`. Always exits 0.
"""

import argparse
import collections
import json
import sys


def normalize(t):
    """Replace each placeholder `{...}` (balanced, not a doubled brace) by `{}`."""
    if t is None:
        return None
    out = []
    i = 0
    n = len(t)
    while i < n:
        c = t[i]
        if c == "{":
            if t.startswith("{", i + 1):
                out.append("{{")
                i += 2
                continue
            depth = 0
            j = i
            while j < n:
                if t[j] == "{":
                    depth += 1
                elif t[j] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j >= n:  # unbalanced: keep the rest as is
                out.append(t[i:])
                break
            out.append("{}")
            i = j + 1
        elif c == "}":
            out.append("}}" if t.startswith("}", i + 1) else "}")
            i += 2 if t.startswith("}", i + 1) else 1
        else:
            j = i
            while j < n and t[j] not in "{}":
                j += 1
            out.append(t[i:j])
            i = j
    return "".join(out)


def load(path):
    sites = []
    skips = {}
    with open(path, encoding="utf-8") as fh:
        for ln, line in enumerate(fh, 1):
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except ValueError:
                print("%s:%d: bad JSON line, ignored" % (path, ln), file=sys.stderr)
                continue
            if "skip" in r:
                skips[r["skip"]] = r.get("reason")
            elif "path" in r and not r.get("via"):
                # Sites made by calls of raising helpers (`via`) are derived at index time, not extracted.
                sites.append(r)
    return sites, skips


def match(ref, dex):
    """Pairs (ref_site, dex_site), unmatched ref sites, unmatched errdex sites."""
    by_exact = collections.defaultdict(list)
    for d in dex:
        by_exact[(d["path"], d["line"], d["col"], d["kind"])].append(d)
    pairs = []
    ref_left = []
    for r in ref:
        lst = by_exact.get((r["path"], r["line"], r["col"], r["kind"]))
        if lst:
            pairs.append((r, lst.pop(0)))
        else:
            ref_left.append(r)
    by_line = collections.defaultdict(list)
    for lst in by_exact.values():
        for d in lst:
            by_line[(d["path"], d["line"], d["kind"])].append(d)
    for lst in by_line.values():
        lst.sort(key=lambda d: d["col"])
    missed = []
    for r in sorted(ref_left, key=lambda r: (r["path"], r["line"], r["col"])):
        lst = by_line.get((r["path"], r["line"], r["kind"]))
        if lst:
            pairs.append((r, lst.pop(0)))
        else:
            missed.append(r)
    extra = [d for lst in by_line.values() for d in lst]
    extra.sort(key=lambda d: (d["path"], d["line"], d["col"]))
    return pairs, missed, extra


def type_category(a, b):
    if a is None or b is None:
        return "ref null" if a is None else "errdex null"
    if a.replace(" ", "").replace("\n", "") == b.replace(" ", "").replace("\n", ""):
        return "whitespace"
    if a.endswith("." + b) or b.endswith("." + a):
        return "qualified vs plain"
    return "other"


def template_category(a, b):
    if a is None or b is None:
        return "ref null" if a is None else "errdex null"
    na, nb = normalize(a), normalize(b)
    if na.count("{}") != nb.count("{}"):
        if na.replace("{}", "") == nb.replace("{}", ""):
            return "placeholder count (same literal text)"
        return "placeholder count"
    if na.replace("{}", "").strip() == nb.replace("{}", "").strip():
        return "whitespace"
    if na.lower() == nb.lower():
        return "case"
    return "literal text"


def function_category(a, b):
    if a is None or b is None:
        return "missing"
    if "<lambda>" in a or "<lambda>" in b:
        return "lambda"
    if "<module>" in (a, b):
        return "module vs function"
    if "<locals>" in a or "<locals>" in b:
        return "nested (<locals>)"
    if a.split(".")[-1] == b.split(".")[-1]:
        return "same last name"
    return "other"


def ratio(a, b):
    return (a / b) if b else None


def fmt_ratio(x):
    return "n/a" if x is None else "%.4f" % x


def short(v, width=100):
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= width else s[:width - 3] + "..."


def print_examples(title, examples, show):
    """examples: list of (category, text)."""
    if not examples or show <= 0:
        return
    groups = collections.defaultdict(list)
    for cat, text in examples:
        groups[cat].append(text)
    print("\n== %s: %d" % (title, len(examples)))
    for cat, items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print("  -- %s (%d)" % (cat, len(items)))
        for text in items[:show]:
            print("     " + text)


def main(argv=None):
    ap = argparse.ArgumentParser(description="compare reference and errdex site catalogs")
    ap.add_argument("ref")
    ap.add_argument("errdex")
    ap.add_argument("--show", type=int, default=5, help="examples per category (default 5)")
    ap.add_argument("--json", action="store_true", help="print the metrics as one JSON object")
    args = ap.parse_args(argv)

    ref, ref_skips = load(args.ref)
    dex_all, dex_skips = load(args.errdex)
    dex = [d for d in dex_all if d["path"] not in ref_skips]
    dex_in_skipped = len(dex_all) - len(dex)
    pairs, missed, extra = match(ref, dex)

    n_type = sum(1 for r, d in pairs if r.get("type") == d.get("type"))
    tmpl_pairs = [(r, d) for r, d in pairs if r.get("template") is not None or d.get("template") is not None]
    n_tmpl = sum(1 for r, d in tmpl_pairs if normalize(r.get("template")) == normalize(d.get("template")))
    n_func = sum(1 for r, d in pairs if r.get("function") == d.get("function"))

    by_kind = {}
    for kind in ("raise", "reraise", "assert", "warn"):
        rk = sum(1 for r in ref if r["kind"] == kind)
        dk = sum(1 for d in dex if d["kind"] == kind)
        mk = sum(1 for r, d in pairs if r["kind"] == kind)
        by_kind[kind] = {"reference": rk, "errdex": dk, "matched": mk,
                         "recall": ratio(mk, rk), "precision": ratio(mk, dk)}

    skip_reasons = collections.Counter(ref_skips.values())
    metrics = {
        "reference_sites": len(ref),
        "errdex_sites": len(dex),
        "matched": len(pairs),
        "matched_by_line_only": sum(1 for r, d in pairs if r["col"] != d["col"]),
        "recall": ratio(len(pairs), len(ref)),
        "precision": ratio(len(pairs), len(dex)),
        "type_agreement": ratio(n_type, len(pairs)),
        "template_agreement": ratio(n_tmpl, len(tmpl_pairs)),
        "template_compared": len(tmpl_pairs),
        "function_agreement": ratio(n_func, len(pairs)),
        "reference_skipped_files": len(ref_skips),
        "reference_skip_reasons": dict(skip_reasons),
        "errdex_sites_in_reference_skipped_files": dex_in_skipped,
        "errdex_skipped_files": len(dex_skips),
        "by_kind": by_kind,
    }
    if args.json:
        print(json.dumps(metrics, sort_keys=True))
        return 0

    print("reference sites      %d" % len(ref))
    print("errdex sites         %d" % len(dex))
    print("matched              %d  (%d by line only)" % (len(pairs), metrics["matched_by_line_only"]))
    print("recall               %s" % fmt_ratio(metrics["recall"]))
    print("precision            %s" % fmt_ratio(metrics["precision"]))
    print("type agreement       %s  (%d/%d)" % (fmt_ratio(metrics["type_agreement"]), n_type, len(pairs)))
    print("template agreement   %s  (%d/%d)" % (fmt_ratio(metrics["template_agreement"]), n_tmpl,
                                                len(tmpl_pairs)))
    print("function agreement   %s  (%d/%d)" % (fmt_ratio(metrics["function_agreement"]), n_func, len(pairs)))
    print("by kind:")
    for kind, m in by_kind.items():
        print("  %-8s ref %6d  errdex %6d  matched %6d  recall %s  precision %s" % (
            kind, m["reference"], m["errdex"], m["matched"], fmt_ratio(m["recall"]), fmt_ratio(m["precision"])))
    print("reference-skipped files %d %s; errdex sites in them: %d; errdex skip rows: %d" % (
        len(ref_skips), dict(skip_reasons), dex_in_skipped, len(dex_skips)))

    show = args.show
    print_examples("missed (in reference only)",
                   [(r["kind"], "%s:%d:%d %s %s" % (r["path"], r["line"], r["col"], short(r.get("type")),
                                                    short(r.get("template"))))
                    for r in missed], show)
    print_examples("extra (in errdex only)",
                   [(d["kind"], "%s:%d:%d %s %s" % (d["path"], d["line"], d["col"], short(d.get("type")),
                                                    short(d.get("template"))))
                    for d in extra], show)
    print_examples("type disagreements",
                   [(type_category(r.get("type"), d.get("type")),
                     "%s:%d  ref=%s  errdex=%s" % (r["path"], r["line"], short(r.get("type")), short(d.get("type"))))
                    for r, d in pairs if r.get("type") != d.get("type")], show)
    print_examples("template disagreements",
                   [(template_category(r.get("template"), d.get("template")),
                     "%s:%d\n       ref=%s\n       dex=%s" % (r["path"], r["line"], short(r.get("template"), 160),
                                                              short(d.get("template"), 160)))
                    for r, d in tmpl_pairs if normalize(r.get("template")) != normalize(d.get("template"))], show)
    print_examples("function disagreements",
                   [(function_category(r.get("function"), d.get("function")),
                     "%s:%d  ref=%s  errdex=%s" % (r["path"], r["line"], short(r.get("function")),
                                                   short(d.get("function"))))
                    for r, d in pairs if r.get("function") != d.get("function")], show)
    return 0


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        pass
    except Exception as exc:  # exit 0 always, as documented
        print("compare.py: error: %s" % exc, file=sys.stderr)
    sys.exit(0)
