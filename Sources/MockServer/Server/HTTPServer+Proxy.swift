import AutomationSupport

extension HTTPServer {
    /// Serves one connection of an ``Interception`` listener: a `CONNECT` to a listed host becomes a tunnel whose
    /// requests are answered here (over TLS, or plain HTTP for port 80); an absolute-form request (`GET http://…`)
    /// to a listed host is answered as any request; anything to another host is refused (403) and counted as
    /// unexpected. A request in origin form is held to the same rule by its `Host` header (it was answered for any
    /// host, counted as matched).
    static func serveProxy(
        _ client: Socket, address: String, intercept: Interception, limits: ServerLimits, handler: @escaping Handler,
        refused: @escaping @Sendable (HTTPRequest, MockResponse) -> Void, state: ServerState
    ) {
        let proxied: Handler = { request in
            if !intercept.covers(request.host) {
                let isAbsolute = HTTPRequest.absoluteAuthority(request.target) != nil
                let target = isAbsolute ? request.target : "http://\(request.headers["Host"] ?? "")\(request.target)"
                let response = RefusedRequest.response(intercept.refusal(target))
                refused(request, response)
                return response
            }
            return handler(request)
        }
        var connection = Connection(
            socket: client, clientAddress: address, limits: limits, handler: proxied, isStopped: { state.isStopped },
            isBusy: { state.setBusy(client, $0) }, refused: refused)
        connection.tunnel = { head, leftover in
            tunnel(
                client, head: head, leftover: leftover, address: address, intercept: intercept, limits: limits, handler: handler,
                refused: refused, state: state)
        }
        connection.serve()
    }

    /// Answers a `CONNECT`: 200 and the tunnel's requests for a listed host, else 400 (no `host:port`) or 403. The
    /// tunnel carries what the client speaks in it: TLS (a first byte 0x16) or plain HTTP, whatever its port.
    private static func tunnel(
        _ client: Socket, head: RequestHead, leftover: [UInt8], address: String, intercept: Interception, limits: ServerLimits,
        handler: @escaping Handler, refused: @escaping @Sendable (HTTPRequest, MockResponse) -> Void, state: ServerState
    ) {
        let connect = HTTPRequest(method: head.method, target: head.target, headers: head.headers, clientAddress: address)
        guard let (host, port) = Interception.authority(head.target), intercept.covers(host) else {
            let error =
                Interception.authority(head.target) == nil
                ? RequestHead.Error(400, "CONNECT takes host:port, got \"\(String(head.target.prefix(200)).escapingControlCharacters())\"")
                : intercept.refusal(head.target)
            refused(connect, RefusedRequest.response(error))
            client.send(ResponseWriter.refusal(error))
            return
        }
        guard client.send(Array("HTTP/1.1 200 Connection Established\r\n\r\n".utf8)) else { return }
        var first = leftover
        guard first.isEmpty ? receiveFirst(client, into: &first, timeoutMs: limits.idleTimeoutMs) : true else { return }
        let isTLS = first.first == 0x16
        let tunnelHandler = Self.tunnelHandler(
            host: host, port: port, scheme: isTLS ? "https" : "http", intercept: intercept, handler: handler, refused: refused)
        let isStopped: @Sendable () -> Bool = { state.isStopped }
        let isBusy: @Sendable (Bool) -> Void = { state.setBusy(client, $0) }
        guard isTLS else {
            var inner = Connection(
                socket: client, clientAddress: address, limits: limits, handler: tunnelHandler, isStopped: isStopped, isBusy: isBusy,
                refused: refused)
            inner.initialInput = first
            inner.serve()
            return
        }
        let session: TLSConnection
        switch TLSConnection.accept(client, context: intercept.context, limits: limits, initial: first) {
        case .established(let established): session = established
        case .failed(let reason): return refused(connect, .text(reason + "\n", status: 400))
        case .plainHTTP, .plainControl, .closed: return // plainControl: never asked for here
        }
        var inner = Connection(
            socket: session, clientAddress: address, limits: limits, handler: tunnelHandler, isStopped: isStopped, isBusy: isBusy,
            refused: refused)
        inner.scheme = "https"
        let carried = inner.serve()
        session.finish()
        if !carried && !isStopped() { refused(connect, .text(noRequestReason + "\n", status: 400)) }
    }

    /// The handler of a tunnel to `host`: a request for another host (its `Host` header or absolute form) is refused
    /// (403, unexpected) as it would be at the proxy; the others are answered with their target in absolute form
    /// (`https://api.example.com/v1/me`: the journal and the summary say which host was asked).
    private static func tunnelHandler(
        host: String, port: Int, scheme: String, intercept: Interception, handler: @escaping Handler,
        refused: @escaping @Sendable (HTTPRequest, MockResponse) -> Void
    ) -> Handler {
        let standard = (scheme == "https" && port == 443) || (scheme == "http" && port == 80)
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let origin = "\(scheme)://\(shownHost)\(standard ? "" : ":\(port)")"
        let tunnelHost = Interception.normalized(host)
        return { request in
            var request = request
            let asked = Interception.normalized(request.host)
            if !asked.isEmpty && asked != tunnelHost {
                let response = RefusedRequest.response(
                    RequestHead.Error(
                        403,
                        "\(String(request.host.prefix(200)).escapingControlCharacters()) asked inside the tunnel to \(host):\(port); nothing is forwarded to the network"
                    ))
                refused(request, response)
                return response
            }
            if request.target.hasPrefix("/") { request.target = origin + request.target }
            return handler(request)
        }
    }

    /// Waits for the tunnel's first bytes (the idle limit of a connection); false when none came.
    private static func receiveFirst(_ client: Socket, into buffer: inout [UInt8], timeoutMs: Int) -> Bool {
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        let deadline = Int(MonotonicClock.milliseconds()) + timeoutMs
        while buffer.isEmpty {
            let remaining = deadline - Int(MonotonicClock.milliseconds())
            guard remaining > 0, client.waitReadable(timeoutMs: Int32(clamping: remaining)) else { return false }
            let count = client.receive(into: &buffer, scratch: &scratch, wait: false)
            if count == -2 { continue }
            guard count > 0 else { return false }
        }
        return true
    }
}
