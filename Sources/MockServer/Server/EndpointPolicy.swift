import AutomationSupport

/// The one gate in front of every endpoint the server serves itself rather than from stubs: the admin API
/// (`/__admin/*`) and the control channel (`/__sut/control`, `/__sut/control/ack`). A web page the developer
/// happens to have open must not reach them, neither directly nor through DNS rebinding, so a request is
/// answered only when all of these hold:
///
/// - the peer is on this machine: a loopback address, or the specific address the server is bound to (`--host`);
/// - `Host`, when given, names a loopback address (`127.x.x.x`, `::1`, `localhost`) or the server's own host
///   (a rebound name such as `evil.example` is refused);
/// - `Origin`, when given, is the server's own origin (scheme, loopback host, port): a page elsewhere,
///   `null`, or another port on this machine is refused; `Sec-Fetch-Site`, when given, is `same-origin` or `none`
///   (browsers send it on every request, including the `no-cors` GETs that carry no `Origin`);
/// - a write (any method but GET, HEAD, OPTIONS) with a body or a `Content-Type` carries the endpoint's type,
///   which is not one a page may send without a CORS preflight (`text/plain`, a form's types); so does a GET of
///   the control channel, which takes a message off its queue.
///
/// Refusals are 403 (who is asking) or 415 (what type), with a one-line reason. Answers carry no CORS headers.
struct EndpointPolicy: Sendable {
    enum Endpoint: Sendable { case admin, control }
    /// Which endpoint this guards.
    let endpoint: Endpoint
    /// How refusals name the endpoint: `the admin API`.
    let name: String
    /// The media type writes must carry (compared case-insensitively, parameters ignored).
    let writeContentType: String

    static let admin = EndpointPolicy(endpoint: .admin, name: "the admin API", writeContentType: "application/json")
    static let control = EndpointPolicy(endpoint: .control, name: "the control channel", writeContentType: "application/octet-stream")

    /// The policy guarding `path`, or nil for a path stubs answer (the hot path: two prefix tests).
    static func guarding(_ path: String, admin: Bool) -> EndpointPolicy? {
        if admin && path.hasPrefix("/__admin") { return .admin }
        if path.hasPrefix("/__sut/control"), path == "/__sut/control" || path == "/__sut/control/ack" { return .control }
        return nil
    }

    /// Why this request is not answered (403/415 with the reason), or nil when it is.
    /// - Parameters:
    ///   - serverHost: the address the server listens on (a `Host` or `Origin` naming it is local).
    ///   - serverPort: the port it listens on (an `Origin` must name it); read only when an `Origin` is given.
    func refusal(of request: HTTPRequest, serverHost: String, serverPort: () -> UInt16) -> MockResponse? {
        guard Self.isLoopback(request.clientAddress) || Self.isOwnAddress(request.clientAddress, serverHost: serverHost) else {
            let own = Self.isLoopback(serverHost) || serverHost == "0.0.0.0" || serverHost == "::" ? "" : " or \(serverHost)"
            return .text(
                "\(name) answers clients on this machine only (peers at 127.0.0.1, ::1\(own)), not \(request.clientAddress)\n", status: 403)
        }
        // One of each: with two, which one the checks below read is not what another reader may read.
        for field in ["Host", "Origin", "Sec-Fetch-Site"] where request.headers.values(field).count > 1 {
            return .text("\(name) does not answer a request with more than one \(field) header\n", status: 403)
        }
        if let host = request.header("Host"), !Self.isLocalName(Self.hostName(host), serverHost: serverHost) {
            let names = Self.isLocalName(serverHost, serverHost: "") ? "127.0.0.1 or localhost" : "127.0.0.1, localhost or \(serverHost)"
            return .text("\(name) answers requests for \(names) only, not Host: \(host)\n", status: 403)
        }
        if let origin = request.header("Origin"), !Self.isOwnOrigin(origin, serverHost: serverHost, port: serverPort()) {
            return .text("\(name) does not answer cross-site requests (Origin: \(origin))\n", status: 403)
        }
        if let site = request.header("Sec-Fetch-Site"), !(site.lowercased() == "same-origin" || site.lowercased() == "none") {
            return .text("\(name) does not answer cross-site requests (Sec-Fetch-Site: \(site))\n", status: 403)
        }
        // A GET of the control channel takes a message off its queue: it is a write in all but name, and an
        // <img> on any page could send it (old browsers add no Sec-Fetch-Site). It needs the type too.
        if endpoint == .control && request.method == "GET" && request.path == "/__sut/control" {
            if Self.mediaType(of: request) != writeContentType {
                return .text(
                    "reading \(name) takes a message off its queue: send Content-Type: \(writeContentType) (a web page cannot without asking first)\n",
                    status: 415)
            }
        }
        if request.method != "GET" && request.method != "HEAD" && request.method != "OPTIONS" {
            // Two types: which one a reader takes is not what another may take (as for Host and Origin).
            if request.headers.values("Content-Type").count > 1 {
                return .text("\(name) does not answer a write with more than one Content-Type header\n", status: 400)
            }
            let type = Self.mediaType(of: request)
            if (!request.body.isEmpty || type != nil) && type != writeContentType {
                return .text(
                    "writes to \(name) need Content-Type: \(writeContentType) (a web page cannot send it without asking first)\n",
                    status: 415)
            }
        }
        return nil
    }

    /// The request's `Content-Type` without parameters, lower case (`text/plain; charset=utf-8` → `text/plain`);
    /// nil when it has none.
    static func mediaType(of request: HTTPRequest) -> String? {
        request.header("Content-Type").map { $0.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces().lowercased() } ?? "" }
    }

    /// `http://127.0.0.1:8080` for a server on 127.0.0.1:8080 (also `localhost`, `[::1]`, the server's host).
    static func isOwnOrigin(_ origin: String, serverHost: String, port: UInt16) -> Bool {
        let lowered = origin.lowercased()
        let scheme: String
        if lowered.hasPrefix("http://") { scheme = "http" } else if lowered.hasPrefix("https://") { scheme = "https" } else { return false }
        let authority = lowered.dropFirst(scheme.count + 3)
        guard !authority.isEmpty, !authority.contains("/"), !authority.contains("@") else { return false }
        let name = hostName(String(authority))
        let afterName = authority.hasPrefix("[") ? authority.drop { $0 != "]" }.dropFirst() : authority.drop { $0 != ":" }
        let given: UInt16? =
            afterName.isEmpty ? (scheme == "http" ? 80 : 443) : afterName.hasPrefix(":") ? UInt16(afterName.dropFirst()) : nil
        return given == port && isLocalName(name, serverHost: serverHost)
    }

    /// `127.0.0.1:8080` → `127.0.0.1`; `[::1]:8080` → `::1`.
    static func hostName(_ host: String) -> String {
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") { return String(host[host.index(after: host.startIndex)..<close]) }
        return String(host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    static func isLocalName(_ name: String, serverHost: String) -> Bool {
        let name = name.lowercased()
        if name == "localhost" || name == serverHost.lowercased() || name == "::1" { return true }
        // A numeric 127.x.x.x only: "127.evil.example" is a name an attacker's DNS controls.
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { !$0.isEmpty && $0.utf8.count <= 3 && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && UInt8($0) != nil }
    }

    /// A peer whose address is the specific address the server is bound to (`--host 192.0.2.2`): a connection from
    /// that address comes from this machine (the kernel drops packets from outside that claim a local source), so
    /// the program under test, on the same machine, reaches the admin API and control channel (r6a-9). A wildcard
    /// bind (`0.0.0.0`, `::`) names no address: loopback peers only.
    static func isOwnAddress(_ address: String, serverHost: String) -> Bool {
        guard !serverHost.isEmpty, serverHost != "0.0.0.0", serverHost != "::" else { return false }
        let peer = address.lowercased().hasPrefix("::ffff:") ? String(address.dropFirst(7)) : address
        return peer.lowercased() == serverHost.lowercased()
    }

    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }
}
