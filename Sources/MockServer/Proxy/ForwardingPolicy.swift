import AutomationSupport

/// The gate in front of every forward to a real backend (`proxyBaseUrl` mappings, `--proxy-unmatched`, recording,
/// `serve --proxy-all`): a web page the developer has open must not relay requests through the server to a backend
/// that trusts this machine, nor have them recorded (r11 R11-11). Unlike ``EndpointPolicy`` it does not ask where the
/// peer is (a forwarder bound to `0.0.0.0` may serve other machines, as its stubs do); it asks what a browser says:
///
/// - `Host`, when given, names this machine or the server: `localhost` and `*.localhost`, an IP address (a page whose
///   origin is an address is served by this server itself), the server's `--host`, this machine's name, an
///   `--https-host` or `--intercept` name, or a name given with `--allow-host` (a container reaching the host as
///   `host.docker.internal`). A DNS name an attacker's page rebound to 127.0.0.1 (`rebind.evil.example`) is refused;
/// - `Origin`, when given, is a page served by this machine under a name (any port: a dev server on `localhost:3000`
///   calling the mock): a loopback name or address, `*.localhost`, the machine's name, the server's `--host`, or a
///   name given as above. Any other address is another web site (r13 R13-1: a page at `http://203.0.113.9` was
///   forwarded); `null` (a sandboxed frame, a `file:` page) is refused;
/// - `Sec-Fetch-Site`, when given, is `same-origin`, `same-site` or `none` (browsers send it on every request, also
///   the `no-cors` GETs that carry no `Origin`), unless the request's `Origin` is such a page: `localhost:3000` calling
///   `127.0.0.1:PORT` is `cross-site` to the browser, yet one machine (r13 R13-4). Any other value is refused.
///
/// A refusal is a 403 with its reason, counted as unexpected; nothing is forwarded or recorded.
struct ForwardingPolicy: Sendable {
    /// The server's bound address (`--host`).
    let serverHost: String
    /// Names given with `--allow-host` and `--https-host` (`*.` and a name covers one label).
    let allowedHosts: [String]
    /// The interception listener's hosts, if any.
    let intercept: Interception?

    init(serverHost: String, options: MockServer.Options) {
        self.serverHost = serverHost
        self.allowedHosts = options.forwardingHosts.map { Interception.normalized($0) }
        self.intercept = options.intercept
    }

    /// Why `request` is not forwarded (a 403 naming the header and the fix), or nil when it may be; the values it quotes
    /// with their control characters made visible (an ESC in a Host retitled the terminal of a curl showing the 403).
    func refusal(of request: HTTPRequest) -> String? { reason(request)?.escapingControlCharacters() }

    private func reason(_ request: HTTPRequest) -> String? {
        for field in ["Host", "Origin", "Sec-Fetch-Site"] where request.headers.values(field).count > 1 {
            return "sut-launch proxy: not forwarded: the request has more than one \(field) header"
        }
        if let host = request.header("Host"), !isAllowed(EndpointPolicy.hostName(host)) {
            return
                "sut-launch proxy: not forwarded: Host: \(host.prefix(200)) is not this machine (a web page after DNS rebinding sends such a Host); "
                + "if the program reaches the server by that name, add --allow-host \(EndpointPolicy.hostName(host).prefix(200))"
        }
        if let origin = request.header("Origin"), !isAllowedOrigin(origin) {
            return
                "sut-launch proxy: not forwarded: a request from a web page elsewhere (Origin: \(origin.prefix(200))); "
                + "pages on this machine are forwarded, and names given with --allow-host"
        }
        if let site = request.header("Sec-Fetch-Site"), !Self.sameSite.contains(site.lowercased()), request.header("Origin") == nil {
            return
                "sut-launch proxy: not forwarded: a cross-site request from a web page (Sec-Fetch-Site: \(site.prefix(40))); "
                + "a page on this machine that sends its Origin is forwarded"
        }
        return nil
    }

    /// The `Sec-Fetch-Site` values of a request that is no other site's.
    static let sameSite: Set = ["same-origin", "same-site", "none"]

    /// A page's origin (`http://localhost:3000`) on this machine by name or loopback address; an address that is not
    /// loopback (another machine's page), `null` and anything not `http(s)://host[:port]` is not.
    private func isAllowedOrigin(_ origin: String) -> Bool {
        let lowered = origin.lowercased()
        guard let scheme = ["http://", "https://"].first(where: { lowered.hasPrefix($0) }) else { return false }
        let authority = lowered.dropFirst(scheme.count)
        guard !authority.isEmpty, !authority.contains("/"), !authority.contains("@") else { return false }
        let name = Interception.normalized(EndpointPolicy.hostName(String(authority)))
        if EndpointPolicy.isLocalName(name, serverHost: serverHost) { return true }
        return !Socket.isIPv4Address(name) && !Socket.isIPv6Address(name) && isAllowed(name)
    }

    /// True for a name that is this machine or the server (see the type's rules).
    func isAllowed(_ name: String) -> Bool {
        let name = Interception.normalized(name)
        guard !name.isEmpty else { return false }
        if EndpointPolicy.isLocalName(name, serverHost: serverHost) || name.hasSuffix(".localhost") { return true }
        if Socket.isIPv4Address(name) || Socket.isIPv6Address(name) || name == Interception.normalized(HostName.current) { return true }
        if intercept?.covers(name) == true { return true }
        return allowedHosts.contains { Interception.name(name, isCoveredBy: $0) }
    }
}
