"""Templated proxyBaseUrl, additionalProxyRequestHeaders and headers, differential against WireMock 2.35 (r11 R11-6,
r13 R13-2).

The same mappings (a templated header added to what is forwarded, a templated path in the backend URL, a templated
header of the mapping's own on what the backend answered) are served by
WireMock and by sut-launch, with the `response-template` transformer named in the mappings and again with global
templating; the same requests go through both, and the backend logs what arrived (the request-target and the added
header); the answer's status and X-Mapped header are compared too. Prints one line per request, "DIFF" when the two servers forwarded differently, and exits 1 then.

Usage: python3 proxy_templates_script.py JAR SUT_LAUNCH WORKDIR
"""
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
seen = []


class Backend(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        seen.append(f"{self.path} X-Added={self.headers.get('X-Added')}")
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(port, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status, response.getheader("X-Mapped")


def start(arguments, port):
    process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    end = time.time() + 60
    while time.time() < end:
        if process.poll() is not None:
            raise SystemExit(f"server on {port} exited early: {process.returncode}")
        try:
            request(port, "/__admin/mappings")
            return process
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"server on {port} not ready")


backend = QuietServer(("127.0.0.1", 0), Backend)
threading.Thread(target=backend.serve_forever, daemon=True).start()
target = f"http://127.0.0.1:{backend.server_address[1]}"
REQUESTS = ["/p/echo?v=hello", "/q?x=sub", "/p/two?v=a%20b"]
problems = 0
for mode in ["local", "global"]:
    transformers = {"transformers": ["response-template"]} if mode == "local" else {}
    mappings = [
        {"request": {"urlPathPattern": "/p/.*"},
         "response": {"proxyBaseUrl": target, "proxyUrlPrefixToRemove": "/p",
                      "additionalProxyRequestHeaders": {"X-Added": "{{request.query.v}}"},
                      "headers": {"X-Mapped": "{{request.path.[1]}}-{{request.query.v}}"}, **transformers}},
        {"request": {"urlPath": "/q"}, "response": {"proxyBaseUrl": target + "/{{request.query.x}}", **transformers}},
    ]
    root = os.path.join(work, mode)
    os.makedirs(os.path.join(root, "mappings"), exist_ok=True)
    with open(os.path.join(root, "mappings", "proxy.json"), "w") as f:
        json.dump({"mappings": mappings}, f)
    flag = "--local-response-templating" if mode == "local" else "--global-response-templating"
    results = {}
    for name, arguments in [
        ("wiremock", ["java", "-jar", jar, "--disable-banner", flag, "--root-dir", root, "--port"]),
        ("sut-launch", [sut_launch, "serve", "-q", root] + ([flag] if mode == "global" else []) + ["--port"]),
    ]:
        port = free_port()
        server = start(arguments + [str(port)], port)
        results[name] = []
        for path in REQUESTS:
            seen.clear()
            status, mapped = request(port, path)
            results[name].append((status, mapped, list(seen)))
        os.killpg(server.pid, signal.SIGKILL)  # its own session: the JVM or sut-launch and nothing else
        server.wait()
    for index, path in enumerate(REQUESTS):
        theirs, ours = results["wiremock"][index], results["sut-launch"][index]
        same = theirs == ours
        problems += 0 if same else 1
        print(f"{'ok  ' if same else 'DIFF'} {mode}: GET {path}: {ours}" + ("" if same else f" | WireMock {theirs}"))
print(f"{problems} disagreements")
sys.exit(1 if problems else 0)
