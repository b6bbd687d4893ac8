import AutomationSupport

/// Forwarding loops: every request this server forwards carries a `Via` entry (RFC 9110 §7.6.3) naming this server
/// by a token drawn when it was made. A request arriving with that token has come back through its own proxying (a
/// `proxyBaseUrl`, `--proxy-unmatched`, or a recording aimed at this server, directly or through other proxies): it
/// is answered 508 Loop Detected and counted as unexpected, and the forward that sent it fails (never recorded).
/// Without this, a recording of its own address forwarded to itself 1,024 deep and recorded its own 503.
struct ProxyLoop: Sendable {
    /// `sut-launch-` and 16 random hex digits: this server's name in `Via`.
    let token: String

    init() {
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        token = "sut-launch-" + String(repeating: "0", count: 16 - random.count) + random
    }

    /// The `Via` entry this server adds: protocol version and its token.
    var viaEntry: String { "1.1 \(token)" }

    /// `headers` with this server's `Via` entry after any the request already had.
    func marked(_ headers: HTTPHeaders) -> HTTPHeaders {
        var headers = headers
        headers.add("Via", viaEntry)
        return headers
    }

    /// The `received-by` of each `Via` entry in `headers` (`1.1 name, 1.0 other` gives `name`, `other`).
    private static func receivers(_ headers: HTTPHeaders) -> [Substring] {
        headers.values("Via").flatMap { value in
            value.split(separator: ",").compactMap { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first }
        }
    }

    /// Whether `headers` (a request's, or the answer to a forward) name this server in a `Via` entry.
    func isOurs(_ headers: HTTPHeaders) -> Bool { Self.receivers(headers).contains { $0 == token } }

    /// Whether `answer` is a sut-launch server's 508 Loop Detected (this one's or another's on the way): the request
    /// came back to a server that forwarded it, so the answer is no backend's and is never recorded.
    static func isLoopAnswer(_ answer: UpstreamAnswer) -> Bool {
        answer.status == 508 && receivers(answer.headers).contains { $0.hasPrefix("sut-launch-") }
    }

    /// Why `request` is not answered, in one line.
    func reason(_ request: HTTPRequest) -> String {
        "loop detected: \(request.method) \(request.target.prefix(200).escapingControlCharacters()) came back to this server "
            + "(its Via names \(token), the token this server adds to what it forwards): a proxyBaseUrl, --proxy-unmatched or "
            + "recording target leads back to this server; point it at the real backend"
    }

    /// The 508 Loop Detected answer (RFC 5842 §7.2), carrying this server's `Via` so that the forward it answers can
    /// tell its own loop from a backend's 508.
    func answer(_ request: HTTPRequest) -> MockResponse {
        var response = MockResponse.text("sut-launch proxy: \(reason(request))\n", status: 508)
        response.headers.add("Via", viaEntry)
        return response
    }
}
