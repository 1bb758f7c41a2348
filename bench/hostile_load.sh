#!/usr/bin/env bash
# Load and fault test of `errdex serve` (docs/web.md "Connections"; docs/benchmarks.md), not run by CI.
# For each binary given (the new one, then a baseline), on one catalog:
#   quiet:  wrk -t2 -c50 --latency on a cached error page, nothing else running;
#   attack: the same wrk while 300 slow clients (a request head, one header line a second, never ended) and
#           1,000 idle connections are held (bench/hostile_clients.py: each one the server closes is opened
#           again at once) and the catalog is re-indexed underneath (a new commit, `errdex index`, in a
#           loop); meanwhile a normal client requests the page on a new connection every 200 ms and checks
#           that each answer is a complete 200 (probe).
# Reports throughput, p50/p99, errors (wrk's socket errors and non-2xx answers), the probe's latencies and
# failures, and what the server logged (sheds, timeouts). Needs wrk (`apt install wrk`) and git.
#
#   bench/hostile_load.sh NEW_ERRDEX [BASELINE_ERRDEX]
#
# HOSTILE_DURATION (s, default 10) is the length of each wrk run; NEW_SERVE_ARGS (default
# "--max-connections-per-address 4096") are extra `serve` flags for the new binary: every client of this
# test comes from 127.0.0.1, and the flag stands for attackers from many addresses (per-address shedding
# would otherwise cut the attack down to 256 connections). The baseline gets no extra flags.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "hostile_load: wrk is not installed (apt install wrk)" >&2; exit 2; }
BINARIES=()
for b in "$@"; do BINARIES+=("$(realpath "$b")"); done
[ ${#BINARIES[@]} -ge 1 ] || BINARIES=("$(realpath build/errdex)")
DURATION=${HOSTILE_DURATION:-10}
NEW_SERVE_ARGS=${NEW_SERVE_ARGS---max-connections-per-address 4096}
BENCH=$(pwd)/bench

TMP=$(mktemp -d /tmp/errdex-hostile-XXXXXX)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

cp -r tests/fixtures/shopkit "$TMP/shopkit"
export GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@e GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@e
(cd "$TMP/shopkit" && git init -q && git add -A && git commit -qm bench)

prepare_catalog() {  # prepare_catalog BINARY LABEL: each binary indexes its own catalog (schemas differ)
  ERRDEX=$1
  DB="$TMP/catalog-$2.db"
  "$ERRDEX" index "$TMP/shopkit" --rev HEAD --name acme/shopkit --url https://github.com/acme/shopkit --db "$DB" -q
  local id
  id=$("$ERRDEX" list --db "$DB" --format jsonl |
       python3 -c 'import json,sys; print(next(json.loads(l)["id"] for l in sys.stdin if "quantity must be positive" in l))')
  PATH_UNDER_TEST="/errors/$id"
}

start_server() {  # start_server BINARY LOG ARGS...
  local bin=$1 log=$2
  shift 2
  "$bin" serve --db "$DB" --listen 127.0.0.1:0 "$@" 2>"$log" &
  SERVER_PID=$!
  PIDS+=("$SERVER_PID")
  for _ in $(seq 200); do
    PORT=$(grep -o 'listening on http://127.0.0.1:[0-9]*' "$log" | grep -o '[0-9]*$' || true)
    [ -n "$PORT" ] && return 0
    sleep 0.05
  done
  echo "hostile_load: the server did not start: $(cat "$log")" >&2
  exit 1
}

summarize_wrk() {  # summarize_wrk LABEL OUTPUT
  local rps p50 p99 errors
  rps=$(echo "$2" | awk '/Requests\/sec/ {print $2}')
  p50=$(echo "$2" | awk '$1 == "50%" {print $2}')
  p99=$(echo "$2" | awk '$1 == "99%" {print $2}')
  errors=$(echo "$2" | grep -E 'Socket errors|Non-2xx' | sed 's/^ *//' | tr '\n' ';' || true)
  echo "-- $1: ${rps:-0} req/s, p50 ${p50:-n/a}, p99 ${p99:-n/a}, errors: ${errors:-none}"
}

reindex_loop() {  # commits a change and indexes it, again and again, until killed
  local i=0 ok=0 failed=0
  trap 'echo "reindex: $ok runs, $failed failed" > "$TMP/reindex.txt"; exit 0' TERM
  while true; do
    i=$((i + 1))
    echo "# change $i" >>"$TMP/shopkit/shopkit/cart.py"
    (cd "$TMP/shopkit" && git commit -qam "change $i")
    if "$ERRDEX" index "$TMP/shopkit" --rev HEAD --name acme/shopkit --url https://github.com/acme/shopkit \
         --db "$DB" -q 2>>"$TMP/reindex.log"; then ok=$((ok + 1)); else failed=$((failed + 1)); fi
    sleep 0.5 &
    wait $!
  done
}

echo "page: /errors/ID of 'quantity must be positive'; wrk -t2 -c50 -d${DURATION}s --timeout 5s --latency; machine: $(nproc) cores, $(uname -sr)"
for bin in "${BINARIES[@]}"; do
  label=$([ "$bin" = "${BINARIES[0]}" ] && echo new || echo baseline)
  args=()
  if [ "$label" = new ]; then read -r -a args <<<"$NEW_SERVE_ARGS"; fi
  prepare_catalog "$bin" "$label"
  log="$TMP/serve-$label.log"
  start_server "$bin" "$log" "${args[@]}"
  url="http://127.0.0.1:$PORT$PATH_UNDER_TEST"
  python3 "$BENCH/hostile_clients.py" probe "$PORT" "$PATH_UNDER_TEST" --seconds 0.5 >/dev/null  # warm the cache
  echo
  echo "== $label: $bin ${args[*]}"
  out=$(wrk -t2 -c50 -d"${DURATION}s" --timeout 5s --latency "$url")
  summarize_wrk "$label quiet" "$out"

  python3 "$BENCH/hostile_clients.py" attack "$PORT" --slow 300 --idle 1000 --seconds $((DURATION + 8)) \
    >"$TMP/attack.json" &
  attacker=$!
  PIDS+=("$attacker")
  sleep 3
  reindex_loop &
  reindexer=$!
  PIDS+=("$reindexer")
  python3 "$BENCH/hostile_clients.py" probe "$PORT" "$PATH_UNDER_TEST" --seconds "$DURATION" >"$TMP/probe.json" &
  prober=$!
  out=$(wrk -t2 -c50 -d"${DURATION}s" --timeout 5s --latency "$url")
  wait "$prober" || true
  kill -TERM "$reindexer"
  wait "$reindexer" || true
  wait "$attacker" || true
  summarize_wrk "$label attack" "$out"
  echo "-- $label attack, normal client every 200 ms: $(cat "$TMP/probe.json")"
  echo "-- $label attack, attacker: $(cat "$TMP/attack.json")"
  echo "-- $label attack, $(cat "$TMP/reindex.txt" 2>/dev/null || echo 'reindex: no report')"
  kill -TERM "$SERVER_PID"
  code=0
  wait "$SERVER_PID" || code=$?
  echo "-- $label server: exit $code; log: $(grep -c '" 200 ' "$log" || true) answers 200," \
       "$(grep -c '(shed: ' "$log" || true) sheds, $(grep -c '(timeout: ' "$log" || true) timeouts," \
       "$(grep -c '(refused: ' "$log" || true) refusals, $(grep -c 'catalog changed' "$log" || true) catalog reloads"
done
