#!/usr/bin/env bash
# generate-link-order.sh: writes scripts/link-order.txt, the functions sut-launch runs when it starts, launches a
# program and serves its first requests, so that build-release.sh can lay them out side by side in the binary.
#
# Why: at start the kernel maps program text 64 KB at a time around each page fault. Spread over a 13 MB text
# segment, the few hundred KB of code a launch runs cost ~75 faults and ~5 MB of resident text; gathered in one
# place (lld's --symbol-ordering-file), fewer faults and a smaller peak (figures in docs/performance.md).
#
# How: perf samples sut-launch's own processes (not the program it runs) at 50 kHz over many launches and serve
# starts, plus every page fault of a few; the symbols seen, most frequent first, launch path before serve path.
# A stale list only orders less: symbols it names that no longer exist are skipped (no warning).
#
# Usage: scripts/generate-link-order.sh      (needs perf: apt-get install -y linux-perf; and a C compiler)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
command -v perf >/dev/null || { echo "generate-link-order: perf not found; install it with: apt-get install -y linux-perf" >&2; exit 2; }

SUT="$("$ROOT/scripts/build-release.sh")"
cp "$SUT" "$WORK/sut-launch"
printf 'int main(void) { return 0; }\n' > "$WORK/true.c"
"${CC:-cc}" -O2 -o "$WORK/true" "$WORK/true.c"
python3 - "$WORK" <<'PY'
import json, sys
items = [{"method": "GET", "path": "/message", "body": "Hello world"}]
for i in range(999):
    items.append({"method": "GET", "path": f"/api/v1/items/{i}", "json": {"id": i}} if i % 2 == 0
                 else {"method": "POST", "path": f"/api/v1/users/{{id}}/orders/{i}", "status": 201})
json.dump({"routes": items}, open(f"{sys.argv[1]}/routes.json", "w"))
PY
cat > "$WORK/serve.py" <<'PY'
import os, signal, socket, sys, time
sut, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
for _ in range(runs):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
    pid = os.posix_spawn(sut, [sut, "serve", "-q", "--port", str(port), f"{work}/routes.json"], os.environ)
    for _ in range(5000):
        c = socket.socket()
        try:
            c.connect(("127.0.0.1", port))
        except OSError:
            c.close(); time.sleep(0.0005); continue
        for path in (b"/message", b"/api/v1/items/4", b"/nothing"):
            c.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n\r\n"); c.recv(65536)
        c.close(); break
    os.kill(pid, signal.SIGTERM); os.waitpid(pid, 0)
PY

symbols() { # $1 perf.data: sut-launch's own samples (its reaper too), most frequent first
    perf script --no-demangle -i "$1" -F comm,ip,sym 2>/dev/null \
        | awk '($1 == "sut-launch" || $1 == "sut-reaper") && NF >= 3 && $3 != "[unknown]" { print $3 }' \
        | sort | uniq -c | sort -rn | awk '{ print $2 }'
}
echo "sampling launches..." >&2
perf record -q -F 50000 -e cpu-clock:u -o "$WORK/launch.data" -- \
    sh -c "for i in \$(seq 1500); do '$WORK/sut-launch' '$WORK/true'; '$WORK/sut-launch' --version; done" >/dev/null 2>&1
perf record -q -c 1 -e page-faults:u -o "$WORK/launch-faults.data" -- \
    sh -c "for i in \$(seq 50); do '$WORK/sut-launch' '$WORK/true'; done" >/dev/null 2>&1
echo "sampling serve..." >&2
perf record -q -F 50000 -e cpu-clock:u -o "$WORK/serve.data" -- python3 "$WORK/serve.py" "$WORK/sut-launch" "$WORK" 300 >/dev/null 2>&1
perf record -q -c 1 -e page-faults:u -o "$WORK/serve-faults.data" -- python3 "$WORK/serve.py" "$WORK/sut-launch" "$WORK" 20 >/dev/null 2>&1

{ symbols "$WORK/launch.data"; symbols "$WORK/launch-faults.data"; symbols "$WORK/serve.data"; symbols "$WORK/serve-faults.data"; } \
    | awk '!seen[$0]++' > "$ROOT/scripts/link-order.txt"
echo "wrote scripts/link-order.txt: $(wc -l < "$ROOT/scripts/link-order.txt") symbols" >&2
