import AutomationSupport

/// One request as the mock server received it.
public struct HTTPRequest: Sendable, Hashable {
    /// The method, as sent (`GET`).
    public var method: String
    /// The request-target as sent: `/cities?q=Milano`.
    public var target: String
    /// The target's path, still percent-encoded: `/cities`.
    public var path: String
    /// The raw query string after `?`, if any.
    public var rawQuery: String?
    /// `HTTP/1.1` or `HTTP/1.0`.
    public var version: String
    /// The header fields, in order.
    public var headers: HTTPHeaders
    /// The body, decoded from chunks when it came chunked.
    public var body: [UInt8]
    /// The body as the client sent it, when its content codings were undone into ``body`` (a proxy forwards these
    /// bytes with their `Content-Encoding`); nil when ``body`` is what was sent.
    package var codedBody: [UInt8]?
    /// The peer's IP address.
    public var clientAddress: String
    /// `http`, or `https` when it came over TLS (the HTTPS server, or an intercepted host's tunnel).
    public var scheme: String
    /// The client end of the connection it came on (nil when no connection carried it: ``MockServer/handle(_:)``).
    package var peer: Peer?

    /// A request; `path` and `rawQuery` are split from `target`.
    public init(
        method: String, target: String, version: String = "HTTP/1.1", headers: HTTPHeaders = [:],
        body: [UInt8] = [], clientAddress: String = "127.0.0.1", scheme: String = "http"
    ) {
        self.scheme = scheme
        self.method = method
        // An absolute-form target's userinfo (`http://user:password@host/`) is a secret: never kept, journaled or shown.
        self.target = Self.withoutUserinfo(target)
        self.version = version
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
        let target = self.target
        // Split on the bytes: `?` followed by a combining mark is one Character, which a Character search passes over
        // (the query was then part of the path); WireMock splits at the `?` itself.
        if let question = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
            path = String(target[..<question])
            rawQuery = String(target[target.utf8.index(after: question)...])
        } else {
            path = target
            rawQuery = nil
        }
        if let hash = path.utf8.firstIndex(of: UInt8(ascii: "#")) { path = String(path[..<hash]) }
        // An absolute-form target (a client talking to us as a proxy): keep only the path.
        if let authority = Self.absoluteAuthority(path) {
            path = path.utf8[authority.endIndex...].firstIndex(of: UInt8(ascii: "/")).map { String(path[$0...]) } ?? "/"
        }
    }

    /// The target in origin form (`/cities?q=Milano`), also when it was sent in absolute form to the proxy listener
    /// (`http://api.example.com/cities?q=Milano`).
    public var originTarget: String {
        target.hasPrefix("/") || Self.absoluteAuthority(target) == nil ? target : path + (rawQuery.map { "?" + $0 } ?? "")
    }

    /// The host the request was sent to, lower-cased, without its port, one final dot or an IPv6 address's brackets: an
    /// absolute-form target's, else the `Host` header's; empty when neither names one.
    public var host: String { Interception.normalized(Self.split(authority: authority).host) }

    /// The port the request was sent to: the one its authority names, else the scheme's default (80, 443).
    public var port: Int { Self.split(authority: authority).port ?? (scheme == "https" ? 443 : 80) }

    private var authority: Substring { Self.absoluteAuthority(target) ?? Substring(headers["Host"] ?? "") }

    /// `host[:port]` of an absolute-form target (`http://user@host:8080/x` gives `host:8080`), or nil for another form.
    static func absoluteAuthority(_ target: String) -> Substring? {
        guard let rest = afterScheme(target) else { return nil }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
    }

    /// What follows `http://` or `https://` (the scheme in any case, RFC 9110 §4.2.3), or nil for another form.
    private static func afterScheme(_ target: String) -> Substring? {
        guard target.first == "h" || target.first == "H" else { return nil }
        let lowered = target.prefix(8).lowercased()
        if lowered.hasPrefix("http://") { return target.dropFirst(7) }
        if lowered.hasPrefix("https://") { return target.dropFirst(8) }
        return nil
    }

    /// `target` without an absolute form's userinfo.
    private static func withoutUserinfo(_ target: String) -> String {
        guard let rest = afterScheme(target) else { return target }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return target }
        return String(target[..<rest.startIndex]) + String(target[target.index(after: at)...])
    }

    /// Splits `host[:port]` (`[::1]:8080`): the host lower-cased without brackets, the port when one is written.
    static func split(authority: Substring) -> (host: String, port: Int?) {
        var host = authority
        var portText: Substring = ""
        if authority.hasPrefix("[") {
            let close = authority.firstIndex(of: "]") ?? authority.endIndex
            host = authority[authority.index(after: authority.startIndex)..<close]
            if close < authority.endIndex, authority[authority.index(after: close)...].hasPrefix(":") {
                portText = authority[authority.index(close, offsetBy: 2)...]
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        // port = *DIGIT (RFC 3986 §3.2.3): Int() alone took a sign (`:+80`).
        let digits = portText.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        let port = digits && portText.count <= 5 ? Int(portText).flatMap { (1...65_535).contains($0) ? $0 : nil } : nil
        return (host.lowercased(), port)
    }

    /// Query parameters in order, percent-decoded (`+` as space; bytes that are not UTF-8 read as Java reads them,
    /// ``PercentEncoding/decode(_:plusAsSpace:)``). Split at every `&` and the first `=` of a pair,
    /// on the bytes, as WireMock splits the characters (a Character split would not cut "&" + a combining mark).
    /// Read on the contiguous bytes, each name and value made once from its bytes (through String.UTF8View's
    /// indices and Substrings, a two-pair query cost ~4,000 instructions per request to match; callgrind).
    public var queryItems: [(name: String, value: String)] {
        guard var rawQuery, !rawQuery.isEmpty else { return [] }
        return rawQuery.withUTF8 { bytes in
            var items: [(name: String, value: String)] = []
            var start = 0
            var equals: Int?
            for index in 0...bytes.count {
                if index < bytes.count && bytes[index] != UInt8(ascii: "&") {
                    if equals == nil && bytes[index] == UInt8(ascii: "=") { equals = index }
                    continue
                }
                // An empty piece (`&&`, a trailing `&`) is a parameter named "" with the value "", as WireMock's
                // splitter keeps it (`{{size request.query}}` counts it; a `?` with nothing after it has none).
                let name = PercentEncoding.decode(UnsafeBufferPointer(rebasing: bytes[start..<(equals ?? index)]), plusAsSpace: true)
                let value = equals.map {
                    PercentEncoding.decode(UnsafeBufferPointer(rebasing: bytes[($0 + 1)..<index]), plusAsSpace: true)
                }
                items.append((name, value ?? ""))
                start = index + 1
                equals = nil
            }
            return items
        }
    }

    /// The first value of a query parameter.
    public func query(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }

    /// Every value of a query parameter.
    public func queryValues(_ name: String) -> [String] { queryItems.filter { $0.name == name }.map(\.value) }

    /// The first value of a header (case-insensitive name).
    public func header(_ name: String) -> String? { headers[name] }

    /// The body as UTF-8 text (invalid bytes repaired).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The values of the matched route's `{name}` segments, decoded (set for routes answered by code).
    public internal(set) var pathParameters: [String: String] = [:]

    /// A path parameter of the matched route: `request.pathParameter("id")` for `GET /users/{id}`.
    public func pathParameter(_ name: String) -> String? { pathParameters[name] }

    /// A path parameter read as a number, a Bool, …; nil when absent or not of that type.
    public func pathParameter<Value: LosslessStringConvertible>(_ name: String, as type: Value.Type) -> Value? {
        pathParameters[name].flatMap(Value.init)
    }

    /// A query value read as a number, a Bool, …; nil when absent or not of that type.
    public func query<Value: LosslessStringConvertible>(_ name: String, as type: Value.Type) -> Value? {
        query(name).flatMap(Value.init)
    }

    /// A header value read as a number, a Bool, …; nil when absent or not of that type.
    public func header<Value: LosslessStringConvertible>(_ name: String, as type: Value.Type) -> Value? {
        header(name).flatMap(Value.init)
    }

    /// A cookie's value.
    public func cookie(_ name: String) -> String? { cookies[name] }

    /// Cookies from the Cookie headers (a name sent twice: its last value).
    public var cookies: [String: String] {
        var result: [String: String] = [:]
        for (name, value) in cookieList { result[name] = value }
        return result
    }

    /// Cookies from the Cookie headers, each name with its value, in the order sent (a name may come twice).
    package var cookieList: [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        for header in headers.values("Cookie") {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                if let equals = trimmed.firstIndex(of: "=") {
                    // RFC 6265's quoted form: `s="1"` is the value 1, as Jetty (WireMock) reads it.
                    var value = trimmed[trimmed.index(after: equals)...]
                    if value.utf8.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
                    result.append((String(trimmed[..<equals]), String(value)))
                }
            }
        }
        return result
    }

    /// The path percent-decoded, for display and template values.
    public var decodedPath: String { PercentEncoding.decode(Substring(path), plusAsSpace: false) }
}
