#!/usr/bin/env bash
# Load test of POST /api/v1/match against a running release server on loopback:
# 32 concurrent connections, 2 threads, 20 seconds, the seed's OOM traceback as the body.
# Needs wrk (apt-get install -y wrk). Prints requests/s and the latency percentiles.
set -euo pipefail
cd "$(dirname "$0")/.."
addr="${ILAJ_LOADTEST_ADDR:-127.0.0.1:18181}"
duration="${ILAJ_LOADTEST_SECONDS:-20}"
command -v wrk >/dev/null || { echo "wrk is not installed: apt-get install -y wrk" >&2; exit 2; }

cargo build --release --quiet
# The rate limit is lifted: this measures matching, not the limiter. The database is a
# throwaway SQLite file, so query logging is part of what is measured.
data_dir=$(mktemp -d)
./target/release/ilaj serve --addr "$addr" --reload-seconds 0 --data-dir "$data_dir" \
  --rate-limit-anonymous 100000000 >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$data_dir"' EXIT
for _ in $(seq 50); do curl -fs "http://$addr/healthz" >/dev/null && break; sleep 0.2; done

body=$(python3 -c 'import json,sys; print(json.dumps({"text": open(sys.argv[1]).read(), "lang": "fr"}))' eval/seed-oom-example.txt)
script=$(mktemp)
cat >"$script" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [==[$body]==]
LUA
wrk -t2 -c32 -d"${duration}s" --latency -s "$script" "http://$addr/api/v1/match"
rm -f "$script"
