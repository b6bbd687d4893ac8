import AutomationSupport

extension HTTPServer {
    /// Serves one connection of an ``Interception`` listener: a `CONNECT` to a listed host becomes a tunnel whose
    /// requests are answered here (over TLS, or plain HTTP for port 80); an absolute-form request (`GET http://…`)
    /// to a listed host is answered as any request; anything to another host is refused (403) and counted as
    /// unexpected. Requests in origin form are answered as the main listener answers them.
    static func serveProxy(
        _ client: Socket, address: String, intercept: Interception, limits: ServerLimits, handler: @escaping Handler,
        refused: @escaping @Sendable (HTTPRequest, MockResponse) -> Void, state: ServerState
    ) {
        let proxied: Handler = { request in
            if HTTPRequest.absoluteAuthority(request.target) != nil && !intercept.covers(request.host) {
                let response = RefusedRequest.response(intercept.refusal(request.target))
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

    /// Answers a `CONNECT`: 200 and the tunnel's requests for a listed host, else 400 (no `host:port`) or 403.
    private static func tunnel(
        _ client: Socket, head: RequestHead, leftover: [UInt8], address: String, intercept: Interception, limits: ServerLimits,
        handler: @escaping Handler, refused: @escaping @Sendable (HTTPRequest, MockResponse) -> Void, state: ServerState
    ) {
        guard let (host, port) = Interception.authority(head.target), intercept.covers(host) else {
            let error =
                Interception.authority(head.target) == nil
                ? RequestHead.Error(400, "CONNECT takes host:port, got \"\(String(head.target.prefix(200)).escapingControlCharacters())\"")
                : intercept.refusal(head.target)
            let request = HTTPRequest(method: head.method, target: head.target, headers: head.headers, clientAddress: address)
            refused(request, RefusedRequest.response(error))
            client.send(ResponseWriter.refusal(error))
            return
        }
        guard client.send(Array("HTTP/1.1 200 Connection Established\r\n\r\n".utf8)) else { return }
        let isStopped: @Sendable () -> Bool = { state.isStopped }
        let isBusy: @Sendable (Bool) -> Void = { state.setBusy(client, $0) }
        if port == 80 {
            var inner = Connection(
                socket: client, clientAddress: address, limits: limits, handler: handler, isStopped: isStopped, isBusy: isBusy,
                refused: refused)
            inner.initialInput = leftover
            inner.serve()
            return
        }
        let accepted = TLSConnection.accept(client, context: intercept.context, limits: limits, initial: leftover) { head in
            refused(RefusedRequest.request(head, clientAddress: address), PlainHTTPRefusal.response)
        }
        guard case .established(let session) = accepted else { return }
        var inner = Connection(
            socket: session, clientAddress: address, limits: limits, handler: handler, isStopped: isStopped, isBusy: isBusy,
            refused: refused)
        inner.scheme = "https"
        inner.serve()
        session.finish()
    }
}
