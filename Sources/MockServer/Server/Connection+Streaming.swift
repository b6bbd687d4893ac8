import AutomationSupport

extension Connection {
    /// Writes an answer whose body is a ``BodyStream``: the head, then the body in pieces of about 64 KiB as it is made
    /// (chunked; to an HTTP/1.0 client as it comes, the connection closing after), within one write deadline: the
    /// client may keep the server waiting for it to read ``ServerLimits/sendTimeoutMs`` in all, over the whole answer.
    /// False when the connection is to end: the client went away or did not read in time (the making stops at that
    /// piece, never running on for no one), the server stopped, or the client speaks HTTP/1.0.
    func sendStreamed(
        _ response: MockResponse, _ stream: BodyStream, _ head: RequestHead, keepAlive: Bool, pending: inout [UInt8]
    ) -> Bool {
        guard flush(&pending) else { return false }
        let http10 = head.version == "HTTP/1.0"
        let keepAlive = keepAlive && !http10 // a body without a length ends with its connection
        var bytes: [UInt8] = []
        ResponseWriter.append(response, to: &bytes, headRequest: head.method == "HEAD", keepAlive: keepAlive, http10: http10)
        var allowance = limits.sendTimeoutMs
        guard socket.send(bytes, waitingAtMost: &allowance) else { return false }
        guard head.method != "HEAD", !HTTPStatus.forbidsBody(response.status) else { return keepAlive }
        bytes.removeAll(keepingCapacity: true)
        var written = true
        stream.produce { text in
            bytes.append(contentsOf: text.utf8)
            guard bytes.count >= Self.streamPiece else { return true }
            written = sendPiece(&bytes, chunked: !http10, last: false, &allowance) && !isStopped()
            return written
        }
        return written && sendPiece(&bytes, chunked: !http10, last: true, &allowance) && keepAlive
    }

    /// Bytes of a streamed body gathered before they are written.
    static var streamPiece: Int { 64 * 1024 }

    /// Writes `bytes` (as one chunk when `chunked`; the last one with the chunked body's end), then empties them.
    private func sendPiece(_ bytes: inout [UInt8], chunked: Bool, last: Bool, _ allowance: inout Int) -> Bool {
        defer { bytes.removeAll(keepingCapacity: true) }
        guard chunked else { return bytes.isEmpty || socket.send(bytes, waitingAtMost: &allowance) }
        var framed: [UInt8] = []
        if !bytes.isEmpty {
            framed.reserveCapacity(bytes.count + 16)
            framed.append(contentsOf: (String(bytes.count, radix: 16) + "\r\n").utf8)
            framed.append(contentsOf: bytes)
            framed.append(contentsOf: [0x0D, 0x0A])
        }
        if last { framed.append(contentsOf: Array("0\r\n\r\n".utf8)) }
        return framed.isEmpty || socket.send(framed, waitingAtMost: &allowance)
    }
}
