import AutomationSupport

/// A real backend requests are forwarded to: `http(s)://host[:port][/prefix]`, read once and checked (no userinfo,
/// no query or fragment, a host and a port in range). The proxy talks to this origin only: a request's `Host` header
/// or absolute target never redirects it.
package struct UpstreamTarget: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    package let scheme: String
    /// The host name or IP address (IPv6 without brackets).
    package let host: String
    package let port: UInt16
    /// The path every forwarded target is appended to, without a trailing `/` (`""` for the root).
    package let pathPrefix: String

    /// Why a text is not a backend URL, in one line.
    package struct Invalid: Error, Sendable, CustomStringConvertible {
        package let message: String
        package var description: String { message }
    }

    /// Reads `text`; throws a one-line reason naming what is wrong and how it should look.
    package init(_ text: String) throws(Invalid) {
        let shown = "\"\(text.prefix(200).escapingControlCharacters())\""
        let example = "like http://127.0.0.1:8080 or https://api.example.com/v1"
        func refuse(_ why: String) -> Invalid { Invalid(message: "\(shown) is not a backend URL: \(why) (\(example))") }
        let lowered = text.lowercased()
        let scheme = lowered.hasPrefix("https://") ? "https" : lowered.hasPrefix("http://") ? "http" : ""
        guard !scheme.isEmpty else { throw refuse("it needs http:// or https://") }
        self.scheme = scheme
        let rest = text.dropFirst(scheme.count + 3)
        guard !rest.contains(where: { $0 == "?" || $0 == "#" || $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false })
        else { throw refuse("a query, fragment, space or control character has no place in it") }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.contains("@") else { throw refuse("credentials in the URL are not sent; use a header") }
        var prefix = String(rest[authorityEnd...])
        while prefix.hasSuffix("/") { prefix.removeLast() }
        pathPrefix = try Self.path(prefix, refuse)
        let defaultPort: UInt16 = scheme == "https" ? 443 : 80
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw refuse("an IPv6 address needs its closing ]") }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            port = try Self.port(after.isEmpty ? nil : after.dropFirst(), after.isEmpty || after.first == ":", defaultPort, refuse)
            guard Socket.isIPv6Address(host) else { throw refuse("[\(host.prefix(60))] is not an IPv6 address") }
        } else {
            let colon = authority.lastIndex(of: ":")
            host = String(authority[..<(colon ?? authority.endIndex)]).lowercased()
            port = try Self.port(colon.map { authority[authority.index(after: $0)...] }, true, defaultPort, refuse)
            guard !host.isEmpty, host.utf8.count <= 253,
                host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_") })
            else { throw refuse("the host must be a DNS name or an IP address") }
        }
    }

    /// The path as sent: RFC 3986 path characters and `%XX` escapes, each byte beyond ASCII `%XX`-escaped (as Java's
    /// URI sends it); `\`, `{`, `|`, `^`, a `%` not before two hex digits are refused, as WireMock refuses them (r14 R14-7:
    /// a templated path forwarded them raw, and a `\` is a `/` to some servers).
    private static func path(_ text: String, _ refuse: (String) -> Invalid) throws(Invalid) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/".utf8)
        let bytes = Array(text.utf8)
        var sent: [UInt8] = []
        sent.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, FormEncoding.hexValue(bytes[index + 1]) != nil,
                    FormEncoding.hexValue(bytes[index + 2]) != nil
                else { throw refuse("a % in the path must begin an escape of two hex digits (%2F)") }
            } else if byte >= 0x80 {
                sent += Array("%\(String(byte, radix: 16, uppercase: true))".utf8)
                index += 1
                continue
            } else if !allowed.contains(byte) {
                throw refuse(
                    "\"\(Character(Unicode.Scalar(byte)))\" has no place in a URL path; escape it (%\(String(byte, radix: 16, uppercase: true)))"
                )
            }
            sent.append(byte)
            index += 1
        }
        return String(decoding: sent, as: UTF8.self)
    }

    private static func port(_ text: Substring?, _ wellFormed: Bool, _ fallback: UInt16, _ refuse: (String) -> Invalid)
        throws(Invalid) -> UInt16
    {
        guard wellFormed else { throw refuse("after ] only :PORT may follow") }
        guard let text else { return fallback }
        // One number rule: digits only, no sign, no leading zero (`+8080` and `00080` were read as 8080 and 80).
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw refuse("the port is digits only (no sign): 1-65535")
        }
        guard text.first != "0" else { throw refuse("the port \(text.prefix(20)) has a leading zero; write it without: 1-65535") }
        guard text.count <= 5, let value = Int(text), (1...65_535).contains(value) else {
            throw refuse("the port \(text.prefix(20)) is not 1-65535")
        }
        return UInt16(value)
    }

    /// `host:port` as a `Host` header writes it (the port only when it is not the scheme's default).
    package var authority: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (scheme == "https" ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// `scheme://authority/prefix`.
    package var description: String { "\(scheme)://\(authority)\(pathPrefix)" }

    /// Whether this target is a server listening on `listenHost`:`port` itself (`127.0.0.1`, `localhost`, `::1` or
    /// the address it listens on; any loopback or the wildcard for a server on every address): forwarding there is a
    /// loop. Port 0 (not yet chosen) is never this target's.
    package func isServer(listeningOn listenHost: String, port: UInt16) -> Bool {
        guard port != 0, self.port == port else { return false }
        // Every numeric spelling of an address is the address (`127.1`, `0`, `2130706433`, `[::ffff:127.0.0.1]`).
        let host = Socket.numericAddress(self.host) ?? self.host
        let everywhere = ["0.0.0.0", "::", ""].contains(listenHost)
        let loopback = ["localhost", "127.0.0.1", "::1", "0:0:0:0:0:0:0:1"].contains(host) || host.hasSuffix(".localhost")
        if host == listenHost.lowercased() || (loopback && (everywhere || ["localhost", "127.0.0.1", "::1"].contains(listenHost))) {
            return true
        }
        return everywhere && (host.hasPrefix("127.") || host == "0.0.0.0" || host == "::")
    }
}
