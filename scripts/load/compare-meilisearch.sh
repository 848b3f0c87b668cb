#!/usr/bin/env bash
# ilaj against Meilisearch on the same machine and input, in one run (issue 15: p99 at 32
# connections no worse than Meilisearch's). Starts `ilaj serve` as run.sh does (fresh SQLite,
# rate limits out of the way, no reload) and Meilisearch on a fresh database in a temporary
# folder (no analytics, development mode, no master key), indexes in Meilisearch the articles
# ilaj serves (content/{ar,fr,hi,en}/*.md, one document each: scripts/load/meili_documents.py)
# and waits for that task to succeed. Then, both servers up the whole time: wrk at 32
# connections for DURATION posting the seed traceback (eval/seed-oom-example.txt) to ilaj's
# /api/v1/match (match.lua), the same for the same text as {"q": …} to Meilisearch's
# /indexes/articles/search (meili_search.lua), then ilaj's /healthz and Meilisearch's /health
# for HEALTHZ_DURATION (30s) each. answers.txt records how many results each returned for the
# text. Needs wrk, curl, python3 and a Meilisearch binary ($MEILISEARCH).
# Usage: scripts/load/compare-meilisearch.sh [DURATION, default 60s] [OUT folder, default /tmp/ilaj-vs-meilisearch]
set -euo pipefail
cd "$(dirname "$0")/../.."
duration=${1:-60s}
out=${2:-/tmp/ilaj-vs-meilisearch}
port=${PORT:-18415}
meili_port=${MEILI_PORT:-17700}
meilisearch=${MEILISEARCH:-/work/meili-build/target/release/meilisearch}
healthz_duration=${HEALTHZ_DURATION:-30s}
mkdir -p "$out"
rm -f "$out"/ilaj.sqlite* "$out"/wrk-*.txt "$out"/server.log "$out"/meilisearch.log \
  "$out"/answers.txt "$out"/machine.txt "$out"/rss.txt "$out"/documents.json
binary=target/release/ilaj
[ -x "$binary" ] || { echo "build first: cargo build --release" >&2; exit 1; }
[ -x "$meilisearch" ] || { echo "no Meilisearch binary at $meilisearch (set MEILISEARCH)" >&2; exit 1; }
ilaj_url="http://127.0.0.1:$port"
meili_url="http://127.0.0.1:$meili_port"
meili_dir=$(mktemp -d /tmp/meilisearch-compare.XXXXXX)

"$binary" serve --addr "127.0.0.1:$port" --database "sqlite://$out/ilaj.sqlite" \
  --rate-limit-anonymous 4000000000 --reload-seconds 0 >"$out/server.log" 2>&1 &
server=$!
# Run from the temporary folder, so that no ./config.toml is read and nothing is written here.
(cd "$meili_dir" && exec "$meilisearch" --db-path "$meili_dir/data.ms" \
  --http-addr "127.0.0.1:$meili_port" --no-analytics --env development \
  --dump-dir "$meili_dir/dumps" --snapshot-dir "$meili_dir/snapshots") >"$out/meilisearch.log" 2>&1 &
meili=$!
trap 'kill $server $meili 2>/dev/null || true; wait $meili 2>/dev/null || true; rm -rf "$meili_dir"' EXIT

for _ in $(seq 100); do
  curl -sf "$ilaj_url/healthz" >/dev/null && curl -sf "$meili_url/health" >/dev/null && break
  sleep 0.2
done
if ! kill -0 "$server" 2>/dev/null; then
  echo "ilaj did not start (port $port taken?):" >&2
  tail -3 "$out/server.log" >&2
  exit 1
fi
if ! kill -0 "$meili" 2>/dev/null || ! curl -sf "$meili_url/health" >/dev/null; then
  echo "Meilisearch did not start (port $meili_port taken?):" >&2
  tail -3 "$out/meilisearch.log" >&2
  exit 1
fi

json() { python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"; }

python3 scripts/load/meili_documents.py content >"$out/documents.json"
task=$(curl -sf -X POST "$meili_url/indexes/articles/documents?primaryKey=id" \
  -H 'Content-Type: application/json' --data-binary "@$out/documents.json" | json 'd["taskUid"]')
status=enqueued
for _ in $(seq 600); do
  status=$(curl -sf "$meili_url/tasks/$task" | json 'd["status"]')
  case $status in succeeded | failed | canceled) break ;; esac
  sleep 0.5
done
if [ "$status" != succeeded ]; then
  echo "Meilisearch indexing task $task: $status" >&2
  curl -s "$meili_url/tasks/$task" >&2
  exit 1
fi

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "uptime before the runs: $(uptime)"
  echo "cores: $(nproc)"
  echo "ilaj: $binary ($(stat -c %y "$binary"))"
  echo "meilisearch: $meilisearch ($("$meilisearch" --version 2>/dev/null || echo 'version unknown'))"
  echo "documents indexed in Meilisearch: $(json 'len(d)' <"$out/documents.json")"
  echo "Meilisearch indexing task $task: $(curl -sf "$meili_url/tasks/$task" | json 'd["duration"]')"
} | tee "$out/machine.txt"

# One request each, to show both answered something for the text the load sends.
python3 -c 'import json; print(json.dumps({"text": open("eval/seed-oom-example.txt").read(), "lang": "fr"}))' |
  curl -sf -X POST "$ilaj_url/api/v1/match" -H 'Content-Type: application/json' --data-binary @- |
  json '"ilaj /api/v1/match: answer %s, %d results: %s" % (d["answer"], len(d["results"]), ", ".join(r["lang"] + "/" + r["id"] for r in d["results"]))' \
  | tee "$out/answers.txt"
python3 -c 'import json; print(json.dumps({"q": open("eval/seed-oom-example.txt").read()}))' |
  curl -sf -X POST "$meili_url/indexes/articles/search" -H 'Content-Type: application/json' --data-binary @- |
  json '"Meilisearch /indexes/articles/search: %d hits returned (estimatedTotalHits %s, processingTimeMs %s): %s" % (len(d["hits"]), d.get("estimatedTotalHits"), d.get("processingTimeMs"), ", ".join(h["id"] for h in d["hits"]))' \
  | tee -a "$out/answers.txt"

rss() { awk '/VmRSS|Threads/ {printf "%s %s  ", $1, $2}' "/proc/$1/status"; }
{ echo "before: ilaj $(rss $server)"; echo "before: meilisearch $(rss $meili)"; } >"$out/rss.txt"

wrk -t2 -c32 -d"$duration" --latency -s scripts/load/match.lua \
  "$ilaj_url/api/v1/match" >"$out/wrk-ilaj-match.txt"
wrk -t2 -c32 -d"$duration" --latency -s scripts/load/meili_search.lua \
  "$meili_url/indexes/articles/search" >"$out/wrk-meilisearch-search.txt"
# The floors, in the same run right after: what each server does for a request that does nothing.
wrk -t2 -c32 -d"$healthz_duration" --latency "$ilaj_url/healthz" >"$out/wrk-ilaj-healthz.txt"
wrk -t2 -c32 -d"$healthz_duration" --latency "$meili_url/health" >"$out/wrk-meilisearch-health.txt"
{ echo "after: ilaj $(rss $server)"; echo "after: meilisearch $(rss $meili)"; } >>"$out/rss.txt"

kill -TERM $server $meili
wait $server || true
wait $meili || true
for f in wrk-ilaj-match wrk-meilisearch-search wrk-ilaj-healthz wrk-meilisearch-health; do
  echo "== $f"
  cat "$out/$f.txt"
done
cat "$out/answers.txt" "$out/rss.txt"
