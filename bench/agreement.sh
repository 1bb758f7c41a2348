#!/usr/bin/env bash
# Agreement of errdex with the reference ast extractor on one source (docs/benchmarks.md).
#   bench/agreement.sh ERRDEX (--git DIR.git REV | --dir DIR) [--show N]
# Writes its intermediate files under bench/out/ and prints bench/compare.py's report.
set -euo pipefail
errdex=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$here/out"
if [ "$1" = "--git" ]; then
  src=$2; rev=$3; shift 3
  tag=$(basename "$(dirname "$src")")-$(git -C "$src" rev-parse --short=10 "$rev^{commit}")
  db="$here/out/$tag.db"; rm -f "$db" "$db-wal" "$db-shm"
  "$errdex" index "$src" --rev "$rev" --db "$db" -q --name "bench/$tag"
  python3 "$here/reference_extract.py" --git "$src" --rev "$rev" --jobs 2 --out "$here/out/$tag.ref.jsonl"
else
  src=$2; shift 2
  tag=$(basename "$src")
  db="$here/out/$tag.db"; rm -f "$db" "$db-wal" "$db-shm"
  "$errdex" index "$src" --db "$db" -q --name "bench/$tag"
  python3 "$here/reference_extract.py" "$src" --jobs 2 --out "$here/out/$tag.ref.jsonl"
fi
"$errdex" list --db "$db" --format jsonl > "$here/out/$tag.errdex.jsonl"
python3 "$here/compare.py" "$here/out/$tag.ref.jsonl" "$here/out/$tag.errdex.jsonl" "$@"
