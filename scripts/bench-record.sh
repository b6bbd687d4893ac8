#!/usr/bin/env bash
# bench-record.sh: what recording and replaying cost, beside the same requests without them, in one run.
#
# Measures:
#   1. per-request latency (median, p99) of 2,000 sequential keep-alive GETs (one page each) from one client: straight to nginx,
#      then through `sut-launch record --target nginx` (every request forwarded and recorded); the median
#      difference is the recording proxy's overhead. Target (issue 27): <= 1 ms at the median.
#   2. requests/second (wrk) of the recording (2,100 mappings, one per page) replayed by `sut-launch serve DIR`,
#      beside the same body served by a native route, and by nginx.
#
# Usage: scripts/bench-record.sh      (needs wrk, nginx and python3: apt-get install -y wrk nginx-light python3)
#   SUT=.build/debug/sut-launch scripts/bench-record.sh   (skip the release build; debug figures are slower)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DURATION="${DURATION:-5s}"
COUNT="${COUNT:-2000}"
WORK="$(mktemp -d)"
PIDS=()
# TERM first (nginx's master then stops its worker, which would hold our stdout open), KILL what is left.
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    sleep 0.3
    for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

for tool in wrk nginx python3; do
    command -v "$tool" >/dev/null || { echo "bench-record: $tool not found; install it with: apt-get install -y wrk nginx-light python3" >&2; exit 2; }
done
if [ -z "${SUT:-}" ]; then
    echo "building sut-launch (scripts/build-release.sh)..." >&2
    SUT="$("$ROOT/scripts/build-release.sh")"
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { python3 -c '
import socket, sys, time
for _ in range(1000):
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=0.1).close(); sys.exit(0)
    except OSError:
        time.sleep(0.01)
sys.exit(1)' "$1"; }

BODY='{"items":[{"id":1,"name":"pen"},{"id":2,"name":"ink"}],"total":2}'
NGINX_PORT=$(free_port)
mkdir -p "$WORK/nginx"
cat > "$WORK/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
error_log $WORK/nginx/error.log;
pid $WORK/nginx/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    location = /items { default_type application/json; return 200 '$BODY'; }
  }
}
CONF
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" > /dev/null 2>&1 &
PIDS+=($!)
wait_port "$NGINX_PORT"

RECORD_PORT=$(free_port)
"$SUT" record --target "http://127.0.0.1:$NGINX_PORT" --into "$WORK/recording" --port "$RECORD_PORT" -q > /dev/null 2>&1 &
RECORDER=$!
PIDS+=($RECORDER)
wait_port "$RECORD_PORT"

latency() { python3 - "$1" "$COUNT" <<'PY'
import http.client, sys, time
port, count = int(sys.argv[1]), int(sys.argv[2])
connection = http.client.HTTPConnection("127.0.0.1", port)
times = []
for i in range(count + 100):
    start = time.perf_counter()
    connection.request("GET", f"/items?page={i}")
    response = connection.getresponse(); response.read()
    if i >= 100: times.append((time.perf_counter() - start) * 1000)
times.sort()
print(f"{times[len(times) // 2]:.3f} {times[int(len(times) * 0.99)]:.3f}")
PY
}
echo "$COUNT sequential keep-alive GET /items, straight and through the recorder..." >&2
read -r DIRECT_MEDIAN DIRECT_P99 <<< "$(latency "$NGINX_PORT")"
read -r RECORD_MEDIAN RECORD_P99 <<< "$(latency "$RECORD_PORT")"
python3 - "$RECORD_PORT" <<'PY'
import http.client, sys
connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
connection.request("POST", "/__admin/shutdown", body="", headers={"Content-Type": "application/json"})
connection.getresponse().read()
PY
for _ in $(seq 100); do kill -0 "$RECORDER" 2>/dev/null || break; sleep 0.1; done
MAPPINGS=$(find "$WORK/recording/mappings" -name '*.json' | wc -l)

REPLAY_PORT=$(free_port)
"$SUT" serve -q --port "$REPLAY_PORT" "$WORK/recording" > /dev/null 2>&1 &
PIDS+=($!)
python3 -c 'import json,sys; json.dump({"routes": [{"method": "GET", "path": "/items", "headers": {"Content-Type": "application/json"}, "body": sys.argv[1]}]}, open(sys.argv[2], "w"))' "$BODY" "$WORK/native.json"
NATIVE_PORT=$(free_port)
"$SUT" serve -q --port "$NATIVE_PORT" "$WORK/native.json" > /dev/null 2>&1 &
PIDS+=($!)
wait_port "$REPLAY_PORT"; wait_port "$NATIVE_PORT"
rps() { wrk -t2 -c10 -d"$DURATION" "http://127.0.0.1:$1$2" | awk '/Requests\/sec/ {print $2}'; }
echo "wrk -t2 -c10 -d$DURATION GET /items: the replay, a native route, nginx..." >&2
# The recording holds COUNT+100 mappings, one per page; wrk asks one of them.
REPLAY_RPS=$(rps "$REPLAY_PORT" "/items?page=7")
NATIVE_RPS=$(rps "$NATIVE_PORT" /items)
NGINX_RPS=$(rps "$NGINX_PORT" /items)

python3 - "$DIRECT_MEDIAN" "$DIRECT_P99" "$RECORD_MEDIAN" "$RECORD_P99" "$MAPPINGS" "$REPLAY_RPS" "$NATIVE_RPS" "$NGINX_RPS" <<'PY'
import sys
dm, dp, rm, rp, mappings, replay, native, nginx = sys.argv[1:]
dm, dp, rm, rp, replay, native, nginx = map(float, (dm, dp, rm, rp, replay, native, nginx))
overhead = rm - dm
print(f"latency, straight to nginx:        median {dm:.3f} ms, p99 {dp:.3f} ms")
print(f"latency, through the recorder:     median {rm:.3f} ms, p99 {rp:.3f} ms ({mappings} mappings written)")
print(f"recording overhead at the median:  {overhead:.3f} ms (target <= 1 ms: {'met' if overhead <= 1 else 'NOT met'})")
print(f"replay of the recording ({mappings} mappings): {replay:,.0f} req/s ({replay / native:.2f} x one native route at {native:,.0f}; nginx {nginx:,.0f})")
PY
