import AutomationSupport

/// A parsed request line and header block, before the body.
package struct RequestHead: Sendable {
    package var method: String
    package var target: String
    package var version: String
    package var headers: HTTPHeaders
    /// How the body is framed, read once by ``parse(_:)`` (``framing()``).
    package private(set) var bodyFraming = Framing.none

    /// How the body is framed.
    package enum Framing: Sendable, Equatable {
        case none
        case length(Int)
        case chunked
    }

    /// A request the server must refuse: the status to answer and a one-line reason for the body.
    package struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        package var status: Int
        package var message: String
        package init(_ status: Int, _ message: String) {
            self.status = status
            self.message = message
        }
        package var description: String { "\(status): \(message)" }
    }

    /// Parses the head (request line and fields, without the final empty line).
    /// - Throws: ``Error`` with 400 for bad syntax (RFC 9112 §3, §5), 505 for an unsupported version.
    package static func parse(_ bytes: ArraySlice<UInt8>) throws(Error) -> RequestHead {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 0x0A {
                var end = index
                if end > lineStart && bytes[end - 1] == 0x0D { end -= 1 }
                lines.append(bytes[lineStart..<end])
                lineStart = index + 1
            }
            index += 1
        }
        if lineStart < bytes.endIndex {
            var end = bytes.endIndex
            if bytes[end - 1] == 0x0D { end -= 1 }
            lines.append(bytes[lineStart..<end])
        }
        // RFC 9112 §2.2: ignore at least one empty line before the request line.
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        guard let requestLine = lines.first else { throw Error(400, "empty request") }

        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw Error(400, "malformed request line; expected METHOD TARGET HTTP/1.1") // RFC 9112 §3
        }
        guard parts[0].allSatisfy(isTokenCharacter) else { throw Error(400, "invalid method") }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version.hasPrefix("HTTP/") else { throw Error(400, "malformed HTTP version \"\(version)\"") }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            throw Error(505, "HTTP version \(version) is not supported; use HTTP/1.1")
        }
        guard parts[1].allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else { throw Error(400, "invalid character in the request target") }
        // Bytes that are not UTF-8 would be matched, journaled and forwarded as U+FFFD, which the client never sent.
        guard var target = String(validUTF8: parts[1]) else {
            throw Error(400, "the request target is not UTF-8; percent-encode its bytes (%FF)")
        }
        // A fragment is the client's (RFC 9110 §4.2.5: not sent); one sent anyway is dropped, as Jetty (WireMock) drops
        // it, rather than read as part of the path or the last query value.
        if let hash = target.utf8.firstIndex(of: UInt8(ascii: "#")), hash != target.startIndex { target = String(target[..<hash]) }

        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let first = line.first else { continue }
            if first == 0x20 || first == 0x09 {
                throw Error(400, "obsolete line folding in header fields is not allowed") // RFC 9112 §5.2
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw Error(400, "header line without a colon")
            }
            let name = line[line.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else {
                throw Error(400, "invalid header field name") // includes whitespace before the colon, RFC 9112 §5.1
            }
            var value = line[(colon + 1)...]
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            guard !value.contains(0x00), !value.contains(0x0D) else { throw Error(400, "invalid character in a header value") }
            guard let text = String(validUTF8: value) else {
                throw Error(400, "header \(String(decoding: name, as: UTF8.self))'s value is not UTF-8")
            }
            headers.add(String(decoding: name, as: UTF8.self), text)
        }
        var head = RequestHead(
            method: String(decoding: parts[0], as: UTF8.self),
            target: target, version: version, headers: headers)
        var hosts = 0
        for entry in headers.entries where entry.name.equalsIgnoringCase("host") { hosts += 1 }
        if version == "HTTP/1.1" && hosts == 0 {
            throw Error(400, "HTTP/1.1 request without a Host header") // RFC 9112 §3.2
        }
        if hosts > 1 { throw Error(400, "more than one Host header") } // RFC 9112 §3.2
        if let host = headers["Host"], let problem = Self.hostProblem(host) { throw Error(400, problem) } // RFC 9112 §3.2
        head.bodyFraming = try head.framing()
        if head.method == "CONNECT", head.bodyFraming != .none && head.bodyFraming != .length(0) {
            throw Error(400, "a CONNECT request has no body")
        }
        return head
    }

    /// Why a `Host` value is not an authority (`host[:port]`, RFC 9110 §7.2: no userinfo, a port of digits
    /// 0-65535), or nil.
    static func hostProblem(_ value: String) -> String? {
        // On the bytes: every character looked for is ASCII (and a Character search costs a grapheme walk per request).
        if value.utf8.contains(UInt8(ascii: "@")) { return "the Host header holds userinfo" }
        var rest = Substring(value)
        if rest.utf8.first == UInt8(ascii: "[") {
            guard let close = rest.utf8.firstIndex(of: UInt8(ascii: "]")) else { return "the Host header's IPv6 address is not closed" }
            rest = rest[rest.utf8.index(after: close)...]
            guard rest.isEmpty || rest.utf8.first == UInt8(ascii: ":") else { return "the Host header has text after its IPv6 address" }
        } else if let colon = rest.utf8.firstIndex(of: UInt8(ascii: ":")) {
            rest = rest[colon...]
            // `localhost:18080:1` is no authority (a name holds no `:`; an IPv6 address is bracketed).
            if rest.utf8.dropFirst().contains(UInt8(ascii: ":")) { return "the Host header has more than one ':' (host[:port])" }
        } else {
            return nil
        }
        let port = Substring(rest.utf8.dropFirst())
        guard port.utf8.count <= 5, port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), (Int(port) ?? 0) <= 65_535 else {
            return "the Host header's port is not a number from 0 to 65535"
        }
        return nil
    }

    /// The body framing (RFC 9112 §6.3).
    /// - Throws: 400 for conflicting or invalid lengths, 501 for an unsupported transfer coding.
    package func framing() throws(Error) -> Framing {
        let transferEncodings = headers.values("Transfer-Encoding")
        if !transferEncodings.isEmpty {
            if headers.contains("Content-Length") {
                throw Error(400, "both Transfer-Encoding and Content-Length are present") // RFC 9112 §6.1 (smuggling)
            }
            if version == "HTTP/1.0" { throw Error(400, "Transfer-Encoding in an HTTP/1.0 request") }
            let codings = transferEncodings.joined(separator: ",").split(separator: ",").map {
                $0.trimmingSpaces().lowercased()
            }
            guard codings.last == "chunked" else { throw Error(400, "the final transfer coding must be chunked") }
            // RFC 9112 §6.1: chunked is applied once at most; twice is a malformed request (400), not a coding we lack.
            if codings.filter({ $0 == "chunked" }).count > 1 { throw Error(400, "transfer coding chunked is given more than once") }
            guard codings.count == 1 else {
                throw Error(501, "transfer coding \(codings.dropLast().joined(separator: ", ")) is not supported")
            }
            return .chunked
        }
        // Empty members count: `Content-Length:` and `3,` are invalid, not 0 and 3 (RFC 9112 §6.3).
        let lengths = headers.values("Content-Length").flatMap {
            $0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
        }
        guard let first = lengths.first else { return .none }
        guard lengths.allSatisfy({ $0 == first }) else { throw Error(400, "conflicting Content-Length values") }
        guard !first.isEmpty, first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), first.utf8.count <= 18, let length = Int(first) else {
            throw Error(400, "invalid Content-Length: \(first)") // RFC 9112 §6.3
        }
        return length == 0 ? .none : .length(length)
    }

    /// Whether the connection stays open after this request (RFC 9112 §9.3).
    package var keepAlive: Bool {
        let connection = headers.values("Connection").joined(separator: ",").lowercased()
        let tokens = connection.split(separator: ",").map { $0.trimmingSpaces() }
        if tokens.contains("close") { return false }
        if version == "HTTP/1.0" { return tokens.contains("keep-alive") }
        return true
    }

    /// True when the client waits for `100 Continue` before sending the body.
    package var expectsContinue: Bool {
        version == "HTTP/1.1" && headers["Expect"]?.equalsIgnoringCase("100-continue") == true
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool { HTTPField.isTokenCharacter(byte) }
}
