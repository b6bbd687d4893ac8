#!/usr/bin/env bash
# bench-match.sh: the CPU time the mock server spends matching one request, for the worst shapes found
# (HOSTILE.md class 6: patterns from users against a client's body; findings r5a-3 and r5c-13).
#
# Each shape is a set of WireMock mappings (a regex, equalToJson, matchesJsonPath, a multipart part, many mappings
# at once) and one request with a large body; the server's CPU time (utime + stime of its process, /proc/PID/stat)
# is read before and after the request. One line per shape: name, status, CPU ms, wall ms, the start of the answer.
# References measured in the same run: the same server answering a plain mapping (method and URL only) with the
# largest body (reading 16 MB costs something too), and `grep -c` over the same bytes (a C regex engine's time).
# Target: no request's matching costs more than LIMIT_MS of CPU (default 2000; the request's matching budget,
# 50,000,000 units, is calibrated to about two seconds in a release build): exit 1 when one does.
#
# Usage: scripts/bench-match.sh                          (builds the release binary first)
#   SUT_BINARY=.build/release/sut-launch scripts/bench-match.sh      (that binary, not built here)
#   scripts/bench-match.sh regex equalToJson             (only the shapes whose name contains one of these)
#   LIMIT_MS=1500 scripts/bench-match.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command -v python3 >/dev/null || { echo "bench-match: python3 not found; install it with: apt-get install -y python3" >&2; exit 2; }
if [ -n "${SUT_BINARY:-}" ]; then
    SUT="$SUT_BINARY"
else
    echo "building sut-launch (scripts/build-release.sh)..." >&2
    SUT="$("$ROOT/scripts/build-release.sh")"
fi

exec python3 - "$SUT" "$@" <<'PY'
import json, os, resource, signal, subprocess, sys, tempfile, time, http.client, urllib.parse

LIMIT_MS = float(os.environ.get("LIMIT_MS", "2000"))
HZ = os.sysconf("SC_CLK_TCK")
MB = 1000 * 1000

def body_patterns(*patterns):
    return {"bodyPatterns": list(patterns)}

def multipart(boundary, part_body):
    return (f"--{boundary}\r\nContent-Disposition: form-data; name=\"doc\"\r\nContent-Type: text/plain\r\n\r\n".encode()
            + part_body + f"\r\n--{boundary}--\r\n".encode())

A15 = b"a" * (15 * MB)
ZEROS = ("[" + ",".join(["0"] * 7_000_000) + "]").encode()           # 14 MB
OBJECTS = ('{"b":[' + ",".join(["{}"] * 4_000_000) + '],"a":2}').encode()  # 12 MB
NESTED = json.dumps([{"a": [i] * 10} for i in range(100_000)]).encode()  # 5.8 MB
BOUNDARY = "b" * 70

SHAPES = [
    # name, [request patterns, one mapping each], body, content type
    ("regex .*zz.* on 15 MB of a (r5a-3)", [body_patterns({"matches": ".*zz.*"})], A15, None),
    ("regex .*zz.* on 15 MB, zz at the end", [body_patterns({"matches": ".*zz.*"})], A15 + b"zz", None),
    ("regex (a|aa)+b on 15 MB", [body_patterns({"matches": "(a|aa)+b"})], A15, None),
    ("regex [a-z]+[0-9]* on 15 MB, case-insensitive", [body_patterns({"matches": "(?i)[a-z]+[0-9]*Q"})], A15, None),
    ("doesNotMatch .*zz.* on 15 MB + zz", [body_patterns({"doesNotMatch": ".*zz.*"})], A15 + b"zz", None),
    ("regex on 1 MB x 100 mappings", [body_patterns({"matches": ".*z%dz.*" % i}) for i in range(100)], b"a" * MB, None),
    ("contains on 15 MB x 1000 mappings", [body_patterns({"contains": "zz%d" % i}) for i in range(1000)], A15, None),
    ("equalToJson {a:1} extra on 12 MB of {} (r5c-13)",
     [body_patterns({"equalToJson": {"a": 1}, "ignoreExtraElements": True})], OBJECTS, "application/json"),
    ("equalToJson [0] extra on 14 MB of 0", [body_patterns({"equalToJson": [1], "ignoreExtraElements": True})], ZEROS,
     "application/json"),
    ("equalToJson any order on 5.8 MB nested", [body_patterns({"equalToJson": [{"a": [1]}], "ignoreArrayOrder": True,
                                                             "ignoreExtraElements": True})], NESTED, "application/json"),
    ("equalToJson any order x 50 mappings on 5.8 MB", [body_patterns({"equalToJson": [{"a": [i]}], "ignoreArrayOrder": True,
                                                                    "ignoreExtraElements": True}) for i in range(50)],
     NESTED, "application/json"),
    ("matchesJsonPath $..a on 12 MB", [body_patterns({"matchesJsonPath": "$..a"})], OBJECTS, "application/json"),
    ("equalToJson x 100 mappings on 12 MB", [body_patterns({"equalToJson": {"a": i}, "ignoreExtraElements": True})
                                            for i in range(100)], OBJECTS, "application/json"),
    ("multipart part regex .*zz.* on 15 MB",
     [{"multipartPatterns": [{"bodyPatterns": [{"matches": ".*zz.*"}]}]}],
     multipart(BOUNDARY, A15), f"multipart/form-data; boundary={BOUNDARY}"),
]

def cpu_ms(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / HZ

def request(port, method, path, body=b"", headers=None, timeout=300):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    conn.request(method, path, body=body, headers=headers or {})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, data

def children_cpu_ms():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000

def grep_reference(body):
    with tempfile.NamedTemporaryFile() as f:
        f.write(body)
        f.flush()
        before = children_cpu_ms()
        subprocess.run(["grep", "-c", "-E", ".*zz.*", f.name], stdout=subprocess.DEVNULL)
        return children_cpu_ms() - before

def measure(server, port, name, path, body, content_type):
    headers = {"Content-Type": content_type} if content_type else {}
    before, started = cpu_ms(server.pid), time.monotonic()
    status, data = request(port, "POST", path, body, headers)
    cpu, wall = cpu_ms(server.pid) - before, (time.monotonic() - started) * 1000
    first = data[:100].decode(errors="replace").splitlines()[0] if data else ""
    print(f"{name:50s} {status} cpu {cpu:8.0f} ms  wall {wall:8.0f} ms  {first}", flush=True)
    return cpu

def main():
    if len(sys.argv) < 2:
        print("usage: bench-match.sh [SHAPE...]", file=sys.stderr)
        return 2
    binary, wanted = sys.argv[1], sys.argv[2:]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    server = subprocess.Popen([binary, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    try:
        url = server.stdout.readline().decode().strip().split()[-1]
        port = urllib.parse.urlparse(url).port
        plain = {"request": {"method": "POST", "urlPath": "/plain"}, "response": {"status": 200, "body": "ok"}}
        request(port, "POST", "/__admin/mappings", json.dumps(plain).encode(), {"Content-Type": "application/json"})
        print(f"{'reference: grep -c -E .*zz.* over 15 MB':50s}     cpu {grep_reference(A15):8.0f} ms")
        measure(server, port, "reference: a plain mapping, 15 MB body", "/plain", A15, None)
        measure(server, port, "reference: a plain mapping, 14 MB JSON", "/plain", ZEROS, "application/json")
        worst = (0.0, "")
        for number, (name, patterns, body, content_type) in enumerate(SHAPES):
            if wanted and not any(w in name for w in wanted):
                continue
            request(port, "POST", "/__admin/mappings/reset", b"")
            for pattern in patterns:
                mapping = {"request": dict(method="POST", urlPath=f"/m{number}", **pattern), "response": {"status": 200}}
                status, data = request(port, "POST", "/__admin/mappings", json.dumps(mapping).encode(),
                                       {"Content-Type": "application/json"})
                if status != 201:
                    print(f"{name:50s} mapping refused: {status} {data[:200]!r}")
                    break
            cpu = measure(server, port, name, f"/m{number}", body, content_type)
            if cpu > worst[0]:
                worst = (cpu, name)
        print(f"worst: {worst[1]}: {worst[0]:.0f} ms of CPU (limit {LIMIT_MS:.0f} ms)")
        return 1 if worst[0] > LIMIT_MS else 0
    finally:
        os.killpg(server.pid, 9)
        server.wait()

if __name__ == "__main__":
    sys.exit(main())
PY
