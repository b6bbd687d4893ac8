import AutomationSupport

/// How a request is forwarded to a real backend: a WireMock mapping's `proxyBaseUrl` (with
/// `additionalProxyRequestHeaders`, `removeProxyRequestHeaders`, `proxyUrlPrefixToRemove`), `--proxy-unmatched`,
/// or a recording's target.
package struct ProxyRule: Sendable {
    package var target: UpstreamTarget
    /// Fields added to (replacing) the forwarded request's.
    package var additionalHeaders: [(name: String, value: String)] = []
    /// Fields removed from the forwarded request (case-insensitive names).
    package var removedHeaders: [String] = []
    /// A path prefix taken off before the target's path is appended (WireMock's `proxyUrlPrefixToRemove`).
    package var prefixToRemove: String?
    /// `proxyBaseUrl` as written: a templated mapping renders it per request (``ProxyTemplates``).
    var baseText = ""

    package init(target: UpstreamTarget) { self.target = target }

    /// The response keys of a proxying mapping.
    static let wireMockKeys = ["proxyBaseUrl", "additionalProxyRequestHeaders", "removeProxyRequestHeaders", "proxyUrlPrefixToRemove"]

    /// Reads a mapping's proxy keys; nil when it has no `proxyBaseUrl` (the other keys alone are refused).
    static func parse(_ response: ObjectReader) throws(StubError) -> ProxyRule? {
        guard let base = try response.string("proxyBaseUrl") else {
            if let stray = wireMockKeys.dropFirst().first(where: { response[$0] != nil }) {
                throw response.error(stray, "\(stray) needs \"proxyBaseUrl\", the backend to forward to")
            }
            return nil
        }
        var rule: ProxyRule
        do { rule = ProxyRule(target: try loadTarget(base)) } catch {
            throw response.error("proxyBaseUrl", "proxyBaseUrl: \(error)")
        }
        rule.baseText = base
        if let added = try response.object("additionalProxyRequestHeaders") {
            for name in added.keys {
                guard let value = try added.string(name) else { continue }
                guard HTTPField.isValidName(name), HTTPField.isValidValue(value) else {
                    let bad = HTTPField.isValidName(name) ? HTTPField.badByte(in: value) : HTTPField.badByte(in: name, name: true)
                    throw response.error("additionalProxyRequestHeaders", "additionalProxyRequestHeaders \(HTTPField.quoted(name)): \(bad)")
                }
                rule.additionalHeaders.append((name, value))
            }
        }
        for name in try response.array("removeProxyRequestHeaders") ?? [] {
            guard let text = name.string else {
                throw response.typeError("removeProxyRequestHeaders", name, "an array of header names")
            }
            rule.removedHeaders.append(text.lowercased())
        }
        rule.prefixToRemove = try response.string("proxyUrlPrefixToRemove")
        return rule
    }

    /// `proxyBaseUrl` as read at load. A templated one is rendered per request, but its scheme, host and port are read
    /// here, as written: a template may stand in its path only, and each `{{…}}` there is read as one word (r13 R13-3:
    /// `{{lower request.path}}` was refused for its space).
    static func loadTarget(_ base: String) throws(UpstreamTarget.Invalid) -> UpstreamTarget {
        let bytes = Array(base.utf8)
        guard let open = Self.find("{{", in: bytes, from: 0) else { return try UpstreamTarget(base) }
        let afterScheme = Self.find("://", in: bytes, from: 0).map { $0 + 3 } ?? 0
        let pathStart = bytes[afterScheme...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        guard open >= pathStart else {
            let shown = "\"\(base.prefix(200).escapingControlCharacters())\""
            throw UpstreamTarget.Invalid(
                message: "\(shown): a template may stand in its path only: the scheme, host and port are written out")
        }
        var text = Array(bytes[..<pathStart])
        var at = pathStart
        while let start = Self.find("{{", in: bytes, from: at) {
            text += bytes[at..<start] + [UInt8(ascii: "x")]
            guard let end = Self.find("}}", in: bytes, from: start + 2) else {
                at = bytes.endIndex
                break
            }
            at = end + 2
        }
        return try UpstreamTarget(String(decoding: text + bytes[at...], as: UTF8.self))
    }

    private static func find(_ needle: String, in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { ByteSearch.firstRange(of: Array(needle.utf8), in: $0, from: start) }
    }

    /// The request-target sent upstream: the target's path, then the request's (its prefix removed), then its query.
    func upstreamTarget(for request: HTTPRequest) -> String {
        var path = request.path
        if let prefix = prefixToRemove, !prefix.isEmpty, path.hasPrefix(prefix) { path = String(path.dropFirst(prefix.utf8.count)) }
        if !path.hasPrefix("/") { path = "/" + path }
        return target.pathPrefix + path + (request.rawQuery.map { "?" + $0 } ?? "")
    }

    /// The request's fields as forwarded: its own (hop-by-hop ones and `Host` left out), without the removed ones,
    /// with the added ones. `Content-Encoding` stays: the body goes as the program sent it (``upstreamBody(for:)``).
    func upstreamHeaders(for request: HTTPRequest) -> HTTPHeaders {
        var headers = HopByHop.removed(from: request.headers)
        let removed = Set(removedHeaders + ["host"])
        headers = HTTPHeaders(headers.entries.filter { !removed.contains($0.name.lowercased()) })
        headers.set(each: additionalHeaders)
        return headers
    }

    /// The body forwarded: the bytes the program sent, coded as its `Content-Encoding` says (matching saw them
    /// decoded); a backend that checks a signature or needs gzip sees the request the program made.
    func upstreamBody(for request: HTTPRequest) -> [UInt8] { request.codedBody ?? request.body }
}
