"""WireMock 2.35's date, credential, binary, anything and multipart matchers: the same mappings (added through the
admin API) and the same requests, against real WireMock and against sut-launch serve. Prints one line per request:
which mapping answered it, or "unmatched"; and one line per mapping that both must refuse.

Mappings go in groups, the server reset before each: WireMock evaluates every mapping's matchers on every request,
and some of its matchers throw on some values (truncateActual on a value with no zone, unix on a value that is not a
number, multipart on a body FileUpload cannot split): that is a 500 for every request while such a mapping is loaded.
sut-launch answers those cases as no match, on purpose; here each group sends only values no mapping in it throws
on. Dates relative to now are asked with values years away, so the two clocks never disagree.

Usage: python3 matchers_script.py BASE_URL
"""
import base64
import json
import sys

from plain_http import call

base = sys.argv[1]


def mapping(name, request):
    body = {"request": request, "response": {"status": 200, "body": "M:" + name}}
    status, text = call(base, "POST", "/__admin/mappings", json.dumps(body), {"Content-Type": "application/json"})
    if status != 201:
        print(f"mapping {name}: {status}")  # the two servers word their refusals differently


def ask(method, path, body=None, headers=None):
    status, text = call(base, method, path, body, headers or {})
    answer = text if text.startswith("M:") else "unmatched"
    shown = body if not isinstance(body, bytes) else "b64:" + base64.b64encode(body).decode()
    print(f"{method} {path} {json.dumps(headers or {})} {shown!r} -> {status} {answer}")


def group(name, mappings, requests):
    print(f"# {name}")
    call(base, "POST", "/__admin/reset")
    for mapping_name, request in mappings.items():
        mapping(mapping_name, request)
    for request in requests:
        ask(*request)


def header_dates(matchers, values, header="X-D", absent=True):
    mappings = {name: {"method": "GET", "urlPath": "/" + name, "headers": {header: m}} for name, m in matchers.items()}
    requests = [("GET", "/" + name, None, {header: value}) for name in matchers for value in values]
    requests += [("GET", "/" + name, None, {}) for name in matchers if absent]
    return mappings, requests


FIXED = {
    "before-zoned": {"before": "2021-06-14T12:13:14Z"}, "after-zoned": {"after": "2021-06-14T12:13:14Z"},
    "eq-zoned": {"equalToDateTime": "2021-06-14T12:13:14Z"}, "eq-offset": {"equalToDateTime": "2021-06-14T12:13:14+02:00"},
    "eq-local": {"equalToDateTime": "2021-06-14T12:13:14"}, "eq-date": {"equalToDateTime": "2021-06-14"},
    "before-rfc": {"before": "Mon, 14 Jun 2021 12:13:14 GMT"}, "after-local": {"after": "2021-06-14T12:13"},
}
VALUES = [
    "2021-06-14T12:13:14Z", "2021-06-14t12:13:14z", "2021-06-14T12:13:14.000000001Z", "2021-06-14T12:13:14.Z",
    "2021-06-14T14:13:14+02:00", "2021-06-14T12:13:14+02", "2021-06-14T14:13:14+02:00:00", "2021-06-14T12:13:14-00:00",
    "2021-06-14T12:13:14", "2021-06-14T12:13:13Z", "2021-06-14T12:13:15Z", "2021-06-14", "2021-06-14T12:13Z",
    "2021-06-14T12:13:14+0200", "2021-06-14T12:13:14+18:00", "2021-06-14T12:13:14+18:01", "2021-06-14T12:13:14Z[UTC]",
    "2021-06-14T12:13:14+02:00[UTC]", "2021-06-14T14:13:14+02:00[Europe/Paris]", "2021-06-14T12:13:14Z[+02:00]",
    "Mon, 14 Jun 2021 12:13:14 GMT", "mon, 14 jun 2021 12:13:14 gmt", "14 Jun 2021 12:13:14 GMT", "Tue, 14 Jun 2021 12:13:14 GMT",
    "Mon, 14 Jun 2021 14:13:14 +0200", "Mon, 14 Jun 2021 12:13 GMT", "Monday, 14-Jun-21 12:13:14 GMT",
    "Monday, 14-Jun-21 12:13:14 UTC", "monday, 14-Jun-21 12:13:14 GMT", "Mon Jun 14 12:13:14 2021", "Sun Jun  6 12:13:14 2021",
    "Sun Jun 6 12:13:14 2021", "2021-06-14T24:00:00Z", "2021-06-14T12:13:60Z", "2021-02-29T00:00:00Z", "2020-02-29T00:00:00Z",
    "+10000-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "+2021-06-14T12:13:14Z", "20210614T121314Z",
    "garbage", "", "2021-06-14T12:13:14.1234567891Z",
]
group("fixed dates", *header_dates(FIXED, VALUES))

NOW = {
    "after-now": {"after": "now"}, "before-now-plus": {"before": "now +3 days"}, "after-now-minus": {"after": "NOW -3 DAYS"},
    "after-short": {"after": "-3 days"}, "before-offset": {"before": "now", "expectedOffset": -5, "expectedOffsetUnit": "years"},
    "offset-wins": {"after": "now +100 years", "expectedOffset": -5, "expectedOffsetUnit": "YEARS"},
    "truncated": {"before": "now", "truncateExpected": "first day of year", "expectedOffset": 1, "expectedOffsetUnit": "years"},
    "eq-truncated": {"equalToDateTime": "now", "truncateExpected": "FIRST_DAY_OF_NEXT_YEAR"},
}
group("now", *header_dates(NOW, [
    "2000-01-01T00:00:00Z", "2999-01-01T00:00:00Z", "2999-01-01", "1999-12-31T23:59:59", "Sat, 01 Jan 2000 00:00:00 GMT",
    "+100000-01-01T00:00:00Z", "-100000-01-01T00:00:00Z", "garbage",
]))

FORMATS = {
    "f-dmy": {"equalToDateTime": "2021-02-28T00:00:00", "actualFormat": "dd/MM/yyyy"},
    "f-d-m": {"equalToDateTime": "2021-06-01T00:00:00", "actualFormat": "d/M/yyyy"},
    "f-xxx": {"equalToDateTime": "2021-06-14T12:13:14Z", "actualFormat": "yyyy-MM-dd'T'HH:mm:ssXXX"},
    "f-space": {"equalToDateTime": "2021-06-14T12:13:14", "actualFormat": "yyyy-MM-dd HH:mm:ss"},
    "f-names": {"equalToDateTime": "2021-06-14T00:00:00", "actualFormat": "EEE, dd MMM yyyy"},
    "f-ampm": {"equalToDateTime": "2021-06-14T15:30:00", "actualFormat": "yyyy-MM-dd hh:mm a"},
    "f-compact": {"equalToDateTime": "2021-06-14T00:00:00", "actualFormat": "yyyyMMdd"},
    "f-yy": {"equalToDateTime": "2021-06-14T00:00:00", "actualFormat": "dd.MM.yy"},
    "f-optional": {"equalToDateTime": "2021-06-14T12:00:00", "actualFormat": "yyyy-MM-dd['T'HH[:mm]]"},
    "f-fraction": {"equalToDateTime": "2021-06-14T12:13:14.123Z", "actualFormat": "yyyy-MM-dd'T'HH:mm:ss.SSSX"},
    "f-z": {"equalToDateTime": "2021-06-14T12:13:14Z", "actualFormat": "yyyy-MM-dd'T'HH:mm:ssZ"},
    "f-u": {"after": "-5000-01-01T00:00:00", "actualFormat": "uuuu-MM-dd"},
    "f-y": {"after": "-5000-01-01T00:00:00", "actualFormat": "yyyy-MM-dd"},
    "f-full": {"equalToDateTime": "2021-06-14T00:00:00", "actualFormat": "EEEE dd MMMM yyyy"},
}
group("actualFormat", *header_dates(FORMATS, [
    "31/02/2021", "28/02/2021", "32/01/2021", "1/6/2021", "001/6/2021", "01/06/2021", "2021-06-14T12:13:14Z",
    "2021-06-14T14:13:14+02:00", "2021-06-14T12:13:14+0000", "2021-06-14 12:13:14", "Mon, 14 Jun 2021", "Tue, 14 Jun 2021",
    "mon, 14 jun 2021", "2021-06-14 03:30 PM", "2021-06-14 03:30 pm", "2021-06-14 15:30 PM", "20210614", "14.06.21",
    "2021-06-14T12", "2021-06-14T12:00", "2021-06-14", "2021-06-14T12:13:14.123Z", "2021-06-14T12:13:14.123+00",
    "0000-01-01", "-0001-01-01", "+10000-01-01", "10000-01-01", "Monday 14 June 2021", "Monday 14 Jun 2021",
]))

group("unix and epoch", *header_dates({
    "unix": {"equalToDateTime": "2021-06-14T12:13:14Z", "actualFormat": "unix"},
    "epoch": {"before": "2021-06-14T12:13:14Z", "actualFormat": "epoch"},
}, ["1623672794", "1623672794000", "+1623672794", "-1", "0", "1623672793999"]))

group("truncateActual", *header_dates({
    "ta-zoned": {"equalToDateTime": "2021-06-01T00:00:00Z", "truncateActual": "first day of month"},
    "ta-local": {"equalToDateTime": "2021-06-01T00:00:00", "truncateActual": "first_day_of_month"},
    "ta-year": {"equalToDateTime": "2021-12-31T00:00:00Z", "truncateActual": "last day of year"},
    "ta-hour": {"before": "2021-06-14T12:00:00Z", "truncateActual": "first minute of hour"},
}, ["2021-06-14T12:13:14Z", "2021-06-30T23:59:59Z", "2021-06-14T14:13:14+02:00", "2021-06-01T01:00:00+02:00",
    "Mon, 14 Jun 2021 12:13:14 GMT", "2021-12-01T00:00:00Z", "2021-06-14T11:59:59Z"], absent=False))

group("dates elsewhere", {
    "query": {"method": "GET", "urlPath": "/q", "queryParameters": {"since": {"after": "2020-01-01T00:00:00Z"}}},
    "cookie": {"method": "GET", "urlPath": "/c", "cookies": {"seen": {"and": [{"after": "2020-01-01"}, {"before": "2022-01-01"}]}}},
    "jsonpath": {"method": "POST", "urlPath": "/j", "bodyPatterns": [{"matchesJsonPath": {"expression": "$.at", "before": "2022-01-01T00:00:00Z"}}]},
    "jsonpath-after": {"method": "POST", "urlPath": "/ja", "bodyPatterns": [{"matchesJsonPath": {"expression": "$.at", "after": "2020-01-01T00:00:00Z"}}]},
    "body": {"method": "POST", "urlPath": "/b", "bodyPatterns": [{"after": "2020-01-01T00:00:00Z"}]},
    "or": {"method": "GET", "urlPath": "/o", "headers": {"X-D": {"or": [{"before": "2000-01-01"}, {"equalTo": "never"}]}}},
    "anything": {"method": "GET", "urlPath": "/a", "headers": {"X-A": {"anything": "x"}}},
}, [
    ("GET", "/q?since=2021-01-01T00:00:00Z", None, {}), ("GET", "/q?since=2019-01-01T00:00:00Z", None, {}), ("GET", "/q", None, {}),
    ("GET", "/q?since=2019-01-01T00:00:00Z&since=2021-01-01T00:00:00Z", None, {}),
    ("GET", "/c", None, {"Cookie": "seen=2021-03-03"}), ("GET", "/c", None, {"Cookie": "seen=2023-03-03"}), ("GET", "/c", None, {}),
    ("POST", "/j", '{"at": "2021-06-14T12:13:14Z"}', {}), ("POST", "/j", '{"at": "2023-01-01T00:00:00Z"}', {}),
    ("POST", "/j", '{"at": ["2021-06-14T12:13:14Z"]}', {}), ("POST", "/j", '{"other": 1}', {}),
    # Of several values WireMock keeps the one nearest in years, matching or not (its date distance).
    ("POST", "/j", '{"at": ["2023-01-01T00:00:00Z", "2021-06-14T12:13:14Z"]}', {}),
    ("POST", "/ja", '{"at": ["2019-06-01T00:00:00Z", "2021-01-01T00:00:00Z"]}', {}),
    ("POST", "/ja", '{"at": ["2021-01-01T00:00:00Z", "2019-06-01T00:00:00Z"]}', {}),
    ("POST", "/ja", '{"at": ["2019-06-01T00:00:00", "2031-01-01T00:00:00Z"]}', {}),
    ("GET", "/q?since=2021-01-01T00:00:00Z&since=2019-01-01T00:00:00Z", None, {}),
    ("GET", "/q?since=2021-01-01T00:00:00&since=2019-01-01T00:00:00Z", None, {}),
    ("POST", "/b", "2021-06-14T12:13:14Z", {}), ("POST", "/b", "2019-06-14T12:13:14Z", {}),
    ("GET", "/o", None, {"X-D": "1999-01-01"}), ("GET", "/o", None, {"X-D": "never"}), ("GET", "/o", None, {"X-D": "2001-01-01"}),
    ("GET", "/a", None, {}), ("GET", "/a", None, {"X-A": "anything at all"}),
])


# `equalTo ''` of several values: WireMock keeps the value of least distance, and an empty one's is 0/0, NaN, which sorts
# last: `?a=&a=1` keeps `1` and fails; values all empty match (r9a B6).
group("equalTo empty over several values", {
    "qe": {"method": "GET", "urlPath": "/qe", "queryParameters": {"a": {"equalTo": ""}}},
    "qci": {"method": "GET", "urlPath": "/qci", "queryParameters": {"a": {"equalTo": "", "caseInsensitive": True}}},
    "qand": {"method": "GET", "urlPath": "/qand", "queryParameters": {"a": {"and": [{"equalTo": ""}, {"matches": ".*"}]}}},
    "qor": {"method": "GET", "urlPath": "/qor", "queryParameters": {"a": {"or": [{"equalTo": ""}, {"equalTo": "zz"}]}}},
    "qx": {"method": "GET", "urlPath": "/qx", "queryParameters": {"a": {"equalTo": "x"}}},
    "ce": {"method": "GET", "urlPath": "/ce", "cookies": {"c": {"equalTo": ""}}},
}, [("GET", path, None, {}) for path in [
    "/qe?a=&a=1", "/qe?a=1&a=", "/qe?a=&a=", "/qe?a", "/qe?a=", "/qci?a=&a=1", "/qci?a=&a=", "/qand?a=&a=1", "/qand?a=&a=",
    "/qor?a=&a=1", "/qor?a=&a=zz", "/qor?a=&a=", "/qx?a=x&a=", "/qx?a=&a=x"]] + [
    ("GET", "/ce", None, {"Cookie": "c=; c=1"}), ("GET", "/ce", None, {"Cookie": "c=1; c="}), ("GET", "/ce", None, {"Cookie": "c=; c="}),
    ("GET", "/ce", None, {"Cookie": "c="})])


def basic(credentials):
    return "Basic " + base64.b64encode(credentials.encode()).decode()


group("basic auth", {
    "ba": {"method": "GET", "urlPath": "/ba", "basicAuthCredentials": {"username": "user", "password": "pass"}},
    "ba-short": {"method": "GET", "urlPath": "/ba-short", "basicAuth": {"username": "user", "password": "pass"}},
    "ba-unicode": {"method": "GET", "urlPath": "/ba-unicode", "basicAuthCredentials": {"username": "üser", "password": "p:ss"}},
    "ba-null": {"method": "GET", "urlPath": "/ba-null", "basicAuthCredentials": {"username": 1}},
    "ba-both": {"method": "GET", "urlPath": "/ba-both", "basicAuthCredentials": {"username": "user", "password": "pass"},
                "headers": {"authorization": {"contains": "dXN"}}},
}, [("GET", path, None, headers) for path in ["/ba", "/ba-short", "/ba-unicode", "/ba-null", "/ba-both"] for headers in [
    {}, {"Authorization": basic("user:pass")}, {"Authorization": basic("user:pass").upper()}, {"authorization": basic("user:pass").lower()},
    {"Authorization": basic("user:other")}, {"Authorization": basic("üser:p:ss")}, {"Authorization": basic("1:null")},
    {"Authorization": "Bearer " + basic("user:pass")[6:]}, {"Authorization": basic("user:pass") + "="},
]])

group("binary", {
    "bin": {"method": "POST", "urlPath": "/bin", "bodyPatterns": [{"binaryEqualTo": "AP/+gA=="}]},
    "bin-unpadded": {"method": "POST", "urlPath": "/bin-unpadded", "bodyPatterns": [{"binaryEqualTo": "YQ"}]},
    "bin-padded": {"method": "POST", "urlPath": "/bin-padded", "bodyPatterns": [{"binaryEqualTo": "YQ===="}]},
    "bin-empty": {"method": "POST", "urlPath": "/bin-empty", "bodyPatterns": [{"binaryEqualTo": ""}]},
}, [("POST", path, body, {}) for path in ["/bin", "/bin-unpadded", "/bin-padded", "/bin-empty"] for body in [
    bytes([0, 0xFF, 0xFE, 0x80]), bytes([0, 0xFF, 0xFE]), b"a", b"ab", b"",
]])

DOCUMENTED = {"method": "POST", "urlPath": "/upload", "multipartPatterns": [{
    "matchingType": "ANY",
    "headers": {"Content-Disposition": {"contains": "name=\"info\""}, "Content-Type": {"contains": "charset"}},
    "bodyPatterns": [{"equalToJson": "{}"}]}]}
ALL = {"method": "POST", "urlPath": "/all", "multipartPatterns": [
    {"matchingType": "ALL", "headers": {"Content-Type": {"equalTo": "text/plain"}}}]}
BINARY_PART = {"method": "POST", "urlPath": "/binary", "multipartPatterns": [
    {"name": "the file", "headers": {"Content-Disposition": {"contains": "name=\"bin\""}}, "bodyPatterns": [{"binaryEqualTo": "AP8NCg=="}]},
    {"headers": {"X-Folded": {"equalTo": "one two"}}}]}


def form(name, body, content_type=None, disposition="form-data"):
    lines = [f'Content-Disposition: {disposition}; name="{name}"'] + ([f"Content-Type: {content_type}"] if content_type else [])
    return "\r\n".join(lines).encode() + b"\r\n\r\n" + (body if isinstance(body, bytes) else body.encode())


def multipart(parts, boundary="XyZ", first="\r\n"):
    out = b"preamble\r\n"
    for index, part in enumerate(parts):
        out += f"--{boundary}".encode() + (first.encode() if index == 0 else b"\r\n") + part + b"\r\n"
    return out + f"--{boundary}--\r\n".encode()


MP = {"Content-Type": "multipart/form-data; boundary=XyZ"}
info = form("info", "{}", "application/json; charset=utf-8")
group("multipart", {"documented": DOCUMENTED, "all": ALL, "binary": BINARY_PART}, [
    ("POST", "/upload", multipart([form("file", "bytes"), info]), MP),
    ("POST", "/upload", multipart([info]), {"Content-Type": 'multipart/form-data; boundary="XyZ"'}),
    ("POST", "/upload", multipart([info], first="\n"), MP),
    ("POST", "/upload", multipart([form("info", "{}", "application/json")]), MP),
    ("POST", "/upload", multipart([form("info", '{"a": 1}', "application/json; charset=utf-8")]), MP),
    ("POST", "/upload", multipart([form("other", "x"), form("info", "{}", "application/json; charset=utf-8", disposition="attachment")]), MP),
    ("POST", "/upload", multipart([info]), {"Content-Type": "application/json"}),
    ("POST", "/upload", multipart([info]), {}),
    ("POST", "/all", multipart([form("a", "1", "text/plain"), form("b", "2", "text/plain")]), MP),
    ("POST", "/all", multipart([form("a", "1", "text/plain"), form("b", "2")]), MP),
    ("POST", "/all", multipart([form("a", "1", "text/plain"), form("x", "png", "image/png", disposition="attachment")]), MP),
    ("POST", "/binary", multipart([form("bin", bytes([0, 0xFF, 0x0D, 0x0A])),
                                   b'Content-Disposition: form-data; name="t"\r\nX-Folded: one\r\n\ttwo\r\n\r\ntext']), MP),
    ("POST", "/binary", multipart([form("bin", bytes([0, 0xFF]))]), MP),
    # A parameter given twice: the last wins, as in Commons FileUpload (boundary, and a part's name).
    # (boundary=XyZ; boundary=other: WireMock 500, finding no --other; we answer no match: not compared.)
    ("POST", "/upload", multipart([info]), {"Content-Type": "multipart/form-data; boundary=other; boundary=XyZ"}),
    ("POST", "/upload", multipart([b'Content-Disposition: form-data; name="info"; name="x"\r\nContent-Type: application/json; charset=utf-8'
                                   b'\r\n\r\n{}']), MP),
    ("POST", "/upload", multipart([b'Content-Disposition: form-data; name="x"; name="info"\r\nContent-Type: application/json; charset=utf-8'
                                   b'\r\n\r\n{}']), MP),
])

# Commons FileUpload's reading, corner by corner (r9a B4, B5): every boundary is looked for as the first one is (text
# after "--XyZ" that is not CR LF, LF or "--" ends the parts quietly), a part's headers end at the first CR LF CR LF
# FileUpload finds (a CR before it hides it) and are read to their first empty line, parameters split at the first of
# ';' and ',' a Content-Type holds (';' only in Content-Disposition), `name=""`, `name=` and a bare `name` are no name,
# `name=" "` is one, and a multipart/mixed part's parts that name a file are parts under its name. Only bodies
# FileUpload splits without throwing (a throw is WireMock's 500; no match here).
FU = {f"fu-{name}": {"method": "POST", "urlPath": f"/fu-{name}", "multipartPatterns": [pattern]} for name, pattern in {
    "v": {"bodyPatterns": [{"equalTo": "v"}]}, "w": {"bodyPatterns": [{"equalTo": "w"}]},
    "inner": {"headers": {"Content-Disposition": {"contains": "attachment"}}, "bodyPatterns": [{"equalTo": "inner"}]},
    "any": {"matchingType": "ANY"}}.items()}
CD = b"Content-Disposition: form-data; name="
FU_BODIES = [
    (b"--XyZ\r\n" + CD + b'"f"\r\n\r\nv\r\n--XyZx\r\n' + CD + b'"g"\r\n\r\nw\r\n--XyZ--\r\n', MP["Content-Type"]),
    (b"--XyZ  \r\n" + CD + b'"f"\r\n\r\nv\r\n--XyZ--\r\n', MP["Content-Type"]),
    (b"--XyZ\r\n" + CD + b'"f"\r\n\r\nv\r\n--XyZ  \r\n' + CD + b'"g"\r\n\r\nw\r\n--XyZ--\r\n', MP["Content-Type"]),
    (b"--XyZ\r\n" + CD + b'""\r\n\r\nv\r\n--XyZ--\r\n', MP["Content-Type"]),
    (b"--XyZ\r\n" + CD + b"\r\n\r\nv\r\n--XyZ--\r\n", MP["Content-Type"]),
    (b"--XyZ\r\n" + CD + b'" "\r\n\r\nv\r\n--XyZ--\r\n', MP["Content-Type"]),
    (b"--XyZ\r\n" + CD + b'"a\\";b"\r\n\r\nv\r\n--XyZ--\r\n', MP["Content-Type"]),
    (b"--XyZ\r\n" + CD + b'"a"; name\r\n\r\nv\r\n--XyZ--\r\n', MP["Content-Type"]),
    (b'--XyZ\r\nContent-Disposition: form-data, name="a"\r\n\r\nv\r\n--XyZ--\r\n', MP["Content-Type"]),
    (b'--XyZ\r\nContent-Disposition: form-data name="a"\r\n\r\nv\r\n--XyZ--\r\n', MP["Content-Type"]),
    (b'--XyZ\r\nContent-Disposition: FORM-DATA; NAME="a"\r\n\r\nv\r\n--XyZ--\r\n', MP["Content-Type"]),
    (b"--XyZ\r\n\r\nv\r\n--XyZ\r\n" + CD + b'"g"\r\n\r\nw\r\n--XyZ--\r\n', MP["Content-Type"]),
    (b"--XyZ\r\n" + CD + b'"f"\r\r\n\r\nv\r\n--XyZ\r\n' + CD + b'"g"\r\n\r\nw\r\n--XyZ--\r\n', MP["Content-Type"]),
    (b"--XyZ\r\n" + CD + b'"f"\r\n\r\nv\r\n--XyZ--\r\n', "multipart/form-data, boundary=XyZ; a=b"),
    (b"--XyZ\r\n" + CD + b'"f"\r\n\r\nv\r\n--XyZ--\r\n', "multipart/form-data, boundary=XyZ"),
    (b"--XyZ\r\n" + CD + b'"f"\r\n\r\nv\r\n--XyZ', MP["Content-Type"]),
    (b"--XyZ\r\n" + CD + b'\x01"a"\x01\r\n\r\nv\r\n--XyZ--\r\n', MP["Content-Type"]),
    (b"--XyZ\r\n" + CD + b'"f"\r\nContent-Type: multipart/mixed; boundary=AbC\r\n\r\n--AbC\r\nContent-Disposition: attachment; '
     b'filename="a.txt"\r\n\r\ninner\r\n--AbC\r\nContent-Disposition: attachment\r\n\r\nv\r\n--AbC--\r\n\r\n--XyZ\r\n' + CD
     + b'"g"\r\n\r\nw\r\n--XyZ--\r\n', MP["Content-Type"]),
]
group("multipart as FileUpload splits it", FU, [("POST", "/" + name, body, {"Content-Type": ct}) for name in FU for body, ct in FU_BODIES])

# XML: equalToXml (XMLUnit's similar comparison, placeholders, exemptions) and matchesXPath (alone, with a matcher,
# with namespaces; namespaces stripped without them), each body sent to every mapping of the group.
XML_MAPPINGS = {
    "xml-eq": {"bodyPatterns": [{"equalToXml": "<r><a x='1' y='2'>t</a><!-- c --></r>"}]},
    "xml-order": {"bodyPatterns": [{"equalToXml": "<o><a/><b/></o>"}]},
    "xml-same": {"bodyPatterns": [{"equalToXml": "<s><a>1</a><a>2</a></s>"}]},
    "xml-attr": {"bodyPatterns": [{"equalToXml": "<t a='1'/>"}]},
    "xml-ns": {"bodyPatterns": [{"equalToXml": "<p:n xmlns:p='urn:x'/>"}]},
    "xml-ph": {"bodyPatterns": [{"equalToXml": "<h b='${xmlunit.isNumber}'>${xmlunit.ignore}</h>", "enablePlaceholders": True}]},
    "xml-delim": {"bodyPatterns": [{"equalToXml": "<d>#xmlunit.ignore#</d>", "enablePlaceholders": True,
                                    "placeholderOpeningDelimiterRegex": "#", "placeholderClosingDelimiterRegex": "#"}]},
    "xml-exempt": {"bodyPatterns": [{"equalToXml": "<e a='1'>x</e>", "exemptedComparisons": ["ATTR_VALUE", "TEXT_VALUE"]}]},
    # Processing instructions (r7a F9): compared by target and data; WireMock's node matcher fails (no match) on a list
    # of two or more nodes holding one, or a text, so "xml-pi-beside" matches nothing, not even its own document.
    "xml-pi-none": {"bodyPatterns": [{"equalToXml": "<a><b>hi</b></a>"}]},
    "xml-pi": {"bodyPatterns": [{"equalToXml": "<a><?pi x?></a>"}]},
    "xml-pi-beside": {"bodyPatterns": [{"equalToXml": "<a><b>hi</b><?pi x?></a>"}]},
    "xml-pi-data": {"bodyPatterns": [{"equalToXml": "<a><?pi x?></a>", "exemptedComparisons": ["PROCESSING_INSTRUCTION_DATA"]}]},
    "xml-pi-length": {"bodyPatterns": [{"equalToXml": "<a/>", "exemptedComparisons": ["CHILD_NODELIST_LENGTH"]}]},
    "xp-node": {"bodyPatterns": [{"matchesXPath": "/q/a[@x='1']"}]},
    "xp-count": {"bodyPatterns": [{"matchesXPath": "count(/q/a) > 0"}]},
    "xp-text": {"bodyPatterns": [{"matchesXPath": {"expression": "/q/a/text()", "equalTo": "hi"}}]},
    "xp-element": {"bodyPatterns": [{"matchesXPath": {"expression": "/q/a", "equalTo": "<a x=\"1\">hi</a>\n"}}]},
    "xp-contains": {"bodyPatterns": [{"matchesXPath": {"expression": "/q/a", "contains": "hi"}}]},
    "xp-number": {"bodyPatterns": [{"matchesXPath": {"expression": "count(/q/a)", "equalTo": "2"}}]},
    "xp-ns": {"bodyPatterns": [{"matchesXPath": "//n:a", "xPathNamespaces": {"n": "urn:n"}}]},
    "xp-strip": {"bodyPatterns": [{"matchesXPath": "/Envelope/Body/w"}]},
    "xp-prefix": {"bodyPatterns": [{"matchesXPath": "//p:a"}]},
}
XML_BODIES = [
    "<r>\n  <a y='2' x='1'>t</a>\n</r>", "<r><a x='1' y='2'> t </a></r>", "<p:r xmlns:p='urn:x'><p:a x='1' y='2'>t</p:a></p:r>",
    "<r><a x='1'>t</a></r>", "<o><b/><a/></o>", "<o><a/></o>", "<o><a/><b/><c/></o>", "<s><a>2</a><a>1</a></s>",
    "<s><a>1</a><a>2</a></s>", "<t a='1'><!-- x --></t>", "<t a='1'>\n</t>", "<t a='1'>x</t>", "<t xmlns:z='urn:z' z:a='1'/>",
    "<q:n xmlns:q='urn:y'/>", "<n/>", "<h b='1e3'>5</h>", "<h b='x'>5</h>", "<h b=' 7 '>5</h>", "<h b='1'></h>", "<d>5</d>",
    "<e a='2'>y</e>", "<e b='2'>y</e>", "<q><a x='1'>hi</a></q>", "<q><a>ho</a><a>hi</a></q>", "<q><a x='2'><b>hi</b></a></q>",
    "<q xmlns='urn:n'><a/></q>", "<s:Envelope xmlns:s='urn:s'><s:Body><w/></s:Body></s:Envelope>",
    "<q xmlns:p='urn:p'><p:a/></q>", "not xml", "<q><a>", "",
    "<a><b>hi</b></a>", "<a><b>hi</b><?pi x?></a>", "<?pi x?><a><b>hi</b></a>", "<a><b>h<?pi x?>i</b></a>", "<a><?pi?><b>hi</b></a>",
    "<a><b>hi</b></a><?pi x?>", "<?xml version='1.0'?>\n<!DOCTYPE a>\n<a><b>hi</b></a>", "<a><b>hi</b>t</a>", "<a><?pi x?></a>",
    "<a>  <!-- c --><?pi x ?>\n</a>", "<a><?pi y?></a>", "<a><?qi x?></a>", "<a>x</a>", "<a/>", "<q><a x='1'>hi<?pi d  e ?></a></q>",
    # A byte order mark is text before the prolog to WireMock, which reads the body as a string.
    "\ufeff<q><a x='1'>hi</a></q>", "\ufeff<o><a/><b/></o>",
]
group("xml", {name: {"method": "POST", "urlPath": "/xml/" + name, **request} for name, request in XML_MAPPINGS.items()},
      [("POST", "/xml/" + name, body, {"Content-Type": "application/xml"}) for name in XML_MAPPINGS for body in XML_BODIES])

# r8b A10 and A11, each mapping asked only with its own bodies: an element's default namespace, one attribute namespace
# under two prefixes, `xml:` attributes, mixed content (equalToXml); a CDATA section as a node of its own, a comment or
# processing instruction found, and `matches` over a printed element (matchesXPath).
XML_PAIRS = {
    "ns-default": ({"equalToXml": '<a xmlns="urn:x"><b/></a>'},
                   ['<a xmlns="urn:x"><b xmlns=""/></a>', '<a xmlns="urn:x"><b/></a>', '<x:a xmlns:x="urn:x"><x:b/></x:a>',
                    '<a xmlns="urn:y"><b/></a>', '<a xmlns="urn:x" xmlns:x="urn:y"><x:b/></a>', '<a xmlns="urn:x"><c xmlns=""/><b/></a>']),
    "ns-none": ({"equalToXml": '<a><b xmlns=""/></a>'}, ['<a><b/></a>', '<a><b xmlns="urn:x"/></a>']),
    "ns-child": ({"equalToXml": '<a><b xmlns="urn:x"/></a>'}, ['<a><b/></a>', '<a><b xmlns="urn:x"/></a>']),
    "ns-prefix": ({"equalToXml": '<p:a xmlns:p="urn:x"/>'}, ['<q:a xmlns:q="urn:y"/>', '<a xmlns="urn:x"/>', '<a/>']),
    "attr-prefix": ({"equalToXml": '<a xmlns:p="urn:x" p:k="1"/>'},
                    ['<a xmlns:q="urn:x" q:k="1"/>', '<a xmlns:p="urn:x" p:k="1"/>', '<a xmlns:p="urn:y" p:k="1"/>', '<a k="1"/>']),
    "attr-plain": ({"equalToXml": '<a k="1"/>'}, ['<a xmlns:p="urn:x" p:k="1"/>', '<a k="1"/>']),
    "space": ({"equalToXml": '<a xml:space="preserve"> x </a>'},
              ['<a xml:space="preserve">x</a>', '<a xml:space="preserve"> x </a>', '<a> x </a>']),
    "space-body": ({"equalToXml": '<r><a>x</a></r>'}, ['<r><a xml:lang="en">x</a></r>', '<r><a>x</a></r>']),
    "mixed": ({"equalToXml": '<a><b/>text</a>'}, ['<a>text<b/></a>', '<a><b/>text</a>']),
    "mixed-text-first": ({"equalToXml": '<a>t<b/>u</a>'}, ['<a>t<b/>u</a>']),
    "cdata-joined": ({"matchesXPath": {"expression": "//a/text()", "equalTo": "xy"}}, ['<a>x<![CDATA[y]]></a>', '<a>xy</a>']),
    "cdata-node": ({"matchesXPath": {"expression": "//a/text()", "equalTo": "[#cdata-section: y]"}},
                   ['<a><![CDATA[y]]></a>', '<a>x<![CDATA[y]]></a>', '<a>y</a>']),
    "cdata-first": ({"matchesXPath": {"expression": "//a/text()", "equalTo": "x"}}, ['<a>x<![CDATA[y]]></a>']),
    "cdata-printed": ({"matchesXPath": {"expression": "//a", "equalTo": "<a>x<![CDATA[y]]></a>\n"}},
                      ['<a>x<![CDATA[y]]></a>', '<a>xy</a>']),
    "cdata-glued": ({"matchesXPath": {"expression": "//a", "equalTo": "<a>\n  <b/><![CDATA[y]]></a>\n"}},
                    ['<a><b/><![CDATA[y]]></a>', '<a><b/>y</a>']),
    "printed-matches": ({"matchesXPath": {"expression": "//a", "matches": ".*&amp;.*"}}, ['<a>x&amp;y</a>', '<a>xy</a>']),
    "printed-dotall": ({"matchesXPath": {"expression": "//a", "matches": "<a>.*"}}, ['<a>x&amp;y</a>', '<b><a/></b>']),
    "printed-end": ({"matchesXPath": {"expression": "//a", "matches": ".*</a>"}}, ['<a>x&amp;y</a>']),
    "comment-node": ({"matchesXPath": {"expression": "//comment()", "equalTo": "[#comment:  c ]"}}, ['<a><!-- c --></a>']),
    "pi-node": ({"matchesXPath": {"expression": "//processing-instruction()", "equalTo": "[pi: d e ]"}}, ['<a><?pi  d e ?></a>']),
}
group("xml r8b", {name: {"method": "POST", "urlPath": "/xml8/" + name, "bodyPatterns": [pattern]}
                  for name, (pattern, _) in XML_PAIRS.items()},
      [("POST", "/xml8/" + name, body, {"Content-Type": "application/xml"}) for name, (_, bodies) in XML_PAIRS.items() for body in bodies])

# What WireMock refuses and sut-launch refuses too (the status codes agree: 422).
group("refused by both", {
    "bad-unit": {"headers": {"X": {"before": "now +3 day"}}},
    "bad-amount": {"headers": {"X": {"before": "now +99999999999 days"}}},
    "bad-truncation": {"headers": {"X": {"before": "now", "truncateExpected": "nope"}}},
    "bad-pattern": {"headers": {"X": {"before": "now", "actualFormat": "yyyy{"}}},
    "number-operand": {"headers": {"X": {"before": 5}}},
    "bad-base64": {"bodyPatterns": [{"binaryEqualTo": "!!!"}]},
    "bad-length": {"bodyPatterns": [{"binaryEqualTo": "YW Jj"}]},
    "binary-header": {"headers": {"X": {"binaryEqualTo": "AAA="}}},
    "lower-any": {"multipartPatterns": [{"matchingType": "any"}]},
    "extra-key": {"multipartPatterns": [{"matchingType": "ANY", "foo": 1}]},
    "credentials-key": {"basicAuthCredentials": {"username": "u", "password": "p", "extra": 1}},
    "not": {"headers": {"X": {"not": {"equalTo": "a"}}}},
    "form": {"formParameters": {"a": {"equalTo": "1"}}},
}, [])
