package import AutomationSupport

/// An HTTP/1.1 server on BSD sockets: a thread accepts, a thread per connection serves it (keep-alive,
/// pipelining, chunked request bodies, `Expect: 100-continue`, HEAD), each within ``ServerLimits``.
///
/// A slow client holds only its own thread; `maxConnections` bounds the threads.
package final class HTTPServer: Sendable {
    /// Answers one request. Runs on the connection's thread; must be thread-safe.
    package typealias Handler = @Sendable (HTTPRequest) -> MockResponse

    /// The address it listens on.
    package let host: String
    /// Sizes and timeouts every connection is held to.
    package let limits: ServerLimits
    /// The TLS context when the server speaks HTTPS; nil for plain HTTP.
    package let tls: TLSServerContext?
    /// Set for the proxy listener of ``Interception`` (plain HTTP, `CONNECT` tunnels); nil for a server.
    package let intercept: Interception?
    private let handler: Handler
    private let refused: @Sendable (HTTPRequest, MockResponse) -> Void
    private let state = ServerState()

    /// What the accept and connection threads share with `stop()`. A descriptor is shut down or closed only
    /// under the lock and only while the set still holds it: once closed, its number may belong to any socket
    /// of the process (another server's, a test's client), which a late `shutdown()` would cut instead.
    final class ServerState: @unchecked Sendable {
        private let lock = Lock()
        private var listener: Socket?
        private var listenerOpen = false
        private var connections: Set<Socket> = []
        /// Connections reading or answering a request (a new one counts until it waits for its first byte).
        private var busy: Set<Socket> = []
        private var stopped = false
        private var boundPort: UInt16 = 0
        func locked<R>(_ body: (ServerState) -> R) -> R { lock.withLock { body(self) } }
        func setListener(_ socket: Socket, port: UInt16) {
            locked {
                $0.listener = socket
                $0.listenerOpen = true
                $0.boundPort = port
            }
        }
        var port: UInt16 { locked { $0.boundPort } }
        func add(_ socket: Socket, limit: Int) -> Bool {
            locked { state in
                guard !state.stopped, state.connections.count < limit else { return false }
                state.connections.insert(socket)
                state.busy.insert(socket)
                return true
            }
        }
        /// Forgets a connection and closes its descriptor, in one step as far as `stop()` can see.
        func close(_ socket: Socket) {
            locked {
                _ = $0.connections.remove(socket)
                _ = $0.busy.remove(socket)
                socket.close()
            }
        }
        /// Closes the listening descriptor unless `stop()` has closed it already.
        func closeListener(_ socket: Socket) {
            locked { state in
                guard state.listenerOpen else { return }
                state.listenerOpen = false
                socket.close()
            }
        }
        var isStopped: Bool { locked { $0.stopped } }
        /// Marks the server stopped and wakes every thread blocked on one of its sockets: shutdown() wakes the
        /// accept and every blocked recv; the owning threads close the descriptors.
        func stop() {
            locked { state in
                state.stopped = true
                if state.listenerOpen, let listener = state.listener {
                    listener.shutdown()
                    #if !os(Linux)
                    // Elsewhere shutdown() of a listening socket may not wake accept(); closing does.
                    listener.close()
                    state.listenerOpen = false
                    #endif
                }
                state.listener = nil
                for connection in state.connections { connection.shutdown() }
            }
        }
        var openConnections: Int { locked { $0.connections.count } }
        /// A connection starts (true) or stops (false) reading or answering a request.
        func setBusy(_ socket: Socket, _ busy: Bool) {
            locked { state in
                guard state.connections.contains(socket) else { return }
                if busy { state.busy.insert(socket) } else { state.busy.remove(socket) }
            }
        }
        /// Nothing in flight: no connection waits in the listen queue, none is reading or answering a request,
        /// and no idle one has bytes (or its end) waiting to be read.
        var isQuiet: Bool {
            locked { state in
                guard state.busy.isEmpty else { return false }
                if state.listenerOpen, let listener = state.listener, listener.waitReadable(timeoutMs: 0) { return false }
                return !state.connections.contains { $0.waitReadable(timeoutMs: 0) }
            }
        }
        var listenerDescriptor: Int32? { locked { $0.listener?.fd } }
    }

    /// - Parameters:
    ///   - host: the address to listen on (127.0.0.1 by default: the mock server is for this machine).
    ///   - tls: serve HTTPS with this context (every connection's handshake first); nil: plain HTTP.
    ///   - refused: told of a request refused before `handler` saw it (a head that does not parse, too large or too
    ///     slow, a body over the limit, plain HTTP to the TLS port), with the answer it got: it is counted as an
    ///     unexpected request, never lost.
    package init(
        host: String = "127.0.0.1", limits: ServerLimits = ServerLimits(), tls: TLSServerContext? = nil,
        intercept: Interception? = nil, refused: @escaping @Sendable (HTTPRequest, MockResponse) -> Void = { _, _ in },
        handler: @escaping Handler
    ) {
        self.host = host
        self.limits = limits
        self.tls = tls
        self.intercept = intercept
        self.refused = refused
        self.handler = handler
    }

    /// The port the server listens on (after ``start(port:)``).
    package var port: UInt16 { state.port }

    /// The base URL, `http://127.0.0.1:PORT` (numeric: `localhost` may resolve to IPv6 first), `https://` with TLS.
    package var baseURL: String {
        let scheme = tls == nil ? "http" : "https"
        return host.contains(":") ? "\(scheme)://[\(host)]:\(port)" : "\(scheme)://\(host):\(port)"
    }

    /// The listening socket's descriptor while the server runs (tests check it is not inherited).
    package var listeningDescriptor: Int32? { state.listenerDescriptor }

    /// Number of connections open now.
    package var openConnections: Int { state.openConnections }

    /// Binds, listens and starts accepting. Returns when the server is ready: a connection made after this
    /// returns is accepted.
    /// - Parameter port: 0 picks a free port.
    /// - Throws: ``Socket/Error`` when the address cannot be bound (for instance, the port is in use).
    @discardableResult
    package func start(port: UInt16) throws -> UInt16 {
        try start(listener: Socket.listen(host: host, port: port))
    }

    /// Starts accepting on a socket that already listens (``Socket/listen(host:port:backlog:)``), and owns it
    /// from now on (closes it even when this throws).
    package func start(listener: Socket) throws -> UInt16 {
        let bound = listener.localPort
        state.setListener(listener, port: bound)
        let state = self.state
        let limits = self.limits
        let handler = self.handler
        let refused = self.refused
        let tls = self.tls
        let intercept = self.intercept
        let host = self.host
        // On the other CPU: the caller may go on working (MockServer builds its router) while the first
        // connection is accepted. This is the accept thread's own attribute, not process-wide tuning: the
        // thread starts on another CPU and then widens itself to the process's CPUs (startDetachedThread).
        // Process-wide tuning (malloc) is the executable's decision, in main.swift, not the library's.
        // Below the descriptors the process may open: past them accept() fails and new clients would hang.
        let cap = DescriptorLimit.connectionCap(limits.maxConnections)
        DescriptorReserve.shared.keep()
        let exhausted = Self.outOfDescriptorsNotice(cap: cap)
        let refusal = tls == nil ? ResponseWriter.refusal(RequestHead.Error(503, "out of file descriptors")) : []
        let started = startDetachedThread(onAnotherCPU: true) {
            while let (client, address) = listener.accept(refusal: refusal, outOfDescriptors: exhausted) {
                guard state.add(client, limit: cap) else {
                    let stopped = state.isStopped
                    // A TLS client would read a plain answer as a broken record: it gets the close alone.
                    if !stopped && tls == nil { client.send(ResponseWriter.refusal(RequestHead.Error(503, "too many connections"))) }
                    client.close()
                    if stopped { break }
                    continue
                }
                let threadStarted = startDetachedThread {
                    if let intercept {
                        Self.serveProxy(
                            client, address: address, intercept: intercept, limits: limits, handler: handler, refused: refused,
                            state: state)
                    } else {
                        // A peer on this machine (EndpointPolicy's rule) may speak plain HTTP to an HTTPS port's control channel.
                        let local = EndpointPolicy.isLoopback(address) || EndpointPolicy.isOwnAddress(address, serverHost: host)
                        Self.serve(
                            client, address: address, tls: tls, local: local, limits: limits, handler: handler, refused: refused,
                            state: state)
                    }
                    state.close(client)
                }
                if !threadStarted {
                    if tls == nil { client.send(ResponseWriter.refusal(RequestHead.Error(503, "no thread to serve this connection"))) }
                    state.close(client)
                }
            }
            state.closeListener(listener)
        }
        guard started else {
            state.closeListener(listener)
            throw Socket.Error(call: "pthread_create", code: Socket.Error.noThreadCode)
        }
        return bound
    }

    /// Serves one accepted connection on its own thread: plain, or after a TLS handshake.
    private static func serve(
        _ client: Socket, address: String, tls: TLSServerContext?, local: Bool, limits: ServerLimits, handler: @escaping Handler,
        refused: @escaping @Sendable (HTTPRequest, MockResponse) -> Void, state: ServerState
    ) {
        guard let tls else {
            Connection(
                socket: client, clientAddress: address, limits: limits, handler: handler, isStopped: { state.isStopped },
                isBusy: { state.setBusy(client, $0) }, refused: refused
            ).serve()
            return
        }
        let session: TLSConnection
        let accepted = TLSConnection.accept(
            client, context: tls, limits: limits, servesPlainControl: local
        ) { head in
            refused(RefusedRequest.request(head, clientAddress: address), PlainHTTPRefusal.response)
        }
        switch accepted {
        case .established(let established): session = established
        case .plainControl(let head):
            return servePlainControl(client, head: head, address: address, limits: limits, handler: handler, refused: refused, state: state)
        case .plainHTTP, .closed: return
        case .failed(let reason):
            refused(
                HTTPRequest(method: "TLS", target: "handshake", clientAddress: address, scheme: "https"), .text(reason + "\n", status: 400))
            return
        }
        var connection = Connection(
            socket: session, clientAddress: address, limits: limits, handler: handler, isStopped: { state.isStopped },
            isBusy: { state.setBusy(client, $0) }, refused: refused)
        connection.scheme = "https"
        let carried = connection.serve()
        session.finish()
        if !carried && !state.isStopped { refused(noRequestAfterHandshake(address), .text(noRequestReason + "\n", status: 400)) }
    }

    /// A TLS connection that completed its handshake and ended before a byte of a request: a client that checks the
    /// certificate after the handshake (one pinning a key: curl --pinnedpubkey, OkHttp's CertificatePinner) closes so,
    /// without an alert. Counted as unexpected, as a handshake refused with an alert is.
    static func noRequestAfterHandshake(_ address: String) -> HTTPRequest {
        HTTPRequest(method: "TLS", target: "handshake", clientAddress: address, scheme: "https")
    }

    static let noRequestReason =
        "TLS handshake completed, then the client closed the connection without a request (a client that pins another key or certificate refuses it so)"

    /// Stops accepting and closes every connection. Requests being answered finish their write or fail it.
    package func stop() { state.stop() }

    /// Waits until every request clients have sent so far has been read and answered (see ``ServerState/isQuiet``;
    /// seen twice, 5 ms apart, so a connection between accept and its registration is not missed), or `timeout`.
    /// - Returns: false when something was still in flight at the deadline.
    package func settle(timeout: Duration) -> Bool {
        let deadline =
            MonotonicClock.milliseconds() + Double(timeout.components.seconds) * 1000
            + Double(timeout.components.attoseconds) / 1e15
        var quietSince: Double?
        while true {
            let now = MonotonicClock.milliseconds()
            if state.isQuiet {
                if let since = quietSince, now - since >= 5 { return true }
                quietSince = quietSince ?? now
            } else {
                quietSince = nil
            }
            if now >= deadline { return false }
            MonotonicClock.sleep(milliseconds: 1)
        }
    }
}
