import AutomationSupport

extension HTTPServer {
    /// Serves a loopback client's plain-HTTP connection to an HTTPS server's port whose first request is for the
    /// control channel: the Host library speaks no TLS, and sut-launch gives it `SUT_CONTROL_URL=http://HOST:PORT`
    /// beside the `https://` mock server URL. Only the control channel is answered so: any other request on the
    /// connection is the 400 of plain HTTP to an HTTPS port, counted as unexpected, as before.
    static func servePlainControl(
        _ client: Socket, head: [UInt8], address: String, limits: ServerLimits, handler: @escaping Handler,
        refused: @escaping @Sendable (HTTPRequest, MockResponse) -> Void, state: ServerState
    ) {
        let controlOnly: Handler = { request in
            guard request.path == "/__sut/control" || request.path == "/__sut/control/ack" else {
                refused(request, PlainHTTPRefusal.response)
                return PlainHTTPRefusal.response
            }
            return handler(request)
        }
        var connection = Connection(
            socket: client, clientAddress: address, limits: limits, handler: controlOnly, isStopped: { state.isStopped },
            isBusy: { state.setBusy(client, $0) }, refused: refused)
        connection.initialInput = head
        _ = connection.serve()
    }
}
