#!/usr/bin/env bash
# bench-template.sh: the CPU time the mock server spends on one templated answer, for the worst shapes found
# (HOSTILE.md class 6: templates and helpers over request data).
#
# Each shape is a WireMock mapping with a response template (every helper of docs/wiremock.md, nested loops,
# large bodies) and one request; the server's CPU time (utime + stime of its process, /proc/PID/stat) is read
# before and after the request. One line per shape: name, status, CPU ms, wall ms, the start of the answer; the
# reference is the same server's CPU for a trivial templated answer ({{request.path}}), measured in the same run.
# Target (R4a-6): no answer costs more than LIMIT_MS of CPU (default 1000; the answer's budget is calibrated to
# about a second in a release build): exit 1 when one does.
#
# Usage: scripts/bench-template.sh                       (builds the release binary first)
#   SUT_BINARY=.build/release/sut-launch scripts/bench-template.sh     (that binary, not built here)
#   scripts/bench-template.sh jsonPath regexExtract        (only the shapes whose name contains one of these)
#   LIMIT_MS=500 scripts/bench-template.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command -v python3 >/dev/null || { echo "bench-template: python3 not found; install it with: apt-get install -y python3" >&2; exit 2; }
if [ -n "${SUT_BINARY:-}" ]; then
    SUT="$SUT_BINARY"
else
    echo "building sut-launch (scripts/build-release.sh)..." >&2
    SUT="$("$ROOT/scripts/build-release.sh")"
fi

exec python3 - "$SUT" "$@" <<'PY'
import json, os, signal, subprocess, sys, time, http.client, urllib.parse

LIMIT_MS = float(os.environ.get("LIMIT_MS", "1000"))
HZ = os.sysconf("SC_CLK_TCK")

R1000 = "(range 1 1000)"
def nest(inner, outer=R1000, inner_range=R1000):
    return "{{#each %s}}{{#each %s}}%s{{/each}}{{/each}}" % (outer, inner_range, inner)

def big_json(n):  # an array of n objects, each with a few members
    return json.dumps([{"a": i, "b": "x" * 8, "c": [i, i + 1]} for i in range(n)])

def deep_json(depth):
    return "[" * depth + "]" * depth

MB = 1 << 20
SHAPES = [
    # name, template, body
    ("each x each, jsonPath $..a on 1 byte", nest("{{jsonPath request.body '$..a'}}"), "x"),
    ("each x each, text", nest("x"), "x"),
    ("each x each, nothing", nest(""), "x"),
    ("each x each x each (100^3)", "{{#each (range 1 100)}}{{#each (range 1 100)}}{{#each (range 1 100)}}x{{/each}}{{/each}}{{/each}}", "x"),
    ("each x each range 100000", nest("", "(range 1 100000)", "(range 1 100000)"), "x"),
    ("each x each, regexExtract 'b' on 1 MB", nest("{{regexExtract request.body 'b'}}"), "a" * MB),
    ("regexExtract 'b' on 16 MB", "{{regexExtract request.body 'b'}}", "a" * (16 * MB - 64)),
    ("regexExtract '(a)' all groups on 4 MB", "{{regexExtract request.body '(a)' 'g'}}{{size g}}", "a" * (4 * MB)),
    ("regexExtract '(a|aa)+b' on 1 MB", "{{regexExtract request.body '(a|aa)+b'}}", "a" * MB),
    ("matches '.*b' in loop on 64 KB", nest("{{#matches request.body '.*b'}}y{{/matches}}"), "a" * 65536),
    ("jsonPath $..a on 4 MB JSON", "{{jsonPath request.body '$..a'}}", big_json(80000)),
    ("jsonPath $..a in loop on 1 MB JSON", nest("{{jsonPath request.body '$..a'}}"), big_json(20000)),
    ("jsonPath filter on 1 MB JSON", nest("{{jsonPath request.body '$[?(@.a > 5)].b'}}"), big_json(20000)),
    ("each over jsonPath array x itself", "{{#each (jsonPath request.body '$[*]')}}{{#each (jsonPath request.body '$[*]')}}{{a}}{{/each}}{{/each}}", big_json(5000)),
    ("jsonPath on deep JSON", nest("{{jsonPath request.body '$..x'}}"), deep_json(120)),
    ("parseJson 4 MB then toJson", "{{toJson (parseJson request.body)}}", big_json(80000)),
    # r5c-12: one parse of a client's 12-14 MB body cost 5-10 s before the budget's 500.
    ("size parseJson 14 MB of 0", "{{size (parseJson request.body)}}", "[" + ",".join(["0"] * 7_000_000) + "]"),
    ("size parseJson 12 MB of {}", "{{size (parseJson request.body)}}", "[" + ",".join(["{}"] * 4_000_000) + "]"),
    ("size parseJson 5.8 MB of small arrays", "{{size (parseJson request.body)}}",
     json.dumps([{"a": [i] * 10} for i in range(100_000)])),
    ("toJson parseJson 5.8 MB of small arrays", "{{size (toJson (parseJson request.body))}}",
     json.dumps([{"a": [i] * 10} for i in range(100_000)])),
    ("base64 decode 12 MB", "{{size (base64 request.body decode=true)}}", "YWFh" * 3_000_000),
    ("base64 encode 12 MB", "{{size (base64 request.body)}}", "a" * 12_000_000),
    ("parseJson in loop", nest("{{size (parseJson request.body)}}"), big_json(2000)),
    ("toJson of body json in loop", nest("{{toJson (jsonPath request.body '$')}}"), big_json(200)),
    ("jsonMerge of a 1.5 MB object with itself", "{{size (jsonMerge request.body request.body)}}",
     json.dumps({"k%d" % i: i for i in range(100000)})),
    ("jsonMerge in loop", nest("{{jsonMerge request.body '{\"z\":1}'}}"), json.dumps({"k%d" % i: i for i in range(2000)})),
    ("upper on 1 MB in loop", nest("{{upper request.body}}"), "a" * MB),
    ("capitalize on 1 MB in loop", nest("{{capitalize request.body}}"), "a b " * (MB // 4)),
    ("lower of non-ASCII 1 MB", nest("{{lower request.body}}"), "\u0130" * (MB // 2)),
    ("base64 of 1 MB in loop", nest("{{base64 request.body}}"), "a" * MB),
    ("base64 decode 1 MB in loop", nest("{{base64 request.body decode=true}}"), "YWFh" * (MB // 4)),
    ("urlEncode 1 MB in loop", nest("{{urlEncode request.body}}"), "\u00e9 " * (MB // 3)),
    ("formData 1 MB many fields", nest("{{size (formData request.body)}}"), "a=b&" * (MB // 4)),
    ("size of 1 MB body in loop", nest("{{size request.body}}"), "a" * MB),
    ("trim 1 MB in loop", nest("{{trim request.body}}"), " " + "a" * MB + " "),
    ("abbreviate 1 MB in loop", nest("{{abbreviate request.body 10}}"), "a" * MB),
    ("contains in 1 MB in loop", nest("{{#contains request.body 'b'}}y{{/contains}}"), "a" * MB),
    ("eq of 1 MB texts in loop", nest("{{#eq request.body request.body}}y{{/eq}}"), "a" * MB),
    ("gt of 1 MB texts in loop", nest("{{#gt request.body request.body}}y{{/gt}}"), "a" * MB),
    ("lt of combining marks against a short text", "{{#each (range 1 1000)}}{{#lt request.body request.query.p}}y{{/lt}}{{/each}}",
     "e\u0301" * 300000),
    ("escape of 1 MB '<' in loop", nest("{{request.body}}"), "<" * MB),
    ("join of range", nest("{{join (range 1 1000) ','}}", R1000, "(range 1 10)"), "x"),
    ("math in loop", nest("{{math @index '*' 3}}"), "x"),
    ("math on big quoted literals in loop", nest("{{math '123456789012345678' '+' '123456789012345678'}}"), "x"),
    ("randomValue 10000 in loop", nest("{{randomValue length=10000 type='ALPHANUMERIC'}}"), "x"),
    # r9a B1: generated text that is not printed (17 times the loop's CPU in a debug build), and urlEncode of 1,200 bytes.
    ("size of randomValue 1000 in loop", "{{#each (range 1 100000)}}{{size (randomValue length=1000)}}{{/each}}", "x"),
    ("size of urlEncode 1200 bytes in loop", "{{#each (range 1 20000)}}{{size (urlEncode request.body)}}{{/each}}", "a b/\u00e9" * 200),
    # r7a F5: the regex engine's steps on generated text that does not match (23 s of CPU in a debug build).
    ("regexExtract on randomValue 1000 in loop", "{{#each (range 1 100000)}}{{regexExtract (randomValue length=1000) '(a|b|c)*z'}}{{/each}}", "x"),
    ("regexExtract [0-9]*z on NUMERIC randomValue", "{{#each (range 1 100000)}}{{regexExtract (randomValue length=1000 type='NUMERIC') '[0-9]*z'}}{{/each}}", "x"),
    ("regexExtract on a 1000-char variable in loop",
     "{{regexExtract request.body '(.*)' 'v'}}{{#each (range 1 100000)}}{{regexExtract v.0 '(a|b|c)*z'}}{{/each}}", "abc" * 333),
    ("randomValue UUID in loop", nest("{{randomValue type='UUID'}}"), "x"),
    ("randomInt in loop", nest("{{randomInt lower=1 upper=9}}"), "x"),
    ("pickRandom in loop", nest("{{pickRandom 'a' 'b' 'c'}}"), "x"),
    ("now with format in loop", nest("{{now format='yyyy-MM-dd HH:mm:ss.SSS zzz' timezone='Europe/Paris'}}"), "x"),
    ("dateFormat parseDate in loop", nest("{{dateFormat (parseDate '2024-01-02T03:04:05Z') 'EEEE, d MMMM yyyy'}}"), "x"),
    ("truncateDate in loop", nest("{{truncateDate (now) 'first day of month'}}"), "x"),
    ("array build in loop", nest("{{size (array 1 2 3 4 5 6 7 8 9 10)}}"), "x"),
    ("val assign doubling", "{{val 'x' assign='a'}}{{#each (range 1 40)}}{{val (array a a) assign='a'}}{{/each}}{{size a}}", "x"),
    ("request.query in loop", nest("{{request.query.a}}"), "x"),
    ("request.headers in loop", nest("{{request.headers.X-A}}"), "x"),
    ("each request.query and headers in loop", nest("{{#each request.query}}{{@key}}{{/each}}{{#each request.headers}}{{this}}{{/each}}"), "x"),
    ("request.path segments in loop", nest("{{request.path.[3]}}"), "x"),
    ("xPath on 1 MB XML in loop", nest("{{xPath request.body '//b'}}"), "<a>" + "<b>1</b>" * (MB // 8) + "</a>"),
    ("#assign of body in loop", nest("{{#assign 'v'}}{{request.body}}{{/assign}}"), "a" * 65536),
    ("#trim of body in loop", nest("{{#trim}}{{request.body}}{{/trim}}"), "a" * 65536),
    ("#base64 of body in loop", nest("{{#base64}}{{request.body}}{{/base64}}"), "a" * 65536),
    ("with/if nesting", nest("{{#with request}}{{#if method}}{{#unless body}}n{{/unless}}{{/if}}{{/with}}"), "x"),
    ("systemValue in loop", nest("{{systemValue key='HOME'}}"), "x"),
    ("hostname in loop", nest("{{hostname}}"), "x"),
]

def cpu_ms(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / HZ

def request(port, method, path, body=b"", headers=None, timeout=120):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    conn.request(method, path, body=body, headers=headers or {})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, data

def main():
    if len(sys.argv) < 2:
        print("usage: bench-template.sh [SHAPE...]", file=sys.stderr)
        return 2
    binary, wanted = sys.argv[1], sys.argv[2:]
    # Stopped (timeout, Ctrl-C): the server is killed on the way out, never left spinning on a shape.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    server = subprocess.Popen([binary, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    try:
        url = server.stdout.readline().decode().strip().split()[-1]
        port = urllib.parse.urlparse(url).port
        shapes = [("reference: {{request.path}}", "{{request.path}}", "x")] + \
                 [s for s in SHAPES if not wanted or any(w in s[0] for w in wanted)]
        worst = (0.0, "")
        for number, (name, template, body) in enumerate(shapes):
            mapping = {"request": {"urlPath": f"/t{number}/a/b/c"},
                       "response": {"body": template, "transformers": ["response-template"]}}
            status, data = request(port, "POST", "/__admin/mappings", json.dumps(mapping).encode(),
                                   {"Content-Type": "application/json"})
            if status != 201:
                print(f"{name:45s} mapping refused: {status} {data[:200]!r}")
                continue
            before, started = cpu_ms(server.pid), time.monotonic()
            status, data = request(port, "POST", f"/t{number}/a/b/c?a=1&p=%C3%A9", body.encode(), {"X-A": "v"})
            cpu, wall = cpu_ms(server.pid) - before, (time.monotonic() - started) * 1000
            first = data[:90].decode(errors="replace").splitlines()[0] if data else ""
            print(f"{name:45s} {status} cpu {cpu:8.0f} ms  wall {wall:8.0f} ms  {first}", flush=True)
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
