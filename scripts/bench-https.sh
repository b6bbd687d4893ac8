#!/usr/bin/env bash
# bench-https.sh: the mock server over HTTPS, beside nginx with TLS and the same key type (EC P-256), in one run.
#
# Measures:
#   1. keep-alive GET requests/second over TLS with wrk (-t2 -c10, DURATION): nginx (1 worker) and
#      `sut-launch serve --https`;
#   2. new TLS handshakes per second: the same with `Connection: close`, so every request is a new connection and
#      a full handshake, on both servers;
#   3. ready time: process start to the first answered request, `serve --https` against plain `serve`, the two
#      alternating, median of RUNS starts each.
# Targets (issue 26): keep-alive >= 0.5 x nginx with TLS; ready with HTTPS <= 2 ms more than plain.
# What runs is the pair scripts/build-release.sh builds: the static sut-launch hands --https to
# sut-launch-foundation beside it (docs/ci.md), so the ready time includes that exec.
#
# Usage: scripts/bench-https.sh      (needs wrk, nginx, openssl, python3: apt-get install -y wrk nginx-light openssl)
#   DURATION=10s RUNS=40 scripts/bench-https.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DURATION="${DURATION:-5s}"
RUNS="${RUNS:-20}"
for tool in wrk nginx openssl python3; do
    command -v "$tool" >/dev/null || { echo "bench-https: $tool not found; install it with: apt-get install -y wrk nginx-light openssl python3" >&2; exit 2; }
done
WORK="$(mktemp -d)"
PIDS=()
cleanup() {
    for pid in ${PIDS[@]+"${PIDS[@]}"}; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

echo "building sut-launch (scripts/build-release.sh)..." >&2
SUT="$("$ROOT/scripts/build-release.sh")"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
echo '{"routes": [{"method": "GET", "path": "/message", "body": "Hello world"}]}' >"$WORK/routes.json"

# nginx with TLS: one worker, an EC P-256 certificate as the minted one is, the same 11-byte body.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$WORK/key.pem" -out "$WORK/cert.pem" \
    -subj /CN=localhost -addext subjectAltName=IP:127.0.0.1 -days 2 2>/dev/null
NGINX_PORT="$(free_port)"
mkdir -p "$WORK/nginx/logs"
cat >"$WORK/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
error_log $WORK/nginx/error.log;
pid $WORK/nginx/nginx.pid;
events { worker_connections 1024; }
http {
    access_log off;
    server {
        listen 127.0.0.1:$NGINX_PORT ssl;
        ssl_certificate $WORK/cert.pem;
        ssl_certificate_key $WORK/key.pem;
        ssl_protocols TLSv1.2 TLSv1.3;
        keepalive_requests 1000000;
        location /message { default_type text/plain; return 200 "Hello world"; }
    }
}
CONF
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" &
PIDS+=($!)

SUT_PORT="$(free_port)"
"$SUT" serve -q --https --port "$SUT_PORT" "$WORK/routes.json" >"$WORK/serve.out" 2>"$WORK/serve.err" &
PIDS+=($!)
for url in "https://127.0.0.1:$NGINX_PORT/message" "https://127.0.0.1:$SUT_PORT/message"; do
    for _ in $(seq 1 100); do
        python3 - "$url" <<'PY' && break
import ssl, sys, urllib.request
context = ssl.create_default_context(); context.check_hostname = False; context.verify_mode = ssl.CERT_NONE
try: sys.exit(0 if urllib.request.urlopen(sys.argv[1], context=context, timeout=1).read() == b"Hello world" else 1)
except Exception: sys.exit(1)
PY
        sleep 0.05
    done
done

rate() { wrk -t2 -c10 -d"$DURATION" "$@" | awk '/^Requests\/sec:/ { printf "%d", $2 }'; }
echo "wrk -t2 -c10 -d$DURATION over TLS, keep-alive, then Connection: close (a handshake per request)..." >&2
NGINX_KEEP="$(rate "https://127.0.0.1:$NGINX_PORT/message")"
SUT_KEEP="$(rate "https://127.0.0.1:$SUT_PORT/message")"
NGINX_NEW="$(rate -H 'Connection: close' "https://127.0.0.1:$NGINX_PORT/message")"
SUT_NEW="$(rate -H 'Connection: close' "https://127.0.0.1:$SUT_PORT/message")"

echo "ready times, $RUNS starts each, alternating..." >&2
READY="$(python3 - "$SUT" "$WORK/routes.json" "$RUNS" <<'PY'
import socket, ssl, statistics, subprocess, sys, time
sut, routes, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
context = ssl.create_default_context(); context.check_hostname = False; context.verify_mode = ssl.CERT_NONE
def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port
def ready(https):
    port = free_port()
    started = time.perf_counter()
    process = subprocess.Popen([sut, "serve", "-q", "--port", str(port)] + (["--https"] if https else []) + [routes],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = started + 10
        while time.perf_counter() < deadline:
            try:
                connection = socket.create_connection(("127.0.0.1", port), timeout=1)
                if https: connection = context.wrap_socket(connection)
                connection.sendall(b"GET /message HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                if connection.recv(100).startswith(b"HTTP/1.1 200"): return (time.perf_counter() - started) * 1000
            except OSError:
                time.sleep(0.0002)
        return float("nan")
    finally:
        process.terminate(); process.wait()
plain, https = [], []
for _ in range(runs):
    plain.append(ready(False)); https.append(ready(True))
print(f"{statistics.median(plain):.2f} {statistics.median(https):.2f}")
PY
)"
read -r PLAIN_READY HTTPS_READY <<<"$READY"

python3 - "$NGINX_KEEP" "$SUT_KEEP" "$NGINX_NEW" "$SUT_NEW" "$PLAIN_READY" "$HTTPS_READY" <<'PY'
import sys
nginx_keep, sut_keep, nginx_new, sut_new = (int(v or 0) for v in sys.argv[1:5])
plain, https = float(sys.argv[5]), float(sys.argv[6])
verdict = lambda ok: "PASS" if ok else "FAIL"
ratio = sut_keep / nginx_keep if nginx_keep else 0
print(f"keep-alive requests/s over TLS (-c10): nginx (1 worker) {nginx_keep:,}; sut-launch serve --https {sut_keep:,} "
      f"({ratio:.2f} x nginx, target >= 0.5: {verdict(ratio >= 0.5)})")
print(f"new TLS handshakes/s (Connection: close, -c10): nginx {nginx_new:,}; sut-launch {sut_new:,} "
      f"({(sut_new / nginx_new if nginx_new else 0):.2f} x nginx)")
print(f"ready (start to first answered request, median): plain {plain:.2f} ms, HTTPS {https:.2f} ms "
      f"({https - plain:+.2f} ms, target <= +2 ms: {verdict(https - plain <= 2)})")
PY
