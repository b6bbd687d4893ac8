#!/usr/bin/env bash
# bench-import.sh: what `POST /__admin/mappings/import` costs, beside loading the same mappings from a file, in one run.
#
# Measures, for COUNTS mappings (default 2,000 and 20,000 small `url` mappings without ids):
#   1. the import: one POST of {"mappings": [...]} to a running `sut-launch serve` (after POST /__admin/reset);
#   2. the reference: `sut-launch check FILE` loading the same mappings from a file (parse, check, build the router).
# Target (the network attack's F6: 2,000 took 69 s, quadratic): the import <= 3 x the file load at every count, and
# ten times the mappings <= ~10 x the time (linear).
#
# Usage: scripts/bench-import.sh      (needs curl and python3)
#   SUT=.build/debug/sut-launch COUNTS="2000 20000" scripts/bench-import.sh   (skip the release build)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
COUNTS="${COUNTS:-2000 20000}"
WORK="$(mktemp -d)"
SERVER=""
cleanup() {
    if [ -n "$SERVER" ]; then kill -9 "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

for tool in curl python3; do
    command -v "$tool" >/dev/null || { echo "bench-import: $tool not found; install it with: apt-get install -y curl python3" >&2; exit 2; }
done
if [ -z "${SUT:-}" ]; then
    echo "building sut-launch (scripts/build-release.sh)..." >&2
    SUT="$("$ROOT/scripts/build-release.sh")"
fi

seconds() { python3 -c 'import time; print(f"{time.monotonic():.3f}")'; }

"$SUT" serve --port 0 -q >"$WORK/url" 2>/dev/null &
SERVER=$!
for _ in $(seq 100); do [ -s "$WORK/url" ] && break; sleep 0.1; done
URL="$(head -1 "$WORK/url")"
[ -n "$URL" ] || { echo "bench-import: the server printed no URL" >&2; exit 1; }

printf '%-10s %12s %12s %8s\n' mappings "import (s)" "file (s)" ratio
for n in $COUNTS; do
    python3 -c 'import json, sys; n = int(sys.argv[1]); print(json.dumps({"mappings": [{"request": {"url": "/n%d" % i}, "response": {"status": 200, "body": "m"}} for i in range(n)]}))' "$n" >"$WORK/import-$n.json"
    curl -s -o /dev/null -X POST "$URL/__admin/reset"
    start="$(seconds)"
    status="$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' --data-binary @"$WORK/import-$n.json" "$URL/__admin/mappings/import")"
    imported="$(python3 -c "print(f'{$(seconds) - $start:.2f}')")"
    [ "$status" = 200 ] || { echo "bench-import: the import of $n mappings answered $status" >&2; exit 1; }
    start="$(seconds)"
    "$SUT" check "$WORK/import-$n.json" >/dev/null
    loaded="$(python3 -c "print(f'{$(seconds) - $start:.2f}')")"
    printf '%-10s %12s %12s %8s\n' "$n" "$imported" "$loaded" "$(python3 -c "print(f'{$imported / max($loaded, 0.01):.1f}x')")"
done
