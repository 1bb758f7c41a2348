#!/usr/bin/env bash
# Indexing the whole local Python environment (docs/benchmarks.md, "Python environments"): every
# distribution PYTHON has installed plus its standard library, into a new catalog, then again with nothing
# changed; the baseline of the same run is the standard library alone indexed as a directory (the README's
# former main command). Time and peak memory from /usr/bin/time -v, the catalog's size from ls.
#   bench/index_python_env.sh BUILD/errdex [PYTHON]
set -euo pipefail
ERRDEX=${1:?usage: $0 BUILD/errdex [PYTHON]}
PYTHON=${2:-python3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
measure() {  # LABEL COMMAND...: prints wall seconds and peak RSS
  local label=$1; shift
  /usr/bin/time -v "$@" >"$TMP/out" 2>"$TMP/time"
  printf '%-28s %s  peak %s kB\n' "$label" "$(grep 'Elapsed' "$TMP/time" | awk '{print $NF}')" \
    "$(grep 'Maximum resident' "$TMP/time" | awk '{print $NF}')"
}
STDLIB=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
measure "baseline: stdlib directory" "$ERRDEX" index "$STDLIB" --name python/stdlib --db "$TMP/base.db" -q
measure "environment, first run" "$ERRDEX" index --python-env --python "$PYTHON" --db "$TMP/env.db"
tail -1 "$TMP/out"
measure "environment, second run" "$ERRDEX" index --python-env --python "$PYTHON" --db "$TMP/env.db"
tail -1 "$TMP/out"
echo "catalog: $(du -b "$TMP/env.db" | cut -f1) bytes; $("$PYTHON" -m pip list 2>/dev/null | tail -n +3 | wc -l) distributions in pip list"
