"""Record and replay, differential against WireMock 2.35 (issue 27).

A backend no one here wrote the recorder for (Python's http.server, serving JSON, gzip, binary, a large body, an
echo and a counter) is recorded twice: through `sut-launch record` and through WireMock's own recorder
(`--proxy-all --record-mappings`). Each recording is then replayed by sut-launch (`serve DIR`) and by WireMock
(`--root-dir DIR`); the same requests must get the same status, body bytes, Content-Type and Content-Encoding from
both, and sut-launch's recording must answer what the backend answered. Prints one line per check, "DIFF" for a
disagreement, and exits 1 when there is one.

Usage: python3 recording_script.py JAR SUT_LAUNCH WORKDIR
"""
import gzip
import http.client
import http.server
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

jar, sut_launch, work = sys.argv[1], sys.argv[2], sys.argv[3]
counter = {"n": 0}
BIG = ("line of a large body\n" * 2000).encode()
BINARY = bytes(range(256)) * 2


class Backend(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type, extra=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/data.json":
            self.answer(200, json.dumps({"cities": ["Milano", "Zürich"], "n": 2}).encode(), "application/json")
        elif self.path == "/gz":
            self.answer(200, gzip.compress(b'{"compressed": true}', mtime=0), "application/json", {"Content-Encoding": "gzip"})
        elif self.path == "/bin":
            self.answer(200, BINARY, "application/octet-stream")
        elif self.path == "/big":
            self.answer(200, BIG, "text/plain; charset=utf-8")
        elif self.path == "/counter":
            counter["n"] += 1
            self.answer(200, str(counter["n"]).encode(), "text/plain")
        elif self.path.startswith("/search?"):
            self.answer(200, ("results for " + self.path[8:]).encode(), "text/plain")
        else:
            self.answer(404, b"not here", "text/plain")

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.answer(201, body, "application/json")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(port, method, path, body=None, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return (response.status, data, response.getheader("Content-Type"), response.getheader("Content-Encoding"))


TRAFFIC = [
    ("GET", "/data.json", None, {}),
    ("GET", "/gz", None, {}),
    ("GET", "/bin", None, {}),
    ("GET", "/big", None, {}),
    ("GET", "/search?q=caf%C3%A9&page=2", None, {}),
    ("POST", "/echo", json.dumps({"b": [1, 2], "a": "x"}), {"Content-Type": "application/json"}),
    ("GET", "/counter", None, {}),
    ("GET", "/counter", None, {}),
    ("GET", "/counter", None, {}),
]


def send_traffic(port):
    return [request(port, *entry) for entry in TRAFFIC]


def wait_ready(port, process, deadline=60):
    end = time.time() + deadline
    while time.time() < end:
        if process.poll() is not None:
            raise SystemExit(f"server on {port} exited early: {process.returncode}")
        try:
            request(port, "GET", "/__admin/mappings")
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"server on {port} not ready within {deadline} s")


def start(arguments, port):
    process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    wait_ready(port, process)
    return process


def stop(process):
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def wiremock(arguments):
    port = free_port()
    return port, start(["java", "-Duser.timezone=UTC", "-jar", jar, "--port", str(port), "--disable-banner"] + arguments, port)


def ours(arguments):
    port = free_port()
    return port, start([sut_launch] + arguments + ["--port", str(port), "-q"], port)


def shown(answer):
    status, body, content_type, encoding = answer
    text = body[:60]
    return f"{status} {content_type} {encoding} {len(body)} bytes {text!r}"


problems = 0


def compare(label, left, right):
    global problems
    for (method, path, _, _), a, b in zip(TRAFFIC, left, right):
        same = a == b
        problems += 0 if same else 1
        print(f"{'ok  ' if same else 'DIFF'} {label}: {method} {path}: {shown(a)}" + ("" if same else f" | {shown(b)}"))


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a proxy closing a kept-alive connection is not news


backend = QuietServer(("127.0.0.1", 0), Backend)
threading.Thread(target=backend.serve_forever, daemon=True).start()
target = f"http://127.0.0.1:{backend.server_address[1]}"
direct = send_traffic(backend.server_address[1])

# 1. sut-launch records; its recording answers what the backend answered, in sut-launch and in WireMock.
counter["n"] = 0
ours_root = os.path.join(work, "ours")
port = free_port()
recorder = subprocess.Popen([sut_launch, "record", "--target", target, "--into", ours_root, "--port", str(port), "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
wait_ready(port, recorder)
through = send_traffic(port)
compare("through sut-launch's recorder vs the backend", direct, through)
request(port, "POST", "/__admin/shutdown", "", {"Content-Type": "application/json"})
recorder.wait(timeout=30)
print(f"sut-launch recorded {len(os.listdir(os.path.join(ours_root, 'mappings')))} mappings")

port, server = ours(["serve", ours_root])
replay_ours = send_traffic(port)
stop(server)
port, server = wiremock(["--root-dir", ours_root])
replay_wiremock = send_traffic(port)
stop(server)
compare("sut-launch's recording replayed by sut-launch vs the backend", direct, replay_ours)
compare("sut-launch's recording replayed by WireMock vs by sut-launch", replay_ours, replay_wiremock)

# 2. WireMock records the same traffic; its recording loads in sut-launch and answers as in WireMock.
counter["n"] = 0
theirs_root = os.path.join(work, "wiremock")
os.makedirs(os.path.join(theirs_root, "mappings"), exist_ok=True)
os.makedirs(os.path.join(theirs_root, "__files"), exist_ok=True)
port, server = wiremock(["--root-dir", theirs_root, "--proxy-all", target, "--record-mappings"])
send_traffic(port)
stop(server)
print(f"WireMock recorded {len(os.listdir(os.path.join(theirs_root, 'mappings')))} mappings")
port, server = wiremock(["--root-dir", theirs_root])
theirs_in_wiremock = send_traffic(port)
stop(server)
port, server = ours(["serve", theirs_root])
theirs_in_ours = send_traffic(port)
stop(server)
compare("WireMock's recording replayed by sut-launch vs by WireMock", theirs_in_wiremock, theirs_in_ours)

backend.shutdown()
print(f"{problems} disagreements")
sys.exit(1 if problems else 0)
