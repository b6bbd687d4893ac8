import AutomationSupport

/// What a backend answered, as received: the body exactly as it came (still gzip when it was), the framing
/// (`Transfer-Encoding`, `Content-Length`) already undone.
package struct UpstreamAnswer: Sendable, Hashable {
    package var status: Int
    package var reason: String
    package var headers: HTTPHeaders
    package var body: [UInt8]
}

/// Why a forwarded request got no answer: the status the program receives instead (502, or 504 for a deadline)
/// and one line saying what went wrong, which the run's summary repeats.
package struct UpstreamFailure: Error, Sendable, Hashable, CustomStringConvertible {
    package let status: Int
    package let reason: String
    package var description: String { reason }
}

/// HTTP/1.1 to a real backend, one connection per request (`Connection: close`), plain or TLS, every step within a
/// deadline and every byte within a limit. Used by `proxyBaseUrl` mappings, `--proxy-unmatched` and recording.
package enum UpstreamClient {
    /// Deadlines and sizes of one exchange.
    package struct Limits: Sendable {
        package var connectTimeoutMs: Int32 = 5_000
        /// From the request sent to the answer's head.
        package var answerTimeoutMs = 30_000
        /// The whole body, after its head.
        package var bodyTimeoutMs = 60_000
        package var maxHeadBytes = 64 * 1024
        package var maxBodyBytes = 64 * 1024 * 1024
        /// Trust for `https` backends: extra PEM certificates beside the system's; `insecure` verifies nothing.
        package var extraTrustPEM: [UInt8]?
        package var insecure = false
        package init() {}
    }

    /// Sends `method target` with `headers` (hop-by-hop fields removed, `Host` and `Content-Length` set here) and
    /// `body` to `upstream`; returns its answer or why there is none.
    package static func exchange(
        method: String, target: String, headers: HTTPHeaders, body: [UInt8], to upstream: UpstreamTarget, limits: Limits = Limits()
    ) -> Result<UpstreamAnswer, UpstreamFailure> {
        let shown = "\(upstream)"
        let transport: any ConnectionTransport
        let close: () -> Void
        switch connect(upstream, limits) {
        case .failure(let failure): return .failure(failure)
        case .success(let connected): (transport, close) = connected
        }
        defer { close() }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(upstream.authority)\r\n"
        for field in HopByHop.removed(from: headers).entries where field.name.lowercased() != "host" {
            head += "\(field.name): \(field.value)\r\n"
        }
        if !body.isEmpty || !["GET", "HEAD", "DELETE", "OPTIONS", "TRACE"].contains(method) { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        transport.setSendTimeout(milliseconds: limits.answerTimeoutMs)
        guard transport.send(Array(head.utf8) + body) else {
            return .failure(UpstreamFailure(status: 502, reason: "\(shown) closed the connection before the request was sent"))
        }
        var reader = AnswerReader(transport: transport, limits: limits, shown: shown)
        return reader.read(expectBody: method != "HEAD")
    }

    /// A connected transport to `upstream` (its name resolved; TLS when `https`) and how to close it.
    private static func connect(_ upstream: UpstreamTarget, _ limits: Limits) -> Result<
        (any ConnectionTransport, () -> Void), UpstreamFailure
    > {
        let shown = "\(upstream)"
        let addresses: [String]
        do { addresses = try Socket.resolve(upstream.host) } catch {
            return .failure(UpstreamFailure(status: 502, reason: "cannot reach \(shown): \(error)"))
        }
        var lastError = ""
        for address in addresses {
            let socket: Socket
            do { socket = try Socket.connect(host: address, port: upstream.port, timeoutMs: limits.connectTimeoutMs) } catch {
                lastError = "\(error)"
                if error.code == 110 { // ETIMEDOUT on Linux
                    return .failure(
                        UpstreamFailure(status: 504, reason: "cannot reach \(shown): no connection within \(limits.connectTimeoutMs) ms"))
                }
                continue
            }
            guard upstream.scheme == "https" else { return .success((socket, { socket.close() })) }
            do {
                let tls = try TLSConnection.connect(
                    socket, serverName: upstream.host, extraTrustPEM: limits.extraTrustPEM, insecure: limits.insecure,
                    timeoutMs: limits.connectTimeoutMs)
                return .success((tls, { tls.close() })) // close_notify, then the socket
            } catch {
                socket.close()
                return .failure(UpstreamFailure(status: 502, reason: "\(shown): \(error)"))
            }
        }
        return .failure(UpstreamFailure(status: 502, reason: "cannot reach \(shown): \(lastError)"))
    }
}

/// Header fields that describe one connection, never forwarded (RFC 9110 §7.6.1), plus the framing this side sets.
package enum HopByHop {
    static let names: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer",
        "transfer-encoding", "upgrade", "content-length",
    ]
    package static func isHopByHop(_ name: String) -> Bool { names.contains(name.lowercased()) }

    /// `headers` without hop-by-hop fields, nor those their `Connection` fields name.
    package static func removed(from headers: HTTPHeaders) -> HTTPHeaders {
        let named = Set(headers.values("Connection").flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces().lowercased() })
        return HTTPHeaders(headers.entries.filter { !isHopByHop($0.name) && !named.contains($0.name.lowercased()) })
    }
}
