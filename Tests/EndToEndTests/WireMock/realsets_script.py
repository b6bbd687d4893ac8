"""Real-world WireMock mapping sets (RealSets/*, written by others; sources and licenses in RealSets/README.md)
against the WireMock 2.35 jar and sut-launch serve.

For each set: the jar serves it from a root directory (one JVM for every set: the set is copied into the jar's
--root-dir and POST /__admin/reset reloads it from the files, as a start with --root-dir SET loads it) and
`sut-launch serve --root-dir SET` serves it. Both must load every mapping of the set (the count the admin API
lists equals the count in the files; ours refuses a file by exiting). Then, from each mapping, one request that
satisfies its matchers, and near misses: another method (HEAD for a GET), another path, each required header or
query parameter left out or changed, the body left out or changed. Each goes to both servers, in the same order (scenarios move alike); status, body and
Content-Type must agree.

Normalized, on purpose: an unmatched request is compared as "unmatched" (the two explain a near miss in their own
words and types: WireMock's text/plain, ours text/plain; charset=utf-8; a HEAD's 404 of that type without a body
is such an answer); a Content-Type WireMock leaves out is not compared when ours is the documented default (application/json
for jsonBody, application/octet-stream otherwise); each server's own port in a body reads PORT; an ISO instant
(`{{now}}`, to the second) reads <now> (a date printed to the day is compared as it is); a mapping templated with
random values (randomValue, randomInt, pickRandom...) has only its status and Content-Type compared, said in a line
"random SET FILE". Besides status, body and Content-Type, the response headers a mapping names are compared, every
field of each (a header given a list of values is sent as one field per value). The jar runs with --disable-gzip,
as sut-launch serve behaves (docs/wiremock.md): with gzip on, Jetty adds a field "Vary: Accept-Encoding, User-Agent"
(less what the mapping's own Vary names) to every stub answer, even to a request that asks for no coding: gzip's
field, not the mapping's. What
cannot be derived is skipped and said: a line "skip SET FILE: reason".

Prints one line per request (same on both: the driver compares itself) and a summary line:
"realsets: S sets, M mappings (K skipped), N requests, A agree, D of the requests derived from a mapping answered by one in
WireMock" (the rest are near misses; a derived request WireMock leaves unmatched is printed with its status). Exit status 1 on any disagreement or a set that does not load.

Usage: python3 realsets_script.py JAR SUT_LAUNCH REALSETS_DIR [SET...]
"""
import base64
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from plain_http import exchange, exchange_fields
from regex_sample import sample

JAR, SUT, ROOT = sys.argv[1], sys.argv[2], sys.argv[3]
ONLY = sys.argv[4:]
RANDOM_HELPERS = ("randomValue", "randomInt", "randomDecimal", "pickRandom", "random ", "hostname")
INSTANT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            status, _, _ = exchange(port, "GET", "/__admin/mappings")
            if status == 200:
                return True
        except OSError:
            time.sleep(0.1)
    return False


def mapping_files(set_dir):
    files = []
    for folder, _, names in os.walk(os.path.join(set_dir, "mappings")):
        files += [os.path.join(folder, n) for n in names if n.endswith(".json")]
    return sorted(files)


def mappings_of(path):
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    return document["mappings"] if "mappings" in document else [document]


def first_value(matcher):
    """A value a single-value matcher accepts, or None (with no way to say one)."""
    if not isinstance(matcher, dict):
        return str(matcher)
    for key in ("equalTo", "contains", "equalToJson"):
        if key in matcher:
            value = matcher[key]
            return value if isinstance(value, str) else json.dumps(value)
    if "matches" in matcher:
        return sample(matcher["matches"])
    if "doesNotMatch" in matcher or "doesNotContain" in matcher or "anything" in matcher:
        return "x"
    if "hasExactly" in matcher or "includes" in matcher:
        return None
    if "and" in matcher:
        return first_value(matcher["and"][0])
    if "or" in matcher:
        return first_value(matcher["or"][0])
    return None


STEP = r"\.([\w-]+)|\[(\d+|\*)\]|\['([^']+)'\]"


def nest(path, leaf):
    """The document in which a path of names and indexes (`.a`, `[0]`, `['a']`) finds leaf; None for another path."""
    steps = re.findall(STEP, path)
    if "".join(f".{a}" if a else f"[{b}]" if b else f"['{c}']" for a, b, c in steps) != path:
        return None
    node = leaf
    for name, index, quoted in reversed(steps):
        node = [{}] * int(index.replace("*", "0")) + [node] if index else {name or quoted: node}
    return node


def json_for_path(expression, value):
    """A JSON document in which a simple JSONPath finds value: $.a.b, $.a[0], and filters $.a[?(@.f)],
    $.a[?(@.f[0].g == 'v')], $.a[?(@.f =~ /regex/)] (the filtered node an object, as Jayway tests an object itself)."""
    filtered = re.fullmatch(r"\$(.*?)\[\?\(@((?:\.[\w-]+|\[\d+\])+)\s*(.*)\)\]", expression)
    if not filtered:
        return nest(expression[1:], value)
    test = filtered.group(3).strip()
    if not test:
        found = value
    elif test.startswith("=="):
        found = test[2:].strip().strip("'\"")
    elif test.startswith("!="):
        found = "not " + test[2:].strip().strip("'\"")
    elif test.startswith("=~"):
        found = sample(re.sub(r"/[a-z]*$", "", test[2:].strip()[1:]))
    else:
        return None
    return nest(filtered.group(1), nest(filtered.group(2), found))


def merge(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        out = dict(a)
        for key, value in b.items():
            out[key] = merge(out[key], value) if key in out else value
        return out
    return b


def body_for(patterns):
    """A body every pattern accepts, or (None, reason)."""
    text, document = None, None
    for pattern in patterns:
        if "equalToJson" in pattern:
            value = pattern["equalToJson"]
            text = value if isinstance(value, str) else json.dumps(value)
        elif "matchesJsonPath" in pattern:
            path = pattern["matchesJsonPath"]
            expression = path if isinstance(path, str) else path.get("expression")
            value = "x" if isinstance(path, str) else first_value(path)
            if value is not None and isinstance(path, dict) and "equalToJson" in path:
                value = json.loads(value)
            found = json_for_path(expression or "", value if value is not None else "x")
            if found is None:
                return None, f"no body for JSONPath {expression}"
            document = merge(document, found) if document is not None else found
        elif "binaryEqualTo" in pattern:
            return base64.b64decode(pattern["binaryEqualTo"] + "=="), None
        elif any(k in pattern for k in ("equalTo", "contains", "matches")):
            text = first_value(pattern)
        elif any(k in pattern for k in ("equalToXml", "matchesXPath")):
            return None, "pending XML matchers"
    if document is not None:
        return json.dumps(document), None
    return text, None


def path_for(request):
    """(path with query, reason when it could not be derived)."""
    if "url" in request:
        return request["url"], None
    if "urlPath" in request:
        path = request["urlPath"]
    elif "urlPathPattern" in request:
        path = sample(request["urlPathPattern"])
        path = None if path is None else "/" + path.lstrip("/")
    elif "urlPattern" in request:
        url = sample(request["urlPattern"])
        return (None, "no string matches the URL pattern") if url is None else ("/" + url.lstrip("/"), None)
    elif "urlPathTemplate" in request:
        parameters = request.get("pathParameters", {})
        path = re.sub(r"\{([^}]+)\}", lambda m: first_value(parameters.get(m.group(1), {"equalTo": "p1"})) or "p1",
                      request["urlPathTemplate"])
    else:
        path = "/any-path"
    if path is None:
        return None, "no string matches the URL pattern"
    query = []
    for name, matcher in request.get("queryParameters", {}).items():
        if isinstance(matcher, dict) and matcher.get("absent") is True:
            continue
        values = [first_value(m) for m in matcher.get("hasExactly", matcher.get("includes", [matcher]))]
        if None in values:
            return None, f"no value for query parameter {name}"
        query += [f"{quote(name)}={quote(v)}" for v in values]
    return path + ("?" + "&".join(query) if query else ""), None


def quote(text):
    from urllib.parse import quote as q
    return q(text, safe="")


def derive(mapping):
    """The request a mapping answers: (method, path, headers, body) or a reason."""
    request = mapping.get("request", {})
    if "multipartPatterns" in request or "customMatcher" in request:
        return "multipart or custom matcher"
    path, reason = path_for(request)
    if reason:
        return reason
    headers = {}
    for name, matcher in request.get("headers", {}).items():
        if isinstance(matcher, dict) and matcher.get("absent") is True:
            continue
        value = first_value(matcher)
        if value is None:
            return f"no value for header {name}"
        headers[name] = value
    cookies = []
    for name, matcher in request.get("cookies", {}).items():
        if not (isinstance(matcher, dict) and matcher.get("absent") is True):
            cookies.append(f"{name}={first_value(matcher) or 'x'}")
    if cookies:
        headers["Cookie"] = "; ".join(cookies)
    credentials = request.get("basicAuthCredentials") or request.get("basicAuth")
    if credentials:
        token = f"{credentials['username']}:{credentials['password']}".encode()
        headers["Authorization"] = "Basic " + base64.b64encode(token).decode()
    body, reason = body_for(request.get("bodyPatterns", []))
    if reason:
        return reason
    method = request.get("method", "ANY")
    return ("GET" if method == "ANY" else method), path, headers, body


def near_misses(request):
    """Requests the mapping should not answer, or answers differently: another method (and HEAD for a GET),
    another path, the query without each parameter and with each value changed, each header left out or changed,
    the body left out or, for JSON, with its first text changed."""
    method, path, headers, body = request
    yield ("DELETE" if method != "DELETE" else "PUT"), path, headers, body
    if method == "GET":
        yield "HEAD", path, headers, body
    yield method, "/zz-miss" + path, headers, body
    if "?" in path:
        base, query = path.split("?", 1)
        pairs = query.split("&")
        yield method, base, headers, body
        for index, pair in enumerate(pairs):
            if len(pairs) > 1:
                yield method, base + "?" + "&".join(pairs[:index] + pairs[index + 1:]), headers, body
            changed = pair.split("=")[0] + "=zz-changed"
            yield method, base + "?" + "&".join(pairs[:index] + [changed] + pairs[index + 1:]), headers, body
    for name in headers:
        yield method, path, {k: v for k, v in headers.items() if k != name}, body
        yield method, path, {**headers, name: "zz-changed"}, body
    if body:
        yield method, path, headers, None
        changed = re.sub(r'": "[^"]*"', '": "zz-changed"', body, count=1) if isinstance(body, str) else None
        if changed and changed != body:
            yield method, path, headers, changed


def observe(port, request, named):
    """(status, body, Content-Type, the values of the response headers the mapping names)."""
    method, path, headers, body = request
    try:
        status, fields, data = exchange_fields(port, method, path, body, headers)
    except OSError as error:
        return ("no answer", type(error).__name__, "", ())
    response_headers = dict(fields)
    text = INSTANT.sub("<now>", data.decode("utf-8", "replace").replace(str(port), "PORT"))
    if "Request was not matched" in text or text.startswith("No stub matched"):
        return (status, "unmatched", "", ())
    if method == "HEAD" and status == 404 and not data and (response_headers.get("content-type") or "").startswith("text/plain"):
        return (status, "unmatched", "", ())  # the explanation's head: WireMock's text/plain, ours with its charset
    # Every field of a named header, in order (a mapping's list of values is sent as one field each).
    values = tuple("\n".join(v for k, v in fields if k == name).replace(str(port), "PORT") for name in named)
    return (status, text, response_headers.get("content-type"), values)


DEFAULT_TYPES = ("application/json", "application/octet-stream")


def agree(theirs, ours):
    if theirs[:2] != ours[:2] or theirs[3] != ours[3]:
        return False
    if theirs[2] is None and ours[2] in DEFAULT_TYPES:
        return True
    return theirs[2] == ours[2]


def run_set(name, wiremock_port, wiremock_root, totals):
    set_dir = os.path.join(ROOT, name)
    for entry in ("mappings", "__files"):
        shutil.rmtree(os.path.join(wiremock_root, entry), ignore_errors=True)
        if os.path.isdir(os.path.join(set_dir, entry)):
            shutil.copytree(os.path.join(set_dir, entry), os.path.join(wiremock_root, entry))
    os.makedirs(os.path.join(wiremock_root, "mappings"), exist_ok=True)
    exchange(wiremock_port, "POST", "/__admin/reset")
    our_port = free_port()
    ours = subprocess.Popen([SUT, "serve", "-q", "--port", str(our_port), "--root-dir", set_dir],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        if not wait_for(our_port, 20):
            print(f"FAIL {name}: sut-launch serve did not load it: {ours.stderr.read().decode()[:2000]}")
            return False
        files = mapping_files(set_dir)
        expected = sum(len(mappings_of(f)) for f in files)
        counts = [len(json.loads(exchange(p, "GET", "/__admin/mappings")[2])["mappings"]) for p in (wiremock_port, our_port)]
        ok = counts == [expected, expected]
        if not ok:
            print(f"FAIL {name}: {expected} mappings in the files, WireMock lists {counts[0]}, sut-launch {counts[1]}")
        for path in files:
            relative = os.path.relpath(path, set_dir)
            for mapping in mappings_of(path):
                ok = compare_mapping(name, relative, mapping, wiremock_port, our_port, totals) and ok
        return ok
    finally:
        ours.terminate()
        ours.wait()


def compare_mapping(name, relative, mapping, wiremock_port, our_port, totals):
    totals["mappings"] += 1
    derived = derive(mapping)
    if isinstance(derived, str):
        print(f"skip {name} {relative}: {derived}")
        totals["skipped"] += 1
        return True
    text = json.dumps(mapping.get("response", {}))
    if any(helper in text for helper in RANDOM_HELPERS) and "{{" in text:
        print(f"random {name} {relative}: status and type compared, the body is templated with random values")
        return compare(name, relative, [derived], (wiremock_port, our_port), totals, (), bodies=False)
    named = [h.lower() for h in mapping.get("response", {}).get("headers", {}) if h.lower() not in FRAMING]
    return compare(name, relative, [derived, *near_misses(derived)], (wiremock_port, our_port), totals, named)


FRAMING = ("content-type", "content-length", "transfer-encoding", "connection")


def compare(name, relative, requests, ports, totals, named, bodies=True):
    """Sends each request to both (WireMock first), compares, prints a line; False on any disagreement."""
    ok = True
    for index, request in enumerate(requests):
        theirs = observe(ports[0], request, named)
        totals["answered"] += index == 0 and theirs[1] != "unmatched"
        ours = observe(ports[1], request, named)
        if not bodies:
            theirs, ours = (theirs[0], "", theirs[2], ()), (ours[0], "", ours[2], ())
        same = agree(theirs, ours)
        totals["requests"] += 1
        totals["agree"] += same
        method, path, headers, body = request
        shown = f"{method} {path} {json.dumps(headers)} {body!r}"[:300]
        print(f"{'same' if same else 'DIFF'} {theirs[0]} {name} {relative}: {shown} -> {str(theirs[1])[:60]!r}")
        if not same:
            print(f"  WireMock:   {theirs}\n  sut-launch: {ours}")
            ok = False
    return ok


def main():
    sets = ONLY or sorted(d for d in os.listdir(ROOT) if os.path.isdir(os.path.join(ROOT, d)))
    wiremock_root = tempfile.mkdtemp(prefix="realsets-wiremock-")
    os.makedirs(os.path.join(wiremock_root, "mappings"))
    wiremock_port = free_port()
    wiremock = subprocess.Popen(
        ["java", "-Duser.timezone=UTC", "-Dfile.encoding=UTF-8", "-jar", JAR, "--port", str(wiremock_port),
         "--root-dir", wiremock_root, "--local-response-templating", "--disable-banner", "--disable-gzip"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    totals = {"mappings": 0, "requests": 0, "agree": 0, "answered": 0, "skipped": 0}
    ok = True
    try:
        if not wait_for(wiremock_port, 60):
            print("FAIL WireMock did not start")
            return 1
        for name in sets:
            ok = run_set(name, wiremock_port, wiremock_root, totals) and ok
    finally:
        wiremock.terminate()
        wiremock.wait()
        shutil.rmtree(wiremock_root, ignore_errors=True)
    print(f"realsets: {len(sets)} sets, {totals['mappings']} mappings ({totals['skipped']} skipped), {totals['requests']} requests, {totals['agree']} agree, "
          f"{totals['answered']} of the requests derived from a mapping answered by one in WireMock")
    return 0 if ok and totals["requests"] == totals["agree"] else 1


sys.exit(main())
