import AutomationSupport

/// Interception (`--intercept HOST`): the mock server is also the program's HTTP proxy, for programs whose hosts are
/// written in their code. A listener of its own answers `CONNECT` for the listed hosts by terminating TLS with a
/// certificate valid for them (minted for the run, signed by the authority the program trusts) and serving the
/// tunnel's requests like any other; plain `http://` requests sent to the proxy in absolute form are answered too.
/// A host not listed is refused (403) and counted as an unexpected request: nothing is forwarded to the network.
package struct Interception: Sendable {
    /// The hosts answered: DNS names, `*.` and a DNS name (one label, as a certificate's wildcard), IP addresses;
    /// lower-cased.
    package let hosts: [String]
    /// What a tunnel's TLS session serves: a leaf valid for every host in ``hosts``.
    package let context: TLSServerContext

    package init(hosts: [String], context: TLSServerContext) {
        self.hosts = hosts.map { $0.lowercased() }
        self.context = context
    }

    /// True when requests to `host` (no port; brackets of an IPv6 address removed) are answered here.
    package func covers(_ host: String) -> Bool {
        let host = Self.normalized(host)
        guard !host.isEmpty else { return false }
        return hosts.contains { Self.name(host, isCoveredBy: $0) }
    }

    /// True when `host` (normalized) is `listed`, or `listed` is `*.` and a name and `host` is one label more.
    static func name(_ host: String, isCoveredBy listed: String) -> Bool {
        guard listed.hasPrefix("*.") else { return listed == host }
        let suffix = listed.dropFirst(1) // ".example.com"
        guard host.hasSuffix(suffix) else { return false }
        let label = host.dropLast(suffix.count)
        return !label.isEmpty && !label.contains(".")
    }

    /// Why `host` cannot be intercepted, or nil: it must be a name a certificate can hold (``TLSServerContext/hostProblem(_:)``:
    /// a wildcard stands for one label of a name of two or more, as clients read certificates), and it must not be a loopback or unspecified address or `localhost`: clients never send those to a proxy
    /// (the program's `NO_PROXY` keeps them direct, so the mock server is reached), so they would not be intercepted.
    package static func hostProblem(_ host: String) -> String? {
        if host.contains("://") { return "'\(host.prefix(60))' is a URL: write the host alone, as api.example.com" }
        if host.contains("/") { return "'\(host.prefix(60))' holds a path: write the host alone, as api.example.com" }
        if host.contains(":"), !Socket.isIPv6Address(host), !host.hasPrefix("[") {
            return "'\(host.prefix(60))' holds a port: write the host alone (every port of it is intercepted)"
        }
        if let problem = CertificateAuthority.hostProblem(host) { return problem }
        let name = normalized(host)
        let loopback =
            name == "localhost" || name.hasSuffix(".localhost") || name.hasPrefix("127.") || name == "::1" || name == "0.0.0.0"
            || name == "::"
        if loopback {
            return "'\(host.prefix(60))' is this machine: clients do not send it to a proxy; serve its port with --port instead"
        }
        return nil
    }

    /// A host as names compare: lower-cased, without the final dot of a fully qualified name (`API.example.com.`).
    package static func normalized(_ host: String) -> String {
        let lowered = host.lowercased()
        return lowered.hasSuffix(".") && !lowered.hasSuffix("..") ? String(lowered.dropLast()) : lowered
    }

    /// The host and port of an authority (`host:port`, `[::1]:443`), as a `CONNECT` names it; nil when it is not one
    /// (no port, a port out of range or with a leading zero, brackets that do not close, an empty host).
    package static func authority(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard !portText.isEmpty, portText.count <= 5, portText.first != "0", portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let port = Int(portText), (1...65_535).contains(port)
        else { return nil }
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2 else { return nil }
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") || host.contains("]") || host.contains("@") {
            return nil
        }
        return host.isEmpty ? nil : (host, port)
    }

    /// Why a request cannot go through the proxy to `target`: the answer it gets (403), with the hosts that are answered.
    func refusal(_ target: String) -> RequestHead.Error {
        let shown = String(target.prefix(200)).escapingControlCharacters()
        return RequestHead.Error(
            403,
            "\(shown): not an intercepted host (answered here: \(hosts.prefix(10).joined(separator: ", "))); nothing is forwarded to the network"
        )
    }
}
