"""One HTTP exchange with http.client (no client library between the test and the server)."""
import http.client
import urllib.parse


def call(base, method, path, body=None, headers=None):
    """Returns (status, body as text)."""
    parsed = urllib.parse.urlparse(base)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=10)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read().decode("utf-8", "replace")
    connection.close()
    return response.status, data
