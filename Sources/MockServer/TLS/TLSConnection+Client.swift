package import AutomationSupport

extension TLSConnection {
    static let controlServerName: Int32 = 55 // SSL_CTRL_SET_TLSEXT_HOSTNAME
    static let nameTypeHost = 0 // TLSEXT_NAMETYPE_host_name
    static let noPartialWildcards: UInt32 = 0x4 // X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS: *.example.com, never w*.example.com
    static let verifyOK = 0 // X509_V_OK

    /// Runs the client side of a handshake on a connected socket within `timeoutMs`: SNI and certificate
    /// verification for `serverName` (hostname or IP address), against the system's trust store (OpenSSL's default
    /// paths, which honour SSL_CERT_FILE / SSL_CERT_DIR) plus `extraTrustPEM` when given; TLS 1.2 or newer.
    ///
    /// The connection then offers the server side's operations (``ConnectionTransport``); ``close()`` sends
    /// close_notify and closes the socket. The socket's send timeout is set to `timeoutMs` for the handshake and left
    /// so (``setSendTimeout(milliseconds:)`` changes it). The client context is made once per trust and shared.
    /// - Parameters:
    ///   - serverName: a DNS name (ASCII: an internationalised name in its `xn--` form), or an IPv4 or IPv6 address
    ///     (brackets allowed), which is checked against the certificate's IP addresses and sent without SNI.
    ///   - extraTrustPEM: certificates (PEM) trusted besides the system's, such as a private authority.
    ///   - insecure: verify nothing (for `--record-insecure`); SNI is still sent.
    /// - Throws: ``TLSError``, one line naming the reason: `certificate verify failed for api.example.com:
    ///   self-signed certificate`, `TLS handshake with api.example.com not completed within 10000 ms`. The socket is
    ///   left open for its owner to close.
    package static func connect(
        _ socket: Socket, serverName: String, extraTrustPEM: [UInt8]? = nil, insecure: Bool = false, timeoutMs: Int32
    ) throws(TLSError) -> TLSConnection {
        let (name, isAddress) = try checkedServerName(serverName)
        let context = try TLSClientContext.shared(trustPEM: extraTrustPEM, insecure: insecure)
        let library = context.library
        guard let connection = TLSConnection(socket: socket, library: library, context: context.context) else {
            throw .failed("cannot create a TLS session: \(library.errors())")
        }
        library.sslSetConnectState(connection.session)
        let configured = name.withCString { text -> Bool in
            if !isAddress
                && library.sslControl(connection.session, controlServerName, nameTypeHost, UnsafeMutableRawPointer(mutating: text)) != 1
            {
                return false
            }
            if insecure { return true }
            let parameters = library.sslParameters(connection.session)
            if isAddress { return library.parametersSetIP(parameters, text) == 1 }
            library.parametersSetHostFlags(parameters, noPartialWildcards)
            return library.sslSetHost(connection.session, text) == 1
        }
        guard configured else { throw .failed("cannot set up TLS for \(name): \(library.errors())") }
        socket.setSendTimeout(milliseconds: Int(max(1, timeoutMs)))
        try connection.runClientHandshake(serverName: name, timeoutMs: max(0, timeoutMs))
        return connection
    }

    /// Sends the ClientHello and reads the server's flights until the handshake completes or fails.
    private func runClientHandshake(serverName: String, timeoutMs: Int32) throws(TLSError) {
        let deadline = Self.now() + Int(timeoutMs)
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        var received: [UInt8] = []
        var first = true
        while true {
            let result = library.sslHandshake(session)
            let error = result == 1 ? 0 : library.sslGetError(session, result)
            let reason = result == 1 || error == Self.wantRead ? "" : library.errors()
            let sent = flush() // the ClientHello, the client's Finished, or the alert that ends a failed handshake
            if result == 1 {
                guard sent else { throw .failed("the server closed the connection during the TLS handshake with \(serverName)") }
                return
            }
            guard error == Self.wantRead else { throw .failed(clientFailure(serverName: serverName, errors: reason)) }
            guard sent else { throw .failed("the server closed the connection during the TLS handshake with \(serverName)") }
            let remaining = deadline - Self.now()
            guard remaining > 0, socket.waitReadable(timeoutMs: Int32(clamping: remaining)) else {
                throw .failed("TLS handshake with \(serverName) not completed within \(timeoutMs) ms")
            }
            received.removeAll(keepingCapacity: true)
            let count = socket.receive(into: &received, scratch: &scratch, wait: false)
            if count == -2 { continue }
            guard count > 0 else {
                let how = count == 0 ? "closed the connection" : "reset the connection"
                throw .failed("the server \(how) during the TLS handshake with \(serverName)")
            }
            if first && received.starts(with: Array("HTTP/".utf8)) {
                throw .failed("\(serverName) answered in plain HTTP, not TLS: is it an http:// server?")
            }
            first = false
            guard feed(received) else { throw .failed("cannot hand the server's bytes to OpenSSL: \(library.errors())") }
        }
    }

    /// One line for a failed client handshake: the certificate's verification error when that was the cause.
    private func clientFailure(serverName: String, errors: String) -> String {
        let verification = library.sslVerifyResult(session)
        if verification != Self.verifyOK, let text = library.verifyErrorString(verification) {
            return "certificate verify failed for \(serverName): \(String(cString: text))"
        }
        return "TLS handshake with \(serverName) failed: \(String(errors.prefix(300)).escapingControlCharacters())"
    }

    /// The name as sent and checked (no brackets, no final dot), and whether it is an IP address; throws for
    /// anything else, so no name reaches OpenSSL cut at a NUL or carrying what a C string cannot.
    static func checkedServerName(_ serverName: String) throws(TLSError) -> (String, Bool) {
        var name = serverName
        if name.hasPrefix("[") && name.hasSuffix("]") && name.count > 2 { name = String(name.dropFirst().dropLast()) }
        let cString = !name.utf8.contains(0) // inet_pton and OpenSSL would read up to a NUL only
        if cString && (Socket.isIPv4Address(name) || Socket.isIPv6Address(name)) { return (name, true) }
        if name.hasSuffix(".") { name.removeLast() }
        let bytes = Array(name.utf8)
        let allowed = bytes.allSatisfy { byte in
            byte == 0x2D || byte == 0x2E || byte == 0x5F || (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
        }
        guard !bytes.isEmpty, bytes.count <= 253, allowed, !name.hasPrefix("."), !name.contains("..") else {
            let shown = String(serverName.prefix(80)).escapingControlCharacters()
            throw .failed(
                "'\(shown)' is not a host name (ASCII letters, digits, '-', '_' and '.'; an internationalised name in its xn-- form) or an IP address"
            )
        }
        return (name, false)
    }
}
