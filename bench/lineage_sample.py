#!/usr/bin/env python3
"""A random sample of the lineage links made by site identity (the two sides are different errors: the
template, type or qualified type changed) in a catalog indexed with `errdex index --releases`, printed
side by side for checking by hand (docs/benchmarks.md records the verdicts). Also counts every kind of
link.

  bench/lineage_sample.py --db CATALOG [--repo OWNER/NAME] [--n 20] [--seed 1] [--below PERCENT]
"""

import argparse
import random
import sqlite3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--repo")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--below", type=int, default=101, help="only links with a confidence below this percent")
    args = ap.parse_args()
    db = sqlite3.connect(args.db)
    where = "WHERE r.name = ?" if args.repo else ""
    params = (args.repo,) if args.repo else ()
    join = "JOIN repositories r ON r.id = l.repo_id"
    counts = db.execute(f"SELECT CASE WHEN l.from_error_id IS NULL THEN 'added' WHEN l.to_error_id IS NULL THEN "
                        f"'removed' WHEN l.from_error_id = l.to_error_id THEN 'same id' ELSE 'by site identity' END, "
                        f"count(*) FROM error_lineage l {join} {where} GROUP BY 1 ORDER BY 2 DESC", params).fetchall()
    print("links:", ", ".join(f"{k} {v}" for k, v in counts))
    rows = db.execute(
        f"SELECT l.from_revision_id, l.to_revision_id, l.from_error_id, l.to_error_id, l.changes, l.confidence "
        f"FROM error_lineage l {join} {where} {'AND' if where else 'WHERE'} l.from_error_id != l.to_error_id "
        f"AND l.confidence < ? ORDER BY l.rowid", params + (args.below,)).fetchall()
    random.Random(args.seed).shuffle(rows)

    def side(revision, error):
        label = db.execute("SELECT ifnull(l.label, substr(v.commit_sha, 1, 10)) FROM revisions v LEFT JOIN "
                           "revision_labels l ON l.revision_id = v.id WHERE v.id = ?", (revision,)).fetchone()[0]
        s = db.execute("SELECT ifnull(type_qualified, type), template, path, line, function FROM sites WHERE "
                       "revision_id = ? AND error_id = ? AND is_test = 0 ORDER BY path, line LIMIT 1",
                       (revision, error)).fetchone()
        return f"{label}: {s[0]}: {s[1]!r}\n      at {s[2]}:{s[3]} in {s[4]}"

    for k, (a, b, ea, eb, changes, confidence) in enumerate(rows[:args.n], 1):
        print(f"{k:2}. [{changes}; {confidence}%]\n    {side(a, ea)}\n    {side(b, eb)}")


if __name__ == "__main__":
    main()
