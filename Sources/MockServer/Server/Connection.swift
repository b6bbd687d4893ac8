import AutomationSupport
/// Serves one client connection: reads requests (pipelined ones too), answers each in order.
package struct Connection {
    let socket: Socket
    let clientAddress: String
    let limits: ServerLimits
    let handler: HTTPServer.Handler
    let isStopped: @Sendable () -> Bool

    package init(socket: Socket, clientAddress: String, limits: ServerLimits, handler: @escaping HTTPServer.Handler,
                 isStopped: @escaping @Sendable () -> Bool) {
        self.socket = socket
        self.clientAddress = clientAddress
        self.limits = limits
        self.handler = handler
        self.isStopped = isStopped
    }


    /// Serves until the client closes, a limit or fault ends the connection, or `isStopped`.
    package func serve() {
        socket.setSendTimeout(milliseconds: limits.sendTimeoutMs)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(8192)
        var start = 0 // bytes before `start` are consumed
        var output: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 65_536)
        while !isStopped() {
            // RFC 9112 §2.2: empty lines before a request line are ignored.
            while start < buffer.count, buffer[start] == 0x0D || buffer[start] == 0x0A { start += 1 }
            // 1. A complete head.
            var headEnd = Self.findHeadEnd(buffer, from: start)
            if headEnd == nil {
                if !output.isEmpty {
                    guard socket.send(output) else { return }
                    output.removeAll(keepingCapacity: true)
                }
                if start > 0 {
                    buffer.removeFirst(start)
                    start = 0
                }
                // The next request is often here already (keep-alive clients send right after reading): try
                // before paying for poll().
                let searchStart = max(0, buffer.count - 3)
                if socket.receive(into: &buffer, scratch: &scratch, wait: false) == 0 { return }
                while start < buffer.count, buffer[start] == 0x0D || buffer[start] == 0x0A { start += 1 }
                headEnd = Self.findHeadEnd(buffer, from: max(start, searchStart))
                // Idle until a request starts; from its first byte, the header timeout.
                var started = start < buffer.count
                var deadline = now() + (started ? limits.headerTimeoutMs : limits.idleTimeoutMs)
                while headEnd == nil {
                    if buffer.count - start > limits.maxHeaderBytes {
                        refuse(RequestHead.Error(431, "request header fields larger than \(limits.maxHeaderBytes) bytes"))
                        return
                    }
                    let remaining = deadline - now()
                    guard remaining > 0, socket.waitReadable(timeoutMs: Int32(clamping: remaining)) else {
                        if start < buffer.count {
                            refuse(RequestHead.Error(408, "request header not received within \(limits.headerTimeoutMs) ms"))
                        }
                        return
                    }
                    let searchFrom = max(0, buffer.count - 3)
                    guard socket.receive(into: &buffer, scratch: &scratch) > 0 else { return }
                    while start < buffer.count, buffer[start] == 0x0D || buffer[start] == 0x0A { start += 1 }
                    if !started, start < buffer.count {
                        started = true
                        deadline = now() + limits.headerTimeoutMs
                    }
                    headEnd = Self.findHeadEnd(buffer, from: max(start, searchFrom))
                }
            }
            guard let (headLength, terminatorLength) = headEnd.map({ ($0.end - start, $0.terminator) }) else { return }
            if headLength > limits.maxHeaderBytes {
                refuse(RequestHead.Error(431, "request header fields larger than \(limits.maxHeaderBytes) bytes"))
                return
            }

            // 2. Parse it.
            let head: RequestHead
            let framing: RequestHead.Framing
            do {
                head = try RequestHead.parse(buffer[start..<(start + headLength)])
                framing = try head.framing()
            } catch {
                flush(&output)
                refuse(error)
                return
            }
            start += headLength + terminatorLength

            // 3. The body.
            var body: [UInt8] = []
            switch framing {
            case .none: break
            case .length(let length):
                if length > limits.maxBodyBytes {
                    flush(&output)
                    refuse(RequestHead.Error(413, "request body of \(length) bytes is larger than \(limits.maxBodyBytes) bytes"))
                    return
                }
                if buffer.count - start < length && head.expectsContinue {
                    guard sendContinue(&output) else { return }
                }
                let deadline = now() + limits.bodyTimeoutMs
                // Room for exactly this body: growing by doubling would hold up to twice its size.
                if buffer.count - start < length { buffer.reserveCapacity(start + length + 4096) }
                while buffer.count - start < length {
                    guard readMoreBody(into: &buffer, scratch: &scratch, output: &output, deadline: deadline) else { return }
                }
                body = Array(buffer[start..<(start + length)])
                start += length
            case .chunked:
                var decoder = ChunkedDecoder(limit: limits.maxBodyBytes)
                if head.expectsContinue && buffer.count == start {
                    guard sendContinue(&output) else { return }
                }
                let deadline = now() + limits.bodyTimeoutMs
                while true {
                    do {
                        if case .done(let consumed) = try decoder.decode(buffer[start...]) {
                            start += consumed
                            break
                        }
                    } catch {
                        flush(&output)
                        refuse(error)
                        return
                    }
                    guard readMoreBody(into: &buffer, scratch: &scratch, output: &output, deadline: deadline) else { return }
                }
                body = decoder.body
            }

            // A large body is consumed: do not keep its buffer for the rest of a keep-alive connection.
            if buffer.capacity > 256 * 1024 {
                buffer = Array(buffer[start...])
                start = 0
            }

            // 4. Answer.
            let request = HTTPRequest(method: head.method, target: head.target, version: head.version,
                                      headers: head.headers, body: body, clientAddress: clientAddress)
            let response = handler(request)
            let keepAlive = head.keepAlive && !isStopped()
            if response.delayMs > 0 {
                flush(&output)
                MonotonicClock.sleep(milliseconds: response.delayMs)
            }
            if let fault = response.fault {
                flush(&output)
                perform(fault)
                return
            }
            ResponseWriter.append(response, to: &output, headRequest: head.method == "HEAD", keepAlive: keepAlive,
                                  http10: head.version == "HTTP/1.0")
            if !keepAlive {
                socket.send(output)
                return
            }
            // Pipelined requests already here are answered before writing, in one batch.
            if Self.findHeadEnd(buffer, from: start) == nil || output.count > 256 * 1024 {
                flush(&output)
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
    private func readMoreBody(into buffer: inout [UInt8], scratch: inout [UInt8], output: inout [UInt8], deadline: Int) -> Bool {
        flush(&output)
        let remaining = deadline - now()
        guard remaining > 0, socket.waitReadable(timeoutMs: Int32(clamping: remaining)) else {
            refuse(RequestHead.Error(408, "request body not received within \(limits.bodyTimeoutMs) ms"))
            return false
        }
        return socket.receive(into: &buffer, scratch: &scratch) > 0
    }

    private func flush(_ output: inout [UInt8]) {
        guard !output.isEmpty else { return }
        socket.send(output)
        output.removeAll(keepingCapacity: true)
    }

    private func refuse(_ error: RequestHead.Error) {
        socket.send(ResponseWriter.refusal(error))
    }

    private func perform(_ fault: MockResponse.Fault) {
        switch fault {
        case .connectionReset:
            socket.resetOnClose() // the server closes the socket when serve() returns
        case .emptyResponse:
            break
        case .malformedChunk:
            socket.send(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nlorem ipsum\r\nzz\r\n".utf8))
        case .randomDataThenClose:
            var garbage = [UInt8](repeating: 0, count: 512)
            for index in garbage.indices { garbage[index] = UInt8.random(in: 0...255) }
            socket.send(garbage)
        }
    }

    /// Finds the end of a request head ("\r\n\r\n", or a lenient "\n\n").
    private static func findHeadEnd(_ buffer: [UInt8], from start: Int) -> (end: Int, terminator: Int)? {
        guard buffer.count - start >= 2 else { return nil }
        var index = max(start, 0)
        let count = buffer.count
        while index < count - 1 {
            if buffer[index] == 0x0A {
                if buffer[index + 1] == 0x0A { return (index + 1, 1) }
                if index + 2 < count, buffer[index + 1] == 0x0D, buffer[index + 2] == 0x0A {
                    return (index + 1, 2)
                }
            }
            index += 1
        }
        return nil
    }

    private func now() -> Int { Int(MonotonicClock.milliseconds()) }
}
