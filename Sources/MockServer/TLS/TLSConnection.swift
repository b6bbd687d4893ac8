package import AutomationSupport

/// One TLS session over a connected socket, through two memory BIOs: bytes from the socket are written into
/// OpenSSL's input, what OpenSSL produces is taken from its output and sent. The socket stays blocking with poll()
/// deadlines, as plain HTTP's, and the connection offers the same operations (``ConnectionTransport``).
package final class TLSConnection: ConnectionTransport {
    let socket: Socket
    let library: LibSSL
    let session: OpaquePointer
    private let input: OpaquePointer
    private let output: OpaquePointer
    /// OpenSSL has consumed every complete record it was given: more must come from the socket.
    private var needsSocketBytes = false
    private var resetRequested = false
    /// The peer's TCP stream ended without its close_notify: a ``receive(into:scratch:wait:)`` that returned 0 did so
    /// because the socket closed, so what came before may be cut short (a close-delimited body is then not whole).
    package private(set) var endedWithoutCloseNotify = false
    private var cipherText: [UInt8] = []

    // SSL_get_error's answers.
    static let wantRead: Int32 = 2
    static let zeroReturn: Int32 = 6
    /// Plaintext written per SSL_write, so a large answer is encrypted and sent piece by piece, never held twice.
    static let writeChunk = 64 * 1024

    /// How a connection's first bytes went.
    package enum Accepted {
        /// The handshake completed: serve HTTP over it.
        case established(TLSConnection)
        /// The client spoke plain HTTP to the TLS port: answered 400, nothing more to do.
        case plainHTTP(head: [UInt8])
        /// A loopback client spoke plain HTTP to the control channel (`servesPlainControl`): serve it without TLS,
        /// starting with these bytes (its head as read).
        case plainControl(head: [UInt8])
        /// The client went away or stayed idle before sending anything; the connection is to be closed.
        case closed
        /// The client began a handshake that did not complete (an alert such as `unknown ca`, what is not TLS, a
        /// close or a timeout halfway): why, in one line. Counted as an unexpected request; the connection closes.
        case failed(String)
    }

    /// A session of `context` (a server's or a client's `SSL_CTX`) over `socket`, its role not yet set.
    init?(socket: Socket, library: LibSSL, context: OpaquePointer) {
        guard let session = library.sslNew(context) else { return nil }
        guard let input = library.bioNew(library.memoryMethod()), let output = library.bioNew(library.memoryMethod()) else {
            library.sslFree(session)
            return nil
        }
        library.sslSetBIO(session, input, output) // the session owns both BIOs from here
        self.socket = socket
        self.library = library
        self.session = session
        self.input = input
        self.output = output
    }

    deinit {
        library.sslFree(session)
        library.errorClear()
    }

    /// Runs the server side of the handshake on `socket` under the limits of a request head: idle up to
    /// `idleTimeoutMs` until the first byte, then `headerTimeoutMs` for the whole handshake. Plain HTTP (a first
    /// byte that starts a method) is answered 400, as nginx's 497, and the connection closed.
    /// - Parameters:
    ///   - initial: bytes the client sent already (after a `CONNECT`, before its tunnel's handshake was begun).
    ///   - servesPlainControl: the peer is on this machine: a plain-HTTP request for the control channel is handed
    ///     back (``Accepted/plainControl(head:)``), as the Host library, which speaks no TLS, sends it (`SUT_CONTROL_URL`).
    ///   - plainHTTP: told the head of a plain-HTTP request as soon as it is read, before the 400 is sent (so the
    ///     journal keeps arrival order).
    package static func accept(
        _ socket: Socket, context: TLSServerContext, limits: ServerLimits, initial: [UInt8] = [],
        servesPlainControl: Bool = false, plainHTTP: ([UInt8]) -> Void = { _ in }
    ) -> Accepted {
        guard let connection = TLSConnection(socket: socket, library: context.library, context: context.context) else { return .closed }
        connection.library.sslSetAcceptState(connection.session)
        socket.setSendTimeout(milliseconds: limits.sendTimeoutMs)
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        var deadline = now() + (initial.isEmpty ? limits.idleTimeoutMs : limits.headerTimeoutMs)
        var first = true
        var pending = initial
        while true {
            var received: [UInt8] = []
            if pending.isEmpty {
                let remaining = deadline - now()
                guard remaining > 0, socket.waitReadable(timeoutMs: Int32(clamping: remaining)) else {
                    return first ? .closed : .failed("TLS handshake not completed within \(limits.headerTimeoutMs) ms")
                }
                let count = socket.receive(into: &received, scratch: &scratch, wait: false)
                if count == -2 { continue }
                guard count > 0 else { return first ? .closed : .failed("the client closed the connection during the TLS handshake") }
            } else {
                swap(&received, &pending)
            }
            if first {
                first = false
                deadline = now() + limits.headerTimeoutMs
                if received[0] >= 0x41 && received[0] <= 0x5A { // 'A'...'Z': a request line, not a TLS record (0x16)
                    if servesPlainControl {
                        let head = PlainHTTPRefusal.readHead(socket, received: received, deadline: deadline, limits: limits)
                        if PlainHTTPRefusal.isControlRequest(head) { return .plainControl(head: head) }
                        received = head
                    }
                    return .plainHTTP(
                        head: PlainHTTPRefusal.answer(socket, received: received, deadline: deadline, limits: limits, seen: plainHTTP))
                }
            }
            guard connection.feed(received) else { return .closed }
            let result = connection.library.sslHandshake(connection.session)
            let error = result == 1 ? 0 : connection.library.sslGetError(connection.session, result)
            let reason = result == 1 || error == wantRead ? "" : connection.library.errors()
            // The server's flight, or the alert that ends a failed handshake.
            _ = connection.flush()
            if result == 1 { return .established(connection) }
            guard error == wantRead else { return .failed(Self.describeFailure(reason, minted: context.authorityPEM != nil)) }
        }
    }

    /// One line for a failed handshake, from OpenSSL's errors, with what to do when the client refused the
    /// certificate: trust the run's authority (`minted`), or, for a certificate of the user's (`--https-cert`), for
    /// which the run sets no trust variable, its issuer.
    static func describeFailure(_ errors: String, minted: Bool = true) -> String {
        let detail = String(errors.prefix(300)).escapingControlCharacters()
        let refused = ["unknown ca", "bad certificate", "certificate unknown", "certificate expired", "unsupported certificate"]
        if refused.contains(where: errors.contains) {
            guard minted else {
                return "TLS handshake failed: the client refused the certificate given with --https-cert (\(detail)); the run "
                    + "sets no trust variable for a certificate of yours: make the program trust its issuer (-e "
                    + "SSL_CERT_FILE=ISSUER.pem, or its own trust store). See docs/mock-server.md#https"
            }
            return "TLS handshake failed: the client refused the certificate (\(detail)); does it read SSL_CERT_FILE or the "
                + "run's other trust variables? See docs/mock-server.md#https"
        }
        return "TLS handshake failed: \(detail)"
    }

    /// The protocol agreed (`TLSv1.3`).
    package var protocolVersion: String {
        library.sslVersion(session).map { String(cString: $0) } ?? ""
    }

    package func waitReadable(timeoutMs: Int32) -> Bool {
        // Decrypted bytes or complete records may be held already: only an empty OpenSSL waits on the socket.
        needsSocketBytes ? socket.waitReadable(timeoutMs: timeoutMs) : true
    }

    package func receive(into buffer: inout [UInt8], scratch: inout [UInt8], wait: Bool) -> Int {
        while true {
            let count = scratch.withUnsafeMutableBytes { library.sslRead(session, $0.baseAddress, Int32(clamping: $0.count)) }
            if count > 0 {
                buffer.append(contentsOf: scratch[0..<Int(count)])
                needsSocketBytes = false
                return Int(count)
            }
            let error = library.sslGetError(session, count)
            guard flush() else { return -1 } // a post-handshake message or an alert
            if error == Self.zeroReturn { return 0 } // close_notify
            guard error == Self.wantRead else {
                library.errorClear()
                return -1
            }
            needsSocketBytes = true
            // Never blocks: the caller's waitReadable said the socket has bytes, or the caller does not wait.
            cipherText.removeAll(keepingCapacity: true)
            let received = socket.receive(into: &cipherText, scratch: &scratch, wait: false)
            guard received > 0 else {
                if received == 0 { endedWithoutCloseNotify = true }
                return received
            }
            guard feed(cipherText) else { return -1 }
        }
    }

    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool {
        var allowed = -2 // the socket's send timeout, over the whole call
        return send(bytes, waitingAtMost: &allowed)
    }

    package func send(_ bytes: [UInt8], waitingAtMost waitMs: inout Int) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + Self.writeChunk)
            let written = bytes[offset..<end].withUnsafeBytes { library.sslWrite(session, $0.baseAddress, Int32($0.count)) }
            guard written > 0 else {
                library.errorClear()
                return false
            }
            offset += Int(written)
            guard flush(waitingAtMost: &waitMs) else { return false }
        }
        return true
    }

    package func setSendTimeout(milliseconds: Int) { socket.setSendTimeout(milliseconds: milliseconds) }

    package var tcpSocket: Socket { socket }

    package func resetOnClose() {
        resetRequested = true
        socket.resetOnClose()
    }

    /// Ends the session politely (close_notify) unless a reset was asked for; the socket's owner closes it after
    /// (the server, or ``close()``).
    package func finish() {
        guard !resetRequested else { return }
        _ = library.sslShutdown(session)
        _ = flush()
        library.errorClear()
    }

    /// Ends the session (``finish()``) and closes the socket: a client's end of a connection it made.
    package func close() {
        finish()
        socket.close()
    }

    /// Hands bytes from the socket to OpenSSL.
    func feed(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { library.bioWrite(input, $0.baseAddress, Int32($0.count)) } == Int32(bytes.count)
    }

    /// Sends what OpenSSL has produced; false when the peer went away.
    func flush() -> Bool {
        var allowed = -2
        return flush(waitingAtMost: &allowed)
    }

    /// Sends the ciphertext waiting in the output BIO, within `waitMs` (``Socket/send(_:waitingAtMost:)``).
    func flush(waitingAtMost waitMs: inout Int) -> Bool {
        guard library.bioPending(output) > 0 else { return true }
        return socket.send(library.drain(output), waitingAtMost: &waitMs)
    }

    static func now() -> Int { Int(MonotonicClock.milliseconds()) }
}
