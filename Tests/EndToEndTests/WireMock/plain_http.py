"""One HTTP exchange with http.client (no client library between the test and the server)."""
import http.client
import urllib.parse


def call(base, method, path, body=None, headers=None):
    """Returns (status, body as text). A text body goes as http.client sends it (Latin-1), or as UTF-8 where Latin-1
    cannot hold it (a byte order mark): http.client would raise, and the script stop there."""
    if isinstance(body, str):
        try:
            body.encode("latin-1")
        except UnicodeEncodeError:
            body = body.encode("utf-8")
    parsed = urllib.parse.urlparse(base)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=10)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read().decode("utf-8", "replace")
    connection.close()
    return response.status, data


def exchange(port, method, path, body=None, headers=None):
    """One request to 127.0.0.1:port: (status, headers with lower-case names, body bytes); of a field sent more than
    once, the last."""
    status, fields, data = exchange_fields(port, method, path, body, headers)
    return status, dict(fields), data


def exchange_fields(port, method, path, body=None, headers=None):
    """One request to 127.0.0.1:port: (status, every header field as (lower-case name, value) in the order sent,
    body bytes)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, [(k.lower(), v) for k, v in response.getheaders()], response.read()
    finally:
        connection.close()
