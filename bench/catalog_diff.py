#!/usr/bin/env python3
"""Row-for-row comparison of two errdex catalogs (or a dump of one), apart from timestamps: the proof that
a change of the code did not change what indexing writes (docs/benchmarks.md).

  bench/catalog_diff.py A.db B.db        # exit 0 when every table holds the same rows; else lists differences
  bench/catalog_diff.py --dump A.db      # every row of every table, sorted, one per line (for diff(1))

Compared: every table of the catalog, and the full-text index through its virtual table (its shadow
tables, error_words_*, are its storage layout). Left out: the columns that hold the time of the run
(revisions.indexed_at, matcher.built_at). Rows are compared as whole tuples, ids included, sorted."""

import argparse
import hashlib
import sqlite3
import sys

# Columns that record when the run happened, not what it found.
TIMESTAMPS = {("revisions", "indexed_at"), ("matcher", "built_at")}
FTS_SHADOW_SUFFIXES = ("_data", "_idx", "_docsize", "_config", "_content")


def tables(db):
    rows = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    entries = sorted((name, sql or "") for name, sql in rows)
    virtual = {name for name, sql in entries if sql.upper().startswith("CREATE VIRTUAL TABLE")}
    shadows = {name for name, _ in entries for v in virtual for s in FTS_SHADOW_SUFFIXES if name == v + s}
    return [name for name, _ in entries if name not in shadows]


def cell(value):
    # Blobs (the matcher's compiled database) as their length and digest, so a dump stays readable.
    if isinstance(value, bytes):
        return f"<blob {len(value)} bytes sha256:{hashlib.sha256(value).hexdigest()[:16]}>"
    return repr(value)


def rows_of(db, table):
    columns = [r[1] for r in db.execute(f'PRAGMA table_xinfo("{table}")') if r[6] in (0, 1)]
    kept = [c for c in columns if (table, c) not in TIMESTAMPS]
    select = ", ".join(f'"{c}"' for c in kept)
    return kept, sorted("(" + ", ".join(cell(v) for v in row) + ")" for row in db.execute(f'SELECT {select} FROM "{table}"'))


def snapshot(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {t: rows_of(db, t) for t in tables(db)}
    finally:
        db.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dump", action="store_true", help="print the rows of one catalog")
    ap.add_argument("catalogs", nargs="+")
    ap.add_argument("--show", type=int, default=5, help="differing rows shown per table")
    args = ap.parse_args()
    if args.dump:
        for table, (columns, rows) in snapshot(args.catalogs[0]).items():
            print(f"## {table} ({', '.join(columns)}): {len(rows)} rows")
            for r in rows:
                print(r)
        return 0
    if len(args.catalogs) != 2:
        ap.error("two catalogs to compare, or --dump and one")
    a, b = snapshot(args.catalogs[0]), snapshot(args.catalogs[1])
    differences = 0
    for table in sorted(set(a) | set(b)):
        if table not in a or table not in b:
            print(f"{table}: only in {'the first' if table in a else 'the second'} catalog")
            differences += 1
            continue
        (cols_a, rows_a), (cols_b, rows_b) = a[table], b[table]
        if cols_a != cols_b:
            print(f"{table}: columns differ: {cols_a} vs {cols_b}")
            differences += 1
            continue
        set_a, set_b = set(rows_a), set(rows_b)
        only_a, only_b = sorted(set_a - set_b), sorted(set_b - set_a)
        same_count = len(rows_a) == len(rows_b)
        if only_a or only_b or not same_count:
            differences += 1
            print(f"{table}: {len(rows_a)} vs {len(rows_b)} rows, {len(only_a)} only in the first, "
                  f"{len(only_b)} only in the second")
            for r in only_a[: args.show]:
                print(f"  - {r[:300]}")
            for r in only_b[: args.show]:
                print(f"  + {r[:300]}")
        else:
            print(f"{table}: {len(rows_a)} rows, identical")
    print("identical apart from timestamps" if differences == 0 else f"{differences} table(s) differ")
    return 0 if differences == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
