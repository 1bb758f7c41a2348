#!/usr/bin/env bash
# Load test of `errdex serve` (docs/web.md), not run by CI: wrk on loopback against /api/errors/ID and
# /errors/ID, 10 s each, 2 threads, 50 connections; once with the response cache (the default) and once
# without it (--cache-mb 0), the access log on (to a file). Needs wrk (Debian package `wrk`).
#
#   bench/web_load.sh [ERRDEX]          ERRDEX: the binary to test (default: build/errdex)
#
# The catalog: $WEB_LOAD_DB and the error $WEB_LOAD_ID when set; else tests/fixtures/shopkit committed to a
# git repository in a temporary directory and indexed with a GitHub URL (so the page has permalinks), and
# the error "quantity must be positive, got {quantity!r}" (a snippet, path conditions, a builtin class).
set -euo pipefail
cd "$(dirname "$0")/.."
ERRDEX=$(realpath "${1:-build/errdex}")
DURATION=${WEB_LOAD_DURATION:-10s}
command -v wrk >/dev/null || { echo "web_load: wrk is not installed (apt-get install wrk)" >&2; exit 2; }

TMP=$(mktemp -d /tmp/errdex-web-load-XXXXXX)
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT

DB=${WEB_LOAD_DB:-}
ID=${WEB_LOAD_ID:-}
if [ -z "$DB" ]; then
  DB="$TMP/catalog.db"
  cp -r tests/fixtures/shopkit "$TMP/shopkit"
  (cd "$TMP/shopkit" && git init -q && git add -A &&
   GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@e GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@e git commit -qm bench)
  "$ERRDEX" index "$TMP/shopkit" --rev HEAD --name acme/shopkit --url https://github.com/acme/shopkit --db "$DB" -q
fi
if [ -z "$ID" ]; then
  ID=$("$ERRDEX" list --db "$DB" --format jsonl |
       python3 -c 'import json,sys; print(next(json.loads(l)["id"] for l in sys.stdin if "quantity must be positive" in l))')
fi

start_server() {
  "$ERRDEX" serve --db "$DB" --listen 127.0.0.1:0 "$@" 2>"$TMP/serve.log" &
  SERVER_PID=$!
  for _ in $(seq 100); do
    PORT=$(grep -o 'listening on http://127.0.0.1:[0-9]*' "$TMP/serve.log" | grep -o '[0-9]*$' || true)
    [ -n "$PORT" ] && return 0
    sleep 0.05
  done
  echo "web_load: the server did not start: $(cat "$TMP/serve.log")" >&2
  exit 1
}

stop_server() {
  kill -TERM "$SERVER_PID"
  wait "$SERVER_PID"
  SERVER_PID=""
}

echo "errdex: $ERRDEX"
echo "catalog: $DB, error $ID"
echo "machine: $(nproc) cores, $(uname -srm)"
for mode in cached uncached; do
  if [ "$mode" = cached ]; then start_server; else start_server --cache-mb 0; fi
  for path in "/api/errors/$ID" "/errors/$ID"; do
    url="http://127.0.0.1:$PORT$path"
    curl -sf -o /dev/null "$url" 2>/dev/null || python3 -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1]).read()" "$url"
    echo
    echo "== $mode: wrk -t2 -c50 -d$DURATION --latency $url"
    out=$(wrk -t2 -c50 -d"$DURATION" --latency "$url")
    echo "$out"
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    errors=$(echo "$out" | awk '/Socket errors|Non-2xx/ {print}' | tr '\n' ' ')
    echo "-- $mode $path: ${rps} requests/s; errors: ${errors:-none}"
  done
  stop_server
done
