import AutomationSupport

/// What a client that speaks plain HTTP to the HTTPS port gets: a 400 that says so (nginx answers 497), then the
/// connection closes. The request head is read first (within the head's limits) and what follows is drained a
/// moment, so the answer is not lost to a reset from unread bytes.
enum PlainHTTPRefusal {
    static let message = "plain HTTP sent to an HTTPS port: use https:// for this server"
    static let response = RefusedRequest.response(RequestHead.Error(400, message))

    /// Reads until the head is complete, the head's limit or the deadline; the bytes as read.
    static func readHead(_ socket: Socket, received: [UInt8], deadline: Int, limits: ServerLimits) -> [UInt8] {
        var buffer = received
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        while ByteSearch.firstRange(of: Array("\r\n\r\n".utf8), in: buffer) == nil && buffer.count <= limits.maxHeaderBytes {
            let remaining = deadline - Int(MonotonicClock.milliseconds())
            guard remaining > 0, socket.waitReadable(timeoutMs: Int32(clamping: remaining)),
                socket.receive(into: &buffer, scratch: &scratch, wait: false) != 0
            else { break }
        }
        return buffer
    }

    /// True when `head` is a complete request head for the control channel (`/__sut/control`, `/__sut/control/ack`).
    static func isControlRequest(_ head: [UInt8]) -> Bool {
        guard ByteSearch.firstRange(of: Array("\r\n\r\n".utf8), in: head) != nil,
            let lineEnd = head.firstIndex(of: UInt8(ascii: "\r"))
        else { return false }
        let words = head[..<lineEnd].split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard words.count == 3 else { return false }
        let path = words[1].prefix { $0 != UInt8(ascii: "?") }
        return path.elementsEqual("/__sut/control".utf8) || path.elementsEqual("/__sut/control/ack".utf8)
    }

    /// Reads the head (within the head's limits), answers 400 and drains; the head's bytes as read.
    @discardableResult
    static func answer(
        _ socket: Socket, received: [UInt8], deadline: Int, limits: ServerLimits, seen: ([UInt8]) -> Void = { _ in }
    ) -> [UInt8] {
        let buffer = readHead(socket, received: received, deadline: deadline, limits: limits)
        seen(buffer)
        guard socket.send(ResponseWriter.refusal(RequestHead.Error(400, message))) else { return buffer }
        socket.shutdownSending()
        TLSRecordRefusal.drain(socket) // what the client still sends, so the close is not a reset
        return buffer
    }
}
