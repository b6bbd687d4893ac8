import AutomationSupport

/// Serves one client connection: reads requests (pipelined ones too), answers each in order. Over a plain
/// socket or TLS alike (``ConnectionTransport``); specialized for each, so plain HTTP pays nothing for TLS.
package struct Connection<Transport: ConnectionTransport> {
    let socket: Transport
    let clientAddress: String
    let limits: ServerLimits
    let handler: HTTPServer.Handler
    let isStopped: @Sendable () -> Bool
    /// Told true when a request starts arriving, false when the connection waits with nothing buffered
    /// (``HTTPServer/settle(timeout:)`` waits for every connection to be so).
    let isBusy: @Sendable (Bool) -> Void
    /// Told each request refused before any handler saw it (400, 408, 413, 431), with the answer it got: it is
    /// counted as an unexpected request (a strict run fails on it), never lost.
    let refused: @Sendable (HTTPRequest, MockResponse) -> Void
    /// `http`, or `https` over TLS: what each request's ``HTTPRequest/scheme`` says.
    var scheme = "http"
    /// Bytes already read from the client before this connection took it over (what followed a `CONNECT`).
    var initialInput: [UInt8] = []
    /// Takes the connection over after a `CONNECT` head, with the bytes that followed it (the proxy listener of
    /// ``Interception``); nil: a `CONNECT` is a request like any other.
    var tunnel: ((RequestHead, [UInt8]) -> Void)?

    package init(
        socket: Transport, clientAddress: String, limits: ServerLimits, handler: @escaping HTTPServer.Handler,
        isStopped: @escaping @Sendable () -> Bool, isBusy: @escaping @Sendable (Bool) -> Void = { _ in },
        refused: @escaping @Sendable (HTTPRequest, MockResponse) -> Void = { _, _ in }
    ) {
        self.socket = socket
        self.clientAddress = clientAddress
        self.limits = limits
        self.handler = handler
        self.isStopped = isStopped
        self.isBusy = isBusy
        self.refused = refused
    }

    /// The connection's bytes: what was received (`input`, consumed before `start`), what waits to be sent
    /// (`output`: pipelined answers go out in one batch), and the space each receive reads into.
    private struct Buffers {
        var input: [UInt8] = []
        var start = 0
        var output: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 65_536)
        /// Request heads found so far.
        var heads = 0

        /// RFC 9112 §2.2: empty lines before a request line are ignored.
        mutating func skipEmptyLines() {
            while start < input.count, input[start] == 0x0D || input[start] == 0x0A { start += 1 }
        }
    }

    /// Serves until the client closes, a limit or fault ends the connection, or `isStopped`.
    /// - Returns: false when the client sent no byte of a request before the connection ended (a TLS client that
    ///   refused the certificate after its handshake, as one pinning a key does).
    @discardableResult
    package func serve() -> Bool {
        socket.setSendTimeout(milliseconds: limits.sendTimeoutMs)
        var io = Buffers()
        io.input = initialInput
        io.input.reserveCapacity(8192)
        serveRequests(&io)
        return io.heads > 0 || !io.input.isEmpty
    }

    private func serveRequests(_ io: inout Buffers) {
        while !isStopped() {
            io.skipEmptyLines()
            if refusedTLSRecord(io) { return }
            // 1. A complete head.
            guard let headEnd = Self.findHeadEnd(io.input, from: io.start) ?? awaitHead(&io) else { return }
            io.heads += 1
            let headLength = headEnd.end - io.start
            if headLength > limits.maxHeaderBytes {
                refuse(
                    RequestHead.Error(431, "request header fields larger than \(limits.maxHeaderBytes) bytes"), head: io.input[io.start...])
                return
            }

            // 2. Parse it.
            let head: RequestHead
            let framing: RequestHead.Framing
            do {
                head = try RequestHead.parse(io.input[io.start..<(io.start + headLength)])
                framing = head.bodyFraming
            } catch {
                flush(&io.output)
                refuse(error, head: io.input[io.start..<(io.start + headLength)])
                return
            }
            io.start += headLength + headEnd.terminator
            if let tunnel, head.method == "CONNECT" {
                flush(&io.output)
                tunnel(head, Array(io.input[io.start...]))
                return
            }

            // 3. The body, its content codings (gzip, deflate) undone: what matchers and the journal see.
            guard let received = readBody(framing, head, &io), let body = decoded(received, head, &io) else { return }
            // A large body is consumed: do not keep its buffer for the rest of a keep-alive connection.
            if io.input.capacity > 256 * 1024 {
                io.input = Array(io.input[io.start...])
                io.start = 0
            }

            // 4. Answer.
            guard answer(head, body: body, sent: body == received ? nil : received, &io) else { return }
        }
    }

    /// Sends what is pending, then receives until a complete head is buffered: its end, or nil when the
    /// connection is to end (the client went away, stayed idle, or was answered 408 or 431).
    private func awaitHead(_ io: inout Buffers) -> (end: Int, terminator: Int)? {
        if !io.output.isEmpty {
            guard socket.send(io.output) else { return nil }
            io.output.removeAll(keepingCapacity: true)
        }
        if io.start > 0 {
            io.input.removeFirst(io.start)
            io.start = 0
        }
        // The next request is often here already (keep-alive clients send right after reading): try
        // before paying for poll().
        let searchStart = max(0, io.input.count - 3)
        if socket.receive(into: &io.input, scratch: &io.scratch, wait: false) == 0 {
            if io.start < io.input.count { cutShort(head: io.input[io.start...]) }
            return nil
        }
        io.skipEmptyLines()
        if refusedTLSRecord(io) { return nil }
        var headEnd = Self.findHeadEnd(io.input, from: max(io.start, searchStart))
        // Idle until a request starts; from its first byte, the header timeout.
        var started = io.start < io.input.count
        var deadline = now() + (started ? limits.headerTimeoutMs : limits.idleTimeoutMs)
        // Waiting with nothing buffered is idle (a lock taken only then: the keep-alive path pays nothing).
        var idle = headEnd == nil && !started
        if idle { isBusy(false) }
        defer { if idle { isBusy(true) } }
        while headEnd == nil {
            if io.input.count - io.start > limits.maxHeaderBytes {
                refuse(
                    RequestHead.Error(431, "request header fields larger than \(limits.maxHeaderBytes) bytes"), head: io.input[io.start...])
                return nil
            }
            let remaining = deadline - now()
            guard remaining > 0, socket.waitReadable(timeoutMs: Int32(clamping: remaining)) else {
                if io.start < io.input.count {
                    refuse(
                        RequestHead.Error(408, "request header not received within \(limits.headerTimeoutMs) ms"),
                        head: io.input[io.start...])
                }
                return nil
            }
            let searchFrom = max(0, io.input.count - 3)
            let received = socket.receive(into: &io.input, scratch: &io.scratch)
            if received == -2 { continue } // TLS: a record not complete yet; the deadline still holds
            guard received > 0 else {
                if started { cutShort(head: io.input[io.start...]) }
                return nil
            }
            io.skipEmptyLines()
            if refusedTLSRecord(io) { return nil }
            if !started, io.start < io.input.count {
                started = true
                if idle {
                    isBusy(true)
                    idle = false
                }
                deadline = now() + limits.headerTimeoutMs
            }
            headEnd = Self.findHeadEnd(io.input, from: max(io.start, searchFrom))
        }
        return headEnd
    }

    /// The request body as `framing` says; nil when the connection is to end (answered 400, 408 or 413, or
    /// the client went away).
    private func readBody(_ framing: RequestHead.Framing, _ head: RequestHead, _ io: inout Buffers) -> [UInt8]? {
        let expectsContinue = head.expectsContinue
        switch framing {
        case .none:
            return []
        case .length(let length):
            if length > limits.maxBodyBytes {
                flush(&io.output)
                refuse(RequestHead.Error(413, "request body of \(length) bytes is larger than \(limits.maxBodyBytes) bytes"), for: head)
                return nil
            }
            if io.input.count - io.start < length && expectsContinue {
                guard sendContinue(&io.output) else { return nil }
            }
            let deadline = now() + limits.bodyTimeoutMs
            // Room for exactly this body: growing by doubling would hold up to twice its size.
            if io.input.count - io.start < length { io.input.reserveCapacity(io.start + length + 4096) }
            while io.input.count - io.start < length {
                guard readMoreBody(&io, deadline: deadline, for: head) else { return nil }
            }
            let body = Array(io.input[io.start..<(io.start + length)])
            io.start += length
            return body
        case .chunked:
            var decoder = ChunkedDecoder(limit: limits.maxBodyBytes)
            if expectsContinue && io.input.count == io.start {
                guard sendContinue(&io.output) else { return nil }
            }
            let deadline = now() + limits.bodyTimeoutMs
            while true {
                do {
                    if case .done(let consumed) = try decoder.decode(io.input[io.start...]) {
                        io.start += consumed
                        return decoder.body
                    }
                } catch {
                    flush(&io.output)
                    refuse(error, for: head)
                    return nil
                }
                guard readMoreBody(&io, deadline: deadline, for: head) else { return nil }
            }
        }
    }

    /// The body with the content codings its head names undone (``ContentCoding``), within the body limit; nil when
    /// it was refused (413 over the limit once decoded, 400 when it does not decode), which ends the connection as
    /// every refused body does.
    private func decoded(_ body: [UInt8], _ head: RequestHead, _ io: inout Buffers) -> [UInt8]? {
        do throws(RequestHead.Error) {
            return try ContentCoding.decode(body, headers: head.headers, limit: limits.maxBodyBytes)
        } catch {
            flush(&io.output)
            refuse(error, for: head)
            return nil
        }
    }

    /// Answers one request (after its delay, or with its fault); false when the connection is to end.
    private func answer(_ head: RequestHead, body: [UInt8], sent: [UInt8]?, _ io: inout Buffers) -> Bool {
        var request = HTTPRequest(
            method: head.method, target: head.target, version: head.version,
            headers: head.headers, body: body, clientAddress: clientAddress, scheme: scheme)
        request.codedBody = sent
        request.peer = Peer(socket.tcpSocket)
        let response = handler(request)
        let keepAlive = head.keepAlive && !isStopped()
        let written = write(response, head, keepAlive: keepAlive, &io)
        response.afterAnswer?.run() // once the answer is out (WireMock's post-serve actions)
        if !written { abandon(&io, after: request, response) }
        return written
    }

    /// Writes the answer (after its delay, or its fault; dribbled, or batched with pipelined ones); false when the
    /// connection is to end.
    private func write(_ response: MockResponse, _ head: RequestHead, keepAlive: Bool, _ io: inout Buffers) -> Bool {
        if response.delayMs > 0 {
            flush(&io.output)
            MonotonicClock.sleep(milliseconds: response.delayMs)
        }
        if let fault = response.fault {
            flush(&io.output)
            perform(fault)
            return false
        }
        if let dribble = response.dribble {
            flush(&io.output)
            var bytes: [UInt8] = []
            ResponseWriter.append(
                response, to: &bytes, headRequest: head.method == "HEAD", keepAlive: keepAlive, http10: head.version == "HTTP/1.0")
            return sendDribbled(bytes, dribble) && keepAlive
        }
        if let stream = response.stream, HTTPField.problem(in: response) == nil {
            return sendStreamed(response, stream, head, keepAlive: keepAlive, pending: &io.output)
        }
        ResponseWriter.append(
            response, to: &io.output, headRequest: head.method == "HEAD", keepAlive: keepAlive,
            http10: head.version == "HTTP/1.0")
        if let handOver = response.handOver {
            // A control message: delivered only once written (a client gone takes nothing; the queue keeps it).
            let sent = socket.send(io.output)
            io.output.removeAll(keepingCapacity: true)
            handOver.written(sent)
            return sent && keepAlive
        }
        if !keepAlive {
            socket.send(io.output)
            return false
        }
        // Pipelined requests already here are answered before writing, in one batch; an answer with work after it
        // goes out first.
        if response.afterAnswer != nil || Self.findHeadEnd(io.input, from: io.start) == nil || io.output.count > 256 * 1024 {
            return flush(&io.output) // not taken within the write deadline (or the client went): the connection ends
        }
        return true
    }

    /// The connection ends after `request`'s answer (its fault, a close, a client gone during its delay): requests the
    /// client pipelined behind it, complete in what was received (and what waits in the socket now), are counted as
    /// unexpected with why (a strict run fails on them), never dropped unseen.
    private func abandon(_ io: inout Buffers, after request: HTTPRequest, _ response: MockResponse) {
        guard !isStopped() else { return }
        if socket.waitReadable(timeoutMs: 0) { _ = socket.receive(into: &io.input, scratch: &io.scratch, wait: false) }
        let behind = "not answered: it came pipelined behind \(request.method) \(request.target.prefix(200)), "
        let why =
            behind
            + (response.fault.map { "whose fault (\($0.rawValue)) ended the connection" }
                ?? "after whose answer the connection ended (Connection: close, or the client went away)")
        var count = 0
        while count < 100 {
            io.skipEmptyLines()
            guard let headEnd = Self.findHeadEnd(io.input, from: io.start) else { break }
            let bytes = io.input[io.start..<headEnd.end]
            io.start = headEnd.end + headEnd.terminator
            let error = RequestHead.Error(400, why)
            refused(
                RefusedRequest.request(Array(bytes.prefix(limits.maxHeaderBytes)), clientAddress: clientAddress),
                RefusedRequest.response(error))
            count += 1
            // A body announced by its head is skipped when it is all here; else what follows cannot be framed.
            switch (try? RequestHead.parse(bytes))?.bodyFraming {
            case .none?: continue
            case .length(let length)? where io.input.count - io.start >= length: io.start += length
            default: return
            }
        }
    }

    /// Sends "100 Continue" (after what is pending) to a client that waits for it before its body.
    private func sendContinue(_ output: inout [UInt8]) -> Bool {
        flush(&output)
        return socket.send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
    }

    /// Waits for more of a request body until `deadline` (ms, monotonic), after writing what is pending.
    /// False when the connection is to end: the client went away, or it was answered 408.
    private func readMoreBody(_ io: inout Buffers, deadline: Int, for head: RequestHead) -> Bool {
        flush(&io.output)
        let remaining = deadline - now()
        guard remaining > 0, socket.waitReadable(timeoutMs: Int32(clamping: remaining)) else {
            refuse(RequestHead.Error(408, "request body not received within \(limits.bodyTimeoutMs) ms"), for: head)
            return false
        }
        let received = socket.receive(into: &io.input, scratch: &io.scratch)
        if received > 0 || received == -2 { return true } // -2: a TLS record not complete yet; the caller waits again
        guard !isStopped() else { return false } // the server's own stop woke the read: not the client's doing
        let request = HTTPRequest(
            method: head.method, target: head.target, headers: head.headers, clientAddress: clientAddress, scheme: scheme)
        refused(request, RefusedRequest.response(RequestHead.Error(400, "cut short by the client: it closed the connection mid-body")))
        return false
    }

    /// A TLS record where a request line should start, on a plain-HTTP port: answered 400 at once, naming the
    /// mistake (not a 10 s header timeout), recorded as unexpected with its first bytes; the connection ends.
    private func refusedTLSRecord(_ io: Buffers) -> Bool {
        guard scheme == "http", TLSRecordRefusal.begins(io.input, at: io.start) else { return false }
        let error = RequestHead.Error(400, TLSRecordRefusal.message)
        refused(TLSRecordRefusal.request(io.input[io.start...], clientAddress: clientAddress), RefusedRequest.response(error))
        guard socket.send(ResponseWriter.refusal(error)) else { return true }
        TLSRecordRefusal.drain(socket)
        return true
    }

    /// Records a request whose head the client began and then closed the connection on: a request that never
    /// completed is not silence (a strict run fails on it); nothing is sent, the client is gone.
    private func cutShort(head bytes: ArraySlice<UInt8>) {
        guard !isStopped() else { return }
        let error = RequestHead.Error(
            400, "cut short by the client: it closed the connection after \(bytes.count) bytes of the request head")
        refused(
            RefusedRequest.request(Array(bytes.prefix(limits.maxHeaderBytes)), clientAddress: clientAddress), RefusedRequest.response(error)
        )
    }

    /// Sends what is pending; false when the client went away or did not take it within the write deadline.
    @discardableResult
    func flush(_ output: inout [UInt8]) -> Bool {
        guard !output.isEmpty else { return true }
        defer { output.removeAll(keepingCapacity: true) }
        return socket.send(output)
    }

    /// Answers a request refused while its head was read: counted as it could be read.
    private func refuse(_ error: RequestHead.Error, head bytes: ArraySlice<UInt8>) {
        refused(
            RefusedRequest.request(Array(bytes.prefix(limits.maxHeaderBytes)), clientAddress: clientAddress), RefusedRequest.response(error)
        )
        socket.send(ResponseWriter.refusal(error))
    }

    /// Answers a request refused while its body was read: counted with its head.
    private func refuse(_ error: RequestHead.Error, for head: RequestHead) {
        let request = HTTPRequest(
            method: head.method, target: head.target, headers: head.headers, clientAddress: clientAddress, scheme: scheme)
        refused(request, RefusedRequest.response(error))
        socket.send(ResponseWriter.refusal(error))
    }

    private func now() -> Int { Int(MonotonicClock.milliseconds()) }
}
