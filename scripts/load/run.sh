#!/usr/bin/env bash
# Load test of a release build (see BENCHMARKS.md): starts `ilaj serve` on a fresh SQLite
# database, posts the seed traceback to /api/v1/match at 32 connections for DURATION while
# sampling the server's resident memory and threads every 10 s, then loads /healthz at 32
# connections for HEALTHZ_DURATION (30s) on the same server. Needs wrk (apt-get install wrk).
# Usage: scripts/load/run.sh [DURATION, default 60s] [OUT folder, default /tmp/ilaj-load]
set -euo pipefail
cd "$(dirname "$0")/../.."
duration=${1:-60s}
out=${2:-/tmp/ilaj-load}
port=${PORT:-18415}
mkdir -p "$out"
rm -f "$out"/ilaj.sqlite* "$out"/wrk-*.txt "$out"/rss.txt "$out"/db-size.txt "$out"/server.log
binary=target/release/ilaj
[ -x "$binary" ] || { echo "build first: cargo build --release" >&2; exit 1; }

"$binary" serve --addr "127.0.0.1:$port" --database "sqlite://$out/ilaj.sqlite" \
  --rate-limit-anonymous 4000000000 --reload-seconds 0 >"$out/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
  sleep 0.2
done

if ! kill -0 "$server" 2>/dev/null; then
  echo "the server did not start (port $port taken?):" >&2
  tail -3 "$out/server.log" >&2
  exit 1
fi

rss() { awk '/VmRSS|Threads/ {printf "%s %s  ", $1, $2}' "/proc/$server/status"; }
echo "at_start $(rss)" | tee "$out/rss.txt"
(
  start=$(date +%s)
  while kill -0 "$server" 2>/dev/null; do
    sleep 10
    echo "after_$(( $(date +%s) - start ))s $(rss)" >>"$out/rss.txt"
  done
) &
sampler=$!

wrk -t2 -c32 -d"$duration" --latency -s scripts/load/match.lua \
  "http://127.0.0.1:$port/api/v1/match" >"$out/wrk-match.txt"
echo "at_end $(rss)" >>"$out/rss.txt"
kill $sampler 2>/dev/null || true
# The floor, in the same run right after: what the same server and machine do for a request
# that does nothing.
wrk -t2 -c32 -d"${HEALTHZ_DURATION:-30s}" --latency "http://127.0.0.1:$port/healthz" >"$out/wrk-healthz.txt"
ls -l "$out"/ilaj.sqlite* >"$out/db-size.txt"
kill -TERM $server
wait $server || true
ls -l "$out"/ilaj.sqlite* >>"$out/db-size.txt"
cat "$out/wrk-match.txt" "$out/wrk-healthz.txt" "$out/rss.txt" "$out/db-size.txt"
